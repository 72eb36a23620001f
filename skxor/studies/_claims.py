"""The claims of the papers against the stored runs: the verdict machinery and the table.

Each study package declares the claims its runs test, as :class:`Claim` objects in
its ``Study(claims=...)``: the paper (and version) making the claim, the claim
in our words, the paper's setting, and the ``rule`` that reads the study's
stored table and returns our setting, the measured value with its interval and
independent units, and a verdict. This module holds only what every claim
shares: the verdict rules for rates (:func:`rate_verdict`, :func:`worst`), the
count formatters, and :func:`claim_rows`, which collects one row per claim of
the registered studies (a user's study registered with
:func:`~skxor.studies.register` or an entry point included).
"""

import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .._utils._files import naming_the_table
from ._report import values_text
from ._stats import clopper_pearson_interval, format_interval, wilson_interval

__all__ = ["Claim", "claim_rows", "declared_claims", "rate_verdict", "worst"]

#: Pooled over d, runs of one seed share key prefixes (see POOLED_OVER_D_CAVEAT).
_SHARED_KEYS = ("runs of one seed at different d share key prefixes, so the interval "
                "takes the seeds as the independent units")

#: Threshold of the verdict rule for rates.
THRESHOLD = 0.5
VERDICTS = ("reproduced", "reproduced in part", "not reproduced", "not tested")


@dataclass(frozen=True, kw_only=True, eq=False)
class Claim:
    """A claim of a paper, declared by the study whose runs test it.

    Parameters
    ----------
    id : str
        Short identifier, unique over the registered studies (``"H1"``);
        the claims table lists the claims in the order of their ids.
    paper : str
        Who makes the claim (``"Han & Ghoshdastidar"``).
    source : str
        Where, with the version (``"arXiv 2502.07553v2"``).
    name : str
        A few words naming the claim.
    paper_setting : str
        The paper's setting in which it is made.
    statement : str
        The claim, in our words.
    rule : callable
        ``rule(table)``: from the study's stored table (never empty), a dict
        with ``value`` (the measured value with its interval) and
        ``verdict`` (one of ``"reproduced"``, ``"reproduced in part"``,
        ``"not reproduced"``, ``"not tested"``), and optionally ``ours``
        (our setting) and ``units`` (the independent units).
    strength : str, default=""
        How strong the claim is: with high probability, almost surely,
        asymptotic in N or d, a sufficient bound, an empirical remark.
    regime : str, default=""
        Where the claim applies (for example ``m >= m0(d)``).
    rule_text : str, default=""
        The rule in words, as the claims page states it.
    contradicted_by : str, default=""
        The result that would have contradicted the claim.
    counterfactuals : tuple, default=()
        Tables (or functions returning one) on which the paper is wrong and
        the rule must say so; tests run the rule on each.

    Examples
    --------
    >>> from skxor.studies import Claim, format_count, rate_verdict, wilson_interval
    >>> def rule(table):
    ...     k, n = int(table["ok"].sum()), len(table)
    ...     low, high = wilson_interval(k, n)
    ...     return dict(value=f"ok in {format_count(k, n, 'seeds')}",
    ...                 verdict=rate_verdict(low, high))
    >>> claim = Claim(id="U1", paper="Me", source="my notes", name="it works",
    ...               paper_setting="any", statement="it works in most seeds", rule=rule)
    >>> import pandas as pd
    >>> claim.rule(pd.DataFrame({"ok": [True] * 9 + [False]}))
    {'value': 'ok in 9/10 seeds = 0.90 [0.60, 0.98]', 'verdict': 'reproduced'}
    """

    id: str
    paper: str
    source: str
    name: str
    paper_setting: str
    statement: str
    rule: Callable
    strength: str = ""
    regime: str = ""
    rule_text: str = ""
    contradicted_by: str = ""
    counterfactuals: tuple = field(default=())

    def __post_init__(self):
        for name in ("id", "paper", "source", "name", "paper_setting", "statement"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"a claim's {name} must be a non-empty str; got "
                                f"{getattr(self, name)!r}.")
        if not callable(self.rule):
            raise TypeError(f"claim {self.id}: rule must be a function of the study's "
                            f"table; got {type(self.rule).__name__}.")
        object.__setattr__(self, "counterfactuals", tuple(self.counterfactuals))


# -- rendering helpers ---------------------------------------------------------------


def count_text(k, n, unit, low, high):
    """``"k/n unit = rate [low, high]"`` and the numbers behind it, ``(rate, low, high)``."""
    return f"{k}/{n} {unit} = {format_interval(k / n, low, high)}", (k / n, low, high)


