"""A fourth named Boolean function goes through the training study (issue 33.7): the
study reads what it needs of a function from the Boolean registry, nothing by hand."""

import re

import matplotlib
import numpy as np
import pytest

from skxor.boolean import NAMED_FUNCTIONS, Dictator, register_function
from skxor.boolean._registry import _FUNCTIONS
from skxor.studies import get_study
from skxor.papers.kover.training import (
    clusters,
    summarize_training,
)
from skxor.papers.kover.training._cells import training_cells

STUDY = get_study("training_sensitivity")

matplotlib.use("Agg")


class Last(Dictator):
    """The dictator of the last position."""

    def __init__(self, n_bits):
        super().__init__(n_bits, index=n_bits - 1)


class Unstated(Dictator):
    """A dictator whose class states no clusters."""

    sensitivity_clusters = ()


@pytest.fixture
def registered():
    register_function("LAST", Last)
    register_function("UNSTATED", Unstated)
    yield
    for name in ("LAST", "UNSTATED"):
        _FUNCTIONS.pop(name)


def test_a_fourth_named_function_runs_through_the_training_study(registered):
    # Old study: CLUSTERS, _STYLE and `shown` keyed PARITY, MAJORITY and FIRST by
    # hand, so LAST passed validation and then failed with KeyError: 'LAST'.
    assert list(NAMED_FUNCTIONS)[3:] == ["LAST", "UNSTATED"]
    assert clusters("LAST") == ("one",) and clusters("UNSTATED") == ()
    study = get_study("training_sensitivity")
    overrides = dict(function=["FIRST", "LAST", "UNSTATED"], n_bits=[3, 4], seeds=1,
                     d_model=8, n_layers=1, n_heads=2, n_steps=50, check_every=10)
    params = study.params("quick", overrides)
    cells = training_cells(params)
    assert {c["function"] for c in cells} == {"FIRST", "LAST", "UNSTATED"}
    df = study.run("quick", **overrides)
    summary = summarize_training(df)
    last = summary[summary["function"] == "LAST"]
    first = summary[summary["function"] == "FIRST"]
    # LAST is FIRST mirrored: its own strings all have sensitivity 1, as FIRST's.
    assert (last["target_in_cluster"] == 1.0).all()
    assert np.array_equal(last["target_share_one"], first["target_share_one"])
    assert summary.loc[summary["function"] == "UNSTATED", "in_cluster"].isna().all()
    report = STUDY.render("report", df)
    assert re.search(r"\| LAST \(library\) +\| +3 \| \d/1 seeds", report)
    assert re.search(r"\| UNSTATED \(library\) +\| +4 \| \d/1 seeds", report)
    figures = STUDY.render("figures", df)
    titles = {ax.get_title() for ax in figures["clusters"].axes}
    assert {"FIRST", "LAST", "UNSTATED"} <= titles
    # Each function its own style, from its place in the registry.
    colours = {line.get_color() for ax in figures["success"].axes for line in ax.get_lines()}
    assert {"tab:green", "tab:purple", "tab:orange"} <= colours
    headline = study.render("headline", df)
    assert "LAST (library) learned up to N =" in headline


def test_a_registered_name_is_checked():
    with pytest.raises(ValueError, match="name must be new and upper case; got 'PARITY'"):
        register_function("PARITY", Last)
    with pytest.raises(TypeError, match="subclass of BooleanFunction"):
        register_function("LAST", object)
    assert "LAST" not in NAMED_FUNCTIONS
