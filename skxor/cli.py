"""The ``skxor`` command line: the one-step demo and the reproducible studies.

``skxor demo``                       one step, softmax vs linear vs erf
``skxor list``                       the studies and their presets
``skxor run STUDY [STUDY ...]``      run studies (or ``all``, or a study file ``my_study.py``)
``skxor reproduce``                  the quick headline reproduction
``skxor headline``                   the headline figures of a run (README, docs)
``skxor publish``                    the documents from the stored runs (--write, --check)

A user's mistake (a bad option or ``--set`` value, an unusable ``--out``, an
unreachable ``--scheduler``) never shows a Python traceback: it prints
``skxor: error: ...`` naming the option or parameter and the values it
accepts, and exits with status 2.

``--version``, ``--help`` of every command, ``skxor list``, a mistyped study
or preset name, a study file that does not exist, an unknown ``--set``
parameter, the dry run of presets as they are (``--dry-run`` without
``--set``) and the mistakes argparse finds answer without importing torch
(seconds on a loaded machine): they read the studies' catalogue,
``skxor/_cli_catalogue.json`` (names, descriptions, parameters, presets with
their cells, estimated time and dry run), which ``python
tools/write_cli_catalogue.py`` generates from the study registry and a test
keeps current. The registry
itself is read instead when it is already imported (a study registered in
the calling process) or when an installed package registers studies through
the ``skxor.studies`` entry points (their metadata is theirs). The studies,
the models and pandas are imported by the commands that use them.
"""

import argparse
import difflib
import functools
import json
import os
import sys
import textwrap
import time
import warnings
from pathlib import Path

from ._utils._entry_points import ENTRY_POINT_GROUP, study_entry_points

#: The demo's defaults: one step at d = 200 needs about 2e5 samples.
DEMO_DEFAULTS = dict(d=200, n=200_000, n_test=10_000, m=32, step_length=100.0, seeds=5)
#: The demo's smallest training set (n > 0): n uniform samples of a parity all
#: share one class (on which no classifier can be fitted) with probability
#: 2^(1 - n), under 1e-9 per cell from n = 32.
DEMO_MIN_N = 32

#: Exit status for a user's mistake (as argparse uses).
USAGE_ERROR = 2

# What a study run can raise for a user's mistake: bad values (ValueError,
# TypeError, scikit-learn's InvalidParameterError), and folders or schedulers
# that cannot be used (OSError, ConnectionError).
_USER_ERRORS = (ValueError, TypeError, OSError)


class _Parser(argparse.ArgumentParser):
    """argparse, with every error printed as one ``skxor: error: ...`` line (exit status 2)."""

    def error(self, message):
        # One line, as every other mistake reads; the usage is one --help away.
        self.exit(USAGE_ERROR, f"skxor: error: {message} (see '{self.prog} --help')\n")


class _StudiesEpilog(argparse.RawDescriptionHelpFormatter):
    """The ``run`` help, its epilog listing the studies read when the help is shown.

    Building the parser then imports no study (and so no torch): ``--version``
    and argument mistakes answer at once.
    """

    def add_text(self, text):
        super().add_text(_studies_epilog() if text is _STUDIES_EPILOG else text)


#: Stands for the studies' list in the ``run`` parser's epilog (see _StudiesEpilog).
_STUDIES_EPILOG = "studies and presets"


def _studies_epilog():
    return "studies and presets:\n\n" + _studies_text()


class _AttentionNames:
    """The registered attention types, read when argparse checks a value or shows the help.

    The registry, :func:`skxor.nn.attention_names`, imports torch and
    scikit-learn: when it is not imported yet, no attention type can have
    been registered besides the library's, which the catalogue lists.
    """

    def __contains__(self, value):
        return value in self._names()

    def __iter__(self):
        return iter(self._names())

    @staticmethod
    def _names():
        if "skxor.nn" not in sys.modules and _catalogue() is not None:
            return _catalogue()["attention"]
        from .nn import attention_names

        return attention_names()


def _did_you_mean(name, choices):
    """`` (did you mean 'x'?)`` for the closest of ``choices`` (difflib), or ``""``."""
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _fail(message):
    if isinstance(message, BrokenPipeError):
        return _reader_gone()
    print(f"skxor: error: {_with_notes(message)}", file=sys.stderr)
    return USAGE_ERROR


