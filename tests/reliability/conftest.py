"""Hypothesis profiles of the reliability suite.

The default ``skxor-ci`` profile runs hundreds of cases in all, the same ones
every time; ``--hypothesis-profile=skxor-thorough`` runs ten times more, with
fresh random cases.
"""

from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("skxor-ci", max_examples=100, derandomize=True, **_COMMON)
settings.register_profile("skxor-thorough", max_examples=1000, **_COMMON)
settings.load_profile("skxor-ci")
