"""Published numbers from stored runs: the store, the documents and the claims table.

Stored runs live under ``docs/results/data/<study>/``: the study's table
(``<study>.csv``, the rows a run of ``skxor run`` wrote: aggregated per cell,
no checkpoints) and its run record (``<study>.run.json``: version, commit,
preset, every override and parameter, seeds, machine, date, wall time and
floor). ``skxor publish`` writes, from those files only,

* the headline block of ``README.md`` and of ``docs/results/measured.rst``
  (the studies' own headline renderings),
* a block listing the stored runs (``docs/results/measured.rst``) and a
  block summarising the claims (``README.md``),
* one page per stored study, ``docs/results/generated/<study>.md``: the
  study's report section computed from its stored table, with the stored
  run (preset, rows, cells, seeds, commit, date, wall time) and the
  ``skxor run`` command reproducing it; ``measured.rst`` lists them,
* ``docs/results/claims.rst``: one row per claim of the two papers, with the
  paper's setting and ours, the claim in our words, the measured value with
  its interval and number of independent units, a verdict derived by the
  rule stated on the page, and the stored table it comes from.

``skxor publish --check`` exits non-zero when any of these differs from what
the stored data give (a test runs it); ``--write`` rewrites them.
"""

import difflib
import hashlib
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._stats import clopper_pearson_interval, format_interval, wilson_interval

__all__ = ["claims_table", "load_store", "render_documents", "publish"]

#: The store, relative to the repository root.
DATA_DIR = Path("docs") / "results" / "data"
#: The generated claims page, relative to the repository root.
CLAIMS_PAGE = Path("docs") / "results" / "claims.rst"
#: The generated per-study pages (Markdown, read by myst-parser), relative to the root.
FRAGMENTS_DIR = Path("docs") / "results" / "generated"
#: Threshold of the verdict rule for rates.
THRESHOLD = 0.5
VERDICTS = ("reproduced", "reproduced in part", "not reproduced", "not tested")


# -- the store ---------------------------------------------------------------------


def load_store(data):
    """The stored runs under ``data``: ``{study: {"table", "record", "path"}}`` in study order.

    Parameters
    ----------
    data : path
        The store (``docs/results/data``): one folder per study holding
        ``<study>.csv`` and ``<study>.run.json``.

    Returns
    -------
    store : dict
        Per study found: its ``table`` (pandas.DataFrame), ``record`` (the
        latest run record, a dict, or None) and ``path`` (the table's path).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from skxor.studies._publish import load_store
    >>> data = Path(tempfile.mkdtemp())
    >>> (data / "one_step").mkdir()
    >>> _ = (data / "one_step" / "one_step.csv").write_text("d,seed\\n10,0\\n")
    >>> store = load_store(data)
    >>> list(store), len(store["one_step"]["table"]), store["one_step"]["record"]
    (['one_step'], 1, None)
    """
    from ._record import latest_record, record_path
    from ._registry import STUDIES

    data = Path(data)
    store = {}
    for name in STUDIES:
        # A large table may be stored gzipped (pandas reads either).
        found = [data / name / f"{name}{ext}" for ext in (".csv", ".csv.gz")]
        path = next((p for p in found if p.exists()), None)
        if path is not None:
            store[name] = {"table": pd.read_csv(path), "record": latest_record(record_path(path)),
                           "path": path}
    return store


def stale_runs(store):
    """Stored runs whose parameters no longer equal their preset as defined in code.

    A run whose record carries ``earlier_version`` (a note saying the
    documents present it as from an earlier version of the study) is
    exempt; so is a run stored with overrides (``matches_preset`` false),
    which the documents name as such, as long as its overrides still give
    its parameters.

    Returns
    -------
    stale : dict of str to str
        Study name -> what differs.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import get_study
    >>> from skxor.studies._publish import stale_runs
    >>> params = get_study("one_step").preset("quick")
    >>> record = {"preset": "quick", "matches_preset": True, "overrides": {}, "params": params}
    >>> stale_runs({"one_step": {"record": record}})
    {}
    >>> record = dict(record, params=dict(params, seeds=3))
    >>> stale_runs({"one_step": {"record": record}})["one_step"]
    "its parameters differ from preset 'quick' in code: ['seeds']"
    """
    from ._registry import get_study

    stale = {}
    for name, entry in store.items():
        record = entry.get("record")
        if record is None:
            stale[name] = "no run record"
            continue
        if record.get("earlier_version"):
            continue
        study = get_study(name)
        try:
            code = study.params(record["preset"], record.get("overrides") or {})
        except ValueError as exc:
            stale[name] = f"its preset and overrides are no longer valid: {exc}"
            continue
        stored = record["params"]
        code = json.loads(json.dumps(code))
        differ = sorted(k for k in set(code) | set(stored) if code.get(k) != stored.get(k))
        if differ:
            stale[name] = (f"its parameters differ from preset {record['preset']!r} in code: "
                           f"{differ}")
    return stale


