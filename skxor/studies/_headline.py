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

from ._report import rate_text, values_text
from ._stats import format_count, format_interval

#: Lines that delimit the generated block, per file type.
MARKERS = {
    "md": ("<!-- skxor-headline:start -->", "<!-- skxor-headline:end -->"),
    "rst": (".. skxor-headline:start", ".. skxor-headline:end"),
}


# The shared text of the renderers not yet moved into their study's package.
_rate, _list = rate_text, values_text


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


#: Headline renderers of the studies not yet declaring their own
#: ``Study.headline``, by study name; a study moved onto its ``headline`` hook
#: leaves this table (:func:`render_headline` asks the study first).
HEADLINES = {
    "parameter_scaling": _parameter_scaling,
    "k_sparse": _k_sparse,
}


def _renderers():
    """Study name -> headline renderer: each registered study's ``headline``, in order."""
    from ._registry import STUDIES

    renderers = {}
    for name, study in STUDIES.items():
        render = study.headline or HEADLINES.get(name)
        if render is not None:
            renderers[name] = render
    return renderers


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
        One bullet per registered study with a headline (its
        :attr:`Study.headline <skxor.studies.Study>`) whose table is in
        the folder, in the registry's order.

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
    for name, render in _renderers().items():
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

