"""Published numbers from stored runs: the store, the documents and the claims table.

Stored runs live under ``docs/results/data/<study>/``: the study's table
(``<study>.csv``, the rows a run of ``skxor run`` wrote: aggregated per cell,
no checkpoints) and its run record (``<study>.run.json``: version, commit,
preset, every override and parameter, seeds, machine, date, wall time and
floor). ``skxor publish`` writes, from those files only,

* the headline block of ``docs/results/measured.rst`` (the studies' own
  headline renderings) and, in ``README.md``, their short form (one
  clause of each, linked to the study's page: :func:`short_text`),
* a block listing the stored runs (``docs/results/measured.rst``) and a
  block summarizing the claims (``README.md``: one line per claim, its
  deciding number in short),
* the README's figure (:data:`README_FIGURE`, the one-step study's success
  figure), drawn from its stored table with the table's checksum in the
  PNG, so that ``--check`` tells whether it is the stored table's,
* one page per stored study, ``docs/results/generated/<study>.md``: the
  study's report section computed from its stored table, with the stored
  run (preset, rows, cells, seeds, commit, date, wall time) and the
  ``skxor run`` command reproducing it; ``measured.rst`` lists them,
* ``docs/results/claims.rst``: one row per claim of the two papers, with the
  paper's setting and ours, the claim in our words, the measured value with
  its interval and number of independent units, a verdict derived by the
  rule stated on the page, and the stored table it comes from.

``skxor publish --check`` exits non-zero when any of these differs from what
the stored data give (a test runs it); ``--write`` rewrites them. Both refuse
a stored table that its run record does not vouch for (another row count or
checksum, a stale preset or cell version) and, unless ``--without-record``
says to publish it so (the documents then say that its numbers are tied to
no recorded run), a table without a record or whose record holds no checksum.

The studies' figures are drawn from the same stored tables when the
documentation is built (:func:`write_figures`, called by ``docs/conf.py``),
so no image is kept in the repository but the README's one, which names the
table it was drawn from.
"""

import difflib
import functools
import hashlib
import json
import re
import zlib
from pathlib import Path


from .._utils._files import naming_the_table, read_table
from . import claims as _claims
from ._blocks import read_named_block, replace_named_block
from .claims import _preset, claim_rows, stored_summary
from .stats import wilson_interval
from ._sweep import cell_version_of

__all__ = ["claims_table", "load_store", "render_documents", "publish", "write_figures"]

#: The store, relative to the repository root.
DATA_DIR = Path("docs") / "results" / "data"
#: The generated claims page, relative to the repository root.
CLAIMS_PAGE = Path("docs") / "results" / "claims.rst"
#: The generated per-study pages (Markdown, read by myst-parser), relative to the root.
FRAGMENTS_DIR = Path("docs") / "results" / "generated"
#: The figures drawn from the store at documentation build time (not committed).
FIGURES_DIR = FRAGMENTS_DIR / "figures"
#: The README's one figure, committed (GitHub shows it): drawn by ``skxor publish
#: --write`` from the stored table of :data:`README_FIGURE_OF`, whose checksum it holds.
README_FIGURE = Path("docs") / "results" / "headline_figure.png"
#: The study and figure name of the README's figure: H1 and H3's success against d.
README_FIGURE_OF = ("one_step", "success")
#: The PNG text key holding the study and checksum of the table the figure was drawn from.
_FIGURE_SOURCE_KEY = "Source"


def claims_table(store, studies=None):
    """One row per claim of the registered studies, every number computed from ``store``.

    Each study declares its claims (:class:`~skxor.studies.Claim`, in
    ``Study(claims=...)``); a claim whose study has no stored run is listed,
    *not tested*.

    Parameters
    ----------
    store : dict
        :func:`load_store`'s result.
    studies : dict of str to Study or None, default=None
        None: the registry (:data:`~skxor.studies.STUDIES`).

    Returns
    -------
    claims : pandas.DataFrame
        ``id``, ``paper``, ``claim``, ``kind``, ``paper_setting``, ``statement``,
        ``study``, ``ours``, ``value``, ``units``, ``verdict``, ``preset`` and
        ``power`` (the stored design's power, :func:`~skxor.studies.power.power_text`)
        and ``asymptotic`` (what no finite design tests, where the claim says),
        in the order of the claims' ids.

    Examples
    --------
    >>> from skxor.studies import claims_table
    >>> claims = claims_table({})
    >>> len(claims), set(claims["verdict"])
    (12, {'not tested'})
    """
    from .claims import declared_claims
    from .power import power_text

    if studies is None:
        from ._registry import STUDIES as studies
    rows = claim_rows(store, studies)
    declared = dict((claim.id, (study, claim)) for study, claim in declared_claims(studies))
    kept = {cid: power_text(claim, (store.get(study, {}).get("power") or {}).get(cid))
            if study in store else "-" for cid, (study, claim) in declared.items()}
    return rows.assign(power=[kept[i] for i in rows["id"]],
                       asymptotic=[declared[i][1].asymptotic for i in rows["id"]])


# -- the store ---------------------------------------------------------------------


def load_store(data):
    """The stored runs under ``data``: ``{study: {"table", "record", "path"}}`` in study order.

    Parameters
    ----------
    data : path
        The store (``docs/results/data``): one folder per study holding
        ``<study>.csv`` and ``<study>.run.json``.

    Returns
    -------
    store : dict
        Per study found: its ``table`` (pandas.DataFrame), ``record`` (the
        latest run record, a dict, or None) and ``path`` (the table's path).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from skxor.studies._publish import load_store
    >>> data = Path(tempfile.mkdtemp())
    >>> (data / "one_step").mkdir()
    >>> _ = (data / "one_step" / "one_step.csv").write_text("d,seed\\n10,0\\n")
    >>> store = load_store(data)
    >>> list(store), len(store["one_step"]["table"]), store["one_step"]["record"]
    (['one_step'], 1, None)
    """
    from ._registry import STUDIES

    store = {}
    for name in STUDIES:
        entry = _load_entry(Path(data), name)
        if entry is not None:
            store[name] = entry
    return store


def _load_entry(data, name):
    """The stored run of study ``name`` under ``data`` (a store's entry), or None."""
    # A large table may be stored gzipped (pandas reads either).
    found = [data / name / f"{name}{ext}" for ext in (".csv", ".csv.gz")]
    path = next((p for p in found if p.exists()), None)
    if path is None:
        return None
    try:
        table = read_table(path)
    except (OSError, ValueError, EOFError, zlib.error) as exc:  # EOFError: cut short
        raise ValueError(f"{path} cannot be read as a table: {exc}") from exc
    return {"table": table, "record": _stored_record(path), "path": path,
            "power": _stored_power(path)}


def _stored_power(path):
    """The power kept beside a stored table (:mod:`~skxor.studies.power`), or None."""
    from ._record import table_checksum
    from .power import power_path, read_power

    return read_power(path, table_checksum(path)) if power_path(path).exists() else None


