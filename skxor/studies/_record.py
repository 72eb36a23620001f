"""What a run leaves beside its table: the run record and the report's data lines.

The run record ``<study>.run.json`` says how the table beside it was made:
the skxor version and git commit, the preset and every override, all
parameters (so a stored run can be compared with the preset defined in code),
the seeds, the machine (platform, CPU count, torch version, device), the start
date, the wall time and the floor, and the number of cells. A folder that
several runs wrote to keeps every run's record, the latest last.

The data lines make a report traceable: after each table of a study's report
section and for each figure it draws, a line names the rows it was computed
from (the table file, the setting, rows, cells and seeds).
"""

import json
import os
import platform
import subprocess
from pathlib import Path

import pandas as pd

from .._utils._files import set_aside
from .._version import __version__
from ._sweep import cell_version_of

#: Version of the run record's layout.
RECORD_VERSION = 1


def git_commit(path=None):
    """The git commit of the checkout holding ``path`` (default: skxor's source), or "unknown".

    A commit with uncommitted changes in the checkout is marked ``+dirty``.

    Examples
    --------
    >>> from skxor.studies._record import git_commit
    >>> import tempfile
    >>> git_commit(tempfile.mkdtemp())
    'unknown'
    """
    folder = Path(path) if path is not None else Path(__file__).resolve().parent
    try:
        def git(*args):
            return subprocess.run(
                ["git", "-C", str(folder), *args], capture_output=True, text=True,
                timeout=10, check=True,
            ).stdout.strip()

        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "") if commit else "unknown"


def machine(device="cpu"):
    """The machine a run ran on: platform, node, CPU count, Python, torch, device.

    Examples
    --------
    >>> from skxor.studies._record import machine
    >>> sorted(machine())
    ['cpu_count', 'device', 'node', 'platform', 'python', 'torch']
    """
    try:
        import torch

        torch_version = torch.__version__
    except ImportError:  # pragma: no cover - torch is a dependency
        torch_version = "not installed"
    return {
        "platform": platform.platform(),
        "node": platform.node() or "unknown",
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch_version,
        "device": str(device),
    }


def _plain(value):
    """``value`` as JSON-ready data (tuples as lists, numpy scalars as Python numbers)."""
    return json.loads(json.dumps(value, default=lambda v: v.item() if hasattr(v, "item")
                                 else str(v)))


