"""
Your own study: a sweep with checkpoints, intervals and a report in a few lines
================================================================================

A :class:`~skxor.studies.Study` declares parameters (scikit-learn constraints;
a :class:`~skxor.studies.Grid` is a sweep axis), presets and the function
computing one cell; the library runs the sweep as it runs its own studies
(checkpointed cells, ``n_jobs`` or dask, a table merged across runs, a
``report.md`` section with Wilson 95% intervals). Here the study asks how
often heads win a majority of ``n_flips`` tosses of a coin that shows heads
with probability ``p``: 40 seeds per p, each seed one independent run. The
same declaration saved in a file runs with ``skxor run coin_flips.py`` (see
the user guide page "Your own study").
"""

import tempfile
from numbers import Integral, Real
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from skxor.studies import Grid, Interval, Study, run_studies
from skxor.studies import rate_with_interval


def coin_cell(p, n_flips, seed):
    """One cell: n_flips tosses of a coin with P(heads) = p, seeded by the cell."""
    rng = np.random.default_rng([seed, n_flips])
    heads = int(rng.binomial(n_flips, p))
    return {"heads": heads, "majority": heads > n_flips / 2}


def coin_figures(table):
    """The share of seeds with a heads majority against p, with Wilson 95% intervals."""
    from matplotlib.figure import Figure

    rows = [(p, *rate_with_interval(group["majority"])[:3])
            for p, group in table.groupby("p")]
    p, rate, low, high = map(np.array, zip(*rows))
    fig = Figure(figsize=(5, 3.4), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(p, rate, yerr=[rate - low, high - rate], marker="o", capsize=3,
                label=f"n_flips = {table['n_flips'].iloc[0]}, {table['seed'].nunique()} seeds")
    ax.axvline(0.5, color="grey", ls=":", label="a fair coin")
    ax.set(xlabel="P(heads)", ylabel="share of seeds with a heads majority",
           ylim=(-0.05, 1.05))
    ax.legend(fontsize="small")
    return {"majority": fig}


STUDY = Study(
    name="coin_flips",
    description="Biased coins: how often heads win a majority of the tosses.",
    parameters={
        "p": [Grid(Interval(Real, 0, 1, closed="both"))],
        "n_flips": [Interval(Integral, 1, None, closed="left")],
        "seeds": [Interval(Integral, 1, None, closed="left")],
    },
    presets={"quick": {"p": [0.35, 0.45, 0.5, 0.55, 0.65], "n_flips": 21, "seeds": 40}},
    cell=coin_cell,
    figures=coin_figures,
)

# %%
# Run it into a folder, as ``skxor run`` does: the table, the figure and the
# report section (the default summary: per p, the heads-majority share with
# its Wilson 95% interval over the 40 seeds, and the mean number of heads).
out = Path(tempfile.mkdtemp())
table = run_studies([STUDY], out_dir=out, echo=None)["coin_flips"]
print(table.head())
section = (out / "report.md").read_text().split("## coin_flips", 1)[1]
print("## coin_flips" + section)

# %%
# The study's own figure, from the same table.
plt.figure(STUDY.figures(table)["majority"])  # hand the study's figure to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
