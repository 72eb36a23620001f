import io

import pytest

from skxor.cli import main, run_demo


def test_demo_reports_softmax_success_and_linear_erf_failure():
    out = io.StringIO()
    table = run_demo(d=30, n=20000, n_test=2000, m=16, step_length=100.0, seeds=2, out=out)
    assert set(table["attention"]) == {"softmax", "linear", "erf"}
    rates = table.groupby("attention")["success"].mean()
    assert rates["softmax"] >= 0.5 and rates["linear"] == 0 and rates["erf"] == 0
    assert (table["trainable_parameters"] == 32).all()
    text = out.getvalue()
    assert "d=30" in text and "success_rate" in text and "recovered_support" in text


def test_demo_command_line(capsys):
    assert main(["demo", "--d", "20", "--n", "5000", "--n-test", "500", "--seeds", "1"]) == 0
    assert "Total wall time" in capsys.readouterr().out


def test_bad_arguments_exit_with_a_message(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--d", "0"])
    assert "positive integer" in capsys.readouterr().err
