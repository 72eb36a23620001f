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

import contextlib
import contextvars
import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .._utils._files import naming_the_table
from .reporting import values_text
from .stats import (as_flags, clopper_pearson_interval, clustered_rate_interval,
                    format_interval, wilson_interval)

__all__ = [
    "CONFIDENCE",
    "NOT_DECIDED",
    "censored_rate_part",
    "Claim",
    "claim_rows",
    "declared_claims",
    "holm",
    "judged",
    "listed",
    "not_tested",
    "Part",
    "rate_part",
    "rate_verdict",
    "shown",
    "unit_interval",
    "units_to_decide",
    "worst",
]

#: Pooled over d, runs of one seed share key prefixes (see POOLED_OVER_D_CAVEAT).
_SHARED_KEYS = ("runs of one seed at different d share key prefixes, so the interval "
                "takes the seeds as the independent units")

#: The verdicts a claim (and each of its parts) can get.
VERDICTS = ("reproduced", "inconclusive", "not reproduced", "not tested",
            "not decided by this design")

#: The verdict of a part judged on fewer independent units than its claim's
#: ``min_units`` (and of a claim whose every judged part is): the design
#: cannot power a verdict there, whatever the data say.
NOT_DECIDED = VERDICTS[4]

#: The ``min_units`` of the claim whose rule is running (set by :func:`claim_rows`).
_MIN_UNITS = contextvars.ContextVar("min_units", default=0)

#: What a claim's rule may return: the measured value and the verdict, and optionally
#: our setting, the independent units and the judged parts alone (as :func:`judged`).
RULE_KEYS = ("value", "verdict", "ours", "units", "judged")

#: A claim's row's identity, from its Claim and the store; never from its rule.
IDENTITY_KEYS = ("id", "paper", "source", "claim", "kind", "paper_setting", "statement",
                 "strength", "regime", "rule", "contradicted_by", "study", "preset")

#: What a Claim can be: a paper's claim (counted in the claims page's short answer),
#: or the library's own control or numerical check (listed apart, never counted).
KINDS = ("claim", "control", "numerical check")

#: Confidence of every interval shown, and the family-wise error rate of the
#: verdicts "not reproduced" over a claim's parts (Holm's adjustment).
CONFIDENCE = 0.95
FAMILY_ALPHA = 0.05

