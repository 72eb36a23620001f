"""AttentionDisplay: each head's attention weights over the positions."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._utils._docstrings import fill_doc
from ._base import as_real_array, axes_or_new, check_matplotlib


class AttentionDisplay:
    """Attention weights of each head over the input positions.

    One image, heads as rows and positions as columns, on one shared colour
    scale from 0 (or the smallest weight, if negative) to the largest weight,
    with a colour bar; several displays (e.g. one per attention type) share
    one scale through ``plot(norm=AttentionDisplay.shared_norm(...))``. Each
    head's most attended position is marked with a cross and, when given, the true
    support with triangles above the image; both have legend entries.

    It is recommended to build a display with :meth:`from_estimator`. Needs
    matplotlib (``pip install skxor[plot]``), imported only when drawing.

    Parameters
    ----------
    attention : array-like of shape (n_heads, n_positions)
        Attention weights (e.g. ``SparseXORTransformer.attention_``); finite,
        and negative only for attentions such as linear that allow it.
    support : array-like of int or None, default=None
        The true relevant positions, marked when given.
    name : str or None, default=None
        Title of the axes (e.g. the estimator's name); none when None.

    Attributes
    ----------
    image_ : matplotlib AxesImage
        The heads-by-positions image.
    colorbar_ : matplotlib Colorbar or None
        Its colour bar (None with ``colorbar=False``).
    argmax_markers_ : matplotlib Line2D
        Crosses on each head's most attended position.
    support_markers_ : matplotlib Line2D or None
        Triangles over the true support (None without a support).
    ax_ : matplotlib Axes
        Axes with the image.
    figure_ : matplotlib Figure
        Figure containing the image.

    See Also
    --------
    skxor.SparseXORTransformer : The estimator whose ``attention_`` is shown.

    Examples
    --------
    >>> from skxor.plotting import AttentionDisplay
    >>> from skxor import SparseXORTransformer
    >>> from skxor.datasets import make_sparse_parity
    >>> X, y = make_sparse_parity(20000, 20, support=[4, 11], random_state=0)
    >>> clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    >>> disp = AttentionDisplay.from_estimator(clf, support=[4, 11])
    >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    ['most attended position', 'true support [4, 11]']
    >>> disp.ax_.get_xlabel(), disp.colorbar_.ax.get_ylabel()
    ('position', 'attention weight')
    """

    def __init__(self, attention, *, support=None, name=None):
        self.attention = attention
        self.support = support
        self.name = name

    @fill_doc
    def plot(self, ax=None, *, cmap="viridis", norm=None, colorbar=True, legend=True,
             name=None):
        """Draw the attention image.

        Parameters
        ----------
        %(ax)s
        cmap : str or matplotlib Colormap, default="viridis"
            Colour map of the weights.
        norm : matplotlib Normalize or None, default=None
            Colour scale. None: from 0 (or the smallest weight, if negative)
            to the largest weight. Pass one object to several displays (see
            :meth:`shared_norm`) to draw them on one scale.
        colorbar : bool, default=True
            Add a colour bar.
        legend : bool, default=True
            Add the legend of the markers (off for all but one of several
            displays stacked in one figure).
        name : str or None, default=None
            Title; overrides the one given at construction.

        Returns
        -------
        display : AttentionDisplay
            Object that stores the computed values.
        """
        attention = as_real_array(self.attention, "attention weights")
        if attention.ndim == 1:
            attention = attention[None, :]
        if attention.ndim != 2 or 0 in attention.shape:
            raise ValueError(
                "attention must have shape (n_heads, n_positions); got shape "
                f"{np.shape(self.attention)}."
            )
        if not np.isfinite(attention).all():
            raise ValueError("attention weights must be finite; got NaN or inf.")
        n_heads, n_positions = attention.shape
        support = None
        if self.support is not None:
            support = np.asarray(self.support)
            if (
                support.ndim != 1
                or support.size == 0
                or support.dtype.kind not in "iu"
                or support.min() < 0
                or support.max() >= n_positions
            ):
                raise ValueError(
                    f"support must list one or more integer positions in [0, "
                    f"{n_positions - 1}] (or be None); got {self.support!r}."
                )
        ax, figure = axes_or_new(ax, f"{type(self).__name__}.plot")
        # One image: every head on the same colour scale.
        self.image_ = ax.imshow(
            attention, aspect="auto", interpolation="nearest", cmap=cmap,
            norm=self.shared_norm([attention]) if norm is None else norm,
        )
        self.colorbar_ = None
        if colorbar:
            self.colorbar_ = figure.colorbar(self.image_, ax=ax)
            self.colorbar_.set_label("attention weight")
        heads = np.arange(n_heads)
        (self.argmax_markers_,) = ax.plot(
            attention.argmax(axis=1), heads, linestyle="none", marker="x",
            markersize=9, markeredgewidth=2, color="white", markeredgecolor="red",
            label="most attended position",
        )
        self.support_markers_ = None
        if support is not None:
            # Just above the image (x in data, y in axes units): no cell is hidden.
            (self.support_markers_,) = ax.plot(
                support, np.full(support.shape, 1.03), linestyle="none", marker="v",
                markersize=9, color="black", clip_on=False,
                transform=ax.get_xaxis_transform(),
                label=f"true support {np.sort(support).tolist()}",
            )
        ax.set_yticks(heads, [f"head {h + 1}" for h in heads])
        ax.set_xlabel("position")
        ax.set_ylabel("head")
        ax.set_ylim(n_heads - 0.5, -0.5)
        title = name if name is not None else self.name
        if title is not None:
            ax.set_title(title, loc="left", fontsize="medium")
        if legend:
            ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.05), ncol=2,
                      fontsize="small", frameon=False)
        self.ax_ = ax
        self.figure_ = figure
        return self

    @staticmethod
    def shared_norm(attentions):
        """One colour scale for several attention arrays.

        From 0 (or the smallest weight: linear attention ``(1 + s_i) / d``
        can go negative) to the largest weight of any of them.

        Parameters
        ----------
        attentions : iterable of array-like
            The weights to be drawn on the scale.

        Returns
        -------
        norm : matplotlib.colors.Normalize

        Examples
        --------
        >>> from skxor.plotting import AttentionDisplay
        >>> norm = AttentionDisplay.shared_norm([[[0.1, 0.9]], [[-0.2, 0.3]]])
        >>> norm.vmin, norm.vmax
        (-0.2, 0.9)
        """
        check_matplotlib("AttentionDisplay.shared_norm")
        from matplotlib.colors import Normalize

        values = np.concatenate([np.ravel(as_real_array(a, "attention weights"))
                                 for a in attentions])
        vmin = min(0.0, float(values.min()))
        return Normalize(vmin=vmin, vmax=max(float(values.max()), vmin + np.finfo(float).eps))

    @classmethod
    @fill_doc
    def from_estimator(cls, estimator, *, support=None, name=None, ax=None, **kwargs):
        """Draw the attention of a fitted estimator with an ``attention_`` attribute.

        Parameters
        ----------
        estimator : fitted SparseXORTransformer
            Or any fitted estimator with ``attention_`` of shape
            (n_heads, n_positions).
        support : array-like of int or None, default=None
            The true support, marked when given.
        name : str or None, default=None
            Title; none when None.
        %(ax)s
        **kwargs
            ``cmap``, ``norm``, ``colorbar`` and ``legend`` of :meth:`plot`.

        Returns
        -------
        display : AttentionDisplay
        """
        check_is_fitted(estimator)
        if not hasattr(estimator, "attention_"):
            raise TypeError(
                f"{type(estimator).__name__} has no attention_ attribute; "
                "AttentionDisplay.from_estimator needs a fitted SparseXORTransformer "
                "(or pass the weights to AttentionDisplay(attention))."
            )
        return cls(estimator.attention_, support=support, name=name).plot(ax=ax, **kwargs)