def _with_notes(message):
    """An error's message followed by its notes (what the run did not write), one line."""
    notes = getattr(message, "__notes__", None) or []
    return "; ".join([str(message), *(" ".join(str(n).split()) for n in notes)])


def _reader_gone():
    # The reader of the output went away (``skxor list | head``): not an error.
    # Standard output then points at /dev/null, so that the flush at exit cannot fail.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a captured stream has no descriptor
        pass
    return 0


def run_demo(d, n, n_test, m, step_length, seeds, out=None, progress=False, attention=None):
    """One gradient step per attention type (softmax, linear, erf); prints, returns a table.

    Runs the cells of the one-step study (:func:`skxor.papers.one_step`) on
    ``n`` training samples (``n = 0``: the exact population step).

    Parameters
    ----------
    d, n, n_test, m : int
        Input length, training samples (0, or at least 32: fewer samples can
        all fall in one class, on which nothing can be fitted), test
        samples, keys per head.
    step_length : float
        The normalized step length.
    seeds : int
        Seeds per attention type.
    out : file-like, default=sys.stdout
    progress : bool, default=False
        Progress bar (only when standard error is a terminal).
    attention : list of str or None, default=None
        The attention types compared; None: every registered one
        (:func:`skxor.nn.attention_names`).

    Returns
    -------
    table : pandas.DataFrame
        One row per attention type and seed (the one-step study's columns).

    Examples
    --------
    >>> import io
    >>> from skxor.cli import run_demo
    >>> table = run_demo(d=20, n=5000, n_test=500, m=16, step_length=100.0, seeds=1,
    ...                  out=io.StringIO())
    >>> table["attention"].tolist()
    ['softmax', 'linear', 'erf']
    """
    import pandas as pd

    from .studies import get_study

    out = sys.stdout if out is None else out
    if isinstance(n, int) and not isinstance(n, bool) and 0 < n < DEMO_MIN_N:
        raise ValueError(
            f"--n (training samples) must be 0 (the exact population step) or at least "
            f"{DEMO_MIN_N}: with fewer, every sample can fall in one class, on which "
            f"no classifier can be fitted; got {n}."
        )
    from .nn import attention_names

    study = get_study("one_step")
    params = study.params("quick", dict(
        attention=list(attention_names()) if attention is None else list(attention),
        d=d, m=m, n=n, seeds=seeds,
        step_length=step_length, n_steps=1, n_test=n_test,
    ))
    table = study.compute(params, progress=progress)
    step = "the exact population step" if n == 0 else f"a full-batch step on n={n} samples"
    print(
        f"One gradient step on sparse XOR: d={d}, {step}, m={m} (trainable "
        f"parameters {2 * m}), normalized step length {step_length}, {seeds} seed(s); "
        f"test accuracy exact where every head has a dominant position, else on up to "
        f"{n_test} fresh samples.\n",
        file=out,
    )
    columns = ["attention", "seed", "specialised", "support_mass_min", "loss_after_step",
               "test_accuracy", "scoring", "success"]
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.precision", 4):
        print(table[columns].to_string(index=False), file=out)
        summary = table.groupby("attention", sort=False).agg(
            success_rate=("success", "mean"),
            specialised_rate=("specialised", "mean"),
            mean_test_accuracy=("test_accuracy", "mean"),
        )
        print("\n" + summary.to_string(), file=out)
    return table


def _n_jobs(text):
    try:
        value = int(text)
    except ValueError:
        value = None
    if not value:
        raise argparse.ArgumentTypeError(
            f"must be a non-zero int (1: one process; -1: all CPUs); got {text!r}"
        )
    return value


def _check_extras(scheduler):
    """The optional packages a run needs, named with the extra that installs them.

    Every run draws figures (matplotlib, the ``plot`` extra); a --scheduler
    needs dask.distributed (the ``dask`` extra). Checked before any work, so
    that no computation is lost to a missing package.
    """
    needed = [("matplotlib", "plot", "drawing the figures of a run")]
    if scheduler is not None:
        needed.append(("distributed", "dask",
                       f"--scheduler {scheduler}: running on a dask scheduler"))
    for module, extra, purpose in needed:
        try:
            __import__(module)
        except ImportError as exc:
            raise ValueError(
                f"{purpose} needs {module}, which is not installed; install the "
                f"{extra} extra: pip install 'skxor[{extra}]' ({exc})."
            ) from None