#: Thresholds tied to the claims' strengths, on a rate's 95% interval.
#: "With high probability": reproduced when the lower end is at least
#: WHP_LOW and the upper end reaches WHP_HIGH (the data allow a rate near 1
#: and exclude a minority of failures); not reproduced when the upper end is
#: below WHP_HIGH.
WHP_LOW, WHP_HIGH = 0.7, 0.9
#: "Almost surely": the same at ALMOST_SURE_LOW and ALMOST_SURE_HIGH.
ALMOST_SURE_LOW, ALMOST_SURE_HIGH = 0.9, 0.99
#: A claimed failure: reproduced when the upper end is at most FAILURE_HIGH,
#: not reproduced when the lower end is above it.
FAILURE_HIGH = 0.1


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
        ``rule(summary)`` or ``rule(table)``: from the study's summary of its
        stored table (never empty; computed once and handed to every claim,
        see :meth:`Study.render <skxor.studies.Study.render>`), or from the
        table itself when the rule names ``table`` or a name of its own, a
        dict with ``value`` (the measured value with its interval) and
        ``verdict`` (one of ``"reproduced"``, ``"inconclusive"``,
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
    kind : {"claim", "control", "numerical check"}, default="claim"
        A paper's claim, or the library's own control or numerical check:
        the claims page's short answer counts the papers' claims only and
        lists the others apart.
    counterfactuals : tuple, default=()
        Functions returning a table on which the paper is wrong in a way a
        referee would worry about; the rule must say "not reproduced" on
        each (the default test suite runs them).
    holds : tuple, default=()
        Functions returning a table on which the paper holds; the rule must
        say "reproduced" on each.
    simulate : callable or None, default=None
        ``simulate(design, truth, rng) -> table``: the study's table at
        ``design`` (a DataFrame, one row per cell: its grid axes and seed)
        drawn where the paper holds (``truth="holds"``) or where its stated
        alternative does (``truth="alternative"``), at the spread the stored
        run measured, from the numpy Generator ``rng``. It makes the
        design's power computable (:mod:`skxor.studies.power`).
    units_parameter : str, default="seeds"
        The study parameter counting the claim's independent units: a design
        short of the power goal is scaled on it to find one that reaches it
        (:func:`~skxor.studies.power.reaching_design`).
    asymptotic : str, default=""
        Why no finite design can test the claim (a statement about N or d
        going to infinity), where that is so: such a claim may stay below
        the power goal, and the claims page says why.
    min_units : int, default=0
        The fewest independent units (seeds, networks) on which a part of
        the claim can be decided either way (for a rate,
        :func:`units_to_decide` of its strength). A part judged on fewer
        (``Part.n_units``) is shown as :data:`NOT_DECIDED` and does not
        count towards the claim's verdict (:func:`judged`), so that a small
        design never prints "not reproduced" from 1 network.

    Examples
    --------
    >>> from skxor.studies import Claim, judged, rate_part
    >>> def rule(table):
    ...     part = rate_part("all", table["ok"], table["seed"], "with high probability")
    ...     return judged([part], units=f"{table['seed'].nunique()} seeds")
    >>> claim = Claim(id="U1", paper="Me", source="my notes", name="it works",
    ...               paper_setting="any", statement="it works in most seeds", rule=rule,
    ...               strength="with high probability")
    >>> import pandas as pd
    >>> claim.rule(pd.DataFrame({"ok": [True] * 29 + [False], "seed": range(30)}))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'units': '30 seeds', 'value': 'all: 29/30 runs = 0.97 [0.83, 0.99] (reproduced)',
     'judged': 'all: 29/30 runs = 0.97 [0.83, 0.99] (reproduced)', 'verdict': 'reproduced'}

    A rule naming ``summary`` reads the study's summary, computed once for
    every claim, the report and the figures (as ``skxor publish`` calls it):

    >>> from skxor.studies import POSITIVE, Grid, Study
    >>> def share_rule(summary):
    ...     share = float(summary["ok_rate"].min())
    ...     return dict(value=f"{share:.2f}", verdict="reproduced" if share > 0.5
    ...                 else "not reproduced")
    >>> share = Claim(id="U2", paper="Me", source="my notes", name="most seeds",
    ...               paper_setting="any", statement="most seeds work", rule=share_rule)
    >>> study = Study(name="oks", description="", parameters={"x": [Grid(POSITIVE)],
    ...               "seeds": [POSITIVE]}, presets={"quick": {"x": [1], "seeds": 4}},
    ...               cell=lambda x, seed: {"ok": seed > 0}, claims=[share])
    >>> table = study.run()
    >>> study.render(share.rule, table, study.summary(table))
    {'value': '0.75', 'verdict': 'reproduced'}
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
    kind: str = "claim"
    counterfactuals: tuple = field(default=())
    holds: tuple = field(default=())
    min_units: int = 0
    simulate: Callable = None
    units_parameter: str = "seeds"
    asymptotic: str = ""

    def __post_init__(self):
        if self.simulate is not None and not callable(self.simulate):
            raise TypeError(f"claim {self.id!r}: simulate must be a function "
                            f"(design, truth, rng) -> table; got {type(self.simulate).__name__}.")
        if not isinstance(self.units_parameter, str) or not self.units_parameter:
            raise TypeError(f"claim {self.id!r}: units_parameter must be the name of a study "
                            f"parameter (a str); got {self.units_parameter!r}.")
        if not isinstance(self.asymptotic, str):
            raise TypeError(f"claim {self.id!r}: asymptotic must be a str (why no finite "
                            f"design can test it); got {type(self.asymptotic).__name__}.")
        if isinstance(self.min_units, bool) or not isinstance(self.min_units, int) \
                or self.min_units < 0:
            raise ValueError(f"claim {self.id!r}: min_units must be an int >= 0; got "
                             f"{self.min_units!r}.")
        for name in ("id", "paper", "source", "name", "paper_setting", "statement"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"a claim's {name} must be a non-empty str; got "
                                f"{getattr(self, name)!r}.")
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id}: kind must be one of {', '.join(map(repr, KINDS))}; "
                             f"got {self.kind!r}.")
        if not callable(self.rule):
            raise TypeError(f"claim {self.id}: rule must be a function of the study's "
                            f"table; got {type(self.rule).__name__}.")
        for name in ("counterfactuals", "holds"):
            object.__setattr__(self, name, tuple(getattr(self, name)))


