"""Every benchmark runs at a tiny size and returns well-formed rows.

The benchmarks are run by hand (``python benchmarks/run.py``); this only
checks that each one still runs against the current code and that its row
can be written. Timing targets at these sizes mean nothing and are not
asserted.
"""

import math
import sys
from pathlib import Path

import pandas as pd
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"

#: Tiny arguments for every benchmark in the suite (seconds, not minutes).
TINY = {
    "target_1_vs_standard_transformer": dict(d=32, n=256, m=8),
    "target_2_vs_floor": dict(d=32, n=512, m=8),
    "target_3_population_step": dict(d=2000, m=16),
    "target_4_exhaustive_profile": dict(n_bits=8, fraction_bits=2),
    "flop_rate_exhaustive_profile": dict(n_bits=8, timed_bits=8, piece_bits=6, repeat=1),
    "memory_exhaustive_profile": dict(sizes=(18,)),
    "sampled_profile_long_inputs": dict(n_bits=16, n_samples=64, timed_samples=8, repeat=1),
    "target_5_vs_hand_written_loop": dict(n=256, d=20, epochs=1),
    "training_loop_vs_hand_written": dict(n=64, n_bits=6, d_model=8, epochs=1),
    "target_k_heads_step": dict(d=2000, m=8, k=3),  # k = 4 places a bit at 54 321
    "p12_sparse_xor_sampled_profile": dict(d=200, n_strings=8, per_flip_d=100),
    "p13_boolean_transformer_one_layer": dict(n_bits=16, n_strings=4, per_flip_strings=2),
    "p14_boolean_transformer_two_layers": dict(n_bits=16, n_strings=4, timed_strings=2),
    "cli_start_vs_import_torch": dict(repeat=1),
    "cli_list_vs_import_torch": dict(repeat=1),
    "index_to_bits_vs_column_shifts": dict(n_bits=10, repeat=1),
    "p15_one_layer_exhaustive": dict(n_bits=12, d_model=16, fraction_bits=2, check_bits=8),
    "p16_flop_share": dict(n_bits=10, piece_bits=8),
    "p17_n32": dict(n_bits=12, n_jobs=1),
    "p17b_near_zero": dict(sizes=(10, 12), n_jobs=1),
    "p17c_near_zero_n32": dict(n_jobs=1),  # N = 16 in quick mode
    "p18_small_truth_table": dict(n_bits=8, number=5),
    "p19_training_step_n32": dict(n_bits=6, n_steps=3, product=128),
    "p19_training_step_n128": dict(n_bits=8, n_steps=2, product=128),
}


@pytest.fixture(scope="module")
def run_module():
    sys.path.insert(0, str(BENCH))
    try:
        import _common
        import run

        _common.QUICK = True
        yield run
    finally:
        sys.path.remove(str(BENCH))


def test_every_benchmark_has_a_tiny_size(run_module):
    names = [bench.__name__ for _, bench in run_module._benchmarks()]
    assert sorted(names) == sorted(TINY)


@pytest.mark.parametrize("name", sorted(TINY))
def test_benchmark_runs_at_a_tiny_size(run_module, name, tmp_path):
    (bench,) = [b for _, b in run_module._benchmarks() if b.__name__ == name]
    result = bench(**TINY[name])
    rows = result if isinstance(result, list) else [result]
    assert rows
    for row in rows:
        assert {"benchmark", "target", "baseline_s", "skxor_s", "ratio", "passes"} <= set(row)
        assert isinstance(row["passes"], bool)
        assert row.get("status") != "ERROR", row.get("note")
        assert math.isfinite(row["ratio"]) and row["ratio"] >= 0
        if row.get("rounds"):  # measured in rounds: the median and its spread
            assert row["rounds"] >= 5
            assert row["ratio_min"] <= row["ratio"] <= row["ratio_max"]
    # The rows can be written, and a rerun of one benchmark keeps the others.
    out = tmp_path / "results.csv"
    pd.DataFrame([{"benchmark": "other", "target": "", "passes": "True"}]).to_csv(out, index=False)
    run_module.write(rows, out, keep_others=True)
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert set(table["benchmark"]) == {"other", *(r["benchmark"] for r in rows)}
    assert (table.loc[table["benchmark"] == "other", "status"] == "PASS").all()


