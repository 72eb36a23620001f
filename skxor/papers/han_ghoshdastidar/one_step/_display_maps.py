"""The one-step study's attention maps after one population step."""

import numpy as np

from skxor.studies.figures import panel_grid
from skxor.datasets import make_sparse_parity
from skxor.nn import attention_names, sparse_xor_init
from skxor.theory import population_step
from .._head_scoring import head_weights


def attention_maps(d=60, m=32, seed=1, step_length=100.0):
    """Attention of both heads after one population step, per attention type.

    Returns
    -------
    maps : dict of str to ndarray of shape (2, d)
    support : ndarray of shape (2,)
    """
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    maps = {}
    for attention in attention_names():
        keys, theta0 = sparse_xor_init(d, m, random_state=seed)
        theta = population_step(
            theta0, keys, support, attention,
            step_length=step_length,
        )
        maps[attention] = head_weights(keys, theta, attention).T
    return maps, support


def plot_attention_maps(maps, support, title):
    """Each attention type's heads as an :class:`~skxor.plotting.AttentionDisplay`, one row each.

    All rows share one colour scale (:meth:`AttentionDisplay.shared_norm
    <skxor.plotting.AttentionDisplay.shared_norm>`) and one colour bar, so
    weights of about 1/d look as small as they are; crosses mark each head's
    most attended position, triangles the support.

    Parameters
    ----------
    maps : dict of str to array-like of shape (n_heads, d)
        Attention weights per attention type, one row per head (as returned
        by :func:`~skxor.papers.han_ghoshdastidar.one_step.attention_maps`).
    support : array-like of int
        The support positions, marked above each row.
    title : str
        The figure's title.

    Returns
    -------
    figure : matplotlib.figure.Figure
        One row of axes per attention type, then the shared colour bar.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.one_step import plot_attention_maps
    >>> from skxor.papers.han_ghoshdastidar.one_step import attention_maps
    >>> maps, support = attention_maps(d=20, m=8)
    >>> support.tolist()
    [3, 16]
    >>> fig = plot_attention_maps(maps, support, "One population step, d = 20, m = 8")
    >>> len(fig.axes)  # three attention types and the colour bar
    4
    >>> for ax in fig.axes[:3]:
    ...     print(ax.get_title(loc="left"))
    softmax: largest weight 1, most attended [16, 3]
    linear: largest weight 2.27, most attended [3, 3]
    erf: largest weight 0.1, most attended [1, 1]
    """
    from skxor.plotting import AttentionDisplay

    norm = AttentionDisplay.shared_norm(maps.values())
    heat, axes = panel_grid(len(maps), 1, size=(9, 1.5), pad=(0.0, 1.2), sharex=True)
    axes = axes[:, 0]
    displays = []
    for row, (ax, (attention, gamma)) in enumerate(zip(axes, maps.items())):
        gamma = np.asarray(gamma)
        name = (f"{attention}: largest weight {gamma.max():.3g}, most attended "
                f"{gamma.argmax(axis=1).tolist()}")
        displays.append(AttentionDisplay(gamma, support=support, name=name).plot(
            ax=ax, norm=norm, colorbar=False, legend=row == 0))
        if row < len(maps) - 1:
            ax.set_xlabel("")  # one "position" label, under the last row
    heat.colorbar(displays[0].image_, ax=axes.tolist(),
                  label="attention weight (one scale for all rows)")
    heat.suptitle(title, fontsize="small")
    return heat