# -- rendering helpers ---------------------------------------------------------------


def count_text(k, n, unit, low, high):
    """``"k/n unit = rate [low, high]"`` and the numbers behind it, ``(rate, low, high)``."""
    return f"{k}/{n} {unit} = {format_interval(k / n, low, high)}", (k / n, low, high)


def count(k, n, unit, method="wilson"):
    """:func:`count_text` with the Wilson (or ``"clopper-pearson"``) 95% interval of k/n.

    Examples
    --------
    >>> from skxor.studies.claims import count
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


_STRENGTH_THRESHOLDS = {
    "with high probability": (WHP_LOW, WHP_HIGH),
    "almost surely": (ALMOST_SURE_LOW, ALMOST_SURE_HIGH),
}


def _supports(strength, low, high):
    if strength == "failure":
        return high <= FAILURE_HIGH
    floor, ceiling = _STRENGTH_THRESHOLDS[strength]
    return low >= floor and high >= ceiling


def _contradicts(strength, low, high):
    if strength == "failure":
        return low > FAILURE_HIGH
    return high < _STRENGTH_THRESHOLDS[strength][1]


def rate_verdict(low, high, strength="with high probability"):
    """The verdict on a rate's 95% interval ``[low, high]`` at a claim's ``strength``.

    ``strength`` is ``"with high probability"`` (reproduced when ``low >=
    WHP_LOW`` and ``high >= WHP_HIGH``, not reproduced when ``high <
    WHP_HIGH``), ``"almost surely"`` (the same at ``ALMOST_SURE_LOW`` and
    ``ALMOST_SURE_HIGH``) or ``"failure"`` (a claimed failure: reproduced
    when ``high <= FAILURE_HIGH``, not reproduced when ``low >
    FAILURE_HIGH``); otherwise *inconclusive*. No data: *not tested*.

    Examples
    --------
    >>> from skxor.studies.claims import rate_verdict
    >>> rate_verdict(0.8, 0.97), rate_verdict(0.6, 0.95), rate_verdict(0.5, 0.7)
    ('reproduced', 'inconclusive', 'not reproduced')
    >>> rate_verdict(0.0, 0.08, "failure"), rate_verdict(0.0, 0.11, "failure")
    ('reproduced', 'inconclusive')
    """
    if strength != "failure" and strength not in _STRENGTH_THRESHOLDS:
        raise ValueError(f"strength must be 'failure' or one of "
                         f"{sorted(_STRENGTH_THRESHOLDS)}; got {strength!r}.")
    if not (np.isfinite(low) and np.isfinite(high)):
        return "not tested"
    if _contradicts(strength, low, high):
        return "not reproduced"
    return "reproduced" if _supports(strength, low, high) else "inconclusive"


def units_to_decide(strength="with high probability", largest=10_000):
    """The fewest units on which a rate's verdict can go either way at ``strength``.

    The smallest G for which G agreeing units (G of G for a claimed success,
    0 of G for a claimed failure) give "reproduced" (:func:`rate_verdict` on
    the Wilson interval); any G gives "not reproduced" on the opposite data,
    so below this size a verdict can only go against the claim.

    Examples
    --------
    >>> from skxor.studies.claims import units_to_decide
    >>> units_to_decide("with high probability"), units_to_decide("failure")
    (9, 35)
    """
    for groups in range(1, largest + 1):
        k = 0 if strength == "failure" else groups
        if rate_verdict(*wilson_interval(k, groups), strength) == "reproduced":
            return groups
    raise ValueError(f"no design up to {largest} units decides strength {strength!r}.")


def unit_interval(flags, units, confidence=CONFIDENCE):
    """A rate's interval with ``units`` (seeds) as the independent units, at 0/n and n/n too.

    Inside (0, 1) the seed-clustered interval
    (:func:`~skxor.studies.stats.clustered_rate_interval`); where every run
    agrees, at least the Wilson interval over the units (0 of G seeds, or G
    of G): runs that agree carry no information on how a seed's runs
    correlate, so the interval is never narrower than one that takes each
    seed as one draw (0/1050 runs over 30 seeds: [0, 0.11], not [0, 0.004]).

    Returns
    -------
    rate, low, high : float
    n, n_units : int

    Examples
    --------
    >>> from skxor.studies.claims import unit_interval
    >>> rate, low, high, n, g = unit_interval([False] * 1050, [s % 30 for s in range(1050)])
    >>> rate, round(high, 3), n, g
    (0.0, 0.114, 1050, 30)
    """
    rate, low, high, n, groups, _ = clustered_rate_interval(flags, units, confidence)
    if n and rate in (0.0, 1.0):
        seed_low, seed_high = wilson_interval(int(rate) * groups, groups, confidence)
        low, high = min(low, seed_low), max(high, seed_high)
    return rate, low, high, n, groups


@dataclass(frozen=True, kw_only=True, eq=False)
class Part:
    """One part of a claim, with its own verdict.

    Parameters
    ----------
    name : str
        Which part (``"d = 1000"``).
    text : str
        What was measured, with its 95% interval.
    verdict : str
        The part's verdict at 95% (one of :data:`VERDICTS`), or ``"shown"``
        for a series shown beside the claim but not judged (the library's
        extension, a setting the paper does not claim).
    interval : callable or None, default=None
        ``interval(confidence) -> (low, high)``: the part's interval at any
        confidence, for Holm's adjustment of the verdicts "not reproduced".
    contradicts : callable or None, default=None
        ``contradicts(low, high)``: whether an interval contradicts the part.
    n_units : int or None, default=None
        How many independent units the part was judged on (``rate_part``
        fills it); :func:`judged` compares it with the claim's ``min_units``.
    """

    name: str
    text: str
    verdict: str
    interval: Callable = None
    contradicts: Callable = None
    n_units: int = None

    def p_value(self):
        """The smallest two-sided level at which the part's interval contradicts it (bisection)."""
        if self.interval is None or self.contradicts is None:
            return 1.0
        if not self.contradicts(*self.interval(1e-9)):  # not even at the point estimate
            return 1.0
        low, high = 1e-12, 1 - 1e-9  # levels alpha: contradicted at `high`, not at `low`
        if self.contradicts(*self.interval(1 - low)):
            return low
        for _ in range(40):
            mid = (low + high) / 2
            low, high = (low, mid) if self.contradicts(*self.interval(1 - mid)) else (mid, high)
        return high


