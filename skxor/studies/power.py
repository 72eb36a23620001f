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
the table by its checksum and to its numbers by their digest (an edited
number is refused, not published), so that publishing stays fast; ``skxor run STUDY
--dry-run --power`` states the power of the design a run would compute.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ._record import ran_overrides
from ._registry import get_study
from ._sweep import atomic_write_text
from .claims import rule_result
from .stats import wilson_interval

__all__ = [
    "N_TABLES",
    "POWER_GOAL",
    "TRUTHS",
    "ClaimPower",
    "claim_code",
    "claim_power",
    "design_of",
    "design_power_text",
    "planned_design",
    "power_text",
    "power_path",
    "reaching_design",
    "read_power",
    "stored_power",
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
    reaching : dict or None, default=None
        Where the design falls short of :data:`POWER_GOAL`: the smallest
        design tried that reaches it (:func:`reaching_design`), as
        ``{"overrides", "holds", "alternative", "n_tables", "wall_seconds",
        "workers"}``, or ``{"overrides": None, "tried": ...}`` when none tried does.
    code : str, default=""
        :func:`claim_code` of the claim it was computed for: kept power of
        another version of the claim's rule or simulation is stale.

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
    reaching: dict = None
    code: str = ""

    def __post_init__(self):
        # Counts read back from <study>.power.json: an edited or foreign file is refused
        # here, not trusted (a float, a bool or a count beyond n_tables is no count).
        for name in ("n_tables", "holds", "alternative"):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"ClaimPower {self.claim!r}: {name} must be an int; got "
                                f"{value!r}.")
            object.__setattr__(self, name, int(value))
        if self.n_tables < 1:
            raise ValueError(f"ClaimPower {self.claim!r}: n_tables must be an int >= 1; got "
                             f"{self.n_tables}.")
        for name in ("holds", "alternative"):
            if not 0 <= getattr(self, name) <= self.n_tables:
                raise ValueError(f"ClaimPower {self.claim!r}: {name} must count tables "
                                 f"between 0 and n_tables = {self.n_tables}; got "
                                 f"{getattr(self, name)}.")
        if self.reaching is not None and not isinstance(self.reaching, dict):
            raise TypeError(f"ClaimPower {self.claim!r}: reaching must be a dict or None; got "
                            f"{type(self.reaching).__name__}.")
        for name in ("claim", "design", "code"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"ClaimPower: {name} must be a str; got "
                                f"{getattr(self, name)!r}.")

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
                    n_tables=int(self.n_tables), design=self.design, reaching=self.reaching,
                    code=self.code)

    def reaching_text(self):
        """The design that would reach the goal and its cost, in words ("" where this one does)."""
        if self.decides() or self.reaching is None:
            return ""
        found = self.reaching
        if found.get("overrides") is None:
            return (f"no design tried reaches {POWER_GOAL:g} both ways "
                    f"({found.get('tried', 'none tried')})")
        power = ClaimPower(self.claim, found["holds"], found["alternative"], found["n_tables"])
        setting = _setting_text(found["overrides"])
        if found.get("label"):
            setting = f"{found['label']} ({setting})"
        cost = ("its cost unknown (the study declares no cost model)"
                if found.get("wall_seconds") is None else
                f"at an estimated {found['wall_seconds'] / 3600:.1f} h wall on "
                f"{found['workers']} workers")
        return f"{setting} would reach it ({power.text()}), {cost}"


