"""Theorem 4.5 of Köver et al. (2026, arXiv 2606.08768): random networks compared with its bound.

The theorem: for eps = 0 and large N, a randomly initialised transformer of
width D and depth L almost surely computes a function with at least
``N^((D - 1) / (2 L) - 5)`` zero-sensitivity strings, so functions without
any (PARITY, sparse parity, FIRST) occupy a set of measure zero. The
exponent is positive only when ``D - 1 > 10 L``; otherwise the bound is
below 1 and asks for no more than a single zero-sensitivity string (the
count is an integer). A row (D, L, N) is *vacuous* when the bound is below 1
(it then names no growth) or above 2^N (no function on N bits has that many
strings: the theorem holds for large N only); vacuous rows are shown and
marked, and left out of the verdict.

For eps in {0, 1e-5}, D, L and many seeds, a random
:class:`~skxor.nn.BooleanTransformer` in the paper's setting (eos
read-out, fixed sinusoidal positions, parameters i.i.d. uniform: the
theory draws them uniformly from a compact set) is profiled at each N:
exhaustively up to ``exhaustive_max``, from ``n_samples`` uniform strings
and their neighbours beyond. Per configuration and N the study reports

* the estimated number of zero-sensitivity strings, ``fraction * 2^N``, on
  a log10 scale: the mean over networks (strings pooled, with a Wilson
  interval for the sampling of strings) and the median over the
  non-constant networks, against the bound;
* the share of networks in which at least one zero-sensitivity string was
  found -- a lower bound on the theorem's "almost surely", so with a
  Clopper-Pearson interval -- for all networks and for the non-constant
  ones separately, and the share whose count (its Wilson lower end when
  sampled) reaches the bound;
* the share of constant networks (Wilson interval). A constant network has
  all 2^N strings at sensitivity 0, so it reaches every non-vacuous bound
  trivially: the verdict counts only the non-constant networks of the
  non-vacuous rows, at eps = 0 (the theorem's setting), each network once.

The networks are those of :func:`~skxor.studies.random_init_sensitivity`
(one cell computes both), so the two studies agree on a shared
configuration. Each (N, D, L, seed) draws its own weights; eps is a paired
factor (the same network at each eps).
"""

import math

import numpy as np
import pandas as pd

from ...estimators import BooleanTransformerClassifier
from .._common import Study, columns_first, expand_grid
from .._figures import figure_legend, interval_errors, log_axis, offset
from .._parameters import estimator_parameters
from .._profiling import check_transformer
from .._networks import (
    NETWORK_PARAMETERS,
    TRANSFORMER,
    distinct_networks,
    eps_agreement,
    network_cell,
    require_networks,
)
from .._stats import clopper_pearson_interval, format_count, format_interval, wilson_interval
from .._sweep import run_sweep

#: Every parameter of the study and the values it accepts: those of the random
#: networks (the random-initialisation study draws the same ones), with one
#: scheme, read-out and positional encoding per run.
PARAMETERS = {
    **NETWORK_PARAMETERS,
    **estimator_parameters(BooleanTransformerClassifier, ("init", "readout", "positional")),
}