def rate_part(name, flags, units, strength, unit="runs", unit_name="seeds"):
    """A part judged on a rate of ``flags`` at ``strength`` (see :func:`rate_verdict`).

    ``units`` labels each run's independent unit (its seed); the interval is
    :func:`unit_interval`'s. ``flags`` are booleans or 0/1: a string, a
    missing value or another number is a ValueError
    (:func:`~skxor.studies.stats.as_flags`).

    Examples
    --------
    >>> from skxor.studies.claims import rate_part
    >>> part = rate_part("d = 100", [True] * 30, range(30), "with high probability")
    >>> part.text, part.verdict
    ('d = 100: 30/30 runs = 1.00 [0.89, 1.00]', 'reproduced')
    """
    flags = as_flags(flags, "flags")  # not dtype=bool: "False" and NaN are true to it
    units = np.asarray(units)
    if not flags.size:
        return Part(name=name, text=f"{name}: no runs", verdict="not tested")
    rate, low, high, n, groups = unit_interval(flags, units)
    over = "" if groups == n else f" over {groups} {unit_name}"
    text = f"{name}: {int(flags.sum())}/{n} {unit}{over} = {format_interval(rate, low, high)}"
    return Part(name=name, text=text, verdict=rate_verdict(low, high, strength),
                interval=lambda confidence: unit_interval(flags, units, confidence)[1:3],
                contradicts=lambda lo, hi: _contradicts(strength, lo, hi), n_units=groups)