def power_text(claim, power):
    """A claim's power at the stored design in words, as the claims page prints it.

    With the design that would reach :data:`POWER_GOAL` where this one falls
    short, or why no finite design can (``Claim.asymptotic``).

    Examples
    --------
    >>> from skxor.studies import Claim
    >>> from skxor.studies.power import ClaimPower, power_text
    >>> claim = Claim(id="U1", paper="Me", source="notes", name="n", paper_setting="s",
    ...               statement="t", rule=len, simulate=lambda design, truth, rng: design)
    >>> power_text(claim, ClaimPower("U1", 199, 180, 200))
    'P(reproduced | holds) = 0.99 [0.97, 1.00]; P(not reproduced | alternative) = 0.90 [0.85, 0.93] (200 simulated tables each way); the design decides the claim (both at least 0.8)'
    """
    if claim.simulate is None:
        return "not computed (the claim declares no simulation of its table)"
    if power is None:
        return ("not computed for the stored table (skxor publish --write --power computes "
                "it)")
    text = power.text()
    if power.decides():
        return f"{text}; the design decides the claim (both at least {POWER_GOAL:g})"
    if claim.asymptotic:
        return (f"{text}; below {POWER_GOAL:g}, and no finite design can reach it: "
                f"{claim.asymptotic}")
    return f"{text}; below {POWER_GOAL:g}: " + (power.reaching_text()
                                                or "no larger design was searched")


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
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be the study's table (a pandas.DataFrame); got "
                        f"{type(table).__name__}.")
    columns = _design_columns(study, table.columns)
    if not columns:
        raise ValueError(f"table holds none of study {study.name!r}'s grid axes or seed "
                         f"{[*study.grid_axes(), 'seed']}: it is not a table of that study.")
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
    try:
        table = claim.simulate(design.copy(), truth, rng)
    except Exception as exc:  # the claim's own code: named, not a traceback from within
        raise ValueError(f"claim {claim.id} of study {study.name!r}: its simulate failed "
                         f"(truth={truth!r}): {type(exc).__name__}: {exc}") from exc
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
    for name, value, least in (("n_tables", n_tables, 1), ("random_state", random_state, 0)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) \
                or value < least:
            raise ValueError(f"{name} must be an int >= {least}; got {value!r}.")
    if not isinstance(design, pd.DataFrame) or design.empty:
        raise TypeError(f"design must be a non-empty pandas.DataFrame of cells (design_of a "
                        f"table, or planned_design); got {type(design).__name__}.")

    def simulated(t, i):
        rng = np.random.default_rng([int(random_state), t, i])
        return _simulated(study, claim, design, TRUTHS[t], rng)

    def right(t, i):
        table = simulated(t, i)
        try:
            verdict = _verdict(study, claim, table)
        except Exception as exc:  # e.g. a column the rule reads that the table lacks
            raise ValueError(
                f"claim {claim.id} of study {study.name!r}: its rule failed on a table its "
                f"simulate returned (truth={TRUTHS[t]!r}; columns {list(table.columns)}): "
                f"{type(exc).__name__}: {exc}") from exc
        return verdict == _RIGHT[TRUTHS[t]]

    # The tables must be drawn from rng alone (the same tables whatever n_jobs, and
    # power that can be recomputed): one table drawn twice from equal generators.
    if not simulated(0, 0).equals(simulated(0, 0)):
        raise ValueError(f"claim {claim.id} of study {study.name!r}: its simulate returned "
                         "different tables from two equal rng: it must draw from its rng "
                         "argument only (not numpy's global or another generator).")

    jobs = [(t, i) for t in range(len(TRUTHS)) for i in range(int(n_tables))]
    results = Parallel(n_jobs=n_jobs)(delayed(right)(t, i) for t, i in jobs)
    counts = [sum(ok for (t, _), ok in zip(jobs, results) if t == which)
              for which in range(len(TRUTHS))]
    return ClaimPower(claim.id, holds=int(counts[0]), alternative=int(counts[1]),
                      n_tables=int(n_tables), design=_design_text(study, design),
                      code=claim_code(claim))


def claim_code(claim):
    """A hash of the source files defining a claim's rule and simulation.

    Kept with a stored power (:func:`write_power`): power computed by another
    version of those files (an edited rule, threshold or simulation) is
    stale, and ``skxor publish --check`` names it.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies.power import claim_code
    >>> len(claim_code(get_study("one_step").claims[0]))
    16
    """
    import hashlib
    import inspect

    files = set()
    for function in (claim.rule, claim.simulate):
        try:
            files.add(inspect.getsourcefile(function))
        except TypeError:  # a builtin or a callable object: its own repr
            files.add(repr(function))
    digest = hashlib.sha256()
    for name in sorted(f for f in files if f):
        path = Path(name)
        digest.update(path.read_bytes() if path.is_file() else name.encode())
    return digest.hexdigest()[:16]