PRESETS = {
    "quick": dict(
        n_bits=[4, 8, 10, 32],
        d_model=[8, 32],
        n_layers=[1, 2],
        layer_norm_eps=[0.0, 1e-5],
        n_heads=2,
        init="uniform",
        init_scale=1.0,
        readout="eos",
        positional="sinusoidal",
        seeds=4,
        exhaustive_max=10,
        n_samples=16,
        n_blowup=32,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick.
    "full": dict(
        n_bits=[4, 6, 8, 10, 12, 14, 16, 18, 20, 32, 64, 128, 256, 512, 1024],
        d_model=[8, 16, 32, 64],
        n_layers=[1, 2, 4],
        seeds=100,
        exhaustive_max=20,
        n_samples=10_000,
        n_blowup=256,
    ),
}


def bound_exponent(d_model, n_layers):
    """The exponent ``(D - 1) / (2 L) - 5`` of Köver et al.'s bound.

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import bound_exponent
    >>> bound_exponent(32, 1), bound_exponent(16, 2)
    (10.5, -1.25)
    """
    return (d_model - 1) / (2 * n_layers) - 5


def vacuous_reason(log10_bound, n_bits):
    """Why the bound says nothing at this N: ``"bound < 1"``, ``"bound > 2^N"`` or ``""``.

    Below 1 the bound names no growth; above 2^N no function on N bits has
    that many strings (the theorem is for large N).

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import bound_exponent, vacuous_reason
    >>> import math
    >>> [vacuous_reason(bound_exponent(32, 2) * math.log10(n), n) for n in (4, 10, 32)]
    ['bound > 2^N', '', '']
    >>> vacuous_reason(bound_exponent(8, 1) * math.log10(10), 10)
    'bound < 1'
    """
    if log10_bound < 0:
        return "bound < 1"
    if log10_bound > n_bits * math.log10(2.0) + 1e-12:
        return "bound > 2^N"
    return ""


def zero_sensitivity_bound_cell(
    n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
    random_state, exhaustive_max, n_samples, n_blowup, readout, positional, device="cpu",
):
    """Profile one random transformer (see :func:`~skxor.studies._networks.network_cell`)."""
    return network_cell(
        n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
        random_state, exhaustive_max, n_samples, n_blowup, readout=readout,
        positional=positional, device=device,
    )


def zero_sensitivity_bound(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Zero-sensitivity strings of random transformers against Köver et al.'s bound.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (rough, 4 seeds): N in {4, 8, 10} exhaustively and 32
        from 16 sampled strings, D in {8, 32}, L in {1, 2}, eps in {0,
        1e-5}. ``full`` (the issue's design): N = 4..20 exhaustively and
        32..1024 from 10 000 strings each, D in {8, 16, 32, 64}, L in {1,
        2, 4}, eps in {0, 1e-5}, 100 seeds: 36 000 networks; the sampled
        profiles at large N dominate (see docs/results/measured.rst for the
        measured cost per network) -- far beyond one machine's CPUs, so run
        it with a dask ``scheduler``, ``n_jobs``, a ``checkpoint_dir`` and
        ``device="cuda"``, or narrow it with overrides.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``n_bits``, ``d_model``, ``n_layers``,
        ``layer_norm_eps`` (lists); ``n_heads`` (must divide every D),
        ``init``, ``init_scale``, ``readout``, ``positional``, ``seeds``,
        ``exhaustive_max``, ``n_samples``, ``n_blowup``, ``device``,
        ``random_state``.

    Returns
    -------
    results : pandas.DataFrame
        One row per network: the configuration, ``seed`` and the results of
        :func:`~skxor.studies._networks.network_cell`.

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> len(df), sorted(df.columns)[:3]
    (3, ['average_sensitivity', 'beta_bound', 'beta_max'])
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def bound_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import STUDY, bound_cells
    >>> len(bound_cells(STUDY.preset("quick")))  # 4 N x 2 D x 2 L x 2 eps x 4 seeds
    128
    """
    fixed = ("n_heads", "init", "init_scale", "readout", "positional", "exhaustive_max",
             "n_samples", "n_blowup", "device", "random_state")
    cells = expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        layer_norm_eps=params["layer_norm_eps"], seed=list(range(params["seeds"])),
        **{k: [params[k]] for k in fixed},
    )
    cells.sort(key=lambda c: (c["n_bits"], c["d_model"], c["n_layers"],
                              c["layer_norm_eps"], c["seed"]))
    return cells


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    cells = bound_cells(params)
    df = run_sweep(
        zero_sensitivity_bound_cell, cells, study="zero_sensitivity_bound",
        checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    df.insert(0, "function", TRANSFORMER)  # the layout eps_agreement reads
    return columns_first(
        df, ["function", "n_bits", "d_model", "n_layers", "layer_norm_eps", "seed"]
    )


_CONFIG = ["layer_norm_eps", "d_model", "n_layers", "n_bits"]


def summarise_bound(df):
    """Per (eps, D, L, N): counts against the bound, shares with intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`zero_sensitivity_bound`.

    Returns
    -------
    summary : pandas.DataFrame
        ``exponent`` and ``log10_bound`` (``exponent * log10 N``),
        ``vacuous`` (the bound below 1 or above 2^N) and ``vacuous_reason``
        (``"bound < 1"``, ``"bound > 2^N"`` or ``""``); ``networks``; ``log10_count`` (log10 of
        the mean zero-sensitivity fraction x 2^N, strings pooled over the
        networks) with ``log10_count_low``/``_high`` (Wilson interval of the
        pooled fraction; exact when exhaustive); ``nonconstant_median_log10_count``
        (median over the non-constant networks that had one; NaN if none);
        ``with_zero``, ``nonconstant_with_zero``, ``meets_bound`` and
        ``nonconstant_meets_bound`` (shares of networks with
        Clopper-Pearson ``_low``/``_high``; NaN over no network) and
        ``nonconstant_meets`` (the count behind the last) and
        ``constant`` (share with a Wilson interval); ``nonconstant``
        (count) and ``method``.

    Examples
    --------
    >>> from skxor.studies import summarise_bound, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> summary = summarise_bound(df)
    >>> summary[["n_bits", "exponent", "vacuous", "networks", "nonconstant", "with_zero",
    ...          "meets_bound"]]
       n_bits  exponent  vacuous  networks  nonconstant  with_zero  meets_bound
    0       4      -1.5     True         3            1        1.0          1.0
    1       8      -1.5     True         3            0        1.0          1.0
    """
    rows = []
    log2 = math.log10(2.0)
    for key, g in df.groupby(_CONFIG, sort=True):
        eps, d_model, n_layers, n_bits = key
        n_bits = int(n_bits)
        exponent = bound_exponent(int(d_model), int(n_layers))
        log10_bound = exponent * math.log10(n_bits)
        constant = g["constant"].astype(bool)
        has_zero = g["has_zero"].astype(bool)
        nonconst = g[~constant]
        zeros, strings = int(g["n_zero_found"].sum()), int(g["n_strings"].sum())
        exhaustive = (g["method"] == "exhaustive").all()
        low, high = (zeros / strings,) * 2 if exhaustive else wilson_interval(zeros, strings)
        # A network reaches the bound when its count (Wilson lower end if sampled) does.
        lower = g["log10_zero_count"] if exhaustive else g["log10_zero_count_low"]
        meets = lower.astype(float).fillna(-np.inf) >= log10_bound - 1e-12
        nc_counts = nonconst["log10_zero_count"].dropna()
        n, k_c = len(g), int(constant.sum())
        row = dict(zip(_CONFIG, (eps, int(d_model), int(n_layers), n_bits)))
        reason = vacuous_reason(log10_bound, n_bits)
        row.update(
            exponent=exponent, log10_bound=log10_bound, vacuous=bool(reason),
            vacuous_reason=reason,
            method="exhaustive" if exhaustive else "sampled",
            networks=n, nonconstant=len(nonconst),
            log10_count=math.log10(zeros / strings) + n_bits * log2 if zeros else np.nan,
            log10_count_low=math.log10(low) + n_bits * log2 if low > 0 else -np.inf,
            log10_count_high=math.log10(high) + n_bits * log2 if high > 0 else -np.inf,
            nonconstant_median_log10_count=float(nc_counts.median()) if len(nc_counts) else np.nan,
            constant=k_c / n,
        )
        row["constant_low"], row["constant_high"] = wilson_interval(k_c, n)
        row["nonconstant_meets"] = int(meets[~constant].sum())
        for name, flags in [("with_zero", has_zero),
                            ("nonconstant_with_zero", nonconst["has_zero"].astype(bool)),
                            ("meets_bound", meets),
                            ("nonconstant_meets_bound", meets[~constant])]:
            k, m = int(flags.sum()), len(flags)
            row[name] = k / m if m else np.nan
            row[f"{name}_low"], row[f"{name}_high"] = clopper_pearson_interval(k, m)
        rows.append(row)
    return pd.DataFrame(rows)


def bound_verdict(df):
    """The theorem's verdict: non-constant networks of the non-vacuous rows, at eps = 0.

    A constant network has all 2^N strings at sensitivity 0 and so reaches
    every bound of at most 2^N trivially; rows whose bound is below 1 or
    above 2^N (:func:`vacuous_reason`) test nothing. Counted at the smallest
    eps of the table (the theorem's eps = 0): eps is a paired factor, and
    each network counts once.

    Returns
    -------
    verdict : dict
        ``eps``, ``rows`` and ``tested`` (rows at that eps, and the
        non-vacuous ones), ``networks`` (non-constant networks in the tested
        rows), ``meets`` (those reaching the bound) and ``text`` (the
        sentence, which says when the data do not test the bound).

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import bound_verdict, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> bound_verdict(df)["text"]
    'every row is vacuous, so these data do not test the bound.'
    """
    summary = summarise_bound(df)
    if not len(summary):
        return {"eps": float("nan"), "rows": 0, "tested": 0, "networks": 0, "meets": 0,
                "text": "the table holds no network, so it does not test the bound."}
    eps = float(summary["layer_norm_eps"].min())
    rows = summary[summary["layer_norm_eps"] == eps]
    tested = rows[~rows["vacuous"].astype(bool)]
    n_nc, k_meets = int(tested["nonconstant"].sum()), int(tested["nonconstant_meets"].sum())
    if not len(tested):
        text = "every row is vacuous, so these data do not test the bound."
    elif not n_nc:
        text = (f"the {len(tested)} non-vacuous rows hold no non-constant network (a "
                "constant one reaches every such bound trivially), so these data do not "
                "test the bound.")
    else:
        short = tested[(tested["nonconstant"] > 0)
                       & (tested["nonconstant_meets"] < tested["nonconstant"])]
        text = (
            f"over the {len(tested)} non-vacuous of {len(rows)} rows (1 <= bound <= 2^N), "
            f"counting only the {n_nc} non-constant networks (a constant one reaches every "
            f"such bound trivially), {format_count(k_meets, n_nc, 'networks', 'clopper-pearson')}"
            " have a count at or above the bound (its Wilson lower end when sampled)"
            + ("." if not len(short) else
               "; short of it: " + "; ".join(
                   f"D={int(r.d_model)}, L={int(r.n_layers)}, N={int(r.n_bits)}: "
                   f"{int(r.nonconstant_meets)}/{int(r.nonconstant)}"
                   for r in short.itertuples()) + ".")
        )
    return {"eps": eps, "rows": len(rows), "tested": len(tested), "networks": n_nc,
            "meets": k_meets, "text": text}


def _drawn_summary(df):
    agreement = eps_agreement(df)
    identical = agreement is not None and agreement["same"] == agreement["pairs"]
    summary = summarise_bound(df)
    if identical:
        summary = summary[summary["layer_norm_eps"] == 0]
    return summary, agreement, identical


_COLOURS = {8: "tab:blue", 16: "tab:orange", 32: "tab:green", 64: "tab:red"}
_MARKERS = {8: "o", 16: "s", 32: "^", 64: "D"}


def _style(d_model, j):
    return dict(color=_COLOURS.get(d_model, f"C{4 + j}"),
                marker=_MARKERS.get(d_model, "v"))


def plot_zero_sensitivity_bound(df):
    """Figures: log10 count against N with the bound lines; the shares against N.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"count"``: one panel per L; per D the log10 of the mean number of
        zero-sensitivity strings (Wilson interval) and the median over the
        non-constant networks, the bound ``N^((D-1)/(2L) - 5)`` as a
        labelled reference line, and the constant function's 2^N, both
        drawn over the data; the legend sits below the panels. ``"shares"``:
        rows for the share with a zero-sensitivity string (all networks;
        non-constant ones; Clopper-Pearson) and the share of constant
        networks (Wilson), one column per L. When eps = 0 and eps > 0 give
        identical profiles on every pair, eps = 0 is drawn and the title
        says so; otherwise each eps gets its own marker fill.

    Examples
    --------
    >>> from skxor.studies import plot_zero_sensitivity_bound, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> figures = plot_zero_sensitivity_bound(df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'count': 1, 'shares': 3}
    >>> for text in figures["count"].legends[0].get_texts():
    ...     print(text.get_text())
    D=8, eps=0: median, non-constant
    reference: bound N^-1.5, D=8 (vacuous: < 1)
    reference: constant function, 2^N (drawn over the data)
    D=8, eps=0: mean count
    """
    from matplotlib.figure import Figure

    require_networks(df)
    summary, agreement, identical = _drawn_summary(df)
    layers = sorted(summary["n_layers"].unique())
    ns = sorted(int(n) for n in summary["n_bits"].unique())
    widths = sorted(summary["d_model"].unique())
    epsilons = sorted(summary["layer_norm_eps"].unique())
    seeds = int(df["seed"].nunique())
    note = (f"\neps = {agreement['eps']:g} gives identical profiles ({agreement['pairs']} of "
            f"{agreement['pairs']} networks): not drawn." if identical else "")
    title = f"Random initialisation (uniform, eos read-out), {seeds} seeds per point.{note}"

    def series():
        for j, d in enumerate(widths):
            for e_i, eps in enumerate(epsilons):
                shift = float(offset(2 ** (0.02 * e_i), j, len(widths), spread=0.05))
                fill = {} if e_i == 0 else {"mfc": "none"}
                eps_label = "" if identical else f", eps={eps:g}"
                yield d, eps, shift, {**_style(d, j), **fill}, f"D={d}{eps_label}"

    fig = Figure(figsize=(4.2 * len(layers) + 2.6, 4.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(layers), sharey=True))
    for ax, L in zip(axes, layers):
        part = summary[summary["n_layers"] == L]
        for d, eps, shift, style, label in series():
            g = part[(part["d_model"] == d) & (part["layer_norm_eps"] == eps)].sort_values("n_bits")
            if not len(g):
                continue
            x = g["n_bits"] * shift
            y = g["log10_count"]
            ax.errorbar(x, y, yerr=[(y - g["log10_count_low"]).clip(lower=0, upper=50),
                                    (g["log10_count_high"] - y).clip(lower=0)],
                        ls="-", lw=1.2, ms=4, capsize=2, label=f"{label}: mean count", **style)
            ax.plot(x, g["nonconstant_median_log10_count"], ls=":", lw=1.0, ms=5,
                    color=style["color"], marker="x", label=f"{label}: median, non-constant")
        for j, d in enumerate(widths):
            e = bound_exponent(d, L)
            # References above the data (zorder), so that data on them leave them visible.
            ax.plot(ns, [e * math.log10(n) for n in ns], color=_style(d, j)["color"],
                    ls=(0, (6, 3)), lw=1.2, zorder=9,
                    label=f"reference: bound N^{e:g}, D={d}"
                    + (" (vacuous: < 1)" if e < 0 else " (vacuous above the 2^N line)"))
        ax.plot(ns, [n * math.log10(2) for n in ns], color="black", lw=1.4, ls=(0, (2, 2)),
                zorder=10, label="reference: constant function, 2^N (drawn over the data)")
        log_axis(ax, ns, base=2, label="string length N (log scale)")
        ax.set_title(f"L = {L}", fontsize="small")
    for ax in axes:
        ax.set_ylabel("log10 number of zero-sensitivity strings")
    fig.suptitle(title, fontsize="small")
    # Below the panels, where it cannot cover the title.
    figure_legend(fig, axes, loc="outside lower center", ncols=3, fontsize="xx-small")
    figures = {"count": fig}

    rows = [("with_zero", "share with a zero-sensitivity string\n(all; Clopper-Pearson)"),
            ("nonconstant_with_zero", "share with a zero-sensitivity string\n"
             "(non-constant; Clopper-Pearson)"),
            ("constant", "share of constant networks\n(Wilson)")]
    fig = Figure(figsize=(4.0 * len(layers) + 1.8, 8.5), layout="constrained")
    grid = np.atleast_2d(fig.subplots(len(rows), len(layers), sharex=True, sharey=True))
    if len(layers) == 1:
        grid = grid.reshape(len(rows), 1)
    for i, (column, ylabel) in enumerate(rows):
        for ax, L in zip(grid[i], layers):
            part = summary[summary["n_layers"] == L]
            for d, eps, shift, style, label in series():
                g = part[(part["d_model"] == d) & (part["layer_norm_eps"] == eps)
                         ].sort_values("n_bits")
                if not len(g):
                    continue
                ax.errorbar(g["n_bits"] * shift, g[column],
                            yerr=interval_errors(g[column], g[f"{column}_low"],
                                                 g[f"{column}_high"]),
                            ls="-", lw=1.0, ms=4, capsize=2, label=label, **style)
            log_axis(ax, ns, base=2, label="string length N (log scale)")
            ax.set_ylim(-0.05, 1.05)
            ax.set_ylabel(ylabel, fontsize="small")
            if i == 0:
                ax.set_title(f"L = {L}", fontsize="small")
    fig.suptitle(title, fontsize="small")
    figure_legend(fig, grid, loc="outside lower center", ncols=4, fontsize="x-small")
    figures["shares"] = fig
    return figures


def _log10_cell(row):
    if not np.isfinite(row["log10_count"]):
        high = row["log10_count_high"]
        return "none found" + (f" (< 10^{high:.2f})" if np.isfinite(high) else "")
    if row["method"] == "exhaustive":
        return f"{row['log10_count']:.2f}"
    return format_interval(row["log10_count"], max(row["log10_count_low"], -99),
                           row["log10_count_high"])


def report_zero_sensitivity_bound(df):
    """Markdown: counts against the bound, shares, where the bound is vacuous.

    Every number in the text is computed from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`zero_sensitivity_bound`, from which the section is written.

    Returns
    -------
    text : str
        A Markdown section: the bound's exponent per (D, L), a table per
        (eps, D, L, N) of the count against the bound and of the shares, and
        sentences on the networks overall.

    Examples
    --------
    >>> from skxor.studies import report_zero_sensitivity_bound, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> report = report_zero_sensitivity_bound(df)
    >>> print(report.splitlines()[0])
    ## Theorem 4.5: zero-sensitivity strings against N^((D-1)/(2L) - 5)
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("|     0"):  # the rows: eps = 0
    ...         print(line)
    | 0 | 8 | 1 | 4 | -0.9 | vacuous (bound < 1) | 1.1 | 0.78 | 3/3 = 1.00 [0.29, 1.00] |
      1/1 = 1.00 [0.03, 1.00] | 2/3 = 0.67 [0.21, 0.94] | 1/1 = 1.00 [0.03, 1.00] |
    | 0 | 8 | 1 | 8 | -1.35 | vacuous (bound < 1) | 2.41 | - | 3/3 = 1.00 [0.29, 1.00] |
      - (none) | 3/3 = 1.00 [0.44, 1.00] | - (none) |
    >>> print(report.splitlines()[-1])
    Compared with the bound at eps = 0: every row is vacuous, so these data do not test the bound.
    """
    if "function" not in df or not (df["function"] == TRANSFORMER).any():
        return ("## Theorem 4.5: zero-sensitivity strings against N^((D-1)/(2L) - 5)\n\n"
                "The table holds no random network: nothing to summarise.")
    summary, agreement, identical = _drawn_summary(df)
    summary_all = summarise_bound(df)
    seeds = int(df["seed"].nunique())
    epsilons = sorted(df["layer_norm_eps"].unique())
    sampled = df[df["method"] == "sampled"]
    exhaustive = df.loc[df["method"] == "exhaustive", "n_bits"]
    configs = summary[["d_model", "n_layers", "exponent"]].drop_duplicates()
    vacuous = configs[configs["exponent"] < 0]
    rough = f" **Rough: {seeds} seeds per configuration.**" if seeds < 100 else ""
    lines = [
        "## Theorem 4.5: zero-sensitivity strings against N^((D-1)/(2L) - 5)",
        "",
        f"{distinct_networks(df)} distinct random transformers ({seeds} seeds per "
        "configuration, each (N, D, L, seed) with its own weights; init "
        f"{', '.join(sorted(df['init'].unique()))}, read-out "
        f"{', '.join(sorted(df['readout'].unique()))}, positions "
        f"{', '.join(sorted(df['positional'].unique()))}), profiled over "
        + (f"all strings up to N = {int(exhaustive.max())}" if len(exhaustive)
           else "no N exhaustively")
        + (f" and from {int(sampled['n_strings'].max())} uniform strings with their "
           f"neighbours at N = {', '.join(str(int(n)) for n in sorted(sampled['n_bits'].unique()))}"
           if len(sampled) else "")
        + f".{rough}"
        + (f" Each network is evaluated at every eps ({', '.join(f'{e:g}' for e in epsilons)}"
           f"; a paired design: {len(df)} evaluations), so counts over networks are at "
           "one eps." if len(epsilons) > 1 else ""),
        "",
        "The bound's exponent (D - 1)/(2L) - 5 is positive only when D - 1 > 10 L. "
        + ("It is not here for (D, L) = "
           + ", ".join(f"({int(d)}, {int(l)})"
                       for d, l in vacuous[["d_model", "n_layers"]].values) + ": "
           "there the bound is below 1 and asks for no more than one zero-sensitivity "
           "string (vacuous as a growth rate). " if len(vacuous) else "")
        + "Exponents: "
        + ", ".join(f"D={int(d)}, L={int(l)}: {e:g}" for d, l, e in configs.values) + ".",
        "",
        "Count: log10 of the mean number of zero-sensitivity strings (fraction x 2^N, "
        "strings pooled over the networks; [Wilson 95%] for the sampling of strings "
        "when sampled). Shares of networks with a zero-sensitivity string: "
        "Clopper-Pearson 95% (a lower bound on 'almost surely'); constant: Wilson 95%. "
        "'reaches bound (non-const.)': non-constant networks whose count (its Wilson lower "
        "end when sampled) is at or above the bound. 'bound': vacuous where the bound is "
        "below 1 or above 2^N.",
        "",
    ]
    def counted(r, column, n_column="networks"):
        n = int(r[n_column])
        if not n:
            return "- (none)"
        return f"{int(round(r[column] * n))}/{n} = " + format_interval(
            r[column], r[f"{column}_low"], r[f"{column}_high"])

    table = pd.DataFrame({
        "eps": summary["layer_norm_eps"].map(lambda e: f"{e:g}"),
        "D": summary["d_model"], "L": summary["n_layers"], "N": summary["n_bits"],
        "log10 bound": summary["log10_bound"].map(lambda v: f"{v:.2f}"),
        "bound": summary["vacuous_reason"].map(lambda r: f"vacuous ({r})" if r else "tested"),
        "log10 count": summary.apply(_log10_cell, axis=1),
        "median log10 count (non-const.)": summary["nonconstant_median_log10_count"].map(
            lambda v: "-" if not np.isfinite(v) else f"{v:.2f}"),
        "with zero (all)": summary.apply(lambda r: counted(r, "with_zero"), axis=1),
        "with zero (non-const.)": summary.apply(
            lambda r: counted(r, "nonconstant_with_zero", "nonconstant"), axis=1),
        "constant": summary.apply(lambda r: counted(r, "constant"), axis=1),
        "reaches bound (non-const.)": summary.apply(
            lambda r: counted(r, "nonconstant_meets_bound", "nonconstant"), axis=1),
    })
    if identical:
        table = table.drop(columns="eps")
    lines.append(table.to_markdown(index=False))
    # eps is paired (the same networks at each eps): pool at the theorem's eps, the
    # smallest, so that each network counts once.
    pool_eps = float(df["layer_norm_eps"].min())
    pool = df[df["layer_norm_eps"] == pool_eps]
    rows = summary_all[summary_all["layer_norm_eps"] == pool_eps]
    at = f" at eps = {pool_eps:g}" + (
        " (eps > 0 gives the same functions on these networks)" if identical else "")
    nonconst = pool[~pool["constant"].astype(bool)]
    k = int(pool["has_zero"].astype(bool).sum())
    k_nc = int(nonconst["has_zero"].astype(bool).sum())
    k_c = int(pool["constant"].astype(bool).sum())
    lines += [
        "",
        f"Over all {len(pool)} networks{at}: a zero-sensitivity string was found in "
        f"{format_count(k, len(pool), 'networks', 'clopper-pearson')}; among the "
        f"{len(nonconst)} non-constant ones, in "
        f"{format_count(k_nc, len(nonconst), 'networks', 'clopper-pearson')}; "
        f"{format_count(k_c, len(pool), 'networks')} are constant.",
    ]
    vacuous = rows[rows["vacuous"]]
    if len(vacuous):
        lines += [
            "",
            f"Vacuous rows ({len(vacuous)} of {len(rows)} (D, L, N) at eps = {pool_eps:g}, "
            "marked in the table): the bound is below 1 (it names no growth) in "
            f"{int((vacuous['vacuous_reason'] == 'bound < 1').sum())} and above 2^N, the "
            "number of all strings (no function reaches it; the theorem is for large N), "
            f"in {int((vacuous['vacuous_reason'] == 'bound > 2^N').sum())}. They do not "
            "count toward the verdict.",
        ]
    lines += ["", f"Compared with the bound at eps = {pool_eps:g}: {bound_verdict(df)['text']}"]
    if agreement is not None:
        lines += [
            "",
            f"eps = 0 and eps = {agreement['eps']:g} gave identical profiles in "
            f"{agreement['same']} of {agreement['pairs']} networks evaluated at both "
            f"(largest layer-norm 1/std seen: {agreement['inv_std_max']:.3g}, "
            f"against 1/sqrt(eps) = {1 / math.sqrt(agreement['eps']):.3g})"
            + ("; the table shows eps = 0." if identical else "."),
        ]
    return "\n".join(lines)


STUDY = Study(
    name="zero_sensitivity_bound",
    description=(
        "Köver et al.'s Theorem 4.5 measured: the number of zero-sensitivity strings "
        "of random transformers (eps 0 and 1e-5, D, L, many seeds, N up to 1024) "
        "against the bound N^((D-1)/(2L) - 5), the share of networks with one "
        "(Clopper-Pearson) and the share of constant networks."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=zero_sensitivity_bound_cell,
    compute=_compute,
    summary=summarise_bound,
    figures=plot_zero_sensitivity_bound,
    report=report_zero_sensitivity_bound,
    key=("n_bits", "d_model", "n_layers", "layer_norm_eps", "n_heads", "init", "init_scale",
         "readout", "positional", "seed", "random_state", "exhaustive_max", "n_samples",
         "n_blowup"),
    setting=("n_heads", "init", "init_scale", "readout", "positional", "exhaustive_max",
             "n_samples", "n_blowup", "device", "random_state"),
    check=check_transformer,
)

__all__ = [
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "bound_cells",
    "bound_exponent",
    "bound_verdict",
    "plot_zero_sensitivity_bound",
    "report_zero_sensitivity_bound",
    "summarise_bound",
    "vacuous_reason",
    "zero_sensitivity_bound",
    "zero_sensitivity_bound_cell",
]