def censored_rate_part(name, flags, censored, units, strength, unit="runs", unit_name="seeds",
                       why="the budget"):
    """A rate part where some runs' outcomes are censored (decided by ``why``, not by the data).

    A censored run did not succeed, but might have with a larger budget
    (training stopped while still above chance). It is counted both ways:
    as a failure and as a success. The part gets a verdict only where both
    completions agree; otherwise it is *inconclusive*, and the text says how
    many runs ``why`` decided. Holm's adjustment (:func:`holm`) reads the
    completion that contradicts the claim least.

    Parameters
    ----------
    name : str
    flags : array-like of bool
        Success of each run: booleans or 0/1 (anything else is a ValueError).
    censored : array-like of bool
        Runs whose failure is censored (ignored where ``flags`` is True); booleans or 0/1.
    units : array-like
        Each run's independent unit (its seed).
    strength : str
        As in :func:`rate_verdict`.

    Examples
    --------
    Five seeds that did not learn, each stopped above chance by its budget:

    >>> from skxor.studies.claims import censored_rate_part
    >>> part = censored_rate_part("N = 128", [False] * 5, [True] * 5, range(5),
    ...                           "with high probability", unit="seeds")
    >>> part.verdict
    'inconclusive'
    >>> part.text
    'N = 128: 0/5 seeds = 0.00 [0.00, 0.43], 5 censored by the budget (0.00 [0.00, 0.43] to 1.00 [0.57, 1.00])'
    """
    flags = as_flags(flags, "flags")
    censored = as_flags(censored, "censored") & ~flags
    plain = rate_part(name, flags, units, strength, unit, unit_name)
    if not censored.any():
        return plain
    upper = rate_part(name, flags | censored, units, strength, unit, unit_name)
    both = {plain.verdict, upper.verdict}
    verdict = plain.verdict if len(both) == 1 else "inconclusive"
    low_text, high_text = (p.text.rsplit(" = ", 1)[1] for p in (plain, upper))
    text = (f"{plain.text}, {int(censored.sum())} censored by {why} "
            f"({low_text} to {high_text})")
    favourable = max((plain, upper), key=lambda p: p.p_value())
    return Part(name=name, text=text, verdict=verdict, interval=favourable.interval,
                contradicts=favourable.contradicts, n_units=plain.n_units)


def shown(name, text):
    """A series shown in a claim's row without a verdict (the library's, or not claimed)."""
    return Part(name=name, text=text, verdict="shown")


def not_tested(name, why):
    """A part the stored runs cannot test, with what it needs."""
    return Part(name=name, text=f"{name}: not tested (needs {why})", verdict="not tested")


