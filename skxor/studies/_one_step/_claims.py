"""The claims the one-step study tests: H1, H3 and H4 (Han & Ghoshdastidar, arXiv 2502.07553v2)."""

from ...nn import attention_names, get_attention
from .._claims import Claim, listed, pooled_count, pooled_units, rate_verdict, worst
from ._summary import analysed, at_best

_PAPER, _SOURCE = "Han & Ghoshdastidar", "arXiv 2502.07553v2"


def _one_step_best(table, n_steps=1):
    data, _ = analysed(table)
    data = data[data["n_steps"] == n_steps]
    if data.empty:
        return data, data
    return data, at_best(data)


def _one_step_setting(data):
    kind = "exact population steps" if (data["n"] == 0).all() else (
        f"steps on n = {listed(data['n'])} samples")
    return (f"{kind}, d = {listed(data['d'])}, m = {listed(data['m'])}, "
            f"{data['seed'].nunique()} seeds, step lengths {listed(data['step_length'])}")


def _softmax_claim(table, column, meaning, what, interval):
    """A claim on softmax after one step at its best step length: ``column`` counted."""
    data, best = _one_step_best(table)
    row = best[best["attention"] == "softmax"]
    if row.empty:
        return dict(value="no softmax one-step rows", verdict="not tested", ours="-")
    r = row.iloc[0]
    text, (_, low, high) = pooled_count(int(getattr(r, column)), r, *interval)
    return dict(
        ours=f"{_one_step_setting(data)}; {meaning}",
        value=f"softmax, one step of {r.step_length:g} (its best): {what} {text}",
        units=pooled_units(r),
        verdict=rate_verdict(low, high),
    )


def _claim_one_step(table):
    return _softmax_claim(table, "successes", "success = test accuracy >= 0.99",
                          "success in", ("success_low", "success_high"))


def _claim_heads(table):
    return _softmax_claim(
        table, "specialised",
        "specialised = the heads' most-attended positions are the two hidden bits",
        "heads on the two hidden bits in", ("specialised_low", "specialised_high"))


def _claim_linear_erf(table):
    data, best = _one_step_best(table)
    parts, verdicts, units = [], [], None
    # The unnormalised types: the paper's linear and erf (the registry's others too).
    for attention in [a for a in attention_names() if not get_attention(a).normalised]:
        row = best[best["attention"] == attention]
        if row.empty:
            continue
        r = row.iloc[0]
        text, (_, low, high) = pooled_count(int(r.successes), r)
        parts.append(f"{attention} (best step {r.step_length:g}): {text}")
        verdicts.append(rate_verdict(low, high, claimed=False))
        units = r
    if not parts:
        return dict(value="no linear or erf rows", verdict="not tested", ours="-")
    return dict(
        ours=_one_step_setting(data) + "; this library's linear and erf definitions",
        value="; ".join(parts) + " succeed after one step",
        units=pooled_units(units, " each"), verdict=worst(verdicts),
    )


CLAIMS = (
    Claim(id="H1", paper=_PAPER, source=_SOURCE, name="one-step learning of sparse XOR",
          paper_setting="one-layer two-head softmax transformer, frozen keys on the sphere, "
          "trainable queries, one gradient step on the population or on n = Omega(d^4 "
          "polylog d) samples",
          statement="one gradient step from the antisymmetric start learns y = -x_i x_j "
          "with high probability",
          rule=_claim_one_step),
    Claim(id="H3", paper=_PAPER, source=_SOURCE, name="linear and erf attention fail",
          paper_setting="the same model with linear or erf attention",
          statement="replacing softmax by linear or erf attention, one step does not learn "
          "the task", rule=_claim_linear_erf),
    Claim(id="H4", paper=_PAPER, source=_SOURCE, name="head specialisation",
          paper_setting="the two heads after one step",
          statement="after the step each head attends to one of the two hidden bits",
          rule=_claim_heads),
)