def _parse_value(raw):
    """A --set value: JSON (number, string, true/false, [list]), a bare word, or a, b, c."""
    try:
        return json.loads(raw)
    except ValueError:
        pass
    if "," not in raw:
        return raw
    values = []
    for part in raw.split(","):
        try:
            values.append(json.loads(part))
        except ValueError:
            values.append(part)
    return values


def _override(text):
    """Parse ``study.param=value`` or ``param=value``."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(
            f"expected [STUDY.]PARAM=VALUE, for example d=100,1000; got {text!r}"
        )
    key, raw = text.split("=", 1)
    study, _, param = key.rpartition(".")
    if not param:
        raise argparse.ArgumentTypeError(f"no parameter name before '=' in {text!r}")
    return study or None, param, _parse_value(raw)


def _collect_overrides(pairs, studies):
    from .studies import get_study

    studies = [get_study(s) if isinstance(s, str) else s for s in studies]
    return _overrides_for(pairs, {study.name: study.parameters for study in studies})


def _overrides_for(pairs, parameters):
    """``{study: {param: value}}`` of ``--set`` pairs, from each study's parameter names.

    ValueError for a study prefix that is not among ``parameters`` or a
    parameter that no study run takes.
    """
    names = list(parameters)
    overrides = {name: {} for name in names}
    for study, param, value in pairs:
        if study and study not in overrides:
            raise ValueError(
                f"--set {study}.{param}: {study!r} is not among the studies run {names}."
            )
        # Without a study prefix the value goes to every study that has the parameter.
        targets = [study] if study else [name for name in names if param in parameters[name]]
        if not targets or (study and param not in parameters[study]):
            known = sorted({p for name in (targets or names) for p in parameters[name]})
            raise ValueError(
                f"--set {f'{study}.' if study else ''}{param}: unknown parameter {param!r} "
                f"for the studies {[study] if study else names}; they take {known}."
            )
        for name in targets:
            overrides[name][param] = value
    return overrides


# -- the studies' catalogue: what list, --help and the early checks read ------------

#: The catalogue of the library's studies (generated: ``python tools/write_cli_catalogue.py``).
CATALOGUE_PATH = Path(__file__).resolve().with_name("_cli_catalogue.json")


@functools.lru_cache(maxsize=None)
def _catalogue():
    """The stored catalogue, or None when it cannot be read (the registry is read then)."""
    try:
        return json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # an installation without it: slower, not wrong
        return None


def _registry_needed():
    """Whether the registry, not the catalogue, says which studies exist (see _studies)."""
    return ("skxor.studies._registry" in sys.modules or _catalogue() is None
            or bool(_plugins()))


def build_catalogue():
    """The catalogue of the library's studies, from the registry (imports every study).

    What ``skxor list``, ``--help`` and the early checks of ``skxor run``
    read without importing the studies: the attention types, and per study
    its name, description, parameters and presets (their parameters, cells,
    estimated CPU time and what ``--dry-run`` prints for them). ``python tools/write_cli_catalogue.py`` writes
    it to ``skxor/_cli_catalogue.json``.

    Returns
    -------
    catalogue : dict
        ``{"attention": [...], "studies": [entry, ...]}``, JSON-able.

    Examples
    --------
    >>> from skxor.cli import build_catalogue
    >>> catalogue = build_catalogue()
    >>> [p["name"] for p in catalogue["studies"][0]["presets"]], catalogue["attention"]
    (['quick', 'full'], ['softmax', 'linear', 'erf'])
    """
    from .nn import attention_names
    from .studies import STUDIES

    library = [study for study in STUDIES.values()
               if getattr(study.cell, "__module__", "").startswith("skxor.")]
    # Through JSON, as stored (tuples become lists).
    return json.loads(json.dumps({"attention": list(attention_names()),
                                  "studies": [_study_entry(s) for s in library]}))


def _study_entry(study):
    """One study's catalogue entry (see :func:`build_catalogue`)."""
    from .studies import dry_run_text, estimate, format_duration

    presets = []
    for name in study.presets:
        entry = {"name": name, "params": study.preset(name)}
        try:
            entry["dry_run"] = dry_run_text(study, name)
            if study.cost is None:
                entry["cells"] = study.count_cells(study.params(name))
            else:
                e = estimate(study, name)
                entry.update(cells=e["cells"], upper_bound=e["upper_bound"],
                             cpu_seconds=float(f"{e['cpu_seconds']:.4g}"),
                             cpu=format_duration(e["cpu_seconds"]))
        except Exception as exc:  # a user's study: its hooks' failure is shown, not raised
            entry["unknown"] = f"{type(exc).__name__}: {exc}"
        presets.append(entry)
    return {"name": study.name, "description": study.description,
            "parameters": sorted(study.parameters), "presets": presets}