def holm(parts, alpha=FAMILY_ALPHA):
    """The parts' verdicts with Holm's adjustment of "not reproduced" over the family.

    A part keeps "not reproduced" only when Holm's step-down procedure
    (Holm, 1979) rejects it at family-wise level ``alpha`` over the judged
    parts (its p-value from :meth:`Part.p_value`); otherwise it becomes
    "inconclusive". "Reproduced" needs no adjustment: a claim is reproduced
    only when every part is (an intersection-union test, Berger 1982).

    Examples
    --------
    Five parts, each 23/30 (contradicted at 95%, p = 0.015 each): over five
    parts Holm's first step asks p <= 0.01, so none is; one such part alone is.

    >>> from skxor.studies.claims import holm, rate_part
    >>> part = rate_part("d", [True] * 23 + [False] * 7, range(30), "with high probability")
    >>> part.verdict, [p.verdict for p in holm([part] * 5)], holm([part])[0].verdict
    ('not reproduced', ['inconclusive', 'inconclusive', 'inconclusive', 'inconclusive', 'inconclusive'], 'not reproduced')
    """
    judged = [i for i, p in enumerate(parts) if p.verdict in VERDICTS[:3]]
    p_values = {i: parts[i].p_value() for i in judged}
    rejected, order = set(), sorted(judged, key=p_values.get)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(order) - rank):
            break
        rejected.add(i)
    out = []
    for i, part in enumerate(parts):
        if part.verdict == "not reproduced" and part.interval is not None \
                and i not in rejected:
            part = Part(name=part.name, text=part.text, verdict="inconclusive",
                        interval=part.interval, contradicts=part.contradicts,
                        n_units=part.n_units)
        out.append(part)
    return out


def worst(verdicts):
    """A claim's verdict from its parts' verdicts.

    *Not reproduced* as soon as one part is (a claim holds only as far as
    each part holds); *reproduced* when every judged part is; *not tested*
    when none is judged (:data:`NOT_DECIDED` when some part was judged on
    too few units to decide); otherwise *inconclusive*. Parts shown without
    a verdict (``"shown"``), parts not tested and parts not decided do not
    count.

    Examples
    --------
    >>> from skxor.studies.claims import worst
    >>> worst(["reproduced", "not reproduced"]), worst(["reproduced", "inconclusive"])
    ('not reproduced', 'inconclusive')
    >>> worst(["reproduced", "shown", "not tested"]), worst(["shown"])
    ('reproduced', 'not tested')
    >>> worst(["not decided by this design", "reproduced"]), worst(["not decided by this design"])
    ('reproduced', 'not decided by this design')
    """
    verdicts = list(verdicts)
    judged = [v for v in verdicts if v in VERDICTS[:3]]
    if not judged:
        return NOT_DECIDED if NOT_DECIDED in verdicts else "not tested"
    if "not reproduced" in judged:
        return "not reproduced"
    return "reproduced" if set(judged) == {"reproduced"} else "inconclusive"


def _undecided(part, min_units):
    """``part`` as :data:`NOT_DECIDED` where it was judged on fewer than ``min_units`` units."""
    if part.verdict not in VERDICTS[:3] or part.n_units is None or part.n_units >= min_units:
        return part
    return Part(name=part.name, text=f"{part.text}, {part.n_units} of the {min_units} units "
                "needed to decide", verdict=NOT_DECIDED)


