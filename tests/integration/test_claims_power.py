"""Every judged claim of the papers is powered at its stored design, or says what would be.

A verdict no data at the stored design could turn into "reproduced" (or into
"not reproduced") decides nothing: each judged claim declares how to simulate
its table, and the power kept beside each stored run (``skxor publish --write
--power``) must reach the goal both ways, or name the design that would reach
it with its cost, or say why no finite design can (a claim about a limit).
"""

import pytest

from skxor.studies import STUDIES, claims_table
from skxor.studies._publish import load_store, stored_data_dir
from skxor.studies.claims import declared_claims
from skxor.studies.power import POWER_GOAL


@pytest.fixture(scope="module")
def store():
    return load_store(stored_data_dir())


@pytest.fixture(scope="module")
def claims(store):
    return claims_table(store).set_index("id")


def _judged(claims):
    """The papers' claims (and the library's checks) that the stored runs judge."""
    return [(study, claim) for study, claim in declared_claims(STUDIES)
            if claims.loc[claim.id, "verdict"] != "not tested"]


def test_every_judged_claim_declares_a_simulation(claims):
    missing = [claim.id for _, claim in _judged(claims) if claim.simulate is None]
    assert not missing, f"judged claims without simulate: {missing}"


def test_the_stored_power_reaches_the_goal_or_names_what_would(store, claims):
    short = []
    for study, claim in _judged(claims):
        power = (store[study].get("power") or {}).get(claim.id)
        assert power is not None, f"{claim.id}: no power kept for the stored table"
        assert power.n_tables >= 200
        if power.decides(POWER_GOAL) or claim.asymptotic:
            continue
        reaching = power.reaching or {}
        assert reaching.get("overrides"), (
            f"{claim.id}: power {power.text()} below {POWER_GOAL} and no design tried "
            f"reaches it: {reaching.get('tried')}")
        short.append(claim.id)
        assert "would reach it" in claims.loc[claim.id, "power"]
    # What falls short is on the claims page with its design and cost (checked above).
    for claim_id in short:
        assert "estimated" in claims.loc[claim_id, "power"] or \
            "cost unknown" in claims.loc[claim_id, "power"]


def test_an_asymptotic_claim_says_why_on_the_page(claims):
    for study, claim in declared_claims(STUDIES):
        if claim.asymptotic and claim.id in claims.index:
            text = claims.loc[claim.id, "power"]
            assert claim.asymptotic in text or text.startswith("not computed") \
                or "decides the claim" in text
