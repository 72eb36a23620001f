"""The headline figures of the README and the docs, generated from study tables.

``skxor headline`` reads the tables a ``skxor reproduce`` (quick presets) wrote
and renders one bullet per study: every number in it comes from the tables,
with its interval. The block between the markers in ``README.md`` and in
``docs/results/measured.rst`` is replaced by the rendering, so the figures
users read are the figures the quick presets produce (a test checks this).
"""

import re
from pathlib import Path

import pandas as pd

from ._stats import format_interval, rate_with_interval

#: Lines that delimit the generated block, per file type.
MARKERS = {
    "md": ("<!-- skxor-headline:start -->", "<!-- skxor-headline:end -->"),
    "rst": (".. skxor-headline:start", ".. skxor-headline:end"),
}


def _rate(flags):
    rate, low, high, n = rate_with_interval(flags)
    return f"{int(round(rate * n))}/{n} = {format_interval(rate, low, high)}"


def _list(values):
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in sorted(set(values)))


def _one_step(df):
    from ._one_step import _cells, best_steps

    title = "**Gradient steps, softmax vs linear vs erf, each at its best step length**"
    if len(df) == 0:
        return f"{title}: the table holds no runs; nothing to summarise."
    cells = _cells(df)
    if "step_length" not in cells:
        cells["step_length"] = float("nan")
    population = cells[cells["n"] == 0]
    if len(population):
        data, kind = population, "exact population steps"
    else:
        data = cells
        kind = "full-batch steps on n = " + _list(int(n) for n in cells["n"]) + " samples"
    best = best_steps(data)
    best = best[best["best"]]
    order = {"softmax": 0, "linear": 1, "erf": 2}
    parts = []
    for steps, group in best.groupby("n_steps", sort=True):
        group = group.sort_values("attention", key=lambda a: a.map(order).fillna(3))
        each = [
            f"{r.attention} (steps of {r.step_length:g}) {r.successes}/{r.runs} = "
            f"{format_interval(r.success_rate, r.success_low, r.success_high)}"
            for r in group.itertuples()
        ]
        parts.append(f"T = {int(steps)}: " + ", ".join(each))
    lengths = _list(float(v) for v in data["step_length"].dropna())
    seeds = data["seed"].nunique()
    return (
        f"{title} ({kind}, {seeds} seeds, d = {_list(int(d) for d in data['d'])}, "
        f"m = {_list(int(m) for m in data['m'])}; T normalised steps, step lengths "
        f"{lengths or 'not recorded'} tried, each attention's best chosen on these runs; "
        "success = test accuracy >= 0.99, in runs = seeds x d x m; 95% Wilson intervals): "
        + "; ".join(parts) + "."
    )


def _parameter_scaling(df):
    from ._parameter_scaling import parameter_slopes

    slopes = parameter_slopes(df, n_boot=1000)
    names = {
        "transformer": "transformer (samples)",
        "transformer_population": "transformer (population step)",
        "ffnn": "two-layer FFNN (samples)",
    }
    parts = [
        f"{names[model]} {format_interval(fit['slope'], fit['low'], fit['high'])} "
        f"(d = {fit['d_min']}..{fit['d_max']})"
        for model, fit in slopes.items()
    ]
    seeds = max((fit["n_groups"] for fit in slopes.values()), default=0)
    return (
        "**Parameter scaling** (like for like: both models on the same training sets; "
        f"{seeds} seeds; log-log slope of the trainable parameters needed for 99% test "
        "accuracy against d, bootstrap 95% interval over seeds; about 1 means Omega(d), "
        "about 0 polylog): " + "; ".join(parts) + "."
    )


def _sample_complexity(df):
    from ._sample_complexity import fit_exponents

    fits = fit_exponents(df)
    parts = [
        f"{r.model} {format_interval(r.exponent, r.low, r.high)} ({r.n_points} points)"
        for r in fits.itertuples()
    ]
    seeds = int(df["seed"].nunique())
    return (
        f"**Sample complexity** (rough: {seeds} seeds; exponent a of the samples n* ~ d^a "
        "needed for 95% test accuracy, bootstrap 95% interval over seeds; the proof's "
        "bound is d^4): " + "; ".join(parts) + "."
    )