def _plugins():
    """Entry points of installed packages registering studies (not the library's own)."""
    return [p for p in study_entry_points() if not p.value.startswith("skxor.")]


def _studies():
    """Catalogue entries of every registered study, in the registry's order.

    From the stored catalogue unless the registry must be read: it is
    imported already (a study may have been registered since), installed
    packages register studies of their own, or the catalogue is missing.
    """
    if not _registry_needed():
        return _catalogue()["studies"]
    from .studies import STUDIES

    return [_study_entry(study) for study in STUDIES.values()]


def _list_studies(names=(), out=None):
    out = sys.stdout if out is None else out
    if not names:
        print(_studies_text(), file=out)
        return 0
    entries = {entry["name"]: entry for entry in _studies()}
    unknown = [name for name in names if name not in entries]
    if unknown:
        return _fail(f"argument STUDY: invalid choice: {unknown[0]!r} (choose from "
                     f"{', '.join(repr(n) for n in entries)})"
                     + _did_you_mean(unknown[0], entries))
    print("\n\n".join(_study_text(entries[name]) for name in dict.fromkeys(names)), file=out)
    return 0


def _cells(preset):
    if "unknown" in preset:
        return f"cells unknown ({preset['unknown']})"
    cells = f"{'at most ' if preset.get('upper_bound') else ''}{preset['cells']:,} cells"
    return f"{cells:>20}   {preset['cpu'] + ' CPU' if 'cpu' in preset else ''}".rstrip()


def _studies_text(width=88):
    """The readable table of ``skxor list``: study, what it measures, presets."""
    studies = _studies()
    wrap = functools.partial(textwrap.fill, width=width, break_on_hyphens=False,
                             initial_indent="    ",
                             subsequent_indent="    ")
    blocks = [f"{len(studies)} studies: what each measures, and its presets with their "
              "cells and estimated CPU time.\nOne study's parameters: skxor list STUDY; "
              "run one: skxor run STUDY --preset PRESET."]
    for entry in studies:
        lines = [entry["name"], wrap(entry["description"])]
        lines += [f"    --preset {p['name']:<8}{_cells(p)}" for p in entry["presets"]]
        blocks.append("\n".join(lines))
    blocks.append(textwrap.fill(
        "CPU times are a cost model's, calibrated on one machine: read them as orders of "
        "magnitude; --n-jobs N divides them by up to N, and skxor run STUDY --dry-run details "
        "a run with its --set values.", width=width))
    return "\n\n".join(blocks)


