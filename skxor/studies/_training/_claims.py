"""The claims the training study tests: K3 of Köver et al. (ICML 2026, arXiv 2606.08768)."""

import numpy as np
import pandas as pd

from .._claims import Claim, judged, listed, rate_part, shown
from ._cells import LEARNED
from ._summary import series_columns, setting_label, with_model_setting

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"

#: K3's parts: each function's claim (True: learnable; False: not learned at large N).
CLAIMED = {"PARITY": False, "MAJORITY": True}


def _budget(table):
    steps, batch = listed(table["n_steps"]), listed(table["batch_size"])
    lr = listed(table["learning_rate"])
    stops = table["stop"].value_counts().to_dict() if "stop" in table else {}
    return (f"budget: at most {steps} steps of batch {batch}, learning rate {lr}, stopping at "
            f"{listed(table['target_accuracy'])} accuracy on monitoring strings or a flat "
            f"loss (stops: {', '.join(f'{k} {v}' for k, v in sorted(stops.items()))})")


def _claim_training(table):
    table = with_model_setting(table)
    series = series_columns(table)
    parts = []
    for keys, group in table.groupby(["function", *series], sort=True):
        keys = keys if isinstance(keys, tuple) else (keys,)
        function = keys[0]
        label = f"{function} ({setting_label(keys[1]) if series == ['model_setting'] else ', '.join(map(str, keys[1:]))})"
        largest = int(group["n_bits"].max())
        at = group[group["n_bits"] == largest]
        by_n = ", ".join(f"N = {n}: {int(g['learned'].sum())}/{len(g)}"
                         for n, g in group.groupby("n_bits"))
        if function in CLAIMED:
            parts.append(rate_part(
                f"{label} at N = {largest}", at["learned"].astype(bool), at["seed"],
                "with high probability" if CLAIMED[function] else "failure", unit="seeds"))
        parts.append(shown(f"{label} by N", f"{label} learned by N (shown): {by_n}"))
    if not parts:
        return dict(value="no trained runs", verdict="not tested", ours="-")
    parts.append(shown("budget", _budget(table)))
    return judged(
        parts,
        ours=f"N = {listed(table['n_bits'])}, model settings {listed(table['model_setting'])}, "
        f"{table['seed'].nunique()} seeds; learned = accuracy >= {LEARNED:g}; judged at the "
        "largest N tried (FIRST is hard only asymptotically: shown)",
        units=f"{table['seed'].nunique()} seeds per function, N and setting",
    )


def _synthetic(learned, seeds=40, random_state=0):
    """Runs whose ``learned(function, N)`` is the chance a seed learns."""
    rng = np.random.default_rng(random_state)
    rows = [dict(function=f, n_bits=n, model_setting="library", seed=s,
                 learned=bool(rng.random() < learned(f, n)), n_steps=600, batch_size=32,
                 learning_rate=0.003, target_accuracy=0.999, stop="target")
            for f in ("PARITY", "MAJORITY") for n in (4, 16, 64) for s in range(seeds)]
    return pd.DataFrame(rows)


def paper_holds():
    """PARITY learned only at small N, MAJORITY at every N."""
    return _synthetic(lambda f, n: 1.0 if f == "MAJORITY" or n == 4 else 0.0)


def parity_learned():
    """PARITY learned in every seed at the largest N (the paper's prediction contradicted)."""
    return _synthetic(lambda f, n: 1.0)


def majority_not_learned():
    """MAJORITY learned in a third of the seeds at the largest N."""
    return _synthetic(lambda f, n: 0.0 if f == "PARITY" and n > 4 else
                      (1 / 3 if n == 64 else 1.0))


CLAIMS = (
    Claim(id="K3", paper=_PAPER, source=_SOURCE,
          name="PARITY and FIRST hard, MAJORITY learnable",
          paper_setting="transformers trained by gradient descent as N grows",
          statement="functions without zero-sensitivity strings (PARITY; FIRST only "
          "asymptotically) are not learned at large N, MAJORITY is (verdict on PARITY and "
          "MAJORITY; FIRST is shown)",
          strength="asymptotic in N: PARITY a claimed failure, MAJORITY learnable with high "
          "probability",
          regime="the largest N tried, in each model setting (the library's and the "
          "paper's), within the budget stated in the row",
          rule_text="at the largest N, PARITY's learned share as a claimed failure (upper end "
          "<= 0.1) and MAJORITY's 'with high probability', per model setting; Holm over the "
          "parts",
          contradicted_by="PARITY learned in more than 10% of seeds at the largest N, or "
          "MAJORITY not learned in more than 10%",
          rule=_claim_training, holds=(paper_holds,),
          counterfactuals=(parity_learned, majority_not_learned)),
)
