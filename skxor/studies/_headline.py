"""The headline figures of the README and the docs, generated from study tables.

``skxor headline`` reads the tables a ``skxor reproduce`` (quick presets) wrote
and renders one bullet per study: every number in it comes from the tables,
with its interval. The block between the markers in ``README.md`` and in
``docs/results/measured.rst`` is replaced by the rendering, so the figures
users read are the figures the quick presets produce (a test checks this).
"""

import re
from pathlib import Path

import numpy as np
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


def _one_step(df):
    population = df[df["n"] == 0] if "n" in df else df
    parts = []
    for attention in ("softmax", "linear", "erf"):
        rows = population[population["attention"] == attention]
        if len(rows) == 0:
            continue
        parts.append(
            f"{attention} succeeds in {_rate(rows['success'])} of runs, its heads land on "
            f"distinct support bits in {_rate(rows['specialised'])}"
        )
    d = sorted(population["d"].unique())
    m = sorted(population["m"].unique())
    seeds = population["seed"].nunique()
    return (
        f"**One step, softmax vs linear vs erf** (exact population step, {seeds} seeds, "
        f"d = {', '.join(map(str, d))}, m = {', '.join(map(str, m))}; success = test "
        f"accuracy >= 0.99; 95% Wilson intervals): " + "; ".join(parts) + "."
    )


def _parameter_scaling(df):
    from ._parameter_scaling import DISPLAY_NAMES, MODELS, _run_params, parameter_slopes
    from ._stats import format_slope

    if df.empty:
        return "**Parameter scaling**: the table holds no rows; nothing to summarise."
    slopes = parameter_slopes(df, n_boot=1000)
    run = _run_params(df)

    def span(values):
        values = sorted({int(v) for v in values})
        return f"{values[0]}" if len(values) == 1 else f"{values[0]}-{values[-1]}"

    parts = []
    for model in [m for m in MODELS if m in set(df["model"])]:
        rows = df[df["model"] == model].sort_values("d")
        met = rows[rows["reached"].astype(bool)]
        name = DISPLAY_NAMES[model].replace("T steps", f"{run['transformer_steps']} steps")
        size = "m" if model.startswith("transformer") else "width"
        if len(met):
            text = (f"{name}: {size} = {span(met['size'])}, {span(met['params'])} trainable"
                    + (f" + {span(met['frozen'])} frozen" if (met["frozen"] > 0).any() else "")
                    + f" at d = {span(met['d'])}")
            if len(met) > 1:
                text += f", slope {format_slope(slopes[model])}"
        else:
            text = f"{name}: no {size} tried met the rule"
        missing = rows[~rows["reached"].astype(bool)]["d"].tolist()
        if len(met) and missing:
            text += f"; no {size} tried met the rule at d = {', '.join(map(str, missing))}"
        elif missing:
            text += f" at d = {', '.join(map(str, missing))}"
        if missing and model == "ffnn_random_features":
            text += " (random features need about as many samples as features: n(d) may limit them)"
        parts.append(text)
    seeds = int(df["seeds"].min())
    return (
        f"**Parameter scaling** ({'rough: ' if seeds < 8 else ''}{seeds} seeds per size, each "
        f"size with its own; needed = the smallest size at which at least "
        f"{run['success_share']:.0%} of its seeds reach {run['threshold']:.0%} test accuracy; "
        "log-log slope of the trainable parameters needed against "
        "d; about 1 means Omega(d); slopes of a few tenths are consistent with polylog d and "
        "with a small power alike): " + "; ".join(parts) + "."
    )


def _sample_complexity(df):
    from ._sample_complexity import _exponent_text, _grid, _is_rough, fit_exponents, like_for_like

    if df.empty:
        return "**Sample complexity**: the table holds no learning curves; nothing to summarise."
    df = like_for_like(df)
    fits = fit_exponents(df)
    rough, seeds = _is_rough(df)
    parts = []
    for r in fits.to_dict("records"):
        censored = r["left_censored"] + r["right_censored"]
        counts = (f"{r['n_points']} learning curves; {censored} censored: "
                  f"{r['left_censored']} at the grid floor, {r['right_censored']} above the grid")
        if np.isfinite(r["exponent"]):
            parts.append(f"{r['model']} {_exponent_text(r)} ({counts})")
        else:
            parts.append(f"{r['model']}: no exponent, fewer than two d with a seed bracketed "
                         f"on both sides ({counts})")
    _, ratio = _grid(df)
    resolution = f"grid steps up to x{ratio:.2f}" if np.isfinite(ratio) else "one grid size"
    return (
        f"**Sample complexity** ({'rough: ' if rough else ''}{seeds} seeds, d = "
        f"{', '.join(map(str, sorted(df['d'].unique())))}; n* = the samples from which test "
        f"accuracy stays >= {float(df['target'].iloc[0]):g}, bracketed by the grid "
        f"({resolution}); exponent a of n* ~ d^a by maximum likelihood with censored seeds "
        "kept, profile-likelihood 95% interval; the proof's sufficient bound grows as d^4, "
        "and Han & Ghoshdastidar's own experiments needed far fewer samples): "
        + "; ".join(parts) + "."
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
    from ._k_sparse import summarise_k_sparse

    summary = summarise_k_sparse(df)
    population = summary[summary["n"] == 0]
    parts = []
    for (k, steps), group in population.groupby(["k", "n_steps"], sort=True):
        if steps not in (population["n_steps"].min(), population["n_steps"].max()):
            continue
        wins = int(round((group["success"] * group["seeds"]).sum()))
        total = int(group["seeds"].sum())
        steps_text = "1 step" if steps == 1 else f"{steps} steps"
        parts.append(f"k = {k}, {steps_text}: {_rate([True] * wins + [False] * (total - wins))}")
    d = sorted(population["d"].unique())
    return (
        "**k-sparse parity with k heads** (rough: quick preset; exact population steps, "
        f"d = {', '.join(map(str, d))}; success certified >= 99% accuracy, pooled over d "
        "and m, 95% Wilson intervals): " + "; ".join(parts) + "."
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
    ...               "seed": range(4), "success": [True, True, True, False],
    ...               "specialised": True}).to_csv(f"{folder}/one_step.csv", index=False)
    >>> print(render_headline(folder))  # doctest: +NORMALIZE_WHITESPACE
    * **One step, softmax vs linear vs erf** (exact population step, 4 seeds, d = 100,
      m = 16; success = test accuracy >= 0.99; 95% Wilson intervals): softmax succeeds
      in 3/4 = 0.75 [0.30, 0.95] of runs, its heads land on distinct support bits in
      4/4 = 1.00 [0.51, 1.00].
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
    ...               "success": False, "specialised": False}).to_csv(
    ...     folder / "one_step.csv", index=False)
    >>> page = folder / "page.md"
    >>> _ = page.write_text("<!-- skxor-headline:start -->\\n<!-- skxor-headline:end -->\\n")
    >>> write_headline(folder, [page])
    >>> "erf succeeds in 0/1" in page.read_text()
    True
    """
    for path in map(Path, paths):
        fmt = "rst" if path.suffix == ".rst" else "md"
        block = render_headline(folder, fmt)
        if fmt == "rst":
            block = "\n" + block + "\n"
        path.write_text(replace_block(path.read_text(), block, fmt))

