"""The one-step figures' series: a marker and line style per attention type, and labels."""

from skxor.nn import attention_names


#: Marker and line style of each attention type, in registration order (then a default).
_STYLES = [("o", "-"), ("s", "--"), ("^", ":")]


def _style(attention):
    names = attention_names()
    at = names.index(attention) if attention in names else len(_STYLES)
    return _STYLES[at] if at < len(_STYLES) else ("D", "-.")


def _label(attention, n, steps, several_t, step_length=None):
    """A series' legend label: the attention, n when sampled, T when several, the step."""
    text = attention if n == 0 else f"{attention}, n = {n:,}"
    if several_t:
        text += f", T = {steps}"
    return text + ("" if step_length is None else f", step {step_length:g}")