def _training(df):
    from ._training import learned_up_to

    reach = learned_up_to(df)
    parts = []
    for r in reach.itertuples():
        if r.learned_up_to:
            head = f"{r.function} learned up to N = {r.learned_up_to}"
        else:
            head = f"{r.function} not learned at the shortest N tried"
        parts.append(
            f"{head} (at N = {r.largest_n_tried}: {r.learned}/{r.seeds} seeds, "
            f"{format_interval(r.rate, r.low, r.high)})"
        )
    first = reach[reach["function"] == "FIRST"]
    note = ""
    if len(first):
        learned = int(first["learned_up_to"].iloc[0]) == int(first["largest_n_tried"].iloc[0])
        note = (
            " Köver et al. prove FIRST and PARITY unlearnable only as N grows; here FIRST "
            + ("is learned at every N tried." if learned else "falls short within the lengths tried.")
        )
    seeds = int(df["seed"].nunique()) if "seed" in df else 0
    return (
        f"**Training** (rough: quick budget, {seeds} seeds, N = "
        f"{', '.join(map(str, sorted(df['n_bits'].unique())))}; success = accuracy >= 0.99, "
        "95% Wilson intervals): " + "; ".join(parts) + "." + note
    )


def _k_sparse(df):
    from ._k_sparse import _steps, pooled_success

    title = "**k-sparse parity with k heads**"
    steps = _steps(df) if "part" in df else df.iloc[:0]
    if len(steps) == 0:
        return f"{title}: the table holds no step runs; nothing to summarise."
    pooled = pooled_success(steps)
    if (pooled["n"] == 0).any():
        pooled, data = pooled[pooled["n"] == 0], steps[steps["n"] == 0]
        kind = "exact population steps"
    else:
        data = steps
        kind = "full-batch steps on n = " + _list(int(n) for n in steps["n"]) + " samples"
    presets = sorted(set(df["preset"].dropna().astype(str))) if "preset" in df else []
    preset = f"{'/'.join(presets)} preset" if presets else "preset unknown"
    shortest, longest = pooled["n_steps"].min(), pooled["n_steps"].max()
    parts = []
    for init, group in pooled.groupby("init", sort=True):
        each = []
        for k, rows in group.groupby("k", sort=True):
            for r in rows[rows["n_steps"].isin({shortest, longest})].itertuples():
                steps_text = "1 step" if r.n_steps == 1 else f"{r.n_steps} steps"
                each.append(f"k = {k}, {steps_text}: {r.successes}/{r.runs} = "
                            f"{format_interval(r.success, r.success_low, r.success_high)}")
        parts.append(f"{init} initial queries: " + ", ".join(each))
    seeds = data["seed"].nunique()
    return (
        f"{title} (rough: {preset}; {kind}, {seeds} seeds, "
        f"d = {_list(int(d) for d in data['d'])}, m = {_list(int(m) for m in data['m'])}; "
        "success certified >= 99% accuracy, in runs = seeds x d x m; 95% Wilson "
        "intervals): " + "; ".join(parts) + "."
    )


def _random_init(df):
    nets = df[df["function"] == "transformer"]
    constant = nets["constant"].astype(bool)
    nonconstant = nets[~constant]
    control = df[df["function"] == "random function"] if "function" in df else df.iloc[:0]
    n_bits = sorted(nets["n_bits"].unique())
    text = (
        f"**Random transformers** (rough: quick preset, Köver et al.'s recognizer setting, "
        f"{nets['seed'].nunique()} seeds per setting, N = {', '.join(map(str, n_bits))}; "
        f"95% Wilson intervals): {_rate(constant)} of the {len(nets)} random networks compute "
        "a constant function (every string has sensitivity 0); of the non-constant ones, "
        f"{_rate(nonconstant['has_zero'].astype(bool))} have a zero-sensitivity string"
    )
    if len(nonconstant):
        text += f" (mean share of such strings {nonconstant['zero_fraction'].mean():.2f})"
    text += "; PARITY and FIRST have none."
    if len(control):
        wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
        text += (
            " Uniformly random Boolean functions: "
            f"{_rate([True] * wins + [False] * (total - wins))} have one "
            "(the limit for large N is 1 - 1/e = 0.63)."
        )
    return text


def _zero_sensitivity_bound(df):
    nets = df
    constant = nets["constant"].astype(bool)
    nonconstant = nets[~constant]
    return (
        f"**Zero-sensitivity strings against Köver et al.'s bound** (rough: quick preset, "
        f"{len(nets)} random networks): a zero-sensitivity string was found in "
        f"{_rate(nets['has_zero'].astype(bool))} of all networks and "
        f"{_rate(nonconstant['has_zero'].astype(bool))} of the non-constant ones; "
        f"{_rate(constant)} are constant."
    )