def _study_text(entry, width=88):
    """``skxor list STUDY``: the description, then each parameter's value per preset."""
    presets = entry["presets"]
    rows = [["parameter", *(p["name"] for p in presets)]]
    for param in entry["parameters"]:
        values = [p["params"].get(param, "") for p in presets]
        # Other presets show only what differs from the first (quick).
        rows.append([param, _value(values[0]),
                     *("" if v == values[0] else _value(v) for v in values[1:])])
    rows.append(["cells", *(" ".join(_cells(p).split()) for p in presets)])
    first = max(len(row[0]) for row in rows)
    # Each preset's column gets an equal share of the width; long lists wrap at commas.
    column = max(12, (width - first) // len(presets) - 2)
    lines = []
    for number, row in enumerate(rows):
        # (The last row, the cells and times, is no list: "8,037" stays whole.)
        cells = [[c] if number == len(rows) - 1 else _wrap_list(c, column) for c in row[1:]]
        for i in range(max(len(c) for c in cells)):
            parts = [c[i] if i < len(c) else "" for c in cells]
            lines.append("  ".join([(row[0] if i == 0 else "").ljust(first),
                                    *(part.ljust(column) for part in parts)]).rstrip())
    described = textwrap.fill(entry["description"], width=width, break_on_hyphens=False)
    return (f"{entry['name']}\n{described}\n\n"
            + "\n".join(lines)
            + f"\n\n(a blank: as in {presets[0]['name']}; change one with "
            f"--set {entry['name']}.PARAM=VALUE)")


def _wrap_list(text, width):
    """``text`` in lines of at most ``width`` characters, broken after commas."""
    lines = [""]
    for part in text.split(","):
        piece = f"{',' if lines[-1] else ''}{part}"
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += ","
            lines.append(part)
        else:
            lines[-1] += piece
    return lines


def _value(value):
    if isinstance(value, list):
        return ",".join(json.dumps(v) if not isinstance(v, str) else v for v in value)
    return value if isinstance(value, str) else json.dumps(value)


def _unknown_study(name, known):
    choices = ", ".join(repr(n) for n in [*known, "all"])
    return ValueError(f"argument STUDY: invalid choice: {name!r} (choose from {choices}, or "
                      "a study file PATH.py)" + _did_you_mean(name, [*known, "all"]))


def _check_preset(preset, presets):
    presets = sorted(set(presets), key=lambda p: ({"quick": 0, "full": 1}.get(p, 2), p))
    if preset not in presets:
        raise ValueError(f"argument --preset: invalid choice: {preset!r} (choose from "
                         f"{', '.join(repr(p) for p in presets)})"
                         + _did_you_mean(preset, presets))


def _check_early(names, preset, pairs):
    """The mistakes in a run's arguments found without importing a study (nor torch).

    A study file that does not exist; then, from the catalogue, an unknown
    study name, preset or ``--set`` parameter. When the registry must be
    read (see :func:`_studies`) or a study file is run, the names are left
    to :func:`_resolve`. Raises ValueError as :func:`_resolve` does.

    Returns
    -------
    entries : list of dict or None
        The catalogue entries of the studies named (None: the registry decides).
    """
    for name in names:
        if name.endswith(".py") and not Path(name).is_file():
            raise ValueError(f"no study file {name!r} (no such file).")
    if _registry_needed():
        return None
    entries = {entry["name"]: entry for entry in _catalogue()["studies"]}
    chosen = {}
    for name in names:
        if name.endswith(".py"):
            return None  # a file's study: its presets and parameters are its own
        if name != "all" and name not in entries:
            raise _unknown_study(name, entries)
        chosen.update((n, entries[n]) for n in (entries if name == "all" else [name]))
    _check_preset(preset, [p["name"] for e in chosen.values() for p in e["presets"]])
    for name, entry in chosen.items():
        _check_study_preset(name, preset, [p["name"] for p in entry["presets"]])
    _overrides_for(pairs, {name: entry["parameters"] for name, entry in chosen.items()})
    return list(chosen.values())


def _check_study_preset(name, preset, presets):
    if preset not in presets:
        raise ValueError(f"--preset {preset}: {name} has no such preset (its presets: "
                         f"{', '.join(presets)}).")


def _resolve(names, preset):
    """The studies named on the command line: registered names, ``all`` or study files.

    Raises ValueError (printed as ``skxor: error:``) for an unknown name, a
    file without a study, or a preset that no study run has.
    """
    from .studies import STUDIES, load_study

    studies = []
    for name in dict.fromkeys(names):
        if name == "all":
            studies += STUDIES.values()
        elif name in STUDIES:
            studies.append(STUDIES[name])
        elif name.endswith(".py"):
            study = load_study(name)
            if study.name in STUDIES and STUDIES[study.name] is not study:
                raise ValueError(
                    f"{name}: its study is named {study.name!r}, as a registered study is "
                    "(their tables would mix); give it a name of its own.")
            studies.append(study)
        else:
            raise _unknown_study(name, STUDIES)
    studies = list({study.name: study for study in studies}.values())
    _check_preset(preset, [p for study in studies for p in study.presets])
    return studies


def _run(args, names):
    try:
        # Mistakes found from the catalogue answer before torch is imported.
        entries = _check_early(names, args.preset, args.set or [])
    except _USER_ERRORS as exc:
        return _fail(exc)
    if args.dry_run and not args.power and entries is not None and not args.set:
        # A preset as it is: its dry run was stored with the catalogue.
        print("\n\n".join(next(p["dry_run"] for p in entry["presets"]
                                if p["name"] == args.preset) for entry in entries))
        return 0
    from ._utils._files import prepare_out_dir

    try:
        studies = _resolve(names, args.preset)
        overrides = _collect_overrides(args.set or [], studies)
        # Everything a user gave is checked before any work starts.
        for study in studies:
            _check_study_preset(study.name, args.preset, list(study.presets))
            study.params(args.preset, overrides[study.name])
        if args.power and not args.dry_run:
            raise ValueError("--power states the power of the design a run would compute: "
                             "add --dry-run.")
        if args.dry_run:
            return _dry_run(studies, args.preset, overrides, args.n_jobs, args.power)
        _check_extras(args.scheduler)
        prepare_out_dir(args.out, name="--out")
    except _USER_ERRORS as exc:
        return _fail(exc)
    from .studies import STUDIES, run_studies

    # A study from a user's file may fail in its own code: that is reported as
    # an error of that study, not as a traceback of skxor.
    own = (Exception,) if any(STUDIES.get(s.name) is not s for s in studies) else ()
    # Registered studies by name, a study file's by its Study.
    studies = [s.name if STUDIES.get(s.name) is s else s for s in studies]
    start = time.perf_counter()
    try:
        run_studies(
            studies, preset=args.preset, out_dir=args.out, overrides=overrides,
            n_jobs=args.n_jobs, scheduler=args.scheduler, progress=not args.no_progress,
        )
    except ConnectionError as exc:
        return _fail(f"--scheduler: {exc}")
    except _USER_ERRORS as exc:
        # A cell that fails for a value the user chose (e.g. --set n=2, whose
        # training sets can hold one class) names what was set.
        given = " ".join(f"--set {f'{study}.' if study else ''}{param}={json.dumps(value)}"
                         for study, param, value in args.set or [])
        return _fail(f"{_with_notes(exc)} (with {given})" if given else exc)
    except KeyboardInterrupt:
        print(f"skxor: interrupted; finished cells are kept in {args.out}/checkpoints "
              "and reused when the command is run again.", file=sys.stderr)
        return 130
    except own as exc:
        return _fail(f"the study failed: {type(exc).__name__}: {_with_notes(exc)}")
    print(f"Wrote {args.out}/report.md in {time.perf_counter() - start:.1f} s")
    return 0


def _add_run_options(parser, default_out):
    # quick and full for every study, plus a study's own (training_sensitivity's
    # "paper"); checked against the studies run (a study file's own presets
    # too), and a study without the preset named is refused before any work.
    parser.add_argument(
        "--preset", default="quick",
        help="parameter preset of every study run: quick (minutes), full (hours) or a "
             "study's own, such as training_sensitivity's paper (see 'skxor list') "
             "(default: %(default)s)",
    )
    parser.add_argument(
        "--out", default=default_out, metavar="FOLDER",
        help="output folder for CSV tables, PNG figures, report.md and checkpoints; "
             "earlier results there are merged, never replaced (default: %(default)s)",
    )
    parser.add_argument(
        "--set", action="append", type=_override, metavar="[STUDY.]PARAM=VALUE",
        help="override a preset parameter, e.g. --set one_step.d=100,1000 or "
             "--set seeds=3; without STUDY. it applies to every study that has PARAM "
             "(repeatable; 'skxor list' shows the parameters)",
    )
    parser.add_argument(
        "--n-jobs", type=_n_jobs, default=None, metavar="N",
        help="joblib workers running the cells (-1: all CPUs) (default: one process)",
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="run the cells on a dask.distributed scheduler, e.g. tcp://127.0.0.1:8786 "
             "(needs skxor[dask])",
    )
    parser.add_argument(
        "--no-progress", action="store_true",
        help="hide progress bars (they are hidden anyway when output is not a terminal)",
    )
    parser.add_argument(
        "--dry-run", action="store_true",
        help="compute nothing: print each study's number of cells, its estimated CPU "
             "time (a per-cell cost model calibrated on one machine) and how to run it",
    )
    parser.add_argument(
        "--power", action="store_true",
        help="with --dry-run: also the power of the design for each claim that declares a "
             "simulation (P(reproduced | the paper holds), P(not reproduced | its "
             "alternative), from 200 simulated tables each way; minutes)",
    )


def build_parser():
    """The ``skxor`` argument parser (it imports no study, model or scikit-learn)."""
    parser = _Parser(
        prog="skxor",
        description="Reproduce and extend two results on sparse Boolean functions.",
    )
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"skxor {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo", help="one gradient step with softmax, linear and erf attention",
        description="One gradient step on sparse XOR with softmax, linear and erf "
                    "attention: the cells of the one_step study, printed as a table.",
    )
    demo_help = {
        "d": "input length (at least 2)",
        "n": f"training samples (0: the exact population step; else at least {DEMO_MIN_N})",
        "n_test": "most fresh test samples a cell draws (most are scored exactly)",
        "m": "keys per attention head (trainable parameters: 2 m)",
        "seeds": "seeds per attention type",
    }
    for name, text in demo_help.items():
        demo.add_argument(
            f"--{name.replace('_', '-')}", type=int, default=DEMO_DEFAULTS[name],
            help=f"{text} (default: %(default)s)",
        )
    demo.add_argument(
        "--step-length", type=float, default=DEMO_DEFAULTS["step_length"],
        help="normalized step length, in (0, 1e6] (default: %(default)s)",
    )
    demo.add_argument(
        "--attention", nargs="+", choices=_AttentionNames(), default=None, metavar="TYPE",
        help="attention types compared, among %(choices)s (default: all)",
    )
    demo.add_argument("--no-progress", action="store_true",
                      help="hide the progress bar (hidden anyway when output is not a "
                           "terminal)")
    listing = sub.add_parser(
        "list", help="list the studies: what each measures, its presets, cells and time",
        description="List the studies: what each measures, and its presets with their cells "
                    "and estimated CPU time; with STUDY names, each one's parameters per preset.")
    listing.add_argument("names", nargs="*", metavar="STUDY",
                         help="studies whose parameters are shown, preset by preset")
    run = sub.add_parser(
        "run", help="run studies (or 'all', or a study file) and write CSV, PNG and report.md",
        description="Run studies and write <study>.csv, <study>_<figure>.png and a "
                    "section of report.md into --out.",
        epilog=_STUDIES_EPILOG, formatter_class=_StudiesEpilog,
    )
    run.add_argument(
        "studies", nargs="+", metavar="STUDY",
        help="one or more of the studies listed below (or by 'skxor list'), or all, or "
             "a Python file declaring a study of your own (my_study.py; see the user guide)",
    )
    _add_run_options(run, "skxor_results")
    reproduce = sub.add_parser(
        "reproduce", help="the quick headline reproduction: every study, quick preset",
        description="Run every study (quick preset unless --preset says otherwise).",
    )
    _add_run_options(reproduce, "skxor_results")
    headline = sub.add_parser(
        "headline", help="print (or write into README/docs) the headline figures of a run",
        description="Render the headline figures from the tables of a quick-preset run "
                    "(skxor reproduce) and print them, or replace the generated block "
                    "between the skxor-headline markers of the given files.",
    )
    headline.add_argument(
        "--from", dest="source", default="skxor_results", metavar="DIR",
        help="results folder written by skxor reproduce (default: %(default)s)",
    )
    headline.add_argument(
        "--write", nargs="+", default=None, metavar="FILE",
        help="Markdown (.md) or reStructuredText (.rst) files whose headline block is "
             "replaced, e.g. README.md docs/results/measured.rst",
    )
    publish = sub.add_parser(
        "publish", help="regenerate (or check) the documents from the stored runs",
        description="Write the README's and docs/results/measured.rst's generated blocks "
                    "and docs/results/claims.rst from the stored runs under --data only "
                    "(--write), or check that they agree with them (--check, the default: "
                    "exit status 1 and a diff on any difference).",
    )
    publish.add_argument(
        "--data", default="docs/results/data", metavar="DIR",
        help="the store: one folder per study with <study>.csv and <study>.run.json, "
             "relative to --root (default: %(default)s)",
    )
    publish.add_argument("--root", default=".", metavar="DIR",
                         help="the repository root holding README.md and docs/ "
                              "(default: %(default)s)")
    mode = publish.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the documents")
    mode.add_argument("--check", action="store_true",
                      help="only compare (the default)")
    publish.add_argument(
        "--power", action="store_true",
        help="with --write: first compute the power of each stored design whose power is "
             "not kept beside its table (<study>.power.json; minutes per claim)")
    publish.add_argument("--n-jobs", type=_n_jobs, default=None, metavar="N",
                         help="joblib workers for --power (default: one process)")
    publish.add_argument(
        "--without-record", action="store_true",
        help="publish stored tables that have no run record, or whose record holds no "
             "checksum of the table (refused otherwise); the documents then say that "
             "their numbers are tied to no recorded run")
    return parser


