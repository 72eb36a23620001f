"""Run registered studies into an output folder: CSV, PNG figures, Markdown report.

Nothing in the folder is silently overwritten. A study's table
``<study>.csv`` merges the rows of every run written to the folder. Each row
carries its run's setting in a ``setting`` column (the JSON of the study's
:attr:`Study.setting` parameters: budgets, test split, random state, size
grids, ...) and is keyed by the study's cell columns (:attr:`Study.key`) plus
that setting: a later run replaces only rows with the same cell and the same
setting (the same computation again), says how many it replaced, and leaves
rows of other settings in place. Nothing mixes settings either: the report
analyses each setting of the table on its own (one part per setting, the
latest run's first, each stating its setting), and the figures show the
latest run's setting. ``report.md`` is rebuilt from one stored section per
study, so running one study keeps the other studies' sections; its header
lists every run (preset, every override, rows, date, skxor version, machine).
A run's files (table, run record, figures, stored section, report.md) are
all made under unique temporary names first, and moved into place only once
every one of them was made: a hook that fails leaves the previous run's set as
it was (and the error says so). The merge happens under a lock on the folder,
so concurrent runs on one folder neither crash nor lose a finished row.

Each run records its wall time and its floor: the unavoidable work of the
run (the model fits, evaluations and exact computations its cells must
make), measured in the same run. A study reports its floor by setting
``floor_seconds`` (and a one-line ``floor_description``) in the ``attrs`` of
the table its ``compute`` returns; otherwise the floor is the sum of the
time its cells spent in :func:`~skxor.studies._floor.floor_work` blocks
(cells reused from a checkpoint add nothing). The run record, the report's
header and the study's section footer give wall time, floor and their
ratio, or say "floor not measured".
"""

import contextlib
import datetime
import io
import json
import math
import numbers
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._utils._docstrings import fill_doc
from .._utils._files import prepare_out_dir, read_table, set_aside
from .._version import __version__
from ._floor import collect_floor, describe_backend, describe_floor
from ._record import (
    SETTING_COLUMN,
    split_settings,
    UNREADABLE_RECORDS,
    describe_setting,
    figures_line,
    record_path,
    records_text,
    run_record,
    table_checksum,
    traced_report,
)
from ._registry import STUDIES, get_study
from ._hooks import hook_result
from ._page import collapse_long_tables, glossary_section
from ._study import Study
from ._publish import DATA_DIR
from .claims import NOT_DECIDED, _preset
from ._sweep import atomic_write_text as _atomic_write_text
from ._sweep import connect, write_temporary
from .._utils._warnings import SkxorRuntimeWarning

#: Hidden folder inside an output folder: the lock, per-study report sections, runs.
STATE_DIR = ".skxor"