def design_power_text(study, preset="quick", overrides=None, *, n_jobs=None):
    """What ``skxor run STUDY --dry-run --power`` adds: the power of the planned design.

    One line per claim of ``study`` that declares ``simulate``
    (:func:`claim_power` on :func:`planned_design` of ``preset`` with ``overrides``).
    """
    study = _study(study)
    claims = [c for c in study.claims if c.simulate is not None]
    if not claims:
        return "power: no claim of this study declares a simulation of its table"
    design = planned_design(study, study.params(preset, overrides))
    powers = [claim_power(study, c, design, n_jobs=n_jobs) for c in claims]
    return "\n".join(f"power for claim {p.claim} ({p.design}): {p.text()}" for p in powers)


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


#: Factors by which :func:`reaching_design` scales a claim's units.
REACH_FACTORS = (2, 4, 8, 16)


def reaching_design(study, claim, preset, overrides=None, *, factors=REACH_FACTORS,
                    n_tables=N_TABLES, random_state=0, n_jobs=None, workers=2, today=None):
    """The smallest design, scaling the claim's units, whose power reaches :data:`POWER_GOAL`.

    The claim's ``units_parameter`` (``seeds`` unless it says otherwise) of
    ``preset`` with ``overrides`` is multiplied by each of ``factors`` in turn;
    the first design whose power (:func:`claim_power`) reaches the goal both
    ways is returned with its estimated wall time on ``workers``
    (:func:`~skxor.studies.estimate`, the cost model of ``--dry-run``).

    ``today`` (``{parameter: value}``, where the stored run is of an earlier
    version of ``preset``: what the preset in code has changed or added) puts
    the preset as it is in code first among the candidates.

    Returns
    -------
    found : dict
        ``overrides`` (None where no factor reaches the goal; then ``tried``
        says what was tried), ``holds``, ``alternative``, ``n_tables``,
        ``wall_seconds`` and ``workers``.
    """
    from ._cost import estimate

    study = _study(study)
    overrides = dict(overrides or {})
    name = claim.units_parameter
    if name not in study.parameters:
        raise ValueError(f"claim {claim.id}: its units_parameter {name!r} is no parameter of "
                         f"study {study.name!r}; it takes {sorted(study.parameters)}.")
    units = study.params(preset, overrides).get(name)
    # Candidates, smallest change first: the preset as it is in code now (where the
    # stored run is of an earlier version of it), then the units scaled.
    candidates = []
    if overrides or today:
        now = study.preset(preset)
        changes = {**{k: now[k] for k in overrides if k in now}, **(today or {})}
        candidates.append((changes, {}, f"the {preset} preset in code"))
    if not isinstance(units, bool) and isinstance(units, (int, np.integer)) and units > 0:
        candidates += [({name: int(units) * factor}, {**overrides, name: int(units) * factor},
                        "") for factor in factors]
    tried = []
    for shown, setting, label in candidates:
        power = claim_power(study, claim, planned_design(study, study.params(preset, setting)),
                            n_tables=n_tables, random_state=random_state, n_jobs=n_jobs)
        tried.append(f"{label or _setting_text(shown)}: {power.holds}/{n_tables} and "
                     f"{power.alternative}/{n_tables}")
        if power.decides():
            try:
                wall = float(estimate(study, preset, setting, n_jobs=workers)["wall_seconds"])
            except ValueError:  # no cost model for the study: its cost is not known
                wall = None
            return {"overrides": shown, "label": label, "holds": power.holds,
                    "alternative": power.alternative, "n_tables": n_tables,
                    "wall_seconds": wall, "workers": int(workers)}
    return {"overrides": None,
            "tried": "; ".join(tried) or f"the claim's units {name!r} are not a count"}


def _setting_text(overrides):
    return ", ".join(f"{k} = {v}" for k, v in sorted(overrides.items()))