def _publish(args):
    from .studies import publish

    try:
        if args.power and not args.write:
            return _fail("--power computes the stored designs' power for --write; "
                         "add --write.")
        differences = publish(args.data, args.root, write=args.write,
                              without_record=args.without_record, power=args.power,
                              n_jobs=args.n_jobs)
    except _USER_ERRORS as exc:
        root = os.path.abspath(args.root)
        if not (os.path.isfile(os.path.join(root, "README.md"))
                and os.path.isdir(os.path.join(root, "docs"))):
            return _fail(f"{exc} {root} is not the repository root (no README.md and "
                         "docs/ there): run skxor publish there, or name it with --root DIR.")
        return _fail(exc)
    if args.write:
        # The power of a stored design is computed with --power only (minutes).
        unpowered = [d for path, d in differences.items() if path.name.endswith(".power.json")]
        documents = [path for path in differences if not path.name.endswith(".power.json")]
        print(f"Rewrote {len(documents)} document(s) from {args.data}"
              + "".join(f"\n  {path}" for path in documents))
        for why in unpowered:
            print(f"Not computed: {why}", end="")
        return 0
    if differences:
        for diff in differences.values():
            print(diff, end="")
        print(f"skxor: {len(differences)} document(s) differ from the stored data in "
              f"{args.data}; run skxor publish --write.", file=sys.stderr)
        return 1
    print(f"The documents agree with the stored data in {args.data}.")
    return 0