def count(k, n, unit, method="wilson"):
    """:func:`count_text` with the Wilson (or ``"clopper-pearson"``) 95% interval of k/n.

    Examples
    --------
    >>> from skxor.studies._claims import count
    >>> count(3, 4, "seeds")[0], count(0, 0, "seeds")[0]
    ('3/4 seeds = 0.75 [0.30, 0.95]', '0 seeds')
    """
    if not n:
        return f"0 {unit}", (math.nan, math.nan, math.nan)
    low, high = (wilson_interval if method == "wilson" else clopper_pearson_interval)(k, n)
    return count_text(k, n, unit, low, high)


def pooled_count(k, row, low="success_low", high="success_high"):
    """A rate pooled over d and m, with the seed-clustered interval its table holds."""
    return count_text(k, int(row.runs), "runs", float(getattr(row, low)),
                      float(getattr(row, high)))


def pooled_units(row, each=""):
    """The units of a rate pooled over d and m: the runs, and the seeds they share."""
    return (f"{int(row.runs)} runs{each} over {int(row.seeds)} seeds (seeds x d x m; "
            f"{_SHARED_KEYS})")


def rate_verdict(low, high, claimed=True, threshold=THRESHOLD):
    """The verdict on a claimed success (or, ``claimed=False``, a claimed failure) rate.

    A claimed success is *reproduced* when the interval's lower end is at
    least ``threshold``, *not reproduced* when its upper end is below it,
    and *reproduced in part* when the interval straddles it; a claimed
    failure mirrors this. No data: *not tested*.

    Examples
    --------
    >>> from skxor.studies._claims import rate_verdict
    >>> rate_verdict(0.6, 0.9), rate_verdict(0.3, 0.7), rate_verdict(0.0, 0.06, claimed=False)
    ('reproduced', 'reproduced in part', 'reproduced')
    """
    if not (np.isfinite(low) and np.isfinite(high)):
        return "not tested"
    if not claimed:
        low, high = 1 - high, 1 - low
    if low >= threshold:
        return "reproduced"
    if high < threshold:
        return "not reproduced"
    return "reproduced in part"


def worst(verdicts):
    """The weakest of several verdicts (a claim holds only as far as each part holds)."""
    verdicts = [v for v in verdicts if v != "not tested"] or ["not tested"]
    order = ["not reproduced", "reproduced in part", "reproduced", "not tested"]
    if "not reproduced" in verdicts and "reproduced" in verdicts:
        return "reproduced in part"
    return min(verdicts, key=order.index)


def listed(series):
    """The distinct values of a column, sorted, as ``"1, 10, 100"`` (missing ones left out)."""
    return values_text(v.item() if hasattr(v, "item") else v for v in series.dropna())


def _preset(entry):
    record = entry["record"]
    if record is None:
        return "run record missing"
    preset = record["preset"]
    text = preset if record.get("matches_preset") else f"{preset} with overrides"
    if record.get("earlier_version"):
        text += f" (from an earlier version: {record['earlier_version']})"
    return text


def _natural(claim_id):
    # "H2" before "H10": the digits compared as numbers.
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", claim_id)]


def declared_claims(studies):
    """Every claim the ``studies`` declare, as ``(study name, Claim)``, in the order of the ids.

    Parameters
    ----------
    studies : dict of str to Study
        For example the registry, :data:`~skxor.studies.STUDIES`.

    Examples
    --------
    >>> from skxor.studies import STUDIES
    >>> from skxor.studies._claims import declared_claims
    >>> [(study, claim.id) for study, claim in declared_claims(STUDIES)][:3]
    [('one_step', 'H1'), ('parameter_scaling', 'H2'), ('one_step', 'H3')]
    """
    found = [(name, claim) for name, study in studies.items() for claim in study.claims]
    return sorted(found, key=lambda pair: _natural(pair[1].id))


def claim_rows(store, studies):
    """One row per claim the ``studies`` declare, every number computed from ``store``.

    :func:`~skxor.studies.claims_table` with the registry's studies; see there.
    """
    rows = []
    for study, claim in declared_claims(studies):
        row = dict(id=claim.id, paper=claim.paper, claim=claim.name,
                   paper_setting=claim.paper_setting, statement=claim.statement,
                   study=study, ours="-", value="no stored run", units="-",
                   verdict="not tested", preset="-")
        if study in store and store[study]["table"].empty:
            row.update(value="the stored table holds no rows", preset=_preset(store[study]))
        elif study in store:
            with naming_the_table(study, store[study]["path"]):
                row.update(claim.rule(store[study]["table"]))
            row["preset"] = _preset(store[study])
        rows.append(row)
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=[
        "id", "paper", "claim", "paper_setting", "statement", "study", "ours", "value",
        "units", "verdict", "preset"])