def judged(parts, min_units=None, **row):
    """A claim's row from its parts: each part's text and verdict, Holm over the parts.

    Parameters
    ----------
    parts : iterable of Part
        From :func:`rate_part` (or ``Part`` with a verdict of its own).
    min_units : int or None, default=None
        Parts judged on fewer units (``Part.n_units``) are shown as
        :data:`NOT_DECIDED` and not counted. None: the ``min_units`` of the
        claim whose rule :func:`claim_rows` is running (0 outside one).
    **row
        Other entries of the row (``ours``, ``units``).

    Returns
    -------
    row : dict
        ``row`` with ``value`` (each part's text and verdict) and
        ``judged`` (the judged parts alone; where none is, the parts not
        tested, which say why) and ``verdict`` (:func:`worst` of
        the parts after :func:`holm`).

    Examples
    --------
    One part contradicted makes the claim not reproduced:

    >>> from skxor.studies import judged, rate_part
    >>> parts = [rate_part("d = 100", [True] * 30, range(30), "with high probability"),
    ...          rate_part("d = 1000", [False] * 30, range(30), "with high probability")]
    >>> judged(parts)["verdict"]
    'not reproduced'

    The same 0/30 judged on 3 seeds, under a claim that needs 9 to decide:

    >>> few = rate_part("d = 1000", [False] * 3, range(3), "with high probability")
    >>> few.verdict, judged([few], min_units=9)["verdict"]
    ('not reproduced', 'not decided by this design')
    """
    minimum = _MIN_UNITS.get() if min_units is None else min_units
    parts = holm([_undecided(p, minimum) for p in parts])
    row["value"] = "; ".join(
        p.text if p.verdict in ("shown", "not tested") else f"{p.text} ({p.verdict})"
        for p in parts) or "no parts"
    # Where no part is judged, the parts not tested say why (the claim's deciding text).
    row["judged"] = ("; ".join(f"{p.text} ({p.verdict})" for p in parts
                               if p.verdict in VERDICTS[:3])
                     or "; ".join(f"{p.text} ({p.verdict})" for p in parts
                                  if p.verdict in VERDICTS[3:]) or "no part judged")
    row["verdict"] = worst(p.verdict for p in parts)
    return row


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
    >>> from skxor.studies.claims import declared_claims
    >>> [(study, claim.id) for study, claim in declared_claims(STUDIES)][:3]
    [('one_step', 'H1'), ('parameter_scaling', 'H2'), ('one_step', 'H3')]
    """
    found = [(name, claim) for name, study in studies.items() for claim in study.claims]
    return sorted(found, key=lambda pair: _natural(pair[1].id))


def stored_summary(study, entry, summary=None):
    """The summary of a stored run's table, computed once and kept in ``entry``.

    ``entry`` is a store's entry (``{"table", "path", ...}``); the summary
    is computed on the first call (or given as ``summary``, when the caller
    computed it) and kept in it with the table it summarizes, so that the
    claims, the headline, the report and the figures of a stored run share
    it; an entry copied with another table gets that table's summary. Callers
    name the table in what its content makes fail
    (:func:`~skxor._utils._files.naming_the_table`).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import get_study
    >>> from skxor.studies.claims import stored_summary
    >>> entry = {"table": pd.DataFrame({"attention": ["erf"], "n": 0, "d": 10, "m": 4,
    ...          "seed": 0, "step_length": 10.0, "success": False, "specialised": False,
    ...          "loss_after_step": 1.0}), "path": None}
    >>> summary = stored_summary(get_study("one_step"), entry)
    >>> stored_summary(get_study("one_step"), entry) is summary
    True
    """
    table = entry["table"]
    kept = entry.get("summary")
    if summary is not None:
        kept = entry["summary"] = (table, summary)
    elif kept is None or kept[0] is not table:  # none yet, or of another table
        kept = entry["summary"] = (table, study.summary(table))
    return kept[1]


def _who(study, claim):
    rule = getattr(claim.rule, "__name__", None) or repr(claim.rule)
    return f"claim {claim.id} of study {study!r} (its rule {rule})"


@contextlib.contextmanager
def _naming_the_rule(study, claim):
    """Re-raise what a claim's rule raises as one ValueError naming the claim and rule."""
    try:
        yield
    except Exception as exc:
        raise ValueError(f"{_who(study, claim)} failed: {type(exc).__name__}: {exc}") from exc


