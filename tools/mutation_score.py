"""Mutation score of the modules whose numbers skxor publishes (mutmut, outside the test suite).

    python tools/mutation_score.py                       # every module below
    python tools/mutation_score.py stats sweep           # modules whose name contains a word
    python tools/mutation_score.py --tests-from <rev>    # this source, the tests of <rev>
    python tools/mutation_score.py --list                # the modules and their tests

Each module is mutated by mutmut in its own scratch copy of the checkout
(``git ls-files``, plus untracked files not ignored), against the tests
that exercise it (the files listed below and the module's own doctests;
mutmut runs, for each mutant, only the tests that reach the mutated
function). The table printed at the end gives, per module, the mutants
generated, killed (a test failed or timed out), survived, and the share
killed. Survivors are listed (``mutmut show <name>`` in the module's scratch
folder prints the change); the equivalent ones, with the reason, are in
docs/mutation.rst. Mutants run one at a time by default (``--jobs``), and
the whole run is slow: minutes per module on two cores.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: module -> the test files that exercise it (besides its own doctests).
MODULES = {
    "skxor/theory/_population.py": [
        "tests/unit/test_theory.py",
        "tests/unit/test_theory_edges.py",
        "tests/reliability/test_sample_vs_theory.py",
    ],
    "skxor/estimators/_sparse_xor.py": [
        "tests/unit/test_sparse_xor_input.py",
        "tests/reliability/test_sample_vs_theory.py",
        # tests/integration/test_sparse_xor.py also covers the fit, but its
        # fits on 10^4..10^5 strings make one mutant take minutes on 2 cores.
    ],
    "skxor/sensitivity/_profile.py": [
        "tests/unit/test_sensitivity.py",
        "tests/unit/test_stats_references.py",
        "tests/unit/test_profile_edges.py",
    ],
    # K2's reference: the share of random functions with a zero-sensitivity string.
    "skxor/sensitivity/_random_functions.py": [
        "tests/unit/test_random_function_zero_strings.py",
    ],
    "skxor/_utils/_wilson.py": [
        "tests/unit/test_sensitivity.py",
        "tests/unit/test_profile_edges.py",
        "tests/unit/test_study_stats.py",
    ],
    "skxor/studies/stats.py": [
        "tests/unit/test_study_stats.py",
        "tests/unit/test_stats_references.py",
        "tests/unit/test_interval_coverage.py",
        "tests/unit/test_flag_columns.py",
    ],
    # The verdict machinery every claim row goes through (rules, unit intervals, Holm).
    "skxor/studies/claims.py": [
        "tests/unit/test_claim_rules.py",
        "tests/unit/test_study_claims.py",
    ],
    # The papers' claim rules (a verdict per claim from a study's summary).
    "skxor/papers/han_ghoshdastidar/one_step/_rules.py": [
        "tests/unit/test_study_rule_properties.py",
        "tests/unit/test_study_claims.py",
        "tests/unit/test_claim_rules.py",
    ],
    "skxor/papers/han_ghoshdastidar/sample_complexity/_rules.py": [
        "tests/unit/test_study_rule_properties.py",
        "tests/unit/test_study_claims.py",
        "tests/unit/test_claim_rules.py",
    ],
    "skxor/papers/kover/training/_rules.py": [
        "tests/unit/test_claim_rules.py",
        "tests/unit/test_study_claims.py",
    ],
    # The fresh-data (online) fit: labels from target_function, fresh batches.
    "skxor/estimators/_base.py": [
        "tests/unit/test_ffnn.py",
        # tests/integration/test_boolean_transformer_classifier.py fits the
        # transformer online too, at seconds per test: too slow per mutant.
    ],
    "skxor/studies/_sweep.py": [
        "tests/integration/test_sweep.py",
        "tests/reliability/test_failure_injection.py",
        "tests/unit/test_sweep_runner.py",
    ],
    "skxor/_utils/_files.py": [
        "tests/unit/test_sweep_runner.py",
        "tests/unit/test_cli_unit.py",
    ],
    "skxor/_utils/_validation.py": [
        # Direct tests of every validator (the estimators' tests reach only
        # some of them, through fit and predict, and are slow per mutant).
        "tests/unit/test_validation_mutants.py",
        "tests/unit/test_conventions.py",
        "tests/unit/test_sparse_xor_input.py",
        "tests/reliability/test_failure_injection.py",
    ],
    # When the fast flip paths may run (issue 34): every fast path against forward.
    "skxor/nn/_fast_path.py": [
        "tests/unit/test_fast_path.py",
    ],
    # The decision rule at a threshold and the rounding bound (measured in float64).
    "skxor/_utils/_decisions.py": [
        "tests/unit/test_mutation_kills.py",
        "tests/unit/test_ill_conditioning.py",
        "tests/unit/test_margin_profile.py",
    ],
    # The one-layer exhaustive path (issue 36): the exact counts at N = 24-32
    # that K5 and the "constant network" statements rest on.
    "skxor/nn/_exhaustive.py": [
        "tests/unit/test_exhaustive_path.py",
    ],
    # Bit-packed tables and their word-operation counts (N > 28, n_jobs).
    "skxor/sensitivity/_packed.py": [
        "tests/unit/test_packed_profile.py",
    ],
    # The encoding reader moved here from _validation.py (detect_encoding,
    # to_bits, to_spins, check_strings).
    "skxor/_utils/_encoding.py": [
        "tests/unit/test_encoding.py",
        "tests/unit/test_validation_mutants.py",
        "tests/unit/test_conventions.py",
    ],
}


def _files_of_checkout():
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout
    return [f for f in out.decode().split("\0") if f and (ROOT / f).is_file()]


def _scratch_copy(dest, tests_from=None):
    for rel in _files_of_checkout():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    if tests_from:
        shutil.rmtree(dest / "tests")
        archive = subprocess.run(["git", "archive", tests_from, "tests"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


#: module -> tests left out of its run, and why.
DESELECT = {
    # joblib's loky workers outlive the test that started them; mutmut reaps
    # every child of its own process and stops on a pid it did not start.
    "skxor/studies/_sweep.py": "not parallel_workers",
    "skxor/sensitivity/_packed.py": "not n_jobs_gives and not workers_build",
    # The short-answer test builds every stored claim (a 13 s fixture, not counted in
    # the test's own duration, so mutmut's timeout, set from the durations, cut every
    # mutant it ran and counted it killed); it checks only the page's counts, which
    # each rule's own tests pin.
    **{module: "not short_answer" for module in (
        "skxor/studies/claims.py",
        "skxor/papers/han_ghoshdastidar/one_step/_rules.py",
        "skxor/papers/han_ghoshdastidar/sample_complexity/_rules.py",
        "skxor/papers/kover/training/_rules.py")},
}


def _configure(dest, module, tests, timeout_multiplier=None):
    present = [t for t in tests if (dest / t).exists()]
    selection = present + [module]  # the module's own doctests (--doctest-modules)
    args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-q"]
    if module in DESELECT:
        args += ["-k", DESELECT[module]]
    config = {
        "source_paths": ["skxor/"],
        "only_mutate": [module],
        "pytest_add_cli_args_test_selection": selection,
        "pytest_add_cli_args": args,
        # Tests read these (documentation pages, the README, the benchmarks).
        "also_copy": ["docs/", "README.md", "benchmarks/", "examples/"],
    }
    if timeout_multiplier is not None:
        # A mutant times out after (its tests' durations + 1 s) x this x 2 CPU seconds,
        # or half that wall-clock: on a loaded machine the default (15) cuts mutants
        # whose tests are slow only because they wait for a core (counted killed).
        config["timeout_multiplier"] = timeout_multiplier
    lines = ["", "[tool.mutmut]"]
    for key, value in config.items():
        lines.append(f"{key} = {json.dumps(value)}")
    with open(dest / "pyproject.toml", "a") as fh:
        fh.write("\n".join(lines) + "\n")
    return present


def _environment(dest):
    """The environment mutmut runs in: this interpreter's scripts first on PATH (so an
    unactivated virtual environment works), the scratch copy importable."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "PATH": path, "PYTHONPATH": str(dest)}


