"""Hypothesis profiles of the reliability suite: those of the whole suite.

``tests/conftest.py`` registers them: the default ``skxor-ci`` profile runs the
same cases every time; ``--hypothesis-profile=skxor-thorough`` runs ten times
more, with fresh random cases.
"""