@contextlib.contextmanager
def _locked(folder):
    """Hold an exclusive lock on ``folder`` (POSIX ``flock``; no lock elsewhere)."""
    state = folder / STATE_DIR
    state.mkdir(exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(state / "lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def merge_tables(path, new, key):
    """``new`` merged into the table stored at ``path``, keyed by ``key`` columns.

    Returns
    -------
    table : pandas.DataFrame
        The stored rows whose key does not occur in ``new``, then ``new``
        (``new`` itself, attrs included, when nothing was stored).
    replaced : int
        Stored rows replaced by a row of ``new`` with the same key.
    """
    old, why = _mergeable(path, new, key)
    if why:
        set_aside(path, why)
    return _merged(old, new, key)


def _mergeable(path, new, key, study=None):
    """The table stored at ``path`` to merge ``new`` into, without writing anything.

    Returns ``(old, why)``: ``old`` is None when nothing is stored there, or when
    the stored file cannot be merged, and then ``why`` says why (the caller sets it
    aside). With ``study``, a table written before the ``setting`` column gets its
    rows' settings (see :func:`_backfill_setting`).
    """
    path = Path(path)
    if not path.exists():
        return None, None
    try:
        old = read_table(path)
    except (OSError, ValueError) as exc:
        return None, f"could not be read ({exc})"
    if study is not None:
        old = _with_setting(old, study)
    missing = [k for k in key if k not in old.columns or k not in new.columns]
    if missing:
        return None, f"has no column(s) {missing} to merge on"
    return old, None


def _merged(old, new, key):
    """:func:`merge_tables` of a table read already (None: nothing stored)."""
    if old is None:
        return new, 0
    # Round-trip the new rows through CSV so both sides parse alike.
    fresh = read_table(io.StringIO(new.to_csv(index=False)))
    both = pd.concat([old, fresh], ignore_index=True)
    kept = ~both.duplicated(subset=list(key), keep="last")
    replaced = int((~kept.iloc[: len(old)]).sum())
    table = both[kept].reset_index(drop=True)
    table.attrs = dict(new.attrs)
    return table, replaced




def _canonical(value):
    """``value`` as plain JSON: integral numbers as ints, number lists sorted, unique."""
    if isinstance(value, (list, tuple)):
        items = [_canonical(v) for v in value]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in items):
            items = sorted(set(items))  # a grid of sizes is a set of values
        return items
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        # 20 and 20.0 are the same setting.
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    return str(value)


def run_setting(study, params):
    """The setting of a run, as stored in its rows' ``setting`` column.

    JSON of the study's :attr:`~skxor.studies.Study.setting` parameters, in
    declared order, with integral numbers written as integers and number
    lists sorted (so ``--set step_length=20`` and the preset's ``20.0`` are
    the same setting). A parameter the study ``added`` later, at the value
    earlier runs had, is left out: their stored settings stay the same.

    Parameters
    ----------
    study : Study
    params : dict
        The run's validated parameters (:meth:`Study.params`).

    Returns
    -------
    setting : str

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies._runner import run_setting
    >>> study = get_study("one_step")
    >>> run_setting(study, study.params("quick", {"n_test": 500}))
    '{"n_test": 500}'
    """
    return json.dumps({name: _canonical(params[name]) for name in study.setting
                       if not study.omitted(name, params[name])})


def _backfill_setting(path, study):
    """Give a table written before the ``setting`` column its rows' settings.

    Possible when every setting parameter of the study is a column without
    gaps (one_step, sample_complexity, training_sensitivity, ...); otherwise
    the table is left as it is, and :func:`merge_tables` sets it aside.
    """
    try:
        old = read_table(path)
    except (OSError, ValueError):
        return
    backfilled = _with_setting(old, study)
    if backfilled is not old:
        _atomic_write_text(path, backfilled.to_csv(index=False))


def _with_setting(old, study):
    """``old`` with its rows' settings in a ``setting`` column where they can be told
    (see :func:`_backfill_setting`); otherwise ``old`` itself."""
    # A parameter added later is absent from tables of earlier runs: at its earlier value.
    names = [n for n in study.setting if n in old or n not in study.added]
    if SETTING_COLUMN in old or not names or not all(n in old for n in names):
        return old
    if old[names].isna().any().any():
        return old
    old = old.copy()
    old[SETTING_COLUMN] = [
        json.dumps({n: _canonical(v) for n, v in zip(names, values)
                    if not study.omitted(n, v)})
        for values in old[names].itertuples(index=False, name=None)
    ]
    return old


def _section(study, table, parts, summaries):
    """The study's report section: one part per setting in ``table``, the latest first.

    ``parts`` are :func:`split_settings` of ``table`` and ``summaries`` the
    study's summary of each, computed once by the caller.
    """
    if len(parts) == 1:
        return traced_report(study, parts[0][1], parts[0][0], summaries[0])
    texts = []
    for i, ((setting, rows), summary) in enumerate(zip(parts, summaries), 1):
        head, _, body = traced_report(study, rows, setting, summary).partition("\n")
        which = "the latest run's setting" if i == 1 else "an earlier run's setting"
        lines = [f"{head} ({which}, {i} of {len(parts)})", ""]
        lines.append(
            f"_Setting {i} of {len(parts)} ({len(rows)} rows): {describe_setting(setting)}; "
            f"in the table's `{SETTING_COLUMN}` column: `{setting}`._"
        )
        if i == 1:
            lines += ["", (
                f"_The table `{study.name}.csv` holds rows of {len(parts)} settings "
                f"(its `{SETTING_COLUMN}` column); each is analysed on its own below, "
                "never pooled, and the figures show this one. To draw another: "
                f"`t = pandas.read_csv(\"{study.name}.csv\"); "
                f"skxor.studies.get_study(\"{study.name}\").render(\"figures\", "
                f"t[t.{SETTING_COLUMN} == VALUE])`._"
            )]
        texts.append("\n".join(lines) + "\n" + body)
    return "\n\n".join(texts)


def study_floor(table):
    """The floor a study measured, from ``table.attrs``: ``(seconds, description)``.

    ``(None, None)`` when the study did not set ``floor_seconds`` (or set
    something other than a finite number > 0, which is warned about).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._runner import study_floor
    >>> table = pd.DataFrame({"x": [1]})
    >>> study_floor(table)
    (None, None)
    >>> table.attrs.update(floor_seconds=2.5, floor_description="40 steps x 62 ms")
    >>> study_floor(table)
    (2.5, '40 steps x 62 ms')
    """
    seconds = table.attrs.get("floor_seconds")
    if seconds is None:
        return None, None
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        warnings.warn(
            f"the study's floor_seconds must be a finite number > 0; got "
            f"{table.attrs['floor_seconds']!r}: floor not measured.",
            SkxorRuntimeWarning, stacklevel=2,
        )
        return None, None
    description = str(table.attrs.get("floor_description") or "no description").strip()
    return seconds, " ".join(description.split())  # one line


def format_timing(seconds, floor_seconds, floor_description, *, workers=1, loaded_cells=0,
                  computed_cells=None, backend=None):
    """``"wall time X s, floor Y s (what), ratio Rx"``, or ``"..., floor not measured"``.

    The floor is work summed over cells, so with several ``workers`` the
    ratio compares the wall time with the floor per worker. Cells read from
    checkpoints were not computed in this run: when every cell was read, no
    floor is reported; when some were, the ratio is left out (the study's
    floor may include their stored times). ``backend`` (what computed the
    cells, e.g. ``"joblib, 2 workers"``) is named after the wall time;
    without it (runs recorded before it was), the number of workers.

    Examples
    --------
    >>> from skxor.studies._runner import format_timing
    >>> format_timing(12.0, 4.0, "population steps x their measured cost")
    'wall time 12.0 s, floor 4 s (population steps x their measured cost), ratio 3.00x'
    >>> format_timing(12.0, 8.0, "fits", workers=2)
    'wall time 12.0 s on 2 workers, floor 8 s (fits; 4 s per worker), ratio 3.00x'
    >>> format_timing(12.0, 8.0, "fits", workers=2, backend="joblib, 2 workers")
    'wall time 12.0 s (joblib, 2 workers), floor 8 s (fits; 4 s per worker), ratio 3.00x'
    >>> format_timing(0.2, 8.0, "fits", loaded_cells=30, computed_cells=0)
    'wall time 0.2 s, all 30 cells read from checkpoints (nothing computed, no floor)'
    >>> format_timing(12.0, None, None)
    'wall time 12.0 s, floor not measured'
    >>> format_timing(12.0, None, None, loaded_cells=6, computed_cells=4)
    'wall time 12.0 s, floor not measured; 6 cells read from checkpoints'
    """
    wall = f"wall time {seconds:.1f} s" + (
        f" ({backend})" if backend else f" on {workers} workers" if workers > 1 else "")
    if loaded_cells and not computed_cells:
        return f"{wall}, all {loaded_cells} cells read from checkpoints (nothing computed, no floor)"
    if floor_seconds is None:
        read = f"; {loaded_cells} cells read from checkpoints" if loaded_cells else ""
        return f"{wall}, floor not measured{read}"
    per_worker = floor_seconds / workers
    what = floor_description + (f"; {per_worker:.3g} s per worker" if workers > 1 else "")
    text = f"{wall}, floor {floor_seconds:.3g} s ({what})"
    if loaded_cells:
        return (f"{text}; {loaded_cells} cells read from checkpoints, so no ratio (the floor "
                "may include their stored times)")
    return f"{text}, ratio {seconds / per_worker:.2f}x"


def _timing_ratio(seconds, floor_seconds, workers, loaded_cells):
    if floor_seconds is None or loaded_cells:
        return None
    return seconds / (floor_seconds / workers)


def _machine():
    return (
        f"{platform.node() or 'unknown host'} ({platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()})"
    )


def _format_overrides(overrides):
    if not overrides:
        return "none"
    return ", ".join(f"{k}={v!r}" for k, v in overrides.items())


def _load_state(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {"runs": [], "section": ""}


def _report_text(folder, states):
    """report.md from every study's stored section, in registry order.

    ``states``: ``{study: state}`` of the studies this run computed, replacing
    what their state files hold (the run writes them together with report.md).
    """
    state_dir = folder / STATE_DIR
    names = list(dict.fromkeys([*_stored_studies(state_dir), *states]))
    names = [n for n in STUDIES if n in names] + sorted(set(names) - set(STUDIES))
    stored = {name: states[name] if name in states else
              _load_state(state_dir / f"{name}.json") for name in names}
    runs = [run for name in stored for run in stored[name]["runs"]]
    lines = [
        "# skxor results",
        "",
        _summary_section(folder, stored, set(states)),
        "",
        "## Runs",
        "",
        "Each study's table (`<study>.csv`) merges the rows of every run below, keyed "
        "by the study's parameters and the run's setting (column `setting`): a later "
        "run replaces only rows with the same parameters and setting. A table holding "
        "several settings is analysed per setting, never pooled.",
        "",
        "| study | preset | overrides (--set) | rows written | date (UTC) | skxor | machine "
        "| wall time and floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['study']} | {r['preset']} | {r['overrides']} | {r['rows']} | {r['date']} "
        f"| {r['skxor']} | {r['machine']} | {_run_timing(r)} |"
        for r in runs
    ]
    lines.append("")
    for name in stored:
        lines += [collapse_long_tables(stored[name]["section"]), ""]
    lines += [glossary_section(), ""]
    return "\n".join(lines)


def _latest_record(path):
    """The latest run record beside the table ``path`` (None when there is none)."""
    from ._record import _parse_records

    runs = _parse_records(record_path(path))
    return runs[-1] if runs and isinstance(runs[-1], dict) else None


#: The verdicts by which a run decides a claim; any other is left to the stored design.
DECIDING = ("reproduced", "not reproduced")


def _verdict_text(study, claim_id, verdict, record, stored):
    """A claim's verdict in a Summary bullet: decided by this run, or by the stored design.

    A run whose verdict decides nothing (inconclusive, not tested, not decided
    by this design), in a setting other than the stored run's, points at the
    stored run and its verdict (``stored()`` computes them once per study).
    """
    if verdict in DECIDING:
        return f"**{verdict}**"
    verdicts, preset = stored()
    if verdicts is not None and record is not None and _preset(dict(record=record)) == preset:
        return f"**{verdict}**"  # this run is the stored design: its verdict is the verdict
    text = f"**{verdict}**" + ("" if verdict == NOT_DECIDED else f" ({NOT_DECIDED})")
    if verdicts is None:
        return (f"{text}; decided by the full preset (no stored run under {DATA_DIR} "
                "here to give its verdict)")
    return (f"{text}; decided by the {preset} preset (stored verdict: "
            f"**{verdicts.get(claim_id, 'not tested')}**)")


def summary_bullet(study, rows, summary, record, path):
    """A study's bullet of report.md's ``## Summary``: its headline and claims' verdicts.

    From the rows of the latest setting of its table and their summary;
    what its headline or a claim's rule raises, or returns wrongly, is raised
    (naming the claim and its rule, see :func:`~skxor.studies.claims.claim_rows`).
    A claim this run does not decide (:data:`DECIDING`) is shown beside its
    verdict on the stored run (:func:`~skxor.studies._publish.stored_verdicts`),
    which a run in the stored design's setting does not need.
    """
    import functools

    from ._publish import stored_verdicts
    from .claims import claim_rows, stored_summary

    stored = functools.cache(lambda: stored_verdicts(study))

    headline = ""
    if study.headline is not None:
        headline = hook_result(study.name, "headline",
                               study.render("headline", rows, summary), str)
    entry = {"table": rows, "path": path, "record": record}
    stored_summary(study, entry, summary)
    claims = claim_rows({study.name: entry}, {study.name: study})
    verdicts = "; ".join(f"{r.id} {r.claim}" + ("" if r.kind == "claim" else
                                                 f" (the library's {r.kind}, no paper's claim)")
                         + f": {_verdict_text(study, r.id, r.verdict, record, stored)}"
                         for r in claims.itertuples())
    return (f"* **{study.name}**" + (f" (verdicts: {verdicts})" if verdicts else "")
            + (f": {headline}" if headline else "."))


def _summary_section(folder, stored, computed=()):
    """report.md's ``## Summary``: per study its headline and the verdict of each claim
    its rows test, from the latest setting of ``<study>.csv`` in ``folder``.

    ``stored`` maps each study to its state: the studies ``computed`` by this run
    and studies not registered (a study file's) give the bullet their run
    computed (:func:`summary_bullet`); a registered study's is computed again from
    its table, and one that fails is named in its bullet.
    """
    bullets = []
    for name, state in stored.items():
        study, path = STUDIES.get(name), folder / f"{name}.csv"
        if name in computed or study is None:
            if state.get("bullet"):
                bullets.append(state["bullet"])
            continue
        if not path.exists():
            continue
        try:
            rows = split_settings(read_table(path))[0][1]
            bullets.append(summary_bullet(study, rows, study.summary(rows),
                                          _latest_record(path), path))
        except Exception as exc:  # another study's failing summary must not lose the report
            bullets.append(f"* **{name}**: no summary ({type(exc).__name__}: {exc}).")
    if not bullets:
        return ""
    return "\n\n".join([
        "## Summary",
        "The answer of each study in this folder, from its latest run: the headline and the "
        "verdict of each claim of the papers its rows test (the rules are in "
        "docs/results/claims.rst). A claim is decided here where its verdict is reproduced "
        "or not reproduced; any other (a part judged on fewer units than the claim needs "
        "reads 'not decided by this design') is decided by the stored full run, whose "
        "verdict stands beside it. The terms are defined once, in the Glossary at the end.",
        "\n".join(bullets)])


def _run_timing(run):
    """The timing cell of a stored run (runs stored before floors were recorded: "")."""
    if "seconds" not in run:
        return ""
    return format_timing(
        run["seconds"], run.get("floor_seconds"), run.get("floor_description"),
        workers=run.get("workers", 1), loaded_cells=run.get("loaded_cells", 0),
        computed_cells=run.get("computed_cells"), backend=run.get("backend"),
    )


def _stored_studies(state):
    """Names of the studies with a stored section: registered ones first, in order."""
    present = {p.stem for p in state.glob("*.json")}
    return [n for n in STUDIES if n in present] + sorted(present - set(STUDIES))


class _Staged:
    """Files written under temporary names beside their targets, moved into place together."""

    def __init__(self):
        self.files = []  # (temporary, target)
        self.aside = []  # (path, why): unusable files kept aside, at commit

    def write(self, path, write, mode="w"):
        """Write ``path``'s new content through ``write(fh)``; returns the temporary file."""
        tmp = write_temporary(path, write, mode)
        self.files.append((tmp, Path(path)))
        return tmp

    def write_text(self, path, text):
        return self.write(path, lambda fh: fh.write(text))

    def discard(self):
        for tmp, _ in self.files:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        self.files = []

    def commit(self):
        for path, why in self.aside:
            if path.exists():
                set_aside(path, why, stacklevel=5)
        for tmp, path in self.files:
            os.replace(tmp, path)


def add_note(exc, note):
    """Attach ``note`` to ``exc`` (``BaseException.add_note``, also before Python 3.11):
    the traceback shows it, and the command line prints it after the message."""
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:  # pragma: no cover - Python 3.10
        exc.__notes__ = [*getattr(exc, "__notes__", []), note]


def _figure_files(study, out, figures, staged):
    for fig_name, fig in figures.items():
        staged.write(out / f"{study.name}_{fig_name}.png",
                     lambda fh, fig=fig: fig.savefig(fh, format="png", dpi=110), mode="wb")
    return [f"{study.name}_{n}.png" for n in figures]


def _stage_outputs(staged, study, df, params, preset, overrides, out, run, record, timing):
    """Make every file of a finished run under a temporary name (see :class:`_Staged`).

    Returns the merged table, the rows it replaced and its parts per setting.
    """
    csv = out / f"{study.name}.csv"
    state_path = out / STATE_DIR / f"{study.name}.json"
    if (out / "report.md").exists() and not any((out / STATE_DIR).glob("*.json")):
        # A report from an older skxor, without stored sections: keep it.
        staged.aside.append((out / "report.md", "was written without per-study sections"))
    setting = run_setting(study, params)
    if SETTING_COLUMN in df:
        raise ValueError(
            f"study {study.name!r}: its table has a column {SETTING_COLUMN!r}, the name "
            "of the column the runner writes (the run's setting); rename that result.")
    stored = df.copy()
    stored[SETTING_COLUMN] = setting
    key = (*study.key, SETTING_COLUMN)
    old, why = _mergeable(csv, stored, key, study)
    if why:
        staged.aside.append((csv, why))
    table, replaced = _merged(old, stored, key)
    parts = split_settings(table, setting)
    # Each setting's summary, computed once and handed to every renderer.
    summaries = [study.summary(rows) for _, rows in parts]
    figures = hook_result(study.name, "figures",
                          study.render("figures", parts[0][1], summaries[0]), "figures")
    files = _figure_files(study, out, figures, staged)
    # The run record beside the table (with the table's rows and checksum, which
    # skxor publish checks), and which rows the figures show.
    written = staged.write_text(csv, table.to_csv(index=False))
    record = run_record(study, preset, params, overrides, setting=setting, **record)
    record.update(table_rows=len(table), table_sha256=table_checksum(written))
    text, readable = records_text(record_path(csv), record)
    if not readable:
        staged.aside.append((record_path(csv), UNREADABLE_RECORDS))
    staged.write_text(record_path(csv), text)
    drawn = figures_line(study, files, *parts[0][::-1])
    if files:  # the figures themselves, beside report.md (relative paths)
        drawn += "\n\n" + "\n\n".join(f"![{study.name}: {n}]({f})"
                                        for n, f in zip(figures, files))
    merged = "" if len(table) == len(df) else (
        f" ({len(df)} from the latest run, {len(table) - len(df)} kept from earlier runs"
        + ("" if len(parts) == 1 else f"; {len(parts)} settings") + ")"
    )
    section = "\n".join([
        _section(study, table, parts, summaries),
        *(["", drawn] if drawn else []),
        "",
        f"_{len(table)} rows{merged}; latest run: {preset} preset, overrides: "
        f"{run['overrides']}; {timing}._",
    ])
    state = _load_state(state_path)
    state["runs"] = state.get("runs", []) + [run]
    state["section"] = section
    state["bullet"] = summary_bullet(study, parts[0][1], summaries[0], record, csv)
    staged.write_text(state_path, json.dumps(state, indent=1))
    staged.write_text(out / "report.md", _report_text(out, {study.name: state}))
    return table, replaced, parts


@fill_doc
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
    Every study's parameters are validated, and the scheduler (if any)
    reached, before any work starts. Results already in ``out_dir`` are kept:
    the table merges rows of earlier runs keyed by their cell and their run's
    setting (a ``setting`` column), each setting is analysed on its own in
    the report, and the report keeps the other studies' sections (see the
    module documentation).

    Parameters
    ----------
    names : list of str or Study
        Registered study names (see ``skxor list``), or studies (a
        :class:`~skxor.studies.Study`, such as :func:`load_study` returns).
    preset : {"quick", "full"}, default="quick"
    out_dir : path, default="skxor_results"
    overrides : dict of str to dict, optional
        Per-study parameter overrides, ``{study name: {param: value}}``.
    n_jobs : int or None, default=None
    %(scheduler)s
    progress : bool, default=True
        Progress bars (shown only when standard error is a terminal).
    echo : callable, default=print
        Receives one line of progress text per study.

    Returns
    -------
    results : dict of str to pandas.DataFrame
        The table of each study as this run computed it.

    Examples
    --------
    >>> import tempfile
    >>> from skxor.studies import run_studies
    >>> folder = tempfile.mkdtemp()
    >>> tiny = {"one_step": {"d": [50], "m": [8], "seeds": 1, "n_test": 100,
    ...                      "step_length": [100.0], "n_steps": [1]}}
    >>> results = run_studies(["one_step"], out_dir=folder, overrides=tiny, echo=None)
    >>> len(results["one_step"])
    3
    """
    echo = echo or (lambda line: None)
    out = prepare_out_dir(out_dir)
    overrides = overrides or {}
    studies = [name if isinstance(name, Study) else get_study(name) for name in names]
    params = {study.name: study.params(preset, overrides.get(study.name)) for study in studies}
    client = connect(scheduler) if scheduler is not None else None
    results = {}
    try:
        for study in studies:
            results[study.name] = _run_one(
                study, params[study.name], preset, overrides.get(study.name) or {}, out,
                n_jobs=n_jobs, progress=progress, scheduler=client, echo=echo,
            )
    finally:
        if client is not None and client is not scheduler:
            client.close()
    return results


def _run_one(study, params, preset, overrides, out, *, n_jobs, progress, scheduler, echo):
    started = datetime.datetime.now(datetime.timezone.utc)
    start = time.perf_counter()
    with collect_floor() as cells_floor:
        df = study.compute(
            params, checkpoint_dir=out / "checkpoints", n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )
    seconds = time.perf_counter() - start
    df = hook_result(study.name, "compute", df, pd.DataFrame)
    missing = [k for k in study.key if k not in df]
    if missing:
        raise ValueError(
            f"study {study.name!r}: its key names column(s) {missing} that its table does not "
            f"have (its columns: {list(df.columns)}); the computed cells are checkpointed "
            "in the output folder and reused once the key is fixed.")
    floor, floor_description = study_floor(df)
    if floor is None and cells_floor["seconds"] > 0:
        # The study set no floor itself: its cells' floor_work, summed.
        floor, floor_description = cells_floor["seconds"], describe_floor(cells_floor)
    # What computed the cells (serial, joblib or dask) and on how many workers,
    # as run_sweep reported it.
    backend, workers = describe_backend(cells_floor)
    loaded, computed = cells_floor["loaded_cells"], cells_floor["cells"]
    timing = format_timing(seconds, floor, floor_description, workers=workers,
                           loaded_cells=loaded, computed_cells=computed, backend=backend)
    run = {
        "study": study.name,
        "preset": preset,
        "overrides": _format_overrides(overrides),
        "rows": len(df),
        "seconds": round(seconds, 1),
        "floor_seconds": floor,
        "floor_description": floor_description,
        "floor_ratio": _timing_ratio(seconds, floor, workers, loaded),
        "workers": workers,
        "backend": backend,
        "loaded_cells": loaded,
        "computed_cells": computed,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "skxor": __version__,
        "machine": _machine(),
    }
    csv = out / f"{study.name}.csv"
    record = dict(
        started=started, seconds=seconds, floor_seconds=floor,
        floor_description=floor_description, workers=workers, backend=backend,
        cells={"computed": computed, "loaded": loaded}, rows=len(df))
    with _locked(out):
        # Everything the run writes (table, record, figures, state, report) is made
        # under temporary names first and moved into place only once all of it was
        # made: a hook that fails leaves the previous run's set as it was.
        staged = _Staged()
        try:
            table, replaced, parts = _stage_outputs(
                staged, study, df, params, preset, overrides, out, run, record, timing)
        except BaseException as exc:
            staged.discard()
            if isinstance(exc, Exception):
                add_note(exc, (
                    f"nothing was written for study {study.name!r}: {csv.name}, "
                    f"{record_path(csv).name}, its figures and report.md in {out} are as "
                    "the previous run left them (the computed cells are checkpointed in "
                    f"{out / 'checkpoints'}, so the same command reuses them)"))
            raise
        staged.commit()
    note = f", replacing {replaced} earlier row(s) with the same parameters" if replaced else ""
    if len(parts) > 1:
        note += f"; {len(parts)} settings, each analysed on its own in report.md"
    echo(f"{study.name}: {len(df)} rows ({timing}) -> {csv} ({len(table)} rows{note})")
    return df