def run_record(study, preset, params, overrides, *, started, seconds, floor_seconds,
               floor_description, workers, cells, rows, setting, backend=None):
    """The record of one run of ``study``: a JSON-ready dict.

    Parameters
    ----------
    study : Study
    preset : str
        The preset the run started from (``--preset``).
    params : dict
        Every parameter of the run (the preset with the overrides applied).
    overrides : dict
        The parameters set on top of the preset (``--set``).
    started : datetime.datetime
        When the run started (UTC).
    seconds : float
        Wall time.
    floor_seconds : float or None
        The run's floor (None: not measured).
    floor_description : str or None
    workers : int
        The workers that computed the cells: joblib's worker processes, or a
        dask cluster's worker threads; 1 when every cell ran in this process.
    cells : dict
        ``computed`` and ``loaded`` (from checkpoints) cell counts.
    rows : int
        Rows the run computed.
    setting : str
        The run's ``setting`` column value.
    backend : str or None, default=None
        What computed the cells (``"serial"``, ``"joblib, 2 workers"``,
        ``"dask, 8 worker threads"``, with the reason when a run given
        workers computed its cells in this process).

    Returns
    -------
    record : dict
        ``study``, ``skxor``, ``commit``, ``preset``, ``matches_preset``
        (the parameters equal the named preset's), ``overrides``, ``params``,
        ``seeds``, ``random_state``, ``machine``, ``started``, ``seconds``,
        ``workers``, ``backend``, ``floor_seconds``, ``floor_description``, ``cells``,
        ``rows``, ``setting``, ``cell_version`` (the explicit version of the
        study's cell, :func:`~skxor.studies.cell_version`), ``record_version``;
        after the table is
        written the runner adds ``table_rows`` and ``table_sha256`` (the
        rows and :func:`table_checksum` of the whole table beside it).

    Examples
    --------
    >>> import datetime
    >>> from skxor.studies import get_study
    >>> from skxor.studies._record import run_record
    >>> study = get_study("one_step")
    >>> record = run_record(
    ...     study, "quick", study.params("quick", {"seeds": 2}), {"seeds": 2},
    ...     started=datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
    ...     seconds=1.5, floor_seconds=1.0, floor_description="steps", workers=1,
    ...     cells={"computed": 4, "loaded": 0}, rows=4, setting="{}")
    >>> record["preset"], record["matches_preset"], record["seeds"], record["overrides"]
    ('quick', False, 2, {'seeds': 2})
    """
    return _plain({
        "record_version": RECORD_VERSION,
        "study": study.name,
        "skxor": __version__,
        "commit": git_commit(),
        "preset": preset,
        "matches_preset": study.preset_of(params) == preset,
        "overrides": dict(overrides or {}),
        "params": params,
        "seeds": params.get("seeds"),
        "random_state": params.get("random_state", 0),
        "machine": machine(params.get("device", "cpu")),
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": round(float(seconds), 2),
        "workers": int(workers),
        "backend": backend,
        "floor_seconds": None if floor_seconds is None else float(floor_seconds),
        "floor_description": floor_description,
        "cells": dict(cells),
        "rows": int(rows),
        "setting": setting,
        # The explicit version of the code that computed the cells (skxor.studies.
        # cell_version): a stored run whose cell has since been given a new one is stale.
        "cell_version": cell_version_of(study.cell),
    })


def table_checksum(path):
    """The sha256 of a stored table's CSV text (of the decompressed text for ``.csv.gz``).

    The run record holds it (``table_sha256``) so that a table edited or
    replaced after the run is told apart from the run's own; gzipping a
    table for the store leaves it unchanged.

    Examples
    --------
    >>> import gzip, pathlib, tempfile
    >>> from skxor.studies._record import table_checksum
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.csv").write_text("d\\n1\\n")
    >>> _ = (folder / "t.csv.gz").write_bytes(gzip.compress(b"d\\n1\\n"))
    >>> table_checksum(folder / "t.csv") == table_checksum(folder / "t.csv.gz")
    True
    """
    import gzip
    import hashlib

    data = Path(path).read_bytes()
    if str(path).endswith(".gz"):
        data = gzip.decompress(data)
    return hashlib.sha256(data).hexdigest()


def record_path(table_path):
    """``<study>.run.json`` beside ``<study>.csv``.

    Examples
    --------
    >>> from skxor.studies._record import record_path
    >>> record_path("out/one_step.csv").name, record_path("out/one_step.csv.gz").name
    ('one_step.run.json', 'one_step.run.json')
    """
    table_path = Path(table_path)
    return table_path.with_name(f"{table_path.name.split('.')[0]}.run.json")


def read_records(path):
    """The run records stored at ``path`` (a list, latest last; [] when none or unreadable)."""
    return _parse_records(path) or []


