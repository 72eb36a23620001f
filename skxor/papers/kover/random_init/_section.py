"""The random-initialisation study's section of the report (Markdown)."""

import math

import pandas as pd

from skxor._utils._docstrings import fill_doc_with
from .._networks import (
    distinct_networks,
    paired_eps_text,
    profiled_text,
    share_text,
)
from skxor.studies.reporting import empty_section, rough_text, section
from skxor.studies.stats import format_count
from ._cells import RANDOM_FUNCTION, SETTING
from ._summary import DOC_EXAMPLES, POISSON_LIMIT, random_init_summary
from ._wording import network_setting_label


#: The title of the study's section of the report.
TITLE = "Sensitivity at random initialisation"


def _per_setting_table(summary, column):
    nets = summary[summary["init"] != RANDOM_FUNCTION].copy()
    nets["setting"] = [network_setting_label(*r) for r in nets[SETTING].itertuples(index=False)]
    cells = nets.apply(lambda r: share_text(r, column), axis=1)
    nets["cell"] = cells
    return nets.pivot(index="setting", columns="n_bits", values="cell").rename(
        columns=lambda n: f"N={n}")


def _pooled_diagnostic(models):
    """Per N: constant share [Wilson], median |mean T|, std T and their ratio."""
    rows = {}
    for n, g in models.groupby("n_bits"):
        k = int(g["constant"].astype(bool).sum())
        rows[int(n)] = {
            "constant": format_count(k, len(g), "networks"),
            "median abs(mean T)": g["logit_mean"].abs().median(),
            "median std T": g["logit_std"].median(),
            "median abs(mean T) / std T": g["logit_offset"].median(),
            "median abs(omega) / std T": (g["readout_bias"].abs() / g["logit_std"]).median(),
            "networks": str(len(g)),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "N"
    return table


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: Köver et al.'s setting first, then why networks are constant.

    Called as ``get_study("random_init_sensitivity").render("report", table)``, on the
    table's :func:`~skxor.papers.kover.random_init.random_init_summary`.

    %(returns_study_report)s
        A Markdown section: the share of networks with a zero-sensitivity
        string and their mean count in Köver et al.'s setting beside the
        random-function control, the constant networks, the logit diagnostic
        and, with two eps, whether they agree.

    %(report_examples)s
    >>> for line in report.splitlines():
    ...     if line.startswith("#"):
    ...         print(line)
    ## Sensitivity at random initialisation
    ### Köver et al.'s setting: share with a zero-sensitivity string and mean count
    ### (a) Constant networks and (b) zero-sensitivity strings of the others
    ### Why networks are constant
    ### eps = 0 and eps > 0 on the same weights
    >>> for line in report.splitlines():  # the cells "k/n = share [Wilson 95%]; mean count"
    ...     if line.startswith("|") and "]; " in line:
    ...         print(line)
    |   4 | 2/2 = 1.00 [0.34, 1.00]; 12  | 12/20 = 0.60 [0.39, 0.78]; 1.4  |
    |   8 | 2/2 = 1.00 [0.34, 1.00]; 247 | 16/20 = 0.80 [0.58, 0.92]; 1.45 |
    """
    models = summary.models
    if not len(models):
        return empty_section(TITLE, "random network (no row with function == 'transformer')")
    agreement, identical, paper_table = summary.agreement, summary.identical, summary.paper_table
    summary = summary.per_setting
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    control = summary[summary["init"] == RANDOM_FUNCTION]
    if identical:  # the eps > 0 rows repeat the eps = 0 ones: shown once
        nets = nets[nets["layer_norm_eps"] == 0]
    # eps is a paired factor (the same networks at every eps): counts over
    # networks pool one eps at a time, so that each network counts once.
    epsilons = sorted(models["layer_norm_eps"].unique())
    pools = [(e, models[models["layer_norm_eps"] == e])
             for e in (epsilons[:1] if identical else epsilons)]
    shown = pools[0][1]
    seeds = int(models["seed"].nunique())
    rough = rough_text(seeds, f" **Rough: {seeds} seeds per point.**")
    blocks = [
        f"{distinct_networks(models)} distinct random transformers ({seeds} seeds per "
        f"setting; each cell of the grid draws its own weights; init "
        f"{', '.join(sorted(models['init'].unique()))}; read-out "
        f"{', '.join(sorted(models['readout'].unique()))}; positions "
        f"{', '.join(sorted(models['positional'].unique()))}; "
        f"D in {sorted(int(d) for d in models['d_model'].unique())}, "
        f"L in {sorted(int(n) for n in models['n_layers'].unique())}), profiled over "
        + profiled_text(models, " (there 'constant' means no sensitive string among the "
                        "sampled ones, and 'with a zero-sensitivity string' that one was found)")
        + f".{rough}" + paired_eps_text(models),
        "### Köver et al.'s setting: share with a zero-sensitivity string and mean count",
        "Each cell: networks with at least one zero-sensitivity string, k/n "
        "[Wilson 95%]; mean number of such strings (fraction x 2^N). Random "
        "function: uniformly random Boolean functions, exhaustively.",
        paper_table.to_markdown(),
    ]
    if len(control):
        c = control
        pooled = int((c["with_zero"] * c["networks"]).round().sum())
        total = int(c["networks"].sum())
        blocks.append(
            f"Random functions: {format_count(pooled, total, 'functions', digits=3)} "
            f"(pooled over N = {', '.join(str(int(n)) for n in c['n_bits'])}, each "
            "function drawn independently) "
            f"have a zero-sensitivity string, against the limit 1 - 1/e = "
            f"{POISSON_LIMIT:.3f}; their mean count ranges over "
            f"{c['zero_fraction'].mul(2.0 ** c['n_bits']).min():.2f}-"
            f"{c['zero_fraction'].mul(2.0 ** c['n_bits']).max():.2f} "
            "(exact expectation 1 at every N: each string is insensitive with "
            "probability 2^-N)."
        )
    blocks.append("### (a) Constant networks and (b) zero-sensitivity strings of the others")
    for eps, pool in pools:
        constant = pool["constant"].astype(bool)
        nonconst = pool[~constant]
        k_nz = int(nonconst["has_zero"].astype(bool).sum())
        at = f" at eps = {eps:g}" if len(epsilons) > 1 else ""
        if identical:
            at += f" (eps = {agreement['eps']:g} gives the same functions on these networks)"
        blocks.append(
            f"Over all {distinct_networks(pool)} networks{at}, "
            f"{format_count(int(constant.sum()), len(pool), 'networks')} are constant. "
            + (f"Of the {len(nonconst)} non-constant ones, "
               f"{format_count(k_nz, len(nonconst), 'networks')} have a zero-sensitivity "
               "string, and their mean zero-sensitivity fraction is "
               f"{nonconst['zero_fraction'].mean():.3f}." if len(nonconst)
               else "No non-constant network remains.")
        )
    blocks += [
        "(a) Constant networks, k/n [Wilson 95%], per setting and N:",
        _per_setting_table(nets, "constant").to_markdown(),
        "(b) Mean zero-sensitivity fraction among the non-constant networks "
        "(blank: all constant):",
        nets.assign(setting=[network_setting_label(*r) for r in nets[SETTING].itertuples(index=False)])
        .pivot(index="setting", columns="n_bits", values="nonconstant_zero_fraction")
        .rename(columns=lambda n: f"N={n}")
        .map(lambda v: "" if pd.isna(v) else f"{v:.3f}").to_markdown(),
    ]
    with_std = shown[shown["logit_offset"].notna()]
    if len(with_std):
        const = with_std["constant"].astype(bool)
        by_n = with_std.groupby("n_bits")["logit_offset"].median()
        blocks += [
            "### Why networks are constant",
            f"Over {int(models['n_blowup'].max()) if 'n_blowup' in models else ''} uniform "
            "strings per network, the logit's offset |mean T(x)| against its spread "
            "std T(x): the median ratio is "
            f"{with_std.loc[const, 'logit_offset'].median():.3g} for constant networks and "
            f"{with_std.loc[~const, 'logit_offset'].median():.3g} for non-constant ones. "
            "A network is constant when the input-dependent part of T(x) is too small "
            "to move it across 0. Pooled over settings, the median ratio goes from "
            f"{by_n.iloc[0]:.3g} at N = {int(by_n.index[0])} to {by_n.iloc[-1]:.3g} at "
            f"N = {int(by_n.index[-1])}.",
            _pooled_diagnostic(with_std).to_markdown(floatfmt=".3g"),
            f"(pooled over the settings shown, at eps = {pools[0][0]:g}; medians over "
            "networks)",
            nets.assign(setting=[network_setting_label(*r)
                                 for r in nets[SETTING].itertuples(index=False)])
            .pivot(index="setting", columns="n_bits", values="logit_offset_constant")
            .rename(columns=lambda n: f"N={n}")
            .map(lambda v: "" if pd.isna(v) else f"{v:.3g}").to_markdown(),
            "(median |mean| / std of the logit over the constant networks, per setting "
            "and N; blank: none constant)",
        ]
    if agreement is not None:
        blocks += [
            "### eps = 0 and eps > 0 on the same weights",
            f"On the same weights, eps = 0 and eps = {agreement['eps']:g} gave identical "
            f"profiles in {agreement['same']} of {agreement['pairs']} pairs. The largest "
            f"layer-norm 1/std seen in any network is {agreement['inv_std_max']:.3g}, "
            f"against 1/sqrt(eps) = {1 / math.sqrt(agreement['eps']):.3g}; the largest "
            f"cumulative blow-up beta = prod tau is {agreement['beta_max']:.3g}, against "
            f"the bound (1 + 1/sqrt(eps))^K = {agreement['beta_bound']:.3g} (K layer "
            "norms). eps changes the network only where 1/std nears 1/sqrt(eps)."
            + (" The tables above therefore show eps = 0 only." if identical else ""),
        ]
    return section(TITLE, *blocks)