#: Study name -> function rendering its headline bullet from its table.
HEADLINES = {
    "one_step": _one_step,
    "parameter_scaling": _parameter_scaling,
    "sample_complexity": _sample_complexity,
    "random_init_sensitivity": _random_init,
    "training_sensitivity": _training,
    "k_sparse": _k_sparse,
    "zero_sensitivity_bound": _zero_sensitivity_bound,
}


def render_headline(folder, fmt="md"):
    """The headline block for the tables in ``folder``.

    Parameters
    ----------
    folder : path
        A results folder written by ``skxor reproduce`` (one ``<study>.csv``
        per study).
    fmt : {"md", "rst"}, default="md"

    Returns
    -------
    text : str
        One bullet per study found in the folder, in a fixed order.

    Raises
    ------
    ValueError
        No study table in ``folder``, or a table holding rows of several
        settings (its ``setting`` column; see :func:`run_studies`).

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from skxor.studies import render_headline
    >>> folder = tempfile.mkdtemp()
    >>> pd.DataFrame({"attention": ["softmax"] * 4, "n": 0, "d": 100, "m": 16,
    ...               "n_steps": 1, "step_length": 100.0, "seed": range(4),
    ...               "success": [True, True, True, False], "specialised": True,
    ...               "loss_after_step": 0.0}).to_csv(f"{folder}/one_step.csv", index=False)
    >>> print(render_headline(folder))  # doctest: +NORMALIZE_WHITESPACE
    * **Gradient steps, softmax vs linear vs erf, each at its best step length** (exact
      population steps, 4 seeds, d = 100, m = 16; T normalised steps, step lengths 100
      tried, each attention's best chosen on these runs; success = test accuracy >= 0.99,
      in runs = seeds x d x m; 95% Wilson intervals): T = 1: softmax (steps of 100)
      3/4 = 0.75 [0.30, 0.95].
    """
    if fmt not in MARKERS:
        raise ValueError(f"fmt must be one of {sorted(MARKERS)}; got {fmt!r}.")
    folder = Path(folder)
    bullets = []
    for name, render in HEADLINES.items():
        path = folder / f"{name}.csv"
        if not path.exists():
            continue
        table = pd.read_csv(path)
        # The headline states one setting's figures: never pool several.
        settings = table["setting"].nunique(dropna=False) if "setting" in table else 1
        if settings > 1:
            raise ValueError(
                f"{path} holds rows of {settings} settings (runs with other parameters "
                "merged into it); the headline describes one: render it from a folder "
                "written by one run (skxor reproduce --out EMPTY_FOLDER)."
            )
        bullets.append(render(table))
    if not bullets:
        raise ValueError(f"no study table (e.g. one_step.csv) found in {folder}.")
    return "\n".join(f"* {b}" for b in bullets)


def replace_block(text, block, fmt):
    """``text`` with the lines between the headline markers replaced by ``block``."""
    start, end = MARKERS[fmt]
    pattern = re.compile(re.escape(start) + r"\n(?:.*?\n)?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"the markers {start!r} and {end!r} were not found.")
    return pattern.sub(lambda _: f"{start}\n{block}\n{end}", text)


def read_block(text, fmt):
    """The lines between the headline markers of ``text`` (None when absent)."""
    start, end = MARKERS[fmt]
    match = re.search(re.escape(start) + r"\n(?:(.*?)\n)?" + re.escape(end), text, re.S)
    return (match.group(1) or "") if match else None


def write_headline(folder, paths):
    """Replace the headline block of each file in ``paths`` (``.md`` or ``.rst``).

    Parameters
    ----------
    folder : path
        A results folder written by ``skxor reproduce``.
    paths : list of path
        Files holding the headline markers (:data:`MARKERS`).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from skxor.studies import write_headline
    >>> folder = Path(tempfile.mkdtemp())
    >>> pd.DataFrame({"attention": ["erf"], "n": 0, "d": 10, "m": 4, "seed": 0,
    ...               "step_length": 10.0, "success": False, "specialised": False,
    ...               "loss_after_step": 1.0}).to_csv(folder / "one_step.csv", index=False)
    >>> page = folder / "page.md"
    >>> _ = page.write_text("<!-- skxor-headline:start -->\\n<!-- skxor-headline:end -->\\n")
    >>> write_headline(folder, [page])
    >>> "erf (steps of 10) 0/1" in page.read_text()
    True
    """
    for path in map(Path, paths):
        fmt = "rst" if path.suffix == ".rst" else "md"
        block = render_headline(folder, fmt)
        if fmt == "rst":
            block = "\n" + block + "\n"
        path.write_text(replace_block(path.read_text(), block, fmt))