def _survivors(dest, env):
    out = subprocess.run(["mutmut", "results"], cwd=dest, env=env, capture_output=True,
                         text=True).stdout
    return [line.split(":")[0].strip() for line in out.splitlines() if ": survived" in line]


def run_module(module, tests, work, jobs, tests_from=None, functions=(),
               timeout_multiplier=None):
    # One folder per module path (the papers' _rules.py share a file name).
    dest = work / module[len("skxor/"):-len(".py")].replace("/", "-").replace("-_", "-").lstrip("_")
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    _scratch_copy(dest, tests_from)
    present = _configure(dest, module, tests, timeout_multiplier)
    env = _environment(dest)
    log = dest / "mutmut.log"
    with open(log, "w") as fh:
        dotted = module[:-3].replace("/", ".")
        # Functions are x_<name>, methods x<sep><Class><sep><name> in mutmut's names.
        names = [f"{dotted}.x*{f}__mutmut_*" for f in functions]
        code = subprocess.run(["mutmut", "run", "--max-children", str(jobs), *names], cwd=dest,
                              env=env, stdout=fh, stderr=subprocess.STDOUT).returncode
    subprocess.run(["mutmut", "export-cicd-stats"], cwd=dest, env=env, capture_output=True)
    stats_file = dest / "mutants" / "mutmut-cicd-stats.json"
    if code != 0 or not stats_file.exists():
        return {"module": module, "error": f"mutmut stopped with status {code}; see {log}"}
    stats = json.loads(stats_file.read_text())
    killed = stats["killed"] + stats["timeout"] + stats.get("segfault", 0)
    scored = killed + stats["survived"]
    return {
        "module": module,
        "functions": list(functions) or "all",
        "tests": present,
        "generated": stats["total"],
        "mutants": scored,
        "killed": killed,
        "survived": stats["survived"],
        "not_run": stats["total"] - scored,
        "score": killed / scored if scored else float("nan"),
        "survivors": _survivors(dest, env),
        "folder": str(dest),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only modules whose path contains one of these")
    parser.add_argument("--tests-from", metavar="REV",
                        help="use the tests/ folder of this git revision (e.g. a score before)")
    parser.add_argument("--functions", nargs="+", default=(), metavar="NAME",
                        help="mutate only these functions (fnmatch patterns) of the modules")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--timeout-multiplier", type=float, metavar="X",
                        help="mutmut's timeout_multiplier (default: mutmut's, 15); raise it on a "
                        "loaded machine, where a timeout is no failing test")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "skxor-mutation",
                        help="scratch folder (default: <tmp>/skxor-mutation)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    args = parser.parse_args(argv)
    selected = {m: t for m, t in MODULES.items() if not args.names or any(w in m for w in args.names)}
    if args.list or not selected:
        for module, tests in MODULES.items():
            print(module, "<-", ", ".join(tests))
        return 0 if args.list else 2
    if shutil.which("mutmut", path=_environment(args.work)["PATH"]) is None:
        print("mutation_score: mutmut is not installed here: pip install -e '.[mutation]'",
              file=sys.stderr)
        return 2
    results = []
    for module, tests in selected.items():
        print(f"mutating {module} ...", flush=True)
        result = run_module(module, tests, args.work, args.jobs, args.tests_from, args.functions,
                            args.timeout_multiplier)
        results.append(result)
        if "error" in result:
            print(f"  {result['error']}", flush=True)
            continue
        print(f"  {result['killed']}/{result['killed'] + result['survived']} killed "
              f"({result['score']:.1%}); survivors: {' '.join(result['survivors']) or 'none'}",
              flush=True)
    print()
    print(f"{'module':40s} {'mutants':>7s} {'killed':>6s} {'survived':>8s} {'score':>6s}"
          "  (mutants: those run; --functions runs a part of a module's)")
    for r in results:
        if "error" in r:
            print(f"{r['module']:40s} error")
            continue
        print(f"{r['module']:40s} {r['mutants']:7d} {r['killed']:6d} {r['survived']:8d} "
              f"{r['score']:6.1%}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
