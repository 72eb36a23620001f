"""The power of a claim's design: how often its rule decides right on simulated tables.

A verdict that no data at a design could turn into "reproduced" is the mirror
image of a test that cannot fail. A claim therefore declares, beside its rule,
how to simulate its table at a given design (:attr:`Claim.simulate
<skxor.studies.Claim>`): ``simulate(design, truth, rng)`` returns a table of
the cells of ``design`` as the study would store them, drawn where the paper
holds (``truth="holds"``) or where its stated alternative does
(``truth="alternative"``), at the spread the stored run measured. The power of
the design is then read off many seeded simulated tables:

* P(reproduced | holds): the share of tables simulated where the paper holds
  on which the rule says "reproduced";
* P(not reproduced | alternative): the share simulated under the alternative
  on which it says "not reproduced";

each with its Wilson interval over the simulated tables (the simulation's own
uncertainty). A design decides a claim when both reach :data:`POWER_GOAL`.

The power of a stored run is computed once (``skxor publish --write
--power``) and kept beside its run record, in ``<study>.power.json``, tied to
the table by its checksum, so that publishing stays fast; ``skxor run STUDY
--dry-run --power`` states the power of the design a run would compute.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ._registry import get_study
from ._sweep import atomic_write_text
from .claims import rule_result
from .stats import wilson_interval

__all__ = [
    "N_TABLES",
    "POWER_GOAL",
    "TRUTHS",
    "ClaimPower",
    "claim_power",
    "design_of",
    "planned_design",
    "power_path",
    "read_power",
    "study_power",
    "write_power",
]

#: What a simulated table is drawn from: the paper holds, or its stated alternative does.
TRUTHS = ("holds", "alternative")

#: Simulated tables per truth (the issue's floor: at least 200).
N_TABLES = 200

#: The power both ways at which a design decides a claim.
POWER_GOAL = 0.8

#: What each truth's power counts: the verdict the rule should give.
_RIGHT = {"holds": "reproduced", "alternative": "not reproduced"}


@dataclass(frozen=True)
class ClaimPower:
    """The power of one claim's design, both ways, from simulated tables.

    Parameters
    ----------
    claim : str
        The claim's id.
    holds : int
        Tables simulated where the paper holds that the rule judged "reproduced".
    alternative : int
        Tables simulated under the alternative that it judged "not reproduced".
    n_tables : int
        Tables simulated per truth.
    design : str, default=""
        The design in words (its units and cells).

    Examples
    --------
    >>> from skxor.studies.power import ClaimPower
    >>> power = ClaimPower("H1", holds=190, alternative=150, n_tables=200)
    >>> power.text()
    'P(reproduced | holds) = 0.95 [0.91, 0.97]; P(not reproduced | alternative) = 0.75 [0.69, 0.80] (200 simulated tables each way)'
    >>> power.decides()
    False
    """

    claim: str
    holds: int
    alternative: int
    n_tables: int
    design: str = ""

    def rate(self, truth):
        """The share of simulated tables judged right under ``truth``, and its Wilson interval."""
        k = getattr(self, _truth(truth))
        low, high = wilson_interval(k, self.n_tables)
        return k / self.n_tables, low, high

    def decides(self, goal=POWER_GOAL):
        """Whether the power reaches ``goal`` both ways (at its point estimate)."""
        return all(self.rate(truth)[0] >= goal for truth in TRUTHS)

    def text(self):
        """Both powers with their intervals, as the claims page prints them."""
        parts = []
        for truth in TRUTHS:
            rate, low, high = self.rate(truth)
            parts.append(f"P({_RIGHT[truth]} | {truth}) = {rate:.2f} [{low:.2f}, {high:.2f}]")
        return "; ".join(parts) + f" ({self.n_tables} simulated tables each way)"

    def as_dict(self):
        """The stored form (:func:`write_power`)."""
        return dict(holds=int(self.holds), alternative=int(self.alternative),
                    n_tables=int(self.n_tables), design=self.design)


def _truth(truth):
    if truth not in TRUTHS:
        raise ValueError(f"truth must be one of {TRUTHS}; got {truth!r}.")
    return truth


def _study(study):
    return get_study(study) if isinstance(study, str) else study


def _design_columns(study, columns):
    return [c for c in (*study.grid_axes(), "seed") if c in columns]


def design_of(study, table):
    """The design of a stored ``table``: one row per cell, its grid axes and seed.

    Parameters
    ----------
    study : str or Study
    table : pandas.DataFrame
        The study's table (a stored run's, or a run's).

    Returns
    -------
    design : pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.power import design_of
    >>> table = pd.DataFrame({"attention": ["softmax"] * 4, "d": [10, 10, 20, 20],
    ...                       "m": 8, "n": 0, "step_length": 1.0, "n_steps": 1,
    ...                       "seed": [0, 1, 0, 1], "success": True})
    >>> design_of("one_step", table).shape
    (4, 7)
    """
    study = _study(study)
    columns = _design_columns(study, table.columns)
    return table[columns].drop_duplicates().reset_index(drop=True)


def planned_design(study, params):
    """The design a run of validated ``params`` would compute, without computing a cell.

    Every cell's parameters (the study's ``cells`` hook or its grid), one row each.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies.power import planned_design
    >>> study = get_study("one_step")
    >>> len(planned_design(study, study.params("quick", {"seeds": 2})))
    288
    """
    from ._cost import run_cells

    study = _study(study)
    return pd.DataFrame([dict(cell.params) for cell in run_cells(study, params)])


def _verdict(study, claim, table):
    # The claim's min_units, as claim_rows sets it: a part judged on fewer units is not
    # decided, so the power counts the verdicts the claims page would print.
    from .claims import _MIN_UNITS

    token = _MIN_UNITS.set(claim.min_units)
    try:
        summary = study.summary(table)
        return rule_result(study.name, claim,
                           study.render(claim.rule, table, summary))["verdict"]
    finally:
        _MIN_UNITS.reset(token)


def _simulated(study, claim, design, truth, rng):
    table = claim.simulate(design.copy(), truth, rng)
    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ValueError(f"claim {claim.id} of study {study.name!r}: its simulate must return "
                         f"a non-empty pandas.DataFrame; it returned {type(table).__name__}.")
    return table


def claim_power(study, claim, design, *, n_tables=N_TABLES, random_state=0, n_jobs=None):
    """The power of ``design`` for ``claim``: how often its rule decides right, both ways.

    Parameters
    ----------
    study : str or Study
        The study declaring the claim.
    claim : str or Claim
        The claim (or its id); it must declare ``simulate``.
    design : pandas.DataFrame
        One row per cell (:func:`design_of` a stored table, or
        :func:`planned_design` of a run's parameters).
    n_tables : int, default=N_TABLES
        Simulated tables per truth.
    random_state : int, default=0
        Table ``i`` under truth ``t`` is drawn from
        ``numpy.random.default_rng([random_state, t, i])``: the same tables
        whatever ``n_jobs``.
    n_jobs : int or None, default=None
        Workers (joblib) over the simulated tables.

    Returns
    -------
    power : ClaimPower

    Examples
    --------
    A claim that most seeds work, judged on a design of 30 seeds, where the
    paper holds at a rate of 0.97 and its alternative at 0.6:

    >>> import numpy as np
    >>> from skxor.studies import POSITIVE, Claim, Grid, Study, judged, rate_part
    >>> from skxor.studies.power import claim_power, planned_design
    >>> def rule(table):
    ...     return judged([rate_part("all", table["ok"], table["seed"], "with high probability")])
    >>> def simulate(design, truth, rng):
    ...     rate = 0.97 if truth == "holds" else 0.6
    ...     return design.assign(ok=rng.random(len(design)) < rate)
    >>> claim = Claim(id="U1", paper="Me", source="notes", name="it works", paper_setting="-",
    ...               statement="it works in most seeds", rule=rule, simulate=simulate)
    >>> study = Study(name="oks", description="", parameters={"x": [Grid(POSITIVE)],
    ...               "seeds": [POSITIVE]}, presets={"quick": {"x": [1], "seeds": 30}},
    ...               cell=lambda x, seed: {"ok": True}, claims=[claim])
    >>> power = claim_power(study, "U1", planned_design(study, study.params("quick")),
    ...                     n_tables=50)
    >>> power.holds >= 40, power.alternative >= 40
    (True, True)
    """
    from joblib import Parallel, delayed

    study = _study(study)
    if isinstance(claim, str):
        found = [c for c in study.claims if c.id == claim]
        if not found:
            raise ValueError(f"study {study.name!r} declares no claim {claim!r}; it declares "
                             f"{[c.id for c in study.claims]}.")
        claim = found[0]
    if claim.simulate is None:
        raise ValueError(f"claim {claim.id} of study {study.name!r} declares no simulate: "
                         "its power cannot be computed.")
    if not isinstance(n_tables, (int, np.integer)) or isinstance(n_tables, bool) \
            or n_tables < 1:
        raise ValueError(f"n_tables must be an int >= 1; got {n_tables!r}.")

    def right(t, i):
        rng = np.random.default_rng([int(random_state), t, i])
        table = _simulated(study, claim, design, TRUTHS[t], rng)
        return _verdict(study, claim, table) == _RIGHT[TRUTHS[t]]

    jobs = [(t, i) for t in range(len(TRUTHS)) for i in range(int(n_tables))]
    results = Parallel(n_jobs=n_jobs)(delayed(right)(t, i) for t, i in jobs)
    counts = [sum(ok for (t, _), ok in zip(jobs, results) if t == which)
              for which in range(len(TRUTHS))]
    return ClaimPower(claim.id, holds=int(counts[0]), alternative=int(counts[1]),
                      n_tables=int(n_tables), design=_design_text(study, design))


def _design_text(study, design):
    axes = [c for c in study.grid_axes() if c in design.columns and design[c].nunique() > 1]
    seeds = f"{design['seed'].nunique()} seeds x " if "seed" in design.columns else ""
    return f"{seeds}{len(design)} cells" + (f" over {', '.join(axes)}" if axes else "")


def study_power(study, design, *, n_tables=N_TABLES, random_state=0, n_jobs=None):
    """:func:`claim_power` of every claim of ``study`` that declares ``simulate``: ``{id: power}``."""
    study = _study(study)
    return {claim.id: claim_power(study, claim, design, n_tables=n_tables,
                                  random_state=random_state, n_jobs=n_jobs)
            for claim in study.claims if claim.simulate is not None}


def power_path(table_path):
    """Where a stored table's power is kept: ``<study>.power.json`` beside it."""
    path = Path(table_path)
    stem = path.name.split(".")[0]
    return path.with_name(f"{stem}.power.json")


def write_power(table_path, powers, *, checksum, random_state=0):
    """Keep ``powers`` (``{id: ClaimPower}``) beside the stored table, tied to its ``checksum``."""
    data = dict(table_sha256=checksum, random_state=int(random_state),
                claims={cid: power.as_dict() for cid, power in sorted(powers.items())})
    atomic_write_text(power_path(table_path), json.dumps(data, indent=1, sort_keys=True) + "\n")


def read_power(table_path, checksum):
    """The kept power of a stored table, ``{id: ClaimPower}``; None where none is kept
    or it was computed on another table (its checksum differs)."""
    path = power_path(table_path)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path} cannot be read as the stored power: {exc}") from exc
    if not isinstance(data, dict) or data.get("table_sha256") != checksum:
        return None
    try:
        return {cid: ClaimPower(cid, int(v["holds"]), int(v["alternative"]),
                                int(v["n_tables"]), str(v.get("design", "")))
                for cid, v in data["claims"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{path} does not hold a power per claim: {exc}") from exc
