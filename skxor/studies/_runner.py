"""Run registered studies into an output folder: CSV, PNG figures, Markdown report."""

import os
import time
from pathlib import Path

from ._registry import get_study


def _atomic_write_text(path, text):
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def run_studies(
    names,
    *,
    preset="quick",
    out_dir="skxor_results",
    overrides=None,
    n_jobs=None,
    scheduler=None,
    progress=True,
    echo=print,
):
    """Run studies and write their results to ``out_dir``.

    For each study: ``<study>.csv`` (the table), ``<study>_<figure>.png`` and
    a section of ``report.md``. Finished cells are checkpointed under
    ``<out_dir>/checkpoints`` so an interrupted run resumes where it stopped.

    Parameters
    ----------
    names : list of str
        Registered study names (see ``skxor list``).
    preset : {"quick", "full"}, default="quick"
    out_dir : path, default="skxor_results"
    overrides : dict of str to dict, optional
        Per-study parameter overrides, ``{study: {param: value}}``.
    n_jobs : int or None, default=None
    scheduler : str or None, default=None
        dask.distributed scheduler address.
    progress : bool, default=True
    echo : callable, default=print
        Receives one line of progress text per study.

    Returns
    -------
    results : dict of str to pandas.DataFrame
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    overrides = overrides or {}
    studies = [get_study(name) for name in names]
    results, sections = {}, [f"# skxor results ({preset} preset)", ""]
    for study in studies:
        start = time.perf_counter()
        df = study.run(
            preset,
            checkpoint_dir=out / "checkpoints",
            n_jobs=n_jobs,
            progress=progress,
            scheduler=scheduler,
            **overrides.get(study.name, {}),
        )
        df.to_csv(out / f"{study.name}.csv", index=False)
        for fig_name, fig in study.plot(df).items():
            fig.savefig(out / f"{study.name}_{fig_name}.png", dpi=110)
        seconds = time.perf_counter() - start
        sections += [study.report(df), "", f"_{len(df)} rows, {seconds:.1f} s._", ""]
        _atomic_write_text(out / "report.md", "\n".join(sections))
        results[study.name] = df
        echo(f"{study.name}: {len(df)} rows in {seconds:.1f} s -> {out / (study.name + '.csv')}")
    return results