def _parse_records(path):
    """The records at ``path``; [] when there is no file, None when it cannot be read."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return None
    runs = data.get("runs") if isinstance(data, dict) else None
    return list(runs) if isinstance(runs, list) else None


def latest_record(path):
    """The latest run record stored at ``path`` (None when there is none)."""
    records = read_records(path)
    return records[-1] if records else None


def add_record(path, record, write_text):
    """Append ``record`` to the records at ``path``; ``write_text(path, text)`` writes.

    Records of runs whose rows the table no longer holds are kept too: the
    file is the folder's history, latest last. A file there that holds no
    readable records is renamed aside (with a warning), never overwritten.
    """
    text, readable = records_text(path, record)
    if not readable:
        # Something is there but is no record file (edited by hand, cut short):
        # keep it beside the new one rather than overwrite it.
        set_aside(path, UNREADABLE_RECORDS, stacklevel=4)
    write_text(path, text)
    return json.loads(text)["runs"]


#: Why a record file that holds no readable records is set aside.
UNREADABLE_RECORDS = "holds no readable run records"


def records_text(path, record):
    """The text of the records at ``path`` with ``record`` appended, and whether the file
    there was readable (when not, the text holds ``record`` alone: the caller keeps the
    file aside rather than overwrite it)."""
    runs = _parse_records(path)
    return json.dumps({"runs": (runs or []) + [record]}, indent=1) + "\n", runs is not None


# -- the report's data lines ------------------------------------------------------


def describe_rows(rows, key, table_name, setting=None):
    """One line naming ``rows``: table, setting, rows, cells (distinct keys), seeds.

    Parameters
    ----------
    rows : pandas.DataFrame
        The rows a table or figure was computed from.
    key : sequence of str
        The study's key columns (:attr:`Study.key`): a cell is one distinct
        key (``seed`` included), a configuration one distinct key without it.
    table_name : str
        The stored table's file name.
    setting : str or None
        The rows' ``setting`` column value (None: no setting column).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._record import describe_rows
    >>> rows = pd.DataFrame({"d": [10, 10, 20, 20], "seed": [0, 1, 0, 1]})
    >>> print(describe_rows(rows, ["d", "seed"], "one_step.csv", '{"n_test": 500}'))
    rows of `one_step.csv` with setting n_test=500: 4 rows, 4 cells (2 configurations x seeds), seeds 0-1 (2)
    """
    key = [k for k in key if k in rows.columns]
    cells = len(rows.drop_duplicates(key)) if key else len(rows)
    configurations = [k for k in key if k != "seed"]
    n_configurations = len(rows.drop_duplicates(configurations)) if configurations else 1
    where = "" if setting is None else f" with setting {describe_setting(setting)}"
    text = (f"rows of `{table_name}`{where}: {len(rows)} rows, {cells} cells "
            f"({n_configurations} configurations x seeds)")
    if "seed" in rows.columns:
        seeds = pd.to_numeric(rows["seed"], errors="coerce").dropna()
        if len(seeds):
            text += f", seeds {int(seeds.min())}-{int(seeds.max())} ({seeds.nunique()})"
    return text


def annotate_tables(text, line):
    """``text`` (Markdown) with ``line`` after every table (a block of ``|`` lines).

    Examples
    --------
    >>> from skxor.studies._record import annotate_tables
    >>> print(annotate_tables("intro\\n| a |\\n|---|\\n| 1 |\\nafter", "_Data: x._"))
    intro
    | a |
    |---|
    | 1 |
    <BLANKLINE>
    _Data: x._
    after
    """
    out = []
    lines = text.split("\n")
    for i, current in enumerate(lines):
        out.append(current)
        in_table = current.lstrip().startswith("|")
        ends = i + 1 == len(lines) or not lines[i + 1].lstrip().startswith("|")
        if in_table and ends:
            out += ["", line]
    return "\n".join(out)


def traced_report(study, rows, setting, summary=None):
    """``study.report`` of ``rows`` with a data line after each of its tables.

    Parameters
    ----------
    study : Study
    rows : pandas.DataFrame
        Rows of one setting of the study's stored table.
    setting : str or None
        Their ``setting`` value.
    summary : object or None, default=None
        ``study.summary(rows)``, computed once by the caller (see
        :meth:`Study.render <skxor.studies.Study.render>`).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import POSITIVE, Grid, Study
    >>> from skxor.studies._record import traced_report
    >>> study = Study(name="demo", description="", parameters={"d": [Grid(POSITIVE)],
    ...               "seeds": [POSITIVE]}, presets={"quick": {"d": [10], "seeds": 2}},
    ...               cell=lambda d, seed: {}, report=lambda rows: "## Demo\\n| d |\\n|---|\\n| 10 |")
    >>> rows = pd.DataFrame({"d": [10, 10], "seed": [0, 1]})
    >>> print(traced_report(study, rows, '{"n_test": 100}'))
    ## Demo
    | d |
    |---|
    | 10 |
    <BLANKLINE>
    _Data: rows of `demo.csv` with setting n_test=100: 2 rows, 2 cells (1 configurations x seeds), seeds 0-1 (2)._
    """
    from ._hooks import hook_result

    line = f"_Data: {describe_rows(rows, study.key, f'{study.name}.csv', setting)}._"
    report = study.render("report", rows, summary)
    return annotate_tables(hook_result(study.name, "report", report, str), line)


def figures_line(study, names, rows, setting):
    """The report line naming the rows the figure files ``names`` were drawn from.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import get_study
    >>> from skxor.studies._record import figures_line
    >>> rows = pd.DataFrame({"d": [10], "seed": [0]})
    >>> print(figures_line(get_study("one_step"), ["one_step_rates.png"], rows, None))
    _Figures `one_step_rates.png` drawn from rows of `one_step.csv`: 1 rows, 1 cells (1 configurations x seeds), seeds 0-0 (1)._
    """
    if not names:
        return ""
    files = ", ".join(f"`{n}`" for n in names)
    return (f"_Figures {files} drawn from "
            f"{describe_rows(rows, study.key, f'{study.name}.csv', setting)}._")


def describe_setting(setting):
    """``'{"a": 1, "b": [2, 3]}'`` as ``"a=1, b=[2, 3]"`` (a setting with no parameters: "-").

    Examples
    --------
    >>> from skxor.studies._record import describe_setting
    >>> describe_setting('{"step_length": 100, "n_test": 500}')
    'step_length=100, n_test=500'
    """
    try:
        values = json.loads(setting)
    except (TypeError, ValueError):
        return str(setting)
    if not isinstance(values, dict):
        return str(setting)
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in values.items()) or "-"


#: The column of a stored table holding the setting of the run that wrote the row.
SETTING_COLUMN = "setting"


def split_settings(table, latest=None):
    """The rows of ``table`` per setting: a list of ``(setting, rows)``.

    The setting ``latest`` (or, by default, that of the last row) comes
    first, then the others in the order they first occur. A table without a
    ``setting`` column is one setting (``None``). The first part keeps the
    table's ``attrs`` (the latest run's); the others get none.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._record import split_settings
    >>> table = pd.DataFrame({"d": [1, 2, 1], "setting": ["a", "b", "b"]})
    >>> [(s, rows["d"].tolist()) for s, rows in split_settings(table)]
    [('b', [2, 1]), ('a', [1])]
    """
    if SETTING_COLUMN not in table or table.empty:
        return [(None, table)]
    values = table[SETTING_COLUMN].astype(str)
    latest = values.iloc[-1] if latest is None else str(latest)
    order = [latest] + [v for v in dict.fromkeys(values) if v != latest]
    parts = []
    for setting in order:
        rows = table[values == setting].reset_index(drop=True)
        rows.attrs = dict(table.attrs) if setting == latest else {}
        if len(rows):
            parts.append((setting, rows))
    return parts


def ran_overrides(study, record):
    """The overrides that give a stored run's own parameters under its preset in code.

    A run of an earlier version of its preset (one the code has since
    changed, e.g. more seeds) is described by what it ran, not by today's
    preset; parameters the study no longer takes are left out.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies._record import ran_overrides
    >>> study = get_study("one_step")
    >>> params = dict(study.preset("full"), seeds=3)
    >>> ran_overrides(study, {"preset": "full", "params": params, "overrides": {}})
    {'seeds': 3}
    """
    current = study.preset(record["preset"])
    ran = record.get("params") or {}
    setting = {k: v for k, v in ran.items() if k in current and current[k] != v}
    return setting or dict(record.get("overrides") or {})