def store_size(data):
    """Bytes of every file under ``data``."""
    return sum(p.stat().st_size for p in Path(data).rglob("*") if p.is_file())


# -- blocks between markers --------------------------------------------------------


def markers(name, fmt):
    """The start and end lines of the generated block ``name`` in a ``fmt`` file.

    Examples
    --------
    >>> from skxor.studies._publish import markers
    >>> markers("claims", "md")
    ('<!-- skxor-claims:start -->', '<!-- skxor-claims:end -->')
    """
    if fmt == "md":
        return f"<!-- skxor-{name}:start -->", f"<!-- skxor-{name}:end -->"
    return f".. skxor-{name}:start", f".. skxor-{name}:end"


def replace_named_block(text, name, block, fmt):
    """``text`` with the lines between the markers of block ``name`` replaced by ``block``.

    Examples
    --------
    >>> from skxor.studies._publish import replace_named_block
    >>> text = "a\\n<!-- skxor-x:start -->\\nold\\n<!-- skxor-x:end -->\\nb\\n"
    >>> replace_named_block(text, "x", "new", "md")
    'a\\n<!-- skxor-x:start -->\\nnew\\n<!-- skxor-x:end -->\\nb\\n'
    """
    start, end = markers(name, fmt)
    pattern = re.compile(re.escape(start) + r"\n(?:.*?\n)?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"the markers {start!r} and {end!r} were not found.")
    return pattern.sub(lambda _: f"{start}\n{block}\n{end}", text)


# -- rendering helpers ---------------------------------------------------------------


def _count(k, n, unit, method="wilson"):
    if not n:
        return f"0 {unit}", (math.nan, math.nan, math.nan)
    low, high = (wilson_interval if method == "wilson" else clopper_pearson_interval)(k, n)
    return f"{k}/{n} {unit} = {format_interval(k / n, low, high)}", (k / n, low, high)


def rate_verdict(low, high, claimed=True, threshold=THRESHOLD):
    """The verdict on a claimed success (or, ``claimed=False``, a claimed failure) rate.

    A claimed success is *reproduced* when the interval's lower end is at
    least ``threshold``, *not reproduced* when its upper end is below it,
    and *reproduced in part* when the interval straddles it; a claimed
    failure mirrors this. No data: *not tested*.

    Examples
    --------
    >>> from skxor.studies._publish import rate_verdict
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


def _values(series):
    values = sorted({v.item() if hasattr(v, "item") else v for v in series.dropna()})
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def _preset(entry):
    record = entry["record"]
    if record is None:
        return "run record missing"
    preset = record["preset"]
    text = preset if record.get("matches_preset") else f"{preset} with overrides"
    if record.get("earlier_version"):
        text += f" (from an earlier version: {record['earlier_version']})"
    return text


# -- the claims ---------------------------------------------------------------------


def _one_step_best(table, n_steps=1):
    from ._one_step._summary import best_steps
    from ._one_step._summary import checked as _cells

    cells = _cells(table)
    if "step_length" not in cells:
        cells["step_length"] = float("nan")
    population = cells[cells["n"] == 0]
    data = population if len(population) else cells
    data = data[data["n_steps"] == n_steps]
    if data.empty:
        return data, data
    best = best_steps(data)
    return data, best[best["best"]]


def _one_step_setting(data):
    kind = "exact population steps" if (data["n"] == 0).all() else (
        f"steps on n = {_values(data['n'])} samples")
    return (f"{kind}, d = {_values(data['d'])}, m = {_values(data['m'])}, "
            f"{data['seed'].nunique()} seeds, step lengths {_values(data['step_length'])}")


def _softmax_claim(store, column, meaning, what):
    """A claim on softmax after one step at its best step length: ``column`` counted."""
    data, best = _one_step_best(store["table"])
    row = best[best["attention"] == "softmax"]
    if row.empty:
        return dict(value="no softmax one-step rows", verdict="not tested", ours="-")
    r = row.iloc[0]
    text, (_, low, high) = _count(int(getattr(r, column)), int(r.runs), "runs")
    return dict(
        ours=f"{_one_step_setting(data)}; {meaning}",
        value=f"softmax, one step of {r.step_length:g} (its best): {what} {text}",
        units=f"{int(r.runs)} runs (seeds x d x m)", verdict=rate_verdict(low, high),
    )


def _claim_one_step(store):
    return _softmax_claim(store, "successes", "success = test accuracy >= 0.99",
                          "success in")


def _claim_heads(store):
    return _softmax_claim(
        store, "specialised",
        "specialised = the heads' most-attended positions are the two hidden bits",
        "heads on the two hidden bits in")


def _claim_linear_erf(store):
    data, best = _one_step_best(store["table"])
    parts, verdicts, units = [], [], 0
    for attention in ("linear", "erf"):
        row = best[best["attention"] == attention]
        if row.empty:
            continue
        r = row.iloc[0]
        text, (_, low, high) = _count(int(r.successes), int(r.runs), "runs")
        parts.append(f"{attention} (best step {r.step_length:g}): {text}")
        verdicts.append(rate_verdict(low, high, claimed=False))
        units = int(r.runs)
    if not parts:
        return dict(value="no linear or erf rows", verdict="not tested", ours="-")
    return dict(
        ours=_one_step_setting(data) + "; this library's linear and erf definitions",
        value="; ".join(parts) + " succeed after one step",
        units=f"{units} runs each (seeds x d x m)", verdict=worst(verdicts),
    )


def _claim_parameters(store):
    from ._parameter_scaling import parameter_slopes
    from ._stats import format_slope

    table = store["table"]
    slopes = parameter_slopes(table, n_boot=1000)
    ours_model, theirs = "transformer_population_one_step", "ffnn"
    if ours_model not in slopes or theirs not in slopes:
        return dict(value="the one-step transformer or the FFNN is missing", verdict="not tested",
                    ours="-")
    a, b = slopes[ours_model], slopes[theirs]
    value = (f"log-log slope of trainable parameters needed against d: transformer, one "
             f"population step {format_slope(a)}; trained FFNN {format_slope(b)}")
    if not (np.isfinite(a["slope"]) and np.isfinite(b["slope"])):
        verdict = "not tested"
    elif a["slope"] >= b["slope"]:
        verdict = "not reproduced"
    elif np.isfinite(a.get("high", np.nan)) and np.isfinite(b.get("low", np.nan)) \
            and a["high"] < b["low"]:
        verdict = "reproduced"
    else:
        verdict = "reproduced in part"
    seeds = int(table["seeds"].min())
    return dict(
        ours=f"d = {_values(table['d'])}; needed = the smallest size at which >= 80% of its "
        f"{seeds} seeds reach 99% test accuracy",
        value=value, units=f"{seeds} seeds per size, {a['n_d']} values of d",
        verdict=verdict,
    )


def _claim_samples(store):
    from ._sample_complexity import fit_exponents, like_for_like

    table = like_for_like(store["table"])
    fits = fit_exponents(table)
    row = fits[fits["model"] == "transformer_one_step"]
    if row.empty or not np.isfinite(row.iloc[0]["exponent"]):
        return dict(value="no exponent for one step", verdict="not tested", ours="-")
    r = row.iloc[0]
    if r["high"] < 4:
        verdict = "reproduced"
    elif r["low"] > 4:
        verdict = "not reproduced"
    else:
        verdict = "reproduced in part"
    censored = int(r["left_censored"] + r["right_censored"])
    return dict(
        ours=f"one full-batch step on n samples, d = {_values(table['d'])}, n from "
        f"{int(table['n'].min())} to {int(table['n'].max())} on a grid; n* = samples from "
        f"which test accuracy stays >= {float(table['target'].iloc[0]):g}",
        value=f"exponent a of n* ~ d^a: {format_interval(r['exponent'], r['low'], r['high'])} "
        f"(maximum likelihood, {censored} censored curves); the proof's sufficient bound grows as d^4",
        units=f"{int(r['n_points'])} learning curves ({int(r['n_seeds'])} seeds x "
        f"{int(r['n_d'])} d)",
        verdict=verdict,
    )


def _claim_k_sparse(store):
    from ._k_sparse._summary import _steps, pooled_success

    table = store["table"]
    steps = _steps(table) if "part" in table else table.iloc[:0]
    if steps.empty:
        return dict(value="no step runs", verdict="not tested", ours="-")
    pooled = pooled_success(steps)
    if (pooled["n"] == 0).any():
        pooled, steps = pooled[pooled["n"] == 0], steps[steps["n"] == 0]
    longest = pooled["n_steps"].max()
    rows = pooled[(pooled["n_steps"] == longest) & (pooled["k"] > 2)]
    parts, verdicts = [], []
    for r in rows.sort_values(["init", "k"]).itertuples():
        text, (_, low, high) = _count(int(r.successes), int(r.runs), "runs")
        parts.append(f"{r.init}, k = {r.k}: {text}")
        verdicts.append(rate_verdict(low, high))
    return dict(
        ours=f"k heads, {longest} normalised population steps, d = {_values(steps['d'])}, "
        f"m = {_values(steps['m'])}, {steps['seed'].nunique()} seeds",
        value="; ".join(parts) or "no k > 2 rows",
        units=f"{int(rows['runs'].iloc[0]) if len(rows) else 0} runs (seeds x d x m) per k",
        verdict=worst(verdicts),
    )


def _random_pool(table):
    nets = table[table["function"] == "transformer"] if "function" in table else table.iloc[:0]
    if nets.empty:
        return nets
    return nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]


def _claim_zero_strings(store):
    from ._networks import distinct_networks

    pool = _random_pool(store["table"])
    if pool.empty:
        return dict(value="no random networks", verdict="not tested", ours="-")
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    k = int(nonconstant["has_zero"].astype(bool).sum())
    text, (_, low, high) = _count(k, len(nonconstant), "non-constant networks")
    const_text, _ = _count(int(constant.sum()), len(pool), "networks")
    return dict(
        ours=f"recognizer, eps = {pool['layer_norm_eps'].min():g}, N = {_values(pool['n_bits'])}, "
        f"inits {_values(pool['init'])}, {pool['seed'].nunique()} seeds per setting",
        value=f"a zero-sensitivity string in {text}; {const_text} are constant (every string "
        "has sensitivity 0)",
        units=f"{distinct_networks(pool)} distinct networks",
        verdict=rate_verdict(low, high),
    )


def _claim_random_functions(store):
    table = store["table"]
    control = table[table["function"] == "random function"] if "function" in table \
        else table.iloc[:0]
    if control.empty:
        return dict(value="no random-function control", verdict="not tested", ours="-")
    wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
    text, (rate, low, high) = _count(wins, total, "functions")
    limit = 1 - math.exp(-1)
    if low <= limit <= high:
        verdict = "reproduced"
    elif abs(rate - limit) < 0.05:
        verdict = "reproduced in part"
    else:
        verdict = "not reproduced"
    return dict(
        ours=f"uniformly random functions, N = {_values(control['n_bits'])}, exhaustive",
        value=f"with a zero-sensitivity string: {text} (the limit 1 - 1/e = {limit:.3f})",
        units=f"{total} functions", verdict=verdict,
    )


def _claim_training(store):
    from ._training._summary import learned_up_to
    from ._training._summary import series_columns as _series_columns
    from ._training._summary import with_model_setting as _with_model_setting

    table = _with_model_setting(store["table"])
    reach = learned_up_to(table)
    series = _series_columns(table)
    parts, verdicts = [], []
    claimed = {"PARITY": False, "MAJORITY": True}
    for _, r in reach.iterrows():
        label = r["function"] + " (" + ", ".join(str(r[c]) for c in series) + ")"
        text, (_, low, high) = _count(int(r["learned"]), int(r["seeds"]), "seeds")
        parts.append(f"{label} at N = {int(r['largest_n_tried'])}: learned in {text}")
        if r["function"] in claimed:
            verdicts.append(rate_verdict(low, high, claimed=claimed[r["function"]]))
    return dict(
        ours=f"N = {_values(table['n_bits'])}, model settings {_values(table['model_setting'])}, "
        f"{table['seed'].nunique()} seeds; learned = accuracy >= 0.99",
        value="; ".join(parts),
        units=f"{table['seed'].nunique()} seeds per function, N and setting",
        verdict=worst(verdicts),
    )


def _claim_eps(store):
    from ._networks import eps_agreement

    agreement = eps_agreement(store["table"])
    if agreement is None:
        return dict(value="no paired eps = 0 and eps > 0 networks", verdict="not tested",
                    ours="-")
    text, (_, low, high) = _count(int(agreement["same"]), int(agreement["pairs"]), "networks")
    return dict(
        ours=f"the same networks at eps = 0 and eps = {agreement['eps']:g} (a paired design)",
        value=f"identical functions in {text}; largest layer-norm 1/std seen "
        f"{agreement['inv_std_max']:.3g} against 1/sqrt(eps) = "
        f"{1 / math.sqrt(agreement['eps']):.3g}",
        units=f"{int(agreement['pairs'])} networks", verdict=rate_verdict(low, high),
    )


def _claim_theorem(store):
    from ._zero_sensitivity_bound import bound_verdict

    table = store["table"]
    if table.empty:
        return dict(value="no networks", verdict="not tested", ours="-")
    v = bound_verdict(table)
    if not v["networks"]:
        return dict(ours=f"eps = {v['eps']:g}", value=v["text"], units="0 networks",
                    verdict="not tested")
    text, (_, low, high) = _count(int(v["meets"]), int(v["networks"]),
                                  "non-constant networks", "clopper-pearson")
    return dict(
        ours=f"eps = {v['eps']:g}, N = {_values(table['n_bits'])}, D = "
        f"{_values(table['d_model'])}, L = {_values(table['n_layers'])}",
        value=f"{v['tested']} of {v['rows']} (D, L, N) rows are not vacuous; there {text} reach "
        "the bound (Clopper-Pearson)",
        units=f"{int(v['networks'])} non-constant networks", verdict=rate_verdict(low, high),
    )


#: The claims of the two papers: (id, paper, study, short name, the paper's setting,
#: the claim in our words, the function measuring it).
CLAIMS = [
    ("H1", "Han & Ghoshdastidar", "one_step", "one-step learning of sparse XOR",
     "one-layer two-head softmax transformer, frozen keys on the sphere, trainable "
     "queries, one gradient step on the population or on n = Omega(d^4 polylog d) samples",
     "one gradient step from the antisymmetric start learns y = -x_i x_j with high "
     "probability", _claim_one_step),
    ("H2", "Han & Ghoshdastidar", "parameter_scaling", "polylog vs Omega(d) parameters",
     "m = O(polylog d) keys per head against two-layer feed-forward networks",
     "the transformer needs O(polylog d) trainable parameters, a feed-forward network "
     "Omega(d)", _claim_parameters),
    ("H3", "Han & Ghoshdastidar", "one_step", "linear and erf attention fail",
     "the same model with linear or erf attention",
     "replacing softmax by linear or erf attention, one step does not learn the task",
     _claim_linear_erf),
    ("H4", "Han & Ghoshdastidar", "one_step", "head specialisation",
     "the two heads after one step", "after the step each head attends to one of the two "
     "hidden bits", _claim_heads),
    ("H5", "Han & Ghoshdastidar", "sample_complexity", "the sample-size remark",
     "one step on n samples; the proof's sufficient n grows as d^4 polylog d",
     "the proof's sample bound is sufficient, not necessary: far fewer samples suffice in "
     "practice", _claim_samples),
    ("H6", "Han & Ghoshdastidar", "k_sparse", "k-sparse parity with k heads",
     "k heads for a k-sparse parity (the extension beyond XOR)",
     "with k heads, gradient steps learn a parity of k hidden bits", _claim_k_sparse),
    ("K1", "Köver et al.", "random_init_sensitivity", "zero-sensitivity strings at random "
     "initialisation", "random transformer recognizers (eos read-out), uniform, Gaussian "
     "and Xavier initialisations",
     "randomly initialised transformers compute functions with zero-sensitivity strings",
     _claim_zero_strings),
    ("K2", "Köver et al.", "random_init_sensitivity", "the random-function control",
     "uniformly random Boolean functions",
     "a uniformly random function has a zero-sensitivity string with probability "
     "about 1 - 1/e", _claim_random_functions),
    ("K3", "Köver et al.", "training_sensitivity", "PARITY and FIRST hard, MAJORITY learnable",
     "transformers trained by gradient descent as N grows",
     "functions without zero-sensitivity strings (PARITY; FIRST only asymptotically) are "
     "not learned at large N, MAJORITY is (verdict on PARITY and MAJORITY; FIRST is shown)",
     _claim_training),
    ("K4", "Köver et al.", "random_init_sensitivity", "layer-norm eps = 0",
     "layer norm without stabiliser (eps = 0) as well as with eps > 0",
     "the analysis holds with eps = 0: the stabiliser does not change what random networks "
     "compute", _claim_eps),
    ("K5", "Köver et al.", "zero_sensitivity_bound", "Theorem 4.5",
     "random transformers of width D and depth L, large N, eps = 0",
     "a random transformer has at least N^((D-1)/(2L) - 5) zero-sensitivity strings",
     _claim_theorem),
]


def claims_table(store):
    """One row per claim of the two papers, every number computed from ``store``.

    Parameters
    ----------
    store : dict
        :func:`load_store`'s result.

    Returns
    -------
    claims : pandas.DataFrame
        ``id``, ``paper``, ``claim``, ``paper_setting``, ``statement``,
        ``ours``, ``value``, ``units``, ``verdict``, ``study``, ``preset``.

    Examples
    --------
    >>> from skxor.studies._publish import claims_table
    >>> claims = claims_table({})
    >>> len(claims), set(claims["verdict"])
    (11, {'not tested'})
    """
    rows = []
    for cid, paper, study, name, setting, statement, measure in CLAIMS:
        row = dict(id=cid, paper=paper, claim=name, paper_setting=setting, statement=statement,
                   study=study, ours="-", value="no stored run", units="-",
                   verdict="not tested", preset="-")
        if study in store:
            row.update(measure(store[study]))
            row["preset"] = _preset(store[study])
        rows.append(row)
    return pd.DataFrame(rows)


# -- the documents ---------------------------------------------------------------------


def _headline(store):
    from ._headline import headline_renderers

    # The renderers and order of skxor headline, so that both write the same block.
    bullets = [render(store[name]["table"]) for name, render in headline_renderers().items()
               if name in store]
    return "\n".join(f"* {b}" for b in bullets)


def _runs_rst(store, data):
    lines = [
        "", ".. list-table:: Stored runs, under docs/results/data/",
        "   :header-rows: 1", "",
        "   * - study", "     - preset", "     - rows", "     - cells", "     - wall time (s)",
        "     - workers", "     - size (kB)", "     - commit", "     - date (UTC)",
        "     - table's sha256 (first 16)",
    ]
    for name, entry in store.items():
        r = entry["record"] or {}
        cells = r.get("cells", {})
        size = sum(p.stat().st_size for p in (Path(data) / name).glob("*") if p.is_file())
        lines += [
            f"   * - ``{name}/{entry['path'].name}``", f"     - {_preset(entry)}",
            f"     - {len(entry['table'])}",
            f"     - {cells.get('computed', 0) + cells.get('loaded', 0) if cells else '-'}",
            f"     - {r.get('seconds', '-')}", f"     - {r.get('workers', '-')}",
            f"     - {size / 1000:.0f}", f"     - ``{str(r.get('commit', 'unknown'))[:12]}``",
            f"     - {r.get('started', '-')}",
            f"     - ``{hashlib.sha256(entry['path'].read_bytes()).hexdigest()[:16]}``",
        ]
    presets = sorted({_preset(e) for e in store.values()})
    lines += ["", f"Stored presets: {', '.join(presets)}; total size "
              f"{store_size(data) / 1000:.0f} kB. The checksum ties this page to the exact "
              "stored rows: any edited row changes it.", ""]
    return "\n".join(lines)


def _claims_md(claims):
    lines = ["| claim | verdict | measured (stored data) |", "|---|---|---|"]
    for r in claims.itertuples():
        lines.append(f"| {r.id} {r.claim} ({r.paper}) | {r.verdict} | {r.value} ({r.units}; "
                     f"{r.preset} preset) |")
    lines.append("")
    lines.append("Generated by `skxor publish --write` from `docs/results/data`; each row's "
                 "setting, rule and table are in `docs/results/claims.rst`.")
    return "\n".join(lines)


def _claims_rst(claims, store):
    presets = sorted({_preset(e) for e in store.values()}) or ["none"]
    title = "Claims of the two papers against the stored runs"
    lines = [
        ".. Generated by ``skxor publish --write`` from docs/results/data; do not edit.",
        "", title, "=" * len(title), "",
        "Every number on this page is computed from the stored tables under "
        "``docs/results/data/<study>/`` (one per study, with its run record) by "
        "``skxor publish``; a test regenerates the page and fails on any difference. "
        f"Presets of the stored runs: {', '.join(presets)}.",
        "",
        "**Verdict rule.** A claimed success rate is *reproduced* when the lower end of its "
        f"95% interval is at least {THRESHOLD:g}, *not reproduced* when the upper end is "
        f"below {THRESHOLD:g}, *reproduced in part* when the interval contains {THRESHOLD:g}; "
        "a claimed failure is judged the same way on the failure rate. A claim with several "
        "parts takes its weakest part's verdict (one part reproduced and another not: in part). "
        "Slopes (H2): reproduced when the intervals of the two slopes separate, in part when "
        "only the point estimates are ordered. The sample exponent (H5): reproduced when "
        "its interval lies below 4, not reproduced when above. The random-function control "
        "(K2): reproduced when 1 - 1/e lies in the interval, in part within 0.05 of it. "
        "*Not tested*: no stored rows measure it. Intervals are Wilson 95% unless said; "
        "units are the independent draws named in each row.", "",
        ".. list-table::", "   :header-rows: 1", "   :widths: 5 14 18 18 18 22 10 8", "",
        "   * - id", "     - claim (paper)", "     - paper's setting", "     - the claim, in our "
        "words", "     - our setting", "     - measured (units)", "     - verdict",
        "     - table",
    ]
    for r in claims.itertuples():
        table = store[r.study]["path"].name if r.study in store else f"{r.study}.csv"
        lines += [
            f"   * - {r.id}", f"     - {r.claim} ({r.paper})", f"     - {r.paper_setting}",
            f"     - {r.statement}", f"     - {r.ours} ({r.preset} preset)",
            f"     - {r.value} ({r.units})", f"     - {r.verdict}",
            f"     - :download:`{table} <data/{r.study}/{table}>`",
        ]
    return "\n".join(lines) + "\n"


def reproduce_command(name, record):
    """The ``skxor run`` command line that reproduces the stored run of ``name``.

    Every override of the run record becomes a ``--set NAME.PARAM=VALUE``
    (the value as JSON, which ``--set`` reads back unchanged).

    Examples
    --------
    >>> from skxor.studies._publish import reproduce_command
    >>> reproduce_command("one_step", {"preset": "full", "overrides": {"seeds": 3}})
    'skxor run one_step --preset full --set one_step.seeds=3 --n-jobs 2 --out results/one_step'
    >>> reproduce_command("k_sparse", {"preset": "quick", "overrides": {"k": [2, 3]}})
    "skxor run k_sparse --preset quick --set 'k_sparse.k=[2, 3]' --n-jobs 2 --out results/k_sparse"
    """
    import shlex

    parts = ["skxor", "run", name, "--preset", record["preset"]]
    for param, value in sorted((record.get("overrides") or {}).items()):
        parts += ["--set", f"{name}.{param}={json.dumps(value)}"]
    parts += ["--n-jobs", "2", "--out", f"results/{name}"]
    return " ".join(shlex.quote(p) for p in parts)


def _run_line(name, entry):
    """What the stored run of ``name`` is, from its run record, and how to reproduce it."""
    record = entry["record"]
    rows = len(entry["table"])
    if record is None:
        return (f"Stored run: `{entry['path'].name}`, {rows} rows, no run record (its preset "
                "and command are unknown).")
    cells = record.get("cells") or {}
    commit = str(record.get("commit", "unknown"))
    dirty = commit.endswith("+dirty")
    line = (f"Stored run (`docs/results/data/{name}/{entry['path'].name}`): preset "
            f"**{_preset(entry)}**, {rows} rows, "
            f"{cells.get('computed', 0) + cells.get('loaded', 0)} cells, "
            f"{record.get('seeds', '-')} seeds, commit `{commit.removesuffix('+dirty')[:12]}`"
            f"{' (with uncommitted changes)' if dirty else ''}, started "
            f"{record.get('started', '-')}, wall time {record.get('seconds', '-')} s with "
            f"{record.get('workers', '-')} worker(s). Every number below is computed from "
            f"that table by `skxor publish --write`. Reproduce it with\n\n"
            f"```bash\n{reproduce_command(name, record)}\n```")
    return line


def _shift_headings(markdown):
    """Each Markdown heading one level up (a report's ``## Title`` becomes the page's title)."""
    return re.sub(r"^#(#+ )", r"\1", markdown, flags=re.M)


def render_fragment(name, entry):
    """The generated page of study ``name``: its report section from the stored table.

    Parameters
    ----------
    name : str
        A registered study.
    entry : dict
        Its entry of :func:`load_store` (``table``, ``record``, ``path``).

    Returns
    -------
    page : str
        Markdown: the study's :meth:`report` section (title promoted to the
        page title), after the title a line naming the stored run (preset,
        rows, cells, seeds, commit, date, wall time) and the command that
        reproduces it. No figures: the reports reference none.

    Examples
    --------
    >>> from skxor.studies._publish import load_store, render_fragment
    >>> store = load_store("docs/results/data")  # doctest: +SKIP
    >>> print(render_fragment("one_step", store["one_step"])[:12])  # doctest: +SKIP
    # Normalised
    """
    from ._registry import get_study

    report = _shift_headings(get_study(name).report(entry["table"]).strip())
    title, _, body = report.partition("\n")
    if not title.startswith("# "):
        title, body = f"# {name}", report
    return (f"<!-- Generated by skxor publish --write from docs/results/data/{name}; "
            f"do not edit. -->\n\n{title}\n\n{_run_line(name, entry)}\n\n{body.strip()}\n")


def _studies_rst(store):
    lines = ["", ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   /{(FRAGMENTS_DIR / name).relative_to('docs').as_posix()}" for name in store]
    return "\n".join(lines) + "\n"


def render_documents(data=DATA_DIR, root="."):
    """The generated documents from the store at ``data``: ``{path: text}``.

    Parameters
    ----------
    data : path, default="docs/results/data"
        The store (relative paths are taken from ``root``).
    root : path, default="."
        The repository root holding README.md and docs/.

    Returns
    -------
    documents : dict of pathlib.Path to str
        README.md and docs/results/measured.rst with their generated blocks
        replaced, docs/results/claims.rst whole, and one page per stored
        study, ``docs/results/generated/<study>.md`` (:func:`render_fragment`).

    Examples
    --------
    >>> from skxor.studies._publish import render_documents
    >>> docs = render_documents()  # doctest: +SKIP
    >>> sorted(p.name for p in docs)  # doctest: +SKIP
    ['README.md', 'claims.rst', 'k_sparse.md', 'measured.rst', 'one_step.md', ...]
    """
    root = Path(root)
    data = root / data
    store = load_store(data)
    if not store:
        raise ValueError(f"no stored run (e.g. one_step/one_step.csv) under {data}.")
    claims = claims_table(store)
    readme, measured = root / "README.md", root / "docs" / "results" / "measured.rst"
    headline = _headline(store)
    text = readme.read_text()
    text = replace_named_block(text, "headline", headline, "md")
    text = replace_named_block(text, "claims", _claims_md(claims), "md")
    page = measured.read_text()
    page = replace_named_block(page, "headline", "\n" + headline + "\n", "rst")
    page = replace_named_block(page, "stored-runs", _runs_rst(store, data), "rst")
    page = replace_named_block(page, "studies", _studies_rst(store), "rst")
    documents = {readme: text, measured: page, root / CLAIMS_PAGE: _claims_rst(claims, store)}
    for name, entry in store.items():
        documents[root / FRAGMENTS_DIR / f"{name}.md"] = render_fragment(name, entry)
    return documents


def publish(data=DATA_DIR, root=".", *, write=False):
    """Compare (or, ``write=True``, rewrite) the documents generated from the store.

    Returns
    -------
    differences : dict of pathlib.Path to str
        A unified diff per document that differs from what the store gives
        (before writing, when ``write``); empty when all agree.

    Raises
    ------
    ValueError
        No stored run under ``data``, or a document without its markers.

    Examples
    --------
    >>> import tempfile
    >>> from skxor.studies import publish
    >>> try:
    ...     publish("data", tempfile.mkdtemp())
    ... except ValueError as exc:
    ...     print(str(exc).split(" under ")[0])
    no stored run (e.g. one_step/one_step.csv)
    """
    differences = {}
    documents = render_documents(data, root)
    # A page of a study no longer stored is stale: it differs from nothing generated.
    for path in sorted((Path(root) / FRAGMENTS_DIR).glob("*.md")):
        if path not in documents:
            differences[path] = f"{path}: no stored run generates this page any more\n"
            if write:
                path.unlink()
    for path, text in documents.items():
        current = path.read_text() if path.exists() else ""
        if current != text:
            differences[path] = "".join(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), f"{path} (committed)",
                f"{path} (from the stored data)", n=1))
            if write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    return differences


def record_summary(record):
    """A one-line JSON summary of a run record (for messages)."""
    keys = ("study", "preset", "commit", "started", "seconds")
    return json.dumps({k: record.get(k) for k in keys})
