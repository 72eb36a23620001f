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


def _training(df):
    from ._training._summary import (
        _series_columns, _series_label, _with_model_setting, learned_up_to,
        setting_description,
    )

    head = "**Training**"
    if not len(df):
        return f"{head}: the table holds no training run to summarise."
    df = _with_model_setting(df)
    reach = learned_up_to(df)
    series = _series_columns(df)
    parts = []
    for _, r in reach.iterrows():
        name = _series_label(r["function"], [r[c] for c in series], series, df)
        if r["learned_up_to"]:
            head_text = f"{name} learned up to N = {r['learned_up_to']}"
        else:
            head_text = f"{name} not learned at the shortest N tried"
        parts.append(
            f"{head_text} (at N = {r['largest_n_tried']}: {r['learned']}/{r['seeds']} seeds, "
            f"{format_interval(r['rate'], r['low'], r['high'])})"
        )
    stops = df["stop"] if "stop" in df else pd.Series(dtype=str)
    limited = int((stops == "budget").sum())
    settings = "; ".join(setting_description(m) for m in df["model_setting"].unique())
    seeds = int(df["seed"].nunique()) if "seed" in df else 0
    return (
        f"{head} (rough: quick budget, {seeds} seeds, N = "
        f"{', '.join(map(str, sorted(df['n_bits'].unique())))}; model settings: {settings}; "
        "success = accuracy >= 0.99, 95% Wilson intervals): " + "; ".join(parts) + ". "
        f"{limited} of {len(df)} runs were budget-limited (loss still falling at the "
        "budget). Köver et al. prove FIRST and PARITY unlearnable only as N grows, which "
        "no finite N tests."
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
    from ._networks import distinct_networks, eps_agreement

    nets = df[df["function"] == "transformer"] if "function" in df else df.iloc[:0]
    control = df[df["function"] == "random function"] if "function" in df else df.iloc[:0]
    head = "**Random transformers** (rough: quick preset, Köver et al.'s recognizer setting"
    if not len(nets):
        return f"{head}): the table holds no random network to summarise."
    # eps is a paired factor (the same networks at each eps): count each network once.
    eps = float(nets["layer_norm_eps"].min())
    pool = nets[nets["layer_norm_eps"] == eps]
    agreement = eps_agreement(df)
    paired = ""
    if agreement is not None:
        paired = (f", each also evaluated at eps = {agreement['eps']:g}, identical functions "
                  f"in {agreement['same']}/{agreement['pairs']} networks")
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    n = distinct_networks(pool)
    text = (
        f"{head}, {n} distinct networks at eps = {eps:g}: {pool['seed'].nunique()} seeds "
        f"per setting, N = {', '.join(map(str, sorted(pool['n_bits'].unique())))}, each "
        f"cell with its own weights{paired}; 95% Wilson intervals): "
        f"{format_count(int(constant.sum()), len(pool), 'networks')} compute a constant "
        "function (every string has sensitivity 0)"
    )
    if len(nonconstant):
        text += (
            "; of the non-constant ones, "
            f"{format_count(int(nonconstant['has_zero'].astype(bool).sum()), len(nonconstant), 'networks')}"
            f" have a zero-sensitivity string (mean share of such strings "
            f"{nonconstant['zero_fraction'].mean():.2f})"
        )
    else:
        text += "; no network is non-constant"
    text += "; PARITY and FIRST have none."
    if len(control):
        wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
        text += (
            f" Uniformly random Boolean functions: {format_count(wins, total, 'functions')} "
            "have one (the limit for large N is 1 - 1/e = 0.63)."
        )
    return text


def _zero_sensitivity_bound(df):
    from ._networks import distinct_networks
    from ._zero_sensitivity_bound import bound_verdict

    head = "**Theorem 4.5 of Köver et al., compared with random networks** (rough: quick preset"
    if not len(df):
        return f"{head}): the table holds no network to summarise."
    # eps is a paired factor (the same networks at each eps): count each network once.
    eps = float(df["layer_norm_eps"].min())
    pool = df[df["layer_norm_eps"] == eps]
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    verdict = bound_verdict(df)
    text = (
        f"{head}, {distinct_networks(pool)} distinct networks at eps = {eps:g}, each "
        "(N, D, L, seed) with its own weights; Clopper-Pearson 95% intervals): a "
        "zero-sensitivity string was found in "
        f"{format_count(int(pool['has_zero'].astype(bool).sum()), len(pool), 'networks', 'clopper-pearson')}"
    )
    if len(nonconstant):
        k = int(nonconstant["has_zero"].astype(bool).sum())
        text += (f", {format_count(k, len(nonconstant), 'networks', 'clopper-pearson')} "
                 "of the non-constant ones")
    text += (f"; {format_count(int(constant.sum()), len(pool), 'networks')} are constant "
             "(Wilson). Against the bound N^((D-1)/(2L) - 5): "
             f"{verdict['tested']} of the {verdict['rows']} (D, L, N) rows are not vacuous "
             "(bound between 1 and 2^N)")
    if verdict["networks"]:
        text += (", and there "
                 f"{format_count(verdict['meets'], verdict['networks'], 'non-constant networks', 'clopper-pearson')}"
                 " reach it.")
    else:
        text += "; " + verdict["text"]
    return text


#: Headline renderers of the studies not yet declaring their own
#: ``Study.headline``, by study name; a study moved onto its ``headline`` hook
#: leaves this table (:func:`render_headline` asks the study first).
HEADLINES = {
    "parameter_scaling": _parameter_scaling,
    "random_init_sensitivity": _random_init,
    "training_sensitivity": _training,
    "k_sparse": _k_sparse,
    "zero_sensitivity_bound": _zero_sensitivity_bound,
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

