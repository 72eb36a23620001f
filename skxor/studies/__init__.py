"""Reproducible studies: checkpointed sweeps, tables and figures."""

from ._sweep import run_sweep

__all__ = ["run_sweep"]