def rule_result(study, claim, result):
    """``result``, what the rule of ``claim`` of ``study`` returned, if a claim row can take it.

    A dict with ``value`` (text) and ``verdict`` (one of :data:`VERDICTS`,
    spelled exactly so), and optionally ``ours``, ``units`` and ``judged``
    (text); nothing else, and never a key of the row's identity (``id``,
    ``study``, ...), which the claims table takes from the claim.

    Raises
    ------
    TypeError, ValueError
        Naming the claim, its study and its rule, and what is wrong.

    Examples
    --------
    >>> from skxor.studies import Claim
    >>> from skxor.studies.claims import rule_result
    >>> def my_rule(table):
    ...     return {"value": "3/4", "verdict": "maybe"}
    >>> claim = Claim(id="U1", paper="Me", source="notes", name="n", paper_setting="s",
    ...               statement="t", rule=my_rule)
    >>> rule_result("mine", claim, my_rule(None))
    Traceback (most recent call last):
    ...
    ValueError: claim U1 of study 'mine' (its rule my_rule) returned verdict 'maybe'; a verdict is one of 'reproduced', 'inconclusive', 'not reproduced', 'not tested', 'not decided by this design', spelled exactly so.
    """
    who = _who(study, claim)
    if not isinstance(result, dict):
        raise TypeError(f"{who} must return a dict with 'value' and 'verdict'; it returned "
                        f"{type(result).__name__} ({result!r:.60}).")
    identity = sorted(k for k in result if k in IDENTITY_KEYS)
    if identity:
        raise ValueError(f"{who} returned {identity}, which the claims table takes from the "
                         f"claim and the store (the row's identity); a rule returns "
                         f"{list(RULE_KEYS)}.")
    unknown = sorted((k for k in result if k not in RULE_KEYS), key=str)
    if unknown:
        raise ValueError(f"{who} returned unknown key(s) {unknown}; a rule returns "
                         f"{list(RULE_KEYS)}.")
    missing = [k for k in ("value", "verdict") if k not in result]
    if missing:
        raise ValueError(f"{who} returned no {' and no '.join(map(repr, missing))}; a rule "
                         "returns the measured 'value' and its 'verdict'.")
    verdict = result["verdict"]
    if not isinstance(verdict, str) or verdict not in VERDICTS:
        raise ValueError(f"{who} returned verdict {verdict!r}; a verdict is one of "
                         f"{', '.join(map(repr, VERDICTS))}, spelled exactly so.")
    for key, value in result.items():
        if not isinstance(value, str):
            raise TypeError(f"{who}: its {key!r} must be a str; it returned "
                            f"{type(value).__name__} ({value!r:.60}).")
    return result


def claim_rows(store, studies):
    """One row per claim the ``studies`` declare, every number computed from ``store``.

    :func:`~skxor.studies.claims_table` with the registry's studies; see there.
    """
    rows = []
    for study, claim in declared_claims(studies):
        row = dict(id=claim.id, paper=claim.paper, source=claim.source, claim=claim.name,
                   kind=claim.kind, paper_setting=claim.paper_setting, statement=claim.statement,
                   strength=claim.strength or "-", regime=claim.regime or "-",
                   rule=claim.rule_text or "-", contradicted_by=claim.contradicted_by or "-",
                   study=study, ours="-", value="no stored run", units="-",
                   verdict="not tested", preset="-")
        if study in store and store[study]["table"].empty:
            row.update(value="the stored table holds no rows", preset=_preset(store[study]))
        elif study in store:
            entry = store[study]
            with naming_the_table(study, entry["path"]):
                summary = stored_summary(studies[study], entry)
            token = _MIN_UNITS.set(claim.min_units)
            try:
                with _naming_the_rule(study, claim), naming_the_table(study, entry["path"]):
                    result = studies[study].render(claim.rule, entry["table"], summary)
            finally:
                _MIN_UNITS.reset(token)
            row.update(rule_result(study, claim, result))
            row["preset"] = _preset(store[study])
        row.setdefault("judged", row["value"])
        rows.append(row)
    # One column list, so that a table of no claims has the columns of one with claims.
    return pd.DataFrame(rows, columns=[
        "id", "paper", "source", "claim", "kind", "paper_setting", "statement", "strength", "regime",
        "rule", "contradicted_by", "study", "ours", "value", "judged", "units", "verdict",
        "preset"])
