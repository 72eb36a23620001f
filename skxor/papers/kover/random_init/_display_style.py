"""The random-initialisation figures' styles, offsets and legends, shared by every panel."""

import numpy as np

from skxor.studies.figures import NEUTRAL, key_legends, offset, series_style
from ._cells import SETTING
from ._wording import network_setting_label


_SCHEME_COLOURS = {
    "uniform": "tab:blue", "normal": "tab:orange", "xavier_uniform": "tab:green",
    "xavier_normal": "tab:red", "default": "tab:purple",
}


def _series_styles(summary):
    """A distinct (colour, marker, line style) per setting without eps.

    Colour and marker name the scheme, the line style the network's shape
    (read-out, positions, D, L), so schemes differ in more than colour.
    """
    settings = summary[["init", "readout", "positional", "d_model", "n_layers"]].drop_duplicates()
    schemes = list(dict.fromkeys(settings["init"]))
    shapes = sorted({(r, p, int(d), int(l)) for _, (i, r, p, d, l) in settings.iterrows()})
    styles = {}
    for _, (init, r, p, d, l) in settings.iterrows():
        styles[(init, r, p, int(d), int(l))] = dict(
            color=_SCHEME_COLOURS.get(init, "tab:gray"),
            marker=series_style(schemes.index(init))["marker"],
            ls=series_style(shapes.index((r, p, int(d), int(l))))["ls"],
        )
    return styles


def _eps_width(eps, smallest):
    """Line width and marker size: the smallest eps drawn thick, any other thin."""
    return dict(lw=1.3, ms=4.5) if eps == smallest else dict(lw=0.6, ms=2.5)


def _key_handles(styles, eps_values, variants):
    """A legend that reads the styles: one entry per scheme, shape, variant and eps.

    With every setting a series (5 schemes x 4 shapes x 2 eps x 2 variants
    in the full preset), one entry per series would fill the figure.
    """
    from matplotlib.lines import Line2D

    handles = {}
    for (init, r, p, d, l), style in styles.items():
        handles.setdefault(("scheme", init), Line2D(
            [], [], color=style["color"], marker=style["marker"], ls="none",
            label=f"init: {init}"))
    for (init, r, p, d, l), style in styles.items():
        handles.setdefault(("shape", r, p, d, l), Line2D(
            [], [], color=NEUTRAL, ls=style["ls"], label=f"{r}, {p}, D={d}, L={l}"))
    for name, filled in variants:
        handles[("variant", name)] = Line2D(
            [], [], color=NEUTRAL, marker="o", ls="none", mfc=None if filled else "none",
            label=f"{name}: {'filled' if filled else 'hollow'} markers")
    smallest = min(eps_values) if eps_values else 0.0
    if len(eps_values) > 1:
        for eps in eps_values:
            handles[("eps", eps)] = Line2D(
                [], [], color=NEUTRAL, marker="o", label=f"eps = {eps:g}: "
                + ("thick line" if eps == smallest else "thin line, small markers"),
                **_eps_width(eps, smallest))
    return list(handles.values())


def _drawing(nets, identical):
    """Each setting's style and offset along N, and the eps drawn (the first alone when
    ``identical``): of every setting, so that the panels of a figure agree."""
    styles = _series_styles(nets)
    offsets = {s: float(offset(1.0, i, len(styles))) for i, s in enumerate(styles)}
    eps_values = sorted({float(e) for e in nets["layer_norm_eps"]}) if len(nets) else []
    if identical:  # eps > 0 identical everywhere: drawn once
        eps_values = eps_values[:1]
    return styles, offsets, eps_values


def _each_setting(nets, styles, eps_values, identical):
    """Per setting of ``nets``: its key, label, style (the eps by line width) and rows by N."""
    for (init, r, p, d, l, eps), group in nets.groupby(SETTING, sort=False):
        key = (init, r, p, int(d), int(l))
        width = _eps_width(float(eps), eps_values[0] if eps_values else 0.0)
        label = network_setting_label(init, r, p, d, l, None if identical else eps)
        yield key, label, {**styles[key], **width}, group.sort_values("n_bits")


#: Up to this many labelled series a figure's legend lists each; beyond, a key.
FULL_LEGEND_MAX = 6


def _legend(fig, axes, styles, eps_values, variants, series):
    """Beside the last panel, where it covers no data.

    Each series by its own label when there are at most
    :data:`FULL_LEGEND_MAX`; otherwise two short legends: the colours
    (schemes) with the references, and the kinds (shape, variant, eps)
    that read every series' style. Returns the legends drawn.
    """
    axes = np.atleast_1d(axes)
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    references = {label: h for label, h in handles.items() if label not in series}
    if sum(label in series for label in handles) <= FULL_LEGEND_MAX:
        return [axes[-1].legend(handles=list(handles.values()), labels=list(handles),
                                loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                fontsize="x-small", frameon=False)]
    key = _key_handles(styles, eps_values, variants)
    colours = [h for h in key if h.get_label().startswith("init: ")] + list(references.values())
    kinds = [h for h in key if not h.get_label().startswith("init: ")]
    labels = [h.get_label() for h in colours[:len(colours) - len(references)]] + list(references)
    return key_legends(axes[-1], dict(zip(labels, colours)), {h.get_label(): h for h in kinds},
                       colour_title="colour: init scheme; black: references",
                       kind_title="grey: the style of every colour")