def stored_power(study, entry, *, n_tables=N_TABLES, random_state=0, n_jobs=None):
    """The power of a stored run's design for each claim of ``study`` that declares ``simulate``.

    ``entry`` is the store's (``{"table", "record", "path"}``). Where a
    claim falls short of :data:`POWER_GOAL` and is not ``asymptotic``, the
    design that would reach it is searched (:func:`reaching_design`) from the
    run record's preset and overrides.
    """
    study = _study(study)
    if not isinstance(entry, dict) or "table" not in entry:
        raise TypeError(f"entry must be the store's entry of a stored run (a dict with its "
                        f"'table', 'record' and 'path'); got {entry!r:.80}.")
    design = design_of(study, entry["table"])
    record = entry.get("record") or {}
    powers = {}
    for claim in study.claims:
        if claim.simulate is None:
            continue
        power = claim_power(study, claim, design, n_tables=n_tables,
                            random_state=random_state, n_jobs=n_jobs)
        if not power.decides() and not claim.asymptotic and record.get("preset") \
                in study.presets:
            # Parameters the preset gained after the run (absent from its record):
            # the preset in code is the first design tried.
            now = study.preset(record["preset"])
            gained = {k: v for k, v in now.items() if k not in (record.get("params") or now)}
            reaching = reaching_design(study, claim, record["preset"], ran_overrides(
                study, record), n_tables=n_tables, random_state=random_state, n_jobs=n_jobs,
                today=gained)
            power = ClaimPower(power.claim, power.holds, power.alternative, power.n_tables,
                               power.design, reaching, power.code)
        powers[claim.id] = power
    return powers


def power_path(table_path):
    """Where a stored table's power is kept: ``<study>.power.json`` beside it."""
    path = Path(table_path)
    stem = path.name.split(".")[0]
    return path.with_name(f"{stem}.power.json")


def write_power(table_path, powers, *, checksum, random_state=0):
    """Keep ``powers`` (``{id: ClaimPower}``) beside the stored table, tied to its ``checksum``."""
    if not isinstance(powers, dict) or not all(isinstance(p, ClaimPower)
                                               for p in powers.values()):
        raise TypeError(f"powers must map claim ids to ClaimPower (claim_power, stored_power); "
                        f"got {powers!r:.80}.")
    claims = {cid: power.as_dict() for cid, power in sorted(powers.items())}
    data = dict(table_sha256=checksum, random_state=int(random_state), claims=claims,
                claims_sha256=_claims_digest(claims))
    atomic_write_text(power_path(table_path), json.dumps(data, indent=1, sort_keys=True) + "\n")


def _claims_digest(claims):
    """sha256 of the kept numbers as JSON (sorted keys): a hand edit of them is refused."""
    import hashlib

    return hashlib.sha256(json.dumps(claims, sort_keys=True).encode()).hexdigest()[:16]


def read_power(table_path, checksum):
    """The kept power of a stored table, ``{id: ClaimPower}``; None where none is kept
    or it was computed on another table (its checksum differs).

    Kept numbers that are not those :func:`write_power` wrote (their digest,
    ``claims_sha256``, differs: edited by hand) are refused (ValueError), not
    published."""
    path = power_path(table_path)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path} cannot be read as the stored power: {exc}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a stored power (a JSON object with "
                         f"table_sha256 and claims); it holds a {type(data).__name__}.")
    if data.get("table_sha256") != checksum:
        return None
    try:
        powers = {cid: ClaimPower(cid, v["holds"], v["alternative"], v["n_tables"],
                                  v.get("design", ""), v.get("reaching"), v.get("code", ""))
                  for cid, v in data["claims"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{path} does not hold a power per claim: {exc}") from exc
    if data.get("claims_sha256") != _claims_digest(data["claims"]):
        raise ValueError(f"{path}: its numbers are not those skxor wrote (their digest, "
                         "claims_sha256, differs or is missing: edited by hand?); remove it "
                         "and run skxor publish --write --power to compute them again.")
    return powers