def test_run_list_and_an_unknown_name(run_module, capsys):
    assert run_module.main(["--list"]) == 0
    listed = capsys.readouterr().out.split()
    assert len(listed) == len(TINY)
    assert run_module.main(["no-such-benchmark"]) == 2


def test_costs_fitted_on_a_stored_table_recover_a_known_line(tmp_path):
    # A long table as the sample-complexity study stores it: a curve's time on its
    # first row, 0 on the others; its cells priced by the study's own cost hook.
    import json

    sys.path.insert(0, str(BENCH))
    try:
        import calibrate_costs
    finally:
        sys.path.remove(str(BENCH))
    from skxor.studies import get_study

    study = get_study("sample_complexity")
    setting = {"n_min": 25, "n_max": 6400, "n_sizes": 4, "n_test": 500}
    rows = []
    for d in (16, 64, 256, 1024):
        cell = dict(setting, model="ffnn", d=d, ffnn_n_max=1600)
        work = study.cost(cell)[1]
        for i in range(3):
            rows.append({**cell, "seed": 0, "n": 25 * 4**i,
                         "seconds": 2.0 + 1e-6 * work if i == 0 else 0.0,
                         "setting": json.dumps(setting)})
    path = tmp_path / "table.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    [row] = calibrate_costs.calibrate_from_table("sample_complexity", path, ["ffnn"],
                                                 echo=lambda line: None)
    assert row["cells_timed"] == 4  # one per curve, not one per row
    assert row["intercept_s"] == pytest.approx(2.0) and row["slope_s"] == pytest.approx(1e-6)
    with pytest.raises(SystemExit, match="0 cells of kind 'transformer_one_step'"):
        calibrate_costs.calibrate_from_table("sample_complexity", path,
                                             ["transformer_one_step"], echo=print)
    pd.DataFrame(rows).drop(columns="seconds").to_csv(path, index=False)
    with pytest.raises(SystemExit, match="no 'seconds' column"):
        calibrate_costs.calibrate_from_table("sample_complexity", path, ["ffnn"])


def test_a_rounds_row_passes_on_its_median_and_keeps_its_spread(run_module, tmp_path):
    # Issue 49.1: one ratio per interleaved round, by the CPU time of one thread;
    # the row's ratio is the median, and results.csv keeps the min and max.
    import _common

    calls = []
    times = _common.interleaved_rounds({"a": lambda: calls.append("a"),
                                        "b": lambda: calls.append("b")})
    assert calls == ["a", "b"] * 5 and all(len(t) == 5 for t in times.values())
    row = _common.ratio_row([2.0, 3.0, 9.0, 2.5, 2.8], [1.0] * 5)
    assert (row["ratio"], row["ratio_min"], row["ratio_max"], row["rounds"]) == (2.8, 2.0, 9.0, 5)
    assert row["clock"] == "CPU time, 1 thread"
    faster = _common.ratio_row([1.0, 2.0, 4.0], [8.0] * 3, higher_is_better=True)
    assert (faster["ratio"], faster["ratio_min"], faster["ratio_max"]) == (4.0, 2.0, 8.0)
    out = tmp_path / "results.csv"
    run_module.write([{"benchmark": "b", "target": "<= 3x", **row, "passes": row["ratio"] <= 3}],
                     out, keep_others=False)
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert table.loc[0, ["ratio", "ratio_min", "ratio_max", "rounds", "status"]].tolist() == \
        ["2.8", "2", "9", "5", "PASS"]


def test_costs_from_a_run_whose_cells_record_no_time_name_the_way_to_calibrate(tmp_path):
    # zero_sensitivity_bound's cells keep no 'seconds' in their checkpoints: a fit from
    # such a run stops with the command that times cells instead, not a KeyError.
    import json

    sys.path.insert(0, str(BENCH))
    try:
        import calibrate_costs
    finally:
        sys.path.remove(str(BENCH))
    folder = tmp_path / "checkpoints" / "zero_sensitivity_bound"
    folder.mkdir(parents=True)
    payload = {"cell": {"study": "zero_sensitivity_bound", "params": {"n_bits": 4}},
               "result": {"method": "exhaustive"}}
    (folder / "a.json").write_text(json.dumps({"payload": payload}))
    with pytest.raises(SystemExit, match="records no 'seconds'.*--study zero_sensitivity_bound"):
        calibrate_costs.calibrate_from_run("zero_sensitivity_bound", tmp_path, ["network"])
