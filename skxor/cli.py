"""The ``skxor`` command line: the one-step demo and the reproducible studies.

``skxor demo``                       one step, softmax vs linear vs erf
``skxor list``                       the studies and their presets
``skxor run STUDY [STUDY ...]``      run studies (or ``all``) into a folder
``skxor reproduce``                  the quick headline reproduction
"""

import argparse
import json
import sys
import time

import numpy as np
import pandas as pd

from .datasets import make_sparse_parity
from .estimators import SparseXORTransformer

#: The demo's embedded default: one step at d = 200 needs about 2e5 samples.
DEMO_DEFAULTS = dict(d=200, n=200_000, n_test=10_000, m=32, step_length=100.0, seeds=5)


def run_demo(d, n, n_test, m, step_length, seeds, out=None):
    """One gradient step with softmax, linear and erf attention; returns a table."""
    out = sys.stdout if out is None else out
    rows = []
    for seed in range(seeds):
        X, y, support = make_sparse_parity(n, d, return_support=True, random_state=seed)
        Xt, yt = make_sparse_parity(n_test, d, support=support, random_state=10_000 + seed)
        for attention in ("softmax", "linear", "erf"):
            start = time.perf_counter()
            clf = SparseXORTransformer(
                m=m, attention=attention, step_length=step_length, random_state=seed
            ).fit(X, y)
            seconds = time.perf_counter() - start
            accuracy = clf.score(Xt, yt)
            rows.append(
                {
                    "attention": attention,
                    "seed": seed,
                    "true_support": tuple(support.tolist()),
                    "recovered_support": tuple(clf.support_.tolist()),
                    "heads_on_support": sorted(clf.support_.tolist()) == support.tolist(),
                    "test_accuracy": round(accuracy, 4),
                    "success": accuracy >= 0.99,
                    "trainable_parameters": clf.n_parameters_,
                    "fit_seconds": round(seconds, 3),
                }
            )
    table = pd.DataFrame(rows)
    print(
        f"One gradient step on sparse XOR: d={d}, n={n} training samples, "
        f"m={m} (trainable parameters {2 * m}), normalised step length "
        f"{step_length}, {seeds} seed(s); test accuracy on {n_test} fresh samples.\n",
        file=out,
    )
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False), file=out)
        summary = table.groupby("attention", sort=False).agg(
            success_rate=("success", "mean"),
            mean_test_accuracy=("test_accuracy", "mean"),
            mean_fit_seconds=("fit_seconds", "mean"),
        )
        print("\n" + summary.to_string(), file=out)
    return table


def _positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text}")
    return value


def _positive_float(text):
    value = float(text)
    if not np.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive finite number; got {text}")
    return value


def _override(text):
    """Parse ``study.param=value`` or ``param=value``; value is JSON or a list."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected key=value; got {text!r}")
    key, raw = text.split("=", 1)
    study, _, param = key.rpartition(".")
    values = []
    for part in raw.split(","):
        try:
            values.append(json.loads(part))
        except json.JSONDecodeError:
            values.append(part)
    value = values if "," in raw else values[0]
    return study or None, param, value


def _collect_overrides(pairs, names):
    from .studies import get_study

    overrides = {name: {} for name in names}
    for study, param, value in pairs:
        if study and study not in overrides:
            raise ValueError(f"--set {study}.{param}: {study!r} is not among the studies run.")
        # Without a study prefix the value goes to every study that has the parameter.
        targets = [study] if study else [
            name for name in names if param in get_study(name).presets["quick"]
        ]
        if not targets:
            raise ValueError(f"unknown parameter {param!r} for the studies {names}.")
        for name in targets:
            overrides[name][param] = value
    return overrides


def _list_studies(out=None):
    from .studies import STUDIES

    out = sys.stdout if out is None else out
    for study in STUDIES.values():
        print(f"{study.name}\n    {study.description}", file=out)
        for preset, params in study.presets.items():
            print(f"    --preset {preset}: {params}", file=out)
    return 0


def _run(args, names):
    from .studies import STUDIES, run_studies

    if names == ["all"]:
        names = list(STUDIES)
    try:
        overrides = _collect_overrides(args.set or [], names)
        start = time.perf_counter()
        run_studies(
            names, preset=args.preset, out_dir=args.out, overrides=overrides,
            n_jobs=args.n_jobs, scheduler=args.scheduler, progress=not args.no_progress,
        )
    except ValueError as exc:
        print(f"skxor: error: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {args.out}/report.md in {time.perf_counter() - start:.1f} s")
    return 0


def _add_run_options(parser, default_out):
    parser.add_argument("--preset", choices=["quick", "full"], default="quick")
    parser.add_argument("--out", default=default_out, help="output folder (default: %(default)s)")
    parser.add_argument(
        "--set", action="append", type=_override, metavar="[STUDY.]PARAM=VALUE",
        help="override a preset parameter, e.g. --set one_step.d=100,1000 (repeatable)",
    )
    parser.add_argument("--n-jobs", type=int, default=None, help="joblib workers")
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="run the cells on a dask.distributed scheduler, e.g. tcp://127.0.0.1:8786",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars")


def build_parser():
    parser = argparse.ArgumentParser(
        prog="skxor",
        description="Reproduce and extend two results on sparse Boolean functions.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="one gradient step with softmax, linear and erf attention"
    )
    for name in ("d", "n", "n_test", "m", "seeds"):
        demo.add_argument(
            f"--{name.replace('_', '-')}", type=_positive_int, default=DEMO_DEFAULTS[name]
        )
    demo.add_argument("--step-length", type=_positive_float, default=DEMO_DEFAULTS["step_length"])
    sub.add_parser("list", help="list the studies and their presets")
    run = sub.add_parser("run", help="run studies (or 'all') and write CSV, PNG and report.md")
    run.add_argument("studies", nargs="+", metavar="STUDY")
    _add_run_options(run, "skxor_results")
    reproduce = sub.add_parser(
        "reproduce", help="the quick headline reproduction: every study, quick preset"
    )
    _add_run_options(reproduce, "skxor_results")
    return parser


def main(argv=None):
    """Entry point of the ``skxor`` command."""
    args = build_parser().parse_args(argv)
    if args.command == "demo":
        start = time.perf_counter()
        run_demo(args.d, args.n, args.n_test, args.m, args.step_length, args.seeds)
        print(f"\nTotal wall time: {time.perf_counter() - start:.1f} s")
        return 0
    if args.command == "list":
        return _list_studies()
    if args.command == "run":
        return _run(args, args.studies)
    return _run(args, ["all"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