def unpowered(store, studies=None):
    """The stored studies whose claims declare ``simulate`` but whose power is not kept
    for their table: ``{study: why}`` (``skxor publish --write --power`` computes it)."""
    from ._registry import STUDIES
    from .power import claim_code, power_path

    studies = STUDIES if studies is None else studies
    found = {}
    for name, entry in store.items():
        simulated = {c.id for c in studies[name].claims if c.simulate is not None}
        if not simulated:
            continue
        kept = entry.get("power") or {}
        missing = sorted(simulated - set(kept))
        changed = sorted(c.id for c in studies[name].claims if c.id in simulated
                         and c.id in kept and kept[c.id].code != claim_code(c))
        if missing or changed:
            why = ("none is kept" if not power_path(entry["path"]).exists() else
                   "the kept one is of another table" if not kept else
                   f"it lacks claim(s) {', '.join(missing)}" if missing else
                   f"claim(s) {', '.join(changed)} changed their rule or simulation since")
            found[name] = f"{power_path(entry['path'])}: the power of its design: {why}"
    return found


def compute_power(store, studies=None, *, n_jobs=None):
    """Compute and keep the power of each stored run that :func:`unpowered` names."""
    from ._record import table_checksum
    from ._registry import STUDIES
    from .power import stored_power, write_power

    studies = STUDIES if studies is None else studies
    for name in unpowered(store, studies):
        entry = store[name]
        powers = stored_power(studies[name], entry, n_jobs=n_jobs)
        write_power(entry["path"], powers, checksum=table_checksum(entry["path"]))
        entry["power"] = powers