def _headline(args):
    from .studies import render_headline, write_headline

    try:
        if args.write:
            write_headline(args.source, args.write)
            print(f"Wrote the headline from {args.source} into {', '.join(args.write)}")
        else:
            print(render_headline(args.source))
    except _USER_ERRORS as exc:
        return _fail(exc)
    return 0


def _dry_run(studies, preset, overrides, n_jobs, power=False):
    from .studies import dry_run_text

    if power:
        from .studies.power import design_power_text

    print("\n\n".join(dry_run_text(study, preset, overrides[study.name], n_jobs=n_jobs)
                      + ("\n" + design_power_text(study, preset, overrides[study.name],
                                                  n_jobs=n_jobs) if power else "")
                      for study in studies))
    return 0


def main(argv=None):
    """Entry point of the ``skxor`` command."""
    args = build_parser().parse_args(argv)
    # Warnings (a file set aside, a run that merged settings) read as one line,
    # like errors, not as a source location and a line of skxor's code.
    format_warning = warnings.formatwarning
    warnings.formatwarning = _format_warning
    try:
        return _dispatch(args)
    except BrokenPipeError:
        return _reader_gone()
    finally:
        warnings.formatwarning = format_warning


def _format_warning(message, category, filename, lineno, line=None):
    return f"skxor: warning: {message}\n"


def _dispatch(args):
    if args.command == "demo":
        start = time.perf_counter()
        try:
            run_demo(args.d, args.n, args.n_test, args.m, args.step_length, args.seeds,
                     progress=not args.no_progress, attention=args.attention)
        except _USER_ERRORS as exc:
            return _fail(exc)
        print(f"\nTotal wall time: {time.perf_counter() - start:.1f} s")
        return 0
    if args.command == "list":
        return _list_studies(args.names)
    if args.command == "run":
        return _run(args, args.studies)
    if args.command == "headline":
        return _headline(args)
    if args.command == "publish":
        return _publish(args)
    return _run(args, ["all"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
