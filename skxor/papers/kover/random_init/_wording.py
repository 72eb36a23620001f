"""The random-init study's wording: how its report and figures name a network setting."""


def network_setting_label(init, readout, positional, d_model, n_layers, eps=None):
    """A network setting for legends and tables (with its eps where settings differ in it)."""
    label = f"{init}, {readout}, {positional}, D={int(d_model)}, L={int(n_layers)}"
    return label if eps is None else f"{label}, eps={float(eps):g}"