def stored_data_dir():
    """The store, ``docs/results/data``: under the working directory, else beside the package
    (a checkout installed in place); None where neither holds it (an installed wheel)."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        if (root / DATA_DIR).is_dir():
            return root / DATA_DIR
    return None


def stored_verdicts(study, data=None):
    """Each claim of ``study`` judged on its stored run: ``({id: verdict}, preset)``.

    The claims table's rows (:func:`claims_table`) for this study alone, from
    its run under ``data`` (default :func:`stored_data_dir`); ``(None, None)``
    where no stored run is found.

    Examples
    --------
    >>> import tempfile
    >>> from skxor.studies import get_study
    >>> from skxor.studies._publish import stored_verdicts
    >>> stored_verdicts(get_study("one_step"), tempfile.mkdtemp())
    (None, None)
    """
    data = stored_data_dir() if data is None else Path(data)
    found = [] if data is None else [p for p in (data / study.name).glob(f"{study.name}.*")
                                     if p.is_file()]
    if not found:
        return None, None
    # Kept while the stored files are unchanged: a report's Summary asks per study.
    return _verdicts_of(study, data.resolve(), tuple(sorted(
        (p.name, p.stat().st_mtime_ns) for p in found)))


@functools.lru_cache(maxsize=16)
def _verdicts_of(study, data, files):
    entry = _load_entry(data, study.name)
    if entry is None:
        return None, None
    rows = claim_rows({study.name: entry}, {study.name: study})
    return dict(zip(rows["id"], rows["verdict"])), _preset(entry)


#: What the documents read from a run record; a record without them is refused.
_RECORD_KEYS = ("preset", "params")


def _stored_record(table_path):
    """The latest run record beside a stored table: None when there is no record
    file, a ValueError naming the file when it holds no usable record."""
    from ._record import _parse_records, record_path

    path = record_path(table_path)
    runs = _parse_records(path)
    if runs == [] and not path.exists():
        return None
    record = runs[-1] if runs else None
    if not isinstance(record, dict) or any(k not in record for k in _RECORD_KEYS):
        raise ValueError(
            f"{path} holds no usable run record: the documents need its latest run's "
            f"{' and '.join(repr(k) for k in _RECORD_KEYS)} (rerun the study into the store "
            "with skxor run, e.g. with the command on its page, and commit the table with "
            "its record)."
        )
    return record


def stale_runs(store):
    """Stored runs whose parameters no longer equal their preset as defined in code, or
    whose cells were computed by an earlier explicit version of the study's cell
    (:func:`~skxor.studies.cell_version`).

    A run whose record carries ``earlier_version`` (a note saying the
    documents present it as from an earlier version of the study) is
    exempt; so is a run stored with overrides (``matches_preset`` false),
    which the documents name as such, as long as its overrides still give
    its parameters.

    Returns
    -------
    stale : dict of str to str
        Study name -> what differs.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies._publish import stale_runs
    >>> params = get_study("one_step").preset("quick")
    >>> record = {"preset": "quick", "matches_preset": True, "overrides": {}, "params": params,
    ...           "cell_version": 1}
    >>> stale_runs({"one_step": {"record": record}})
    {}
    >>> record = dict(record, params=dict(params, seeds=3))
    >>> stale_runs({"one_step": {"record": record}})["one_step"]
    "its parameters differ from preset 'quick' in code: ['seeds']"
    """
    from ._registry import get_study

    stale = {}
    for name, entry in store.items():
        record = entry.get("record")
        if record is None:
            stale[name] = "no run record"
            continue
        if record.get("earlier_version"):
            continue
        study = get_study(name)
        try:
            code = study.params(record["preset"], record.get("overrides") or {})
        except ValueError as exc:
            stale[name] = f"its preset and overrides are no longer valid: {exc}"
            continue
        # A parameter the study took later reads at its earlier value in an earlier record.
        stored = study.with_added(record["params"])
        code = json.loads(json.dumps(code))
        differ = sorted(k for k in set(code) | set(stored) if code.get(k) != stored.get(k))
        if differ:
            stale[name] = (f"its parameters differ from preset {record['preset']!r} in code: "
                           f"{differ}")
            continue
        now = cell_version_of(study.cell)
        if "cell_version" not in record:
            # Written before records named it, or edited: which code computed the
            # cells cannot be told, so nothing vouches that it is the cell's code now.
            stale[name] = (f"its run record names no cell version, so which version of "
                           f"{study.cell.__name__} computed its cells is not known (it is "
                           f"now version {now}; rerun it)")
            continue
        ran = record["cell_version"]
        if ran != now:
            stale[name] = (f"its cells were computed by version {ran} of {study.cell.__name__}, "
                           f"which is now version {now} (rerun it)")
    return stale


#: What the documents and the refusals say of a table published without a record.
_NO_RECORD = "no run record"
_NO_CHECKSUM = "a run record that holds no checksum of the table"
_UNTIED = "its numbers are tied to no recorded run"


def unrecorded(store):
    """The stored tables that no run record vouches for: study -> why.

    A table without a run record beside it, or whose record holds no
    checksum of it (``table_sha256``), could be any table: only
    ``without_record=True`` (``skxor publish --without-record``) publishes
    them, and the documents then say so.

    Examples
    --------
    >>> from skxor.studies._publish import unrecorded
    >>> unrecorded({"a": {"record": None}, "b": {"record": {"rows": 1}},
    ...             "c": {"record": {"table_sha256": "00"}}})
    {'a': 'no run record', 'b': 'a run record that holds no checksum of the table'}
    """
    out = {}
    for name, entry in store.items():
        record = entry.get("record")
        if record is None:
            out[name] = _NO_RECORD
        elif not record.get("table_sha256"):
            out[name] = _NO_CHECKSUM
    return out


def unrecorded_note(store, code="`"):
    """The documents' sentence naming the tables published without a record ("" if none).

    ``code`` quotes a command (Markdown's backtick; ``"``"`` in reStructuredText).

    Examples
    --------
    >>> from skxor.studies._publish import unrecorded_note
    >>> print(unrecorded_note({"a": {"record": None}}))
    **Published without a run record** (`skxor publish --without-record`): a (no run record); its numbers are tied to no recorded run.
    """
    missing = unrecorded(store)
    if not missing:
        return ""
    names = ", ".join(f"{name} ({why})" for name, why in missing.items())
    return (f"**Published without a run record** ({code}skxor publish --without-record"
            f"{code}): {names}; {_UNTIED}.")


def check_store(store, without_record=False):
    """Refuse a store whose tables are not their run records' runs, or whose runs are stale.

    A stored table must have a run record with its rows (``table_rows``, or
    ``rows`` in a record written before it) and its checksum
    (``table_sha256``, see :func:`~skxor.studies._record.table_checksum`):
    otherwise the documents would present an edited or cut table as the
    recorded run. A table without a record, or whose record holds no
    checksum, is refused unless ``without_record`` (``skxor publish
    --without-record``), with which the documents say that its numbers are
    tied to no recorded run. A run whose parameters no longer equal its
    preset in code, or whose cells another version of its cell computed
    (:func:`stale_runs`), is named too: the documents would call it by a
    preset it no longer is.

    Raises
    ------
    ValueError
        Naming each file and what differs.

    Examples
    --------
    >>> import pandas as pd
    >>> from pathlib import Path
    >>> from skxor.studies import get_study
    >>> from skxor.studies._publish import check_store
    >>> record = {"preset": "quick", "overrides": {}, "rows": 2, "table_sha256": "0" * 64,
    ...           "params": get_study("one_step").preset("quick")}
    >>> entry = {"table": pd.DataFrame({"d": [1]}), "record": record,
    ...          "path": Path("one_step.csv")}
    >>> check_store({"one_step": entry})
    Traceback (most recent call last):
    ...
    ValueError: one_step.csv holds 1 rows, its run record says 2: it is not the recorded run's table (rerun the study into the store, e.g. with the command on its page, and commit the table with its record).
    """
    from ._record import record_path, table_checksum

    problems = []
    missing = {} if without_record else unrecorded(store)
    if missing:
        raise ValueError("; ".join(
            f"{store[name]['path']} has {why}" for name, why in missing.items())
            + ": nothing ties its numbers to the run that made them (rerun the study into "
            "the store, e.g. with the command on its page, and commit the table with its "
            "record; or publish it as unrecorded with --without-record, and the documents "
            "say so).")
    for entry in store.values():
        record, path = entry["record"], entry["path"]
        if record is None:
            continue
        rows = record.get("table_rows", record.get("rows"))
        if rows != len(entry["table"]):
            problems.append(f"{path} holds {len(entry['table'])} rows, its run record says "
                            f"{rows}")
            continue
        expected = record.get("table_sha256")
        if expected is not None and table_checksum(path) != expected:
            problems.append(f"{path} is not the table its run record describes (its sha256 "
                            f"{table_checksum(path)[:16]}..., the record's {expected[:16]}...: "
                            "edited or replaced after the run)")
    if problems:
        raise ValueError("; ".join(problems) + ": it is not the recorded run's table (rerun "
                         "the study into the store, e.g. with the command on its page, and "
                         "commit the table with its record).")
    stale = {name: why for name, why in stale_runs(store).items()
             if store[name]["record"] is not None}
    if stale:
        raise ValueError("; ".join(
            f"{record_path(store[name]['path'])}: the stored run is stale, {why}"
            for name, why in stale.items()) + ". The documents would present it as that "
            "preset: rerun the study, or set \"earlier_version\" in its record (a note "
            "the documents print) to publish it as a run of an earlier version.")


def store_size(data):
    """Bytes of every file under ``data``."""
    return sum(p.stat().st_size for p in Path(data).rglob("*") if p.is_file())


# -- the documents ---------------------------------------------------------------------


def _headline(store):
    from ._headline import headline_renderers
    from ._registry import get_study

    # The renderers and order of skxor headline, so that both write the same block.
    bullets = []
    for name in headline_renderers():
        if name in store:
            study, entry = get_study(name), store[name]
            with naming_the_table(name, entry["path"]):
                bullets.append(study.render("headline", entry["table"],
                                            stored_summary(study, entry)))
    return "\n".join(f"* {b}" for b in bullets)


def _presets_text(store):
    """Each preset of the stored runs with the studies stored at it, so that a note on an
    earlier version says whose run it is about: ``"full (every study)"``, or
    ``"full (flip_effect, one_step); full (from an earlier version: ...) (k_sparse)"``."""
    by_preset = {}
    for name, entry in store.items():
        by_preset.setdefault(_preset(entry), []).append(name)
    if len(by_preset) == 1:
        return f"{next(iter(by_preset))} (every study)"
    return "; ".join(f"{preset} ({', '.join(sorted(names))})"
                     for preset, names in sorted(by_preset.items())) or "none"


def _runs_rst(store, data):
    lines = [
        "", ".. list-table:: Stored runs, under docs/results/data/",
        "   :header-rows: 1", "",
        "   * - study", "     - preset", "     - rows", "     - cells", "     - wall time (s)",
        "     - dry-run estimate (s)", "     - workers", "     - size (kB)", "     - commit",
        "     - date (UTC)", "     - table's sha256 (first 16)",
    ]
    ratios, bounded, resumed = [], [], []
    for name, entry in store.items():
        r = entry["record"] or {}
        cells = r.get("cells", {})
        size = sum(p.stat().st_size for p in (Path(data) / name).glob("*") if p.is_file())
        predicted, upper_bound = _dry_run_seconds(name, r)
        wall = r.get("seconds", "-")
        if cells and cells.get("loaded", 0):
            # A resumed run's wall time is its last part's: the cells it read from
            # checkpoints were timed by an earlier process, so it is no measure of the run.
            resumed.append(name)
            wall = f"{wall} (the last part: {cells['loaded']} cells read from checkpoints)"
        elif predicted and isinstance(r.get("seconds"), (int, float)):
            ratios.append(r["seconds"] / predicted)
            if upper_bound:
                bounded.append(name)
        lines += [
            f"   * - ``{name}/{entry['path'].name}``", f"     - {_preset(entry)}",
            f"     - {len(entry['table'])}",
            f"     - {cells.get('computed', 0) + cells.get('loaded', 0) if cells else '-'}",
            f"     - {wall}",
            f"     - {'-' if predicted is None else f'{predicted:.0f}'}",
            f"     - {r.get('workers', '-')}",
            f"     - {size / 1000:.0f}", f"     - ``{str(r.get('commit', 'unknown'))[:12]}``",
            f"     - {r.get('started', '-')}",
            f"     - ``{hashlib.sha256(entry['path'].read_bytes()).hexdigest()[:16]}``",
        ]
    lines += ["", f"Stored presets: {_presets_text(store)}; total size "
              f"{store_size(data) / 1000:.0f} kB. The checksum ties this page to the exact "
              "stored rows: any edited row changes it."]
    note = unrecorded_note(store, "``")
    if note:
        lines += ["", note]
    if ratios:
        lines += ["", "The dry-run estimate is what ``skxor run STUDY --preset NAME --dry-run "
                  "--n-jobs WORKERS`` predicts for the run's own preset and overrides, from the "
                  "cost model calibrated on a 2-core machine "
                  "(``skxor/studies/data/costs.csv``); the measured wall time was "
                  f"{min(ratios):.2f} to {max(ratios):.2f} times the estimate over these "
                  f"{len(ratios)} runs."]
        if resumed:
            lines[-1] += (f" Left out: {', '.join(resumed)}, resumed from checkpoints after a "
                          "stop (a resumed run's wall time is its last part's).")
        if bounded:
            lines[-1] += (f" For {', '.join(bounded)} the dry run counts every cell the "
                          "run may try, an upper bound: the run stops trying sizes once its "
                          "rule is met.")
    return "\n".join(lines + [""])


def _dry_run_seconds(name, record):
    """The dry run's wall-time estimate for a stored run and whether its cell count is an
    upper bound ((None, False) where it cannot be made: no record, or a preset or
    override this version no longer has)."""
    from ._cost import estimate
    from ._record import ran_overrides
    from ._registry import get_study

    if not record.get("preset"):
        return None, False
    try:
        # What the run ran, also where its preset has changed since (an earlier version).
        e = estimate(name, record["preset"], ran_overrides(get_study(name), record) or None,
                     n_jobs=record.get("workers") or 1)
    except (KeyError, TypeError, ValueError):
        return None, False
    return e["wall_seconds"], e["upper_bound"]


def _claims_md(claims, store):
    """README's claims block: a count line over the papers' claims, then one line per
    claim (its verdict, the part that decides it in short, and where its details are).

    The deciding number is :func:`short_text` of the claim's deciding part; the
    whole part, and every other, is on the claims page. The preset of the runs is
    said once when every claim's run is of one preset, else on each row."""
    presets = set(claims["preset"]) if len(claims) else set()
    one_preset = len(presets) == 1
    of = f" ({next(iter(presets))} presets)" if one_preset else ""
    lines = [f"Of the stored runs{of}: {short_answer(claims)}", "",
             "| claim | verdict | deciding number | details |", "|---|---|---|---|"]
    for r in claims.itertuples():
        who = r.paper if getattr(r, "kind", "claim") == "claim" else "the library's own"
        number = short_text(deciding_part(r.judged, r.verdict))
        if not one_preset:  # the preset in short: why a run is of an earlier version is on the page
            preset, earlier = re.subn(r" \(from an earlier version: .*\)$", "", str(r.preset))
            number += f" ({preset}{', earlier version' if earlier else ' preset'})"
        lines.append(f"| {r.id} {r.claim} ({who}) | {r.verdict} | {number} | "
                     f"[claim](docs/results/claims.rst), [study]({FRAGMENTS_DIR}/{r.study}.md) |")
    lines.append("")
    note = unrecorded_note(store)
    if note:
        lines += [note, ""]
    lines.append("Generated by `skxor publish --write` from `docs/results/data`. Each deciding "
                 "number is in short; in full, with every part of each claim, its strength, "
                 "regime, rule, every series and what would have contradicted it, on the "
                 "[claims page](docs/results/claims.rst).")
    return "\n".join(lines)


#: :func:`short_text` drops a parenthetical longer than this (a definition, a caveat).
_ASIDE_CHARS = 40


def _drop_long_asides(text, limit=_ASIDE_CHARS):
    """``text`` without its parentheticals of more than ``limit`` characters."""
    kept, i = [], 0
    while i < len(text):
        if text[i] != "(":
            kept.append(text[i])
            i += 1
            continue
        depth, j = 1, i + 1  # j: past the matching ")"
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        if depth == 0 and j - i > limit + 2:
            while kept and kept[-1] == " ":  # and the space before it
                kept.pop()
        else:
            kept.append(text[i:j])
        i = j
    return " ".join("".join(kept).split())


def _clause_ends(text):
    """Where ``text``'s top-level clauses end, best first: before a ``"; "`` or ``". "``;
    then after an interval (``"], "``, ``"]: "``); then before any ``", "`` or ``": "``.
    Each as a list of indices, outside brackets."""
    major, interval, minor, depth = [], [], [], 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if depth or text[i + 1:i + 2] != " ":
            continue
        if ch in ";.":
            major.append(i)
        elif ch in ",:":
            (interval if text[i - 1:i] == "]" else minor).append(i)
    return major, interval, minor


def short_text(text, limit=140):
    """A measured statement in short: its long asides dropped, cut at a clause end.

    Parentheticals of more than 40 characters (definitions, caveats, the
    censoring counts) are dropped; a text still longer than ``limit`` is cut
    within ``limit`` at its last ``;`` or ``.``, else after its last interval
    (``]``), else at its last ``,`` or ``:``, keeping a part that holds a
    number. The long form stays on the claims and study pages.

    Examples
    --------
    >>> from skxor.studies._publish import short_text
    >>> short_text("each head on its own bit: not tested (needs each head's attention "
    ...            "mass on its own bit, which the stored runs do not record)")
    'each head on its own bit: not tested'
    >>> short_text("a = 1.0 [0.5, 2.0], b = 2.0 [1.0, 3.0]; and so on for a while", limit=50)
    'a = 1.0 [0.5, 2.0], b = 2.0 [1.0, 3.0]'
    >>> short_text("k = 2: 0.9 [0.8, 1.0], k = 3: 0.3 [0.2, 0.4], k = 4", limit=40)
    'k = 2: 0.9 [0.8, 1.0]'
    """
    text = _drop_long_asides(" ".join(str(text).split()))
    if len(text) <= limit:
        return text
    for ends in _clause_ends(text):
        for end in reversed(ends):
            if end <= limit and re.search(r"\d", text[:end]):
                return text[:end]
    return text[:limit].rstrip() + "..."


def _highlights_md(store):
    """README's short headline: one bullet per stored study, its title and the first
    clauses of its headline bullet in short (:func:`short_text`), linked to its page."""
    from ._headline import headline_renderers
    from ._registry import get_study

    bullets = []
    for name in headline_renderers():
        if name not in store:
            continue
        study, entry = get_study(name), store[name]
        with naming_the_table(name, entry["path"]):
            bullet = study.render("headline", entry["table"], stored_summary(study, entry))
        title, body = _split_title(bullet)
        bullets.append(f"* **{title}**: {short_text(body, 200)} "
                       f"([more]({FRAGMENTS_DIR.as_posix()}/{name}.md))")
    return "\n".join(bullets)


def _split_title(bullet):
    """A headline bullet's bold title and its measured text, without the setting (the
    parenthetical after the title)."""
    match = re.match(r"\*\*(.+?)\*\*\s*", bullet)
    if not match:
        return "", bullet
    title, rest = match.group(1), bullet[match.end():]
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                rest = rest[i + 1:]
                break
    return title, rest.lstrip(" :")


def _verdict_rule_text():
    """The verdict rules in words, every threshold read from the constants the rules use."""
    c = _claims
    _, none_high = wilson_interval(0, 30, c.CONFIDENCE)
    all_low, _ = wilson_interval(25, 25, c.CONFIDENCE)
    return (
        "**Verdict rules.** Each claim is declared with its strength and the regime it speaks "
        "about, and judged in parts (per d, per N, per attention type, ...), each part with its "
        f"own verdict. A rate's interval is {c.CONFIDENCE:.0%} with the independent units "
        "named in the row: where runs of one seed share its draws (pooled over m, or over d), "
        "the seeds are the units (the seed-clustered interval: a beta-binomial profile "
        "likelihood over the seeds' counts, and where every run agrees, at least "
        f"the Wilson interval over the seeds: 0 of 30 seeds is [0, {none_high:.2f}]). *With "
        f"high probability*: a part is reproduced when the lower end is at least {c.WHP_LOW:g} "
        f"and the upper end reaches {c.WHP_HIGH:g}, not reproduced when the upper end is below "
        f"{c.WHP_HIGH:g} (the lower threshold is one that 25 of 25 seeds can reach: their "
        f"lower end is {all_low:.2f}; a failure share above 10% is what contradicts). "
        f"*Almost surely*: the same at {c.ALMOST_SURE_LOW:g} and "
        f"{c.ALMOST_SURE_HIGH:g}. *A claimed failure*: reproduced when the upper end is at "
        f"most {c.FAILURE_HIGH:g}, not reproduced when the lower end is above it. Scaling and "
        "reference comparisons state their own rule in the row. Anything else is "
        "*inconclusive*. *Multiplicity*: a part is not reproduced only when Holm's step-down "
        f"procedure over the claim's judged parts rejects it at family-wise level "
        f"{c.FAMILY_ALPHA:g} (Holm, 1979); a claim is reproduced only when every judged part "
        "is (an intersection-union test, Berger 1982), and *not reproduced* as soon as one "
        "part is, never 'in part'. Series the paper does not claim, or the library's own "
        "extensions, are shown in the row without a verdict. *Not tested*: the stored runs "
        "do not measure it; the row says what it needs. Best-of choices (step lengths) are "
        "made on held-out seeds and reported on the others.")


def deciding_part(judged, verdict):
    """The part of a claim's ``judged`` text that decides its ``verdict`` (one number).

    The parts are ``"; "``-separated, each ending in its verdict in
    parentheses: the first part with the claim's verdict; the whole text
    when no part names one.

    Examples
    --------
    >>> from skxor.studies._publish import deciding_part
    >>> deciding_part("k = 2: 2/8 = 0.25 [0.07, 0.59] (not reproduced); "
    ...               "k = 3: 0/8 = 0.00 [0.00, 0.32] (inconclusive)", "not reproduced")
    'k = 2: 2/8 = 0.25 [0.07, 0.59]'
    >>> deciding_part("no part judged", "not tested")
    'no part judged'
    """
    for part in str(judged).split("; "):
        if part.endswith(f"({verdict})"):
            return part[: -len(f"({verdict})")].strip()
    return str(judged)


def short_answer(claims):
    """The claims page's count: the papers' claims by verdict; the library's own apart.

    The library's controls and numerical checks (a :class:`Claim` of another
    ``kind``) are no claim of a paper: listed by id after the count, never
    counted in it.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._publish import short_answer
    >>> short_answer(pd.DataFrame({"id": ["H1", "H2", "K4"], "kind": ["claim", "claim",
    ...     "numerical check"], "verdict": ["reproduced", "not tested", "reproduced"]}))
    "of 2 claims of the papers, 1 reproduced (H1), 1 not tested (H2). The library's own, not counted: K4 (a numerical check) reproduced."
    """
    papers = claims[claims["kind"] == "claim"] if "kind" in claims else claims
    own = claims[claims["kind"] != "claim"] if "kind" in claims else claims.iloc[:0]
    counts = ", ".join(
        f"{len(group)} {verdict} ({', '.join(group['id'])})"
        for verdict in ("reproduced", "not reproduced", "inconclusive", "not tested",
                        "not decided by this design")
        for group in [papers[papers["verdict"] == verdict]] if len(group))
    text = f"of {len(papers)} claims of the papers, {counts or 'none'}."
    if len(own):
        text += " The library's own, not counted: " + "; ".join(
            f"{r.id} (a {r.kind}) {r.verdict}" for r in own.itertuples()) + "."
    return text


def _claims_rst(claims, store):
    title = "Claims of the two papers against the stored runs"
    answer = short_answer(claims)
    lines = [
        ".. Generated by ``skxor publish --write`` from docs/results/data; do not edit.",
        "", title, "=" * len(title), "",
        f"**The short answer:** {answer} Each row gives the claim, "
        "its verdict and the one measured part that decides it (the first part with the "
        "claim's verdict); every part, the rule and what would have contradicted it are "
        "under :ref:`claim-details`. Every number on this page is computed from the stored "
        "tables under ``docs/results/data/<study>/`` by ``skxor publish``; a test "
        "regenerates the page and fails on any difference. "
        f"Presets of the stored runs: {_presets_text(store)}.",
        "",
        *([unrecorded_note(store, "``"), ""] if unrecorded(store) else []),
        ".. list-table::", "   :header-rows: 1", "   :widths: 4 30 12 54", "",
        "   * - id", "     - claim (paper)", "     - verdict", "     - deciding number",
    ]
    for r in claims.itertuples():
        lines += [f"   * - {r.id}", f"     - {r.claim} ({r.paper})", f"     - **{r.verdict}**",
                  f"     - {deciding_part(r.judged, r.verdict)}"]
    lines += ["", ".. _claim-details:", "", "Details", "-------", "", _verdict_rule_text(), ""]
    for r in claims.itertuples():
        table = store[r.study]["path"].name if r.study in store else f"{r.study}.csv"
        heading = f"{r.id}: {r.claim} - {r.verdict}"
        lines += [
            heading, "~" * len(heading), "",
            f":Claim: {r.claim} ({r.paper}, {r.source})",
            f":In our words: {r.statement} (paper's setting: {r.paper_setting}). Strength: "
            f"{r.strength}. Regime: {r.regime}.",
            f":Our setting: {r.ours} ({r.preset} preset)",
            f":Measured: {r.value} ({r.units})",
            f":Rule: {r.rule}",
            f":Would have contradicted it: {r.contradicted_by}",
            f":Verdict: **{r.verdict}**",
            f":Power of the stored design: {r.power}",
            *([f":What no finite design tests: {r.asymptotic}"] if r.asymptotic else []),
            f":Table: :download:`{table} <data/{r.study}/{table}>`", "",
        ]
    return "\n".join(lines) + "\n"


def reproduce_command(name, record):
    """The ``skxor run`` command line that reproduces the stored run of ``name``.

    Every override of the run record becomes a ``--set NAME.PARAM=VALUE``
    (the value as JSON, which ``--set`` reads back unchanged).

    Examples
    --------
    >>> from skxor.studies._publish import reproduce_command
    >>> reproduce_command("one_step", {"preset": "full", "overrides": {"seeds": 3}})
    'skxor run one_step --preset full --set one_step.seeds=3 --n-jobs 2 --out results/one_step'
    >>> reproduce_command("k_sparse", {"preset": "quick", "overrides": {"k": [2, 3]}})
    "skxor run k_sparse --preset quick --set 'k_sparse.k=[2, 3]' --n-jobs 2 --out results/k_sparse"
    """
    import shlex

    parts = ["skxor", "run", name, "--preset", record["preset"]]
    for param, value in sorted((record.get("overrides") or {}).items()):
        parts += ["--set", f"{name}.{param}={json.dumps(value)}"]
    parts += ["--n-jobs", "2", "--out", f"results/{name}"]
    return " ".join(shlex.quote(p) for p in parts)


def _run_line(name, entry):
    """What the stored run of ``name`` is, from its run record, and how to reproduce it."""
    record = entry["record"]
    rows = len(entry["table"])
    if record is None:
        return (f"Stored run: `{entry['path'].name}`, {rows} rows, {_NO_RECORD} (published "
                f"with `skxor publish --without-record`: its preset and command are unknown, "
                f"and {_UNTIED}).")
    cells = record.get("cells") or {}
    commit = str(record.get("commit", "unknown"))
    dirty = commit.endswith("+dirty")
    line = (f"Stored run (`docs/results/data/{name}/{entry['path'].name}`): preset "
            f"**{_preset(entry)}**, {rows} rows, "
            f"{cells.get('computed', 0) + cells.get('loaded', 0)} cells, "
            f"{record.get('seeds', '-')} seeds, commit `{commit.removesuffix('+dirty')[:12]}`"
            f"{' (with uncommitted changes)' if dirty else ''}, started "
            f"{record.get('started', '-')}, wall time {record.get('seconds', '-')} s with "
            f"{record.get('workers', '-')} worker(s). Every number below is computed from "
            f"that table by `skxor publish --write`. Reproduce it with\n\n"
            f"```bash\n{reproduce_command(name, record)}\n```")
    if not record.get("table_sha256"):
        line += (f"\n\nThe table has {_NO_CHECKSUM} (published with `skxor publish "
                 f"--without-record`): {_UNTIED}.")
    return line


def _shift_headings(markdown):
    """Each Markdown heading one level up (a report's ``## Title`` becomes the page's title)."""
    return re.sub(r"^#(#+ )", r"\1", markdown, flags=re.M)


def render_fragment(name, entry):
    """The generated page of study ``name``: its report section from the stored table.

    Parameters
    ----------
    name : str
        A registered study.
    entry : dict
        Its entry of :func:`load_store` (``table``, ``record``, ``path``).

    Returns
    -------
    page : str
        Markdown: the study's :meth:`report` section (title promoted to the
        page title), after the title a line naming the stored run (preset,
        rows, cells, seeds, commit, date, wall time) and the command that
        reproduces it; last, a section including the figures
        :func:`write_figures` draws at documentation build time.

    Examples
    --------
    >>> from skxor.studies._publish import load_store, render_fragment
    >>> store = load_store("docs/results/data")  # doctest: +SKIP
    >>> print(render_fragment("one_step", store["one_step"])[:12])  # doctest: +SKIP
    # Normalised
    """
    from ._registry import get_study
    from ._page import collapse_long_tables

    study = get_study(name)
    report = _shift_headings(
        study.render("report", entry["table"], stored_summary(study, entry)).strip())
    title, _, body = report.partition("\n")
    if not title.startswith("# "):
        title, body = f"# {name}", report
    answer = _short_answer(name, study, entry)
    figures = (
        "## Figures\n\nEvery figure of the study, drawn from the stored table when the "
        "documentation is built (`skxor.studies.write_figures`), so each shows the rows "
        "this page's numbers come from; click a figure to open it at full size.\n\n"
        f"```{{include}} {FIGURES_DIR.relative_to(FRAGMENTS_DIR).as_posix()}/{name}.md\n"
        "```\n")
    return (f"<!-- Generated by skxor publish --write from docs/results/data/{name}; "
            f"do not edit. -->\n\n{title}\n\n{answer}\n\n{figures}\n"
            f"## Details\n\n{_run_line(name, entry)}\n\n"
            f"{collapse_long_tables(_sink_headings(body.strip()))}\n")


def _sink_headings(markdown):
    """Each Markdown heading one level down (the report's sections under "Details")."""
    return re.sub(r"^(#+ )", r"#\1", markdown, flags=re.M)


def _short_answer(name, study, entry):
    """A study page's opening: its headline bullet and the verdict of each of its claims."""
    claims = claim_rows({name: entry}, {name: study})
    headline = (study.render("headline", entry["table"], stored_summary(study, entry))
                if study.headline is not None else "")
    lines = ["**The short answer.**" + (f" {headline}" if study.headline is not None else "")]
    if len(claims):
        lines += ["", "| claim | verdict | deciding number |", "|---|---|---|"]
        lines += [f"| {r.id} {r.claim} | **{r.verdict}** | {deciding_part(r.judged, r.verdict)} |"
                  for r in claims.itertuples()]
        lines += ["", "The rules, every part and what would have contradicted each claim: "
                  "[the claims page](../claims.rst)."]
    return "\n".join(lines)


def write_figures(data=DATA_DIR, out=FIGURES_DIR, root="."):
    """Draw every stored study's figures from its stored table into ``out``.

    For each study in the store, writes ``<out>/<study>_<name>.png``
    (one per figure of :attr:`Study.figures <skxor.studies.Study>`, drawn
    from the rows of the stored run's setting, as ``skxor run`` draws them)
    and ``<out>/<study>.md``, the Markdown the study's generated page
    includes: each figure with a caption naming the rows it was drawn from.

    Parameters
    ----------
    data : path, default="docs/results/data"
        The store (relative paths are taken from ``root``).
    out : path, default="docs/results/generated/figures"
        Where the figures go (relative paths are taken from ``root``); the
        snippets name the images relative to ``out``'s parent, the folder of
        the pages that include them.
    root : path, default="."

    Returns
    -------
    written : dict of str to list of pathlib.Path
        Per study, the PNG files written.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from skxor.studies import write_figures
    >>> written = write_figures(out=tempfile.mkdtemp())  # doctest: +SKIP
    >>> sorted(p.name for p in written["one_step"])  # doctest: +SKIP
    ['one_step_attention_maps.png', 'one_step_step_length.png', 'one_step_success.png']
    """
    import matplotlib.pyplot as plt

    from ._record import describe_rows, figures_line
    from ._registry import get_study

    root = Path(root)
    out = root / out
    written = {}
    for name, entry in load_store(root / data).items():
        study = get_study(name)
        setting, rows, figures = _stored_figures(name, study, entry)
        out.mkdir(parents=True, exist_ok=True)
        paths, lines = [], []
        for fig_name, fig in figures.items():
            path = out / f"{name}_{fig_name}.png"  # the names skxor run gives them
            fig.savefig(path, format="png", dpi=90)
            plt.close(fig)
            paths.append(path)
            # Relative to the page that includes this snippet (out's parent).
            lines += [f"```{{figure}} {out.name}/{path.name}", f":alt: {name}: {fig_name}",
                      # Wider than the page's body: fitted to it, and Sphinx links the
                      # scaled image to its full size (html_scaled_image_link).
                      *([":width: 100%"] if fig.get_figwidth() * 90 > 1000 else []), "",
                      f"**{fig_name.replace('_', ' ')}**: {figure_caption(fig)} Drawn from "
                      f"{describe_rows(rows, study.key, entry['path'].name, setting)}.",
                      "```", ""]
        stored = entry["path"].name
        drawn = figures_line(study, [p.name for p in paths], rows, setting)
        lines.append(drawn.replace(f"{name}.csv", stored) if drawn else "_No figures._")
        (out / f"{name}.md").write_text("\n".join(lines) + "\n")
        written[name] = paths
    return written


def _stored_figures(name, study, entry):
    """``(setting, rows, figures)``: the first setting of a stored run, its rows and the
    study's figures of them."""
    from ._hooks import hook_result
    from ._record import split_settings

    parts = split_settings(entry["table"], (entry["record"] or {}).get("setting"))
    setting, rows = parts[0]
    # The stored run's summary when the table is that one setting.
    summary = stored_summary(study, entry) if len(parts) == 1 else study.summary(rows)
    figures = hook_result(name, "figures", study.render("figures", rows, summary), "figures")
    return setting, rows, figures


def _figure_source(store):
    """``(study, entry, source)`` of the README's figure: its study's stored entry and
    the text naming the table it is drawn from (None when that study is not stored)."""
    name = README_FIGURE_OF[0]
    entry = store.get(name)
    if entry is None:
        return name, None, None
    checksum = (entry["record"] or {}).get("table_sha256") or hashlib.sha256(
        entry["path"].read_bytes()).hexdigest()
    return name, entry, f"{entry['path'].name} sha256 {checksum}"


def _draw_readme_figure(store):
    """The README's figure drawn from its stored table, and its caption (Markdown)."""
    from ._registry import get_study

    name, entry, source = _figure_source(store)
    study = get_study(name)
    with naming_the_table(name, entry["path"]):
        setting, rows, figures = _stored_figures(name, study, entry)
    figure = figures[README_FIGURE_OF[1]]
    for other in figures.values():
        if other is not figure:
            _close(other)
    # In short: what the panels show and the rows; the figure's own title and the full
    # caption are on the study's page.
    shown = list(dict.fromkeys(" ".join(f"{ax.get_ylabel()} against {ax.get_xlabel()}".split())
                               for ax in figure.axes if ax.get_xlabel() and ax.get_ylabel()))
    panels = sum(1 for ax in figure.axes if ax.get_xlabel() or ax.get_ylabel())
    caption = (f"**{name}**: {'; '.join(shown)} ({panels} panels). Drawn by "
               f"`skxor publish --write` from {len(rows)} rows of `{entry['path'].name}` "
               f"({_preset(entry)} preset); with its full caption and the study's other "
               f"figures on [the {name} page]({FRAGMENTS_DIR.as_posix()}/{name}.md).")
    return figure, caption, source


def _close(figure):
    import matplotlib.pyplot as plt

    plt.close(figure)


def _figure_md(caption):
    return (f"![{README_FIGURE_OF[0]}: {README_FIGURE_OF[1]}]({README_FIGURE.as_posix()})"
            f"\n\n{caption}")


def png_text(path):
    """The text chunks (``tEXt``, uncompressed ``iTXt``) of a PNG: ``{key: text}``.

    Examples
    --------
    >>> import io, tempfile
    >>> from pathlib import Path
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies._publish import png_text
    >>> path = Path(tempfile.mkdtemp()) / "f.png"
    >>> Figure().savefig(path, metadata={"Source": "t.csv sha256 00", "Caption": "n ≥ 2"})
    >>> png_text(path)["Source"], png_text(path)["Caption"]
    ('t.csv sha256 00', 'n ≥ 2')
    """
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return {}
    texts, at = {}, 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind = data[at + 4:at + 8]
        chunk = data[at + 8:at + 8 + length]
        if kind == b"tEXt":
            key, _, value = chunk.partition(b"\0")
            texts[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"iTXt":  # text beyond latin-1: key, flags, language, key again, UTF-8
            key, _, rest = chunk.partition(b"\0")
            if rest[:1] == b"\0":  # not compressed
                _, _, rest = rest[2:].partition(b"\0")
                _, _, value = rest.partition(b"\0")
                texts[key.decode("latin-1")] = value.decode("utf-8")
        if kind == b"IEND":
            break
        at += 12 + length
    return texts


def figure_caption(figure):
    """What ``figure`` shows, read from it: its title, and each panel's y against x.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies._publish import figure_caption
    >>> fig = Figure()
    >>> a, b = fig.subplots(1, 2)
    >>> _ = fig.suptitle("Success"), a.set(xlabel="d", ylabel="rate", title="k = 2")
    >>> _ = b.set(xlabel="d", ylabel="rate", title="k = 3")
    >>> figure_caption(fig)
    'Success: rate against d, 2 panels (k = 2, k = 3).'
    """
    title = figure._suptitle.get_text() if figure._suptitle is not None else ""
    title = " ".join(title.split()).rstrip(".")
    shown = list(dict.fromkeys(f"{ax.get_ylabel()} against {ax.get_xlabel()}"
                               for ax in figure.axes if ax.get_xlabel() and ax.get_ylabel()))
    shown = [" ".join(s.split()) for s in shown]
    panels = [ax for ax in figure.axes if ax.get_xlabel() or ax.get_ylabel()]
    titles = list(dict.fromkeys(" ".join(ax.get_title().split()) for ax in panels
                                if ax.get_title()))
    what = "; ".join(shown)
    if len(panels) > 1:  # the panels' titles when they are few enough to read
        what += f", {len(panels)} panels" + (f" ({', '.join(titles)})"
                                             if titles and len(titles) <= 4 else "")
    return (f"{title}: {what}." if title else f"{what[:1].upper()}{what[1:]}.").replace("..", ".")


def _studies_rst(store):
    lines = ["", ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   /{(FRAGMENTS_DIR / name).relative_to('docs').as_posix()}" for name in store]
    return "\n".join(lines) + "\n"


def render_documents(data=DATA_DIR, root=".", *, without_record=False, store=None):
    """The generated documents from the store at ``data``: ``{path: text}``.

    Parameters
    ----------
    data : path, default="docs/results/data"
        The store (relative paths are taken from ``root``).
    root : path, default="."
        The repository root holding README.md and docs/.
    without_record : bool, default=False
        Publish a table without a run record, or whose record holds no
        checksum of it (refused otherwise, see :func:`check_store`); the
        documents then name it as tied to no recorded run.
    store : dict, optional
        The store already loaded from ``data`` (:func:`load_store`).

    Returns
    -------
    documents : dict of pathlib.Path to str
        README.md and docs/results/measured.rst with their generated blocks
        replaced, docs/results/claims.rst whole, and one page per stored
        study, ``docs/results/generated/<study>.md`` (:func:`render_fragment`).

    Examples
    --------
    >>> from skxor.studies._publish import render_documents
    >>> docs = render_documents()  # doctest: +SKIP
    >>> sorted(p.name for p in docs)  # doctest: +SKIP
    ['README.md', 'claims.rst', 'k_sparse.md', 'measured.rst', 'one_step.md', ...]
    """
    root = Path(root)
    data = root / data
    store = load_store(data) if store is None else store
    if not store:
        raise ValueError(f"no stored run (e.g. one_step/one_step.csv) under {data}.")
    check_store(store, without_record)
    # Each study's page first: a table that cannot be summarized (an edited
    # value, a missing column) is then named in the error.
    pages = {}
    for name, entry in store.items():
        with naming_the_table(name, entry["path"]):
            pages[root / FRAGMENTS_DIR / f"{name}.md"] = render_fragment(name, entry)
    claims = claims_table(store)
    readme, measured = root / "README.md", root / "docs" / "results" / "measured.rst"
    headline = _headline(store)
    text = readme.read_text()
    if read_named_block(text, "headline", "md") is not None:  # README may leave it to the page
        text = replace_named_block(text, "headline", headline, "md")
    text = replace_named_block(text, "claims", _claims_md(claims, store), "md")
    if read_named_block(text, "highlights", "md") is not None:
        text = replace_named_block(text, "highlights", _highlights_md(store), "md")
    if read_named_block(text, "figure", "md") is not None:
        text = replace_named_block(text, "figure", _readme_figure_block(root, store), "md")
    page = measured.read_text()
    page = replace_named_block(page, "headline", "\n" + headline + "\n", "rst")
    page = replace_named_block(page, "stored-runs", _runs_rst(store, data), "rst")
    page = replace_named_block(page, "studies", _studies_rst(store), "rst")
    documents = {readme: text, measured: page, root / CLAIMS_PAGE: _claims_rst(claims, store)}
    return {**documents, **pages}


def _readme_figure_block(root, store):
    """The README's figure block: the committed figure's caption when the figure was
    drawn from the stored table (so that ``--check`` draws nothing), else a fresh one's.

    The caption is kept beside the figure, in its PNG text, with the table's name and
    checksum (:func:`png_text`)."""
    _, entry, source = _figure_source(store)
    if entry is None:
        return f"_No stored {README_FIGURE_OF[0]} run: no figure._"
    texts = png_text(Path(root) / README_FIGURE) if (Path(root) / README_FIGURE).exists() \
        else {}
    if texts.get(_FIGURE_SOURCE_KEY) == source and "Caption" in texts:
        return _figure_md(texts["Caption"])
    figure, caption, _ = _draw_readme_figure(store)
    _close(figure)
    return _figure_md(caption)


def _publish_figure(root, store, write):
    """Whether the README's committed figure is the stored table's; ``write`` draws it
    anew when it is not. Returns the difference's description, or None."""
    path = Path(root) / README_FIGURE
    _, entry, source = _figure_source(store)
    if entry is None or not (Path(root) / "README.md").exists() or read_named_block(
            (Path(root) / "README.md").read_text(), "figure", "md") is None:
        return None
    texts = png_text(path) if path.exists() else {}
    if texts.get(_FIGURE_SOURCE_KEY) == source:
        return None
    why = (f"{path}: drawn from {texts.get(_FIGURE_SOURCE_KEY) or 'no recorded table'}, "
           f"not from the stored {source}\n")
    if write:
        figure, caption, _ = _draw_readme_figure(store)
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format="png", dpi=80,
                       metadata={_FIGURE_SOURCE_KEY: source, "Caption": caption})
        _close(figure)
    return why


def publish(data=DATA_DIR, root=".", *, write=False, without_record=False, power=False,
            n_jobs=None):
    """Compare (or, ``write=True``, rewrite) the documents generated from the store.

    ``without_record`` publishes tables that no run record vouches for, and
    says so in the documents (see :func:`render_documents`). ``power`` (with
    ``write``) first computes the power of each stored design whose power is
    not kept for its table (:func:`compute_power`, on ``n_jobs`` workers); a
    stored run whose claims declare ``simulate`` but whose power is not kept
    is a difference (:func:`unpowered`).

    Returns
    -------
    differences : dict of pathlib.Path to str
        A unified diff per document that differs from what the store gives
        (before writing, when ``write``); empty when all agree.

    Raises
    ------
    ValueError
        No stored run under ``data``, or a document without its markers.

    Examples
    --------
    >>> import tempfile
    >>> from skxor.studies import publish
    >>> try:
    ...     publish("data", tempfile.mkdtemp())
    ... except ValueError as exc:
    ...     print(str(exc).split(" under ")[0])
    no stored run (e.g. one_step/one_step.csv)
    """
    differences = {}
    # The README's figure first: the README's caption is read from it.
    store = load_store(Path(root) / data)
    if store:
        check_store(store, without_record)
        figure = _publish_figure(root, store, write)
        if figure:
            differences[Path(root) / README_FIGURE] = figure
    if power and write:
        compute_power(store, n_jobs=n_jobs)
    from .power import power_path

    for name, why in unpowered(store).items():
        differences[power_path(store[name]["path"])] = (
            f"{why}; run skxor publish --write --power\n")
    documents = render_documents(data, root, without_record=without_record, store=store)
    # A page of a study no longer stored is stale: it differs from nothing generated.
    for path in sorted((Path(root) / FRAGMENTS_DIR).glob("*.md")):
        if path not in documents:
            differences[path] = f"{path}: no stored run generates this page any more\n"
            if write:
                path.unlink()
    for path, text in documents.items():
        current = path.read_text() if path.exists() else ""
        if current != text:
            differences[path] = "".join(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), f"{path} (committed)",
                f"{path} (from the stored data)", n=1))
            if write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    return differences


def record_summary(record):
    """A one-line JSON summary of a run record (for messages)."""
    keys = ("study", "preset", "commit", "started", "seconds")
    return json.dumps({k: record.get(k) for k in keys})
