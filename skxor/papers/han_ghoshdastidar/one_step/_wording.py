"""The one-step study's wording: the phrases its report and figures put in titles."""

from skxor.studies.reporting import preset_text
from ._summary import _GROUP


def steps_text(steps):
    """``"1 step"`` or ``"T steps"``.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.one_step._wording import steps_text
    >>> steps_text(1), steps_text(50)
    ('1 step', '50 steps')
    """
    return "1 step" if int(steps) == 1 else f"{int(steps)} steps"


def setting_text(cells):
    """'population steps (n = 0), quick preset, 10 seeds per cell' for titles.

    ``cells``: the summary's checked rows (``one_step_summary(df).cells``).
    """
    ns = sorted(int(n) for n in cells["n"].unique())
    kind = ("population steps (n = 0)" if ns == [0]
            else "n = " + ", ".join("population" if n == 0 else f"{n:,}" for n in ns))
    return f"{kind}, {preset_text(cells, _GROUP)}"
