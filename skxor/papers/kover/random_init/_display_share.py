"""The random-initialisation study's main figure: :class:`RandomInitShareDisplay`."""

from skxor._utils._docstrings import fill_doc_with
from skxor.studies.figures import interval_errorbar, log_axis, StudyDisplay
from .._networks import require_networks
from ._cells import RANDOM_FUNCTION
from ._display_style import _drawing, _each_setting, _legend
from ._summary import DOC_EXAMPLES, POISSON_LIMIT, random_init_summary


_SHARES = {
    "constant": "share of constant networks",
    "with_zero": "share with a zero-sensitivity string (all networks)",
    "nonconstant_with_zero": "share with a zero-sensitivity string (non-constant)",
}


@fill_doc_with(DOC_EXAMPLES)
class RandomInitShareDisplay(StudyDisplay):
    """The share of random networks with a zero-sensitivity string (or constant) against
    N per setting, beside random functions: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a random-initialisation table, or from its
    summary, then :meth:`plot` on any axes. Per setting (colour and marker:
    the init scheme; line style: read-out, positions, D and L; line width:
    eps), the share of networks with a zero-sensitivity string (or of
    constant networks) with its Wilson 95% interval, against N on a log
    axis; for the zero-sensitivity shares, the uniformly random functions
    measured (black stars) and their limit 1 - 1/e. Settings are offset
    slightly along N so coinciding points stay visible.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.kover.random_init.summarize_random_init` of a table
        (its networks and random functions).
    share : {"with_zero", "nonconstant_with_zero", "constant"}, default="with_zero"
        The share of all networks with a zero-sensitivity string, of the
        non-constant ones, or the share of constant networks.
    identical : bool, default=False
        Whether the eps give identical functions (then eps is left out of
        the labels; :meth:`from_table` finds out and keeps eps = 0 alone).

    Attributes
    ----------
    series_ : list of str
        The labels of the settings drawn (the references aside).
    %(display_drawn)s
        Beside the axes: one legend of every series when there are few,
        else a legend of the schemes and references and one of the styles
        (empty with ``legend=False``).

    %(examples)s
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import RandomInitShareDisplay
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = RandomInitShareDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, display.series_
    (True, ['normal, eos, sinusoidal, D=16, L=1'])
    >>> [t.get_text() for t in display.legends_[0].get_texts()]  # doctest: +NORMALIZE_WHITESPACE
    ['reference: random function, limit 1 - 1/e', 'normal, eos, sinusoidal, D=16, L=1',
     'random function (measured)']
    """

    def __init__(self, summary, *, share="with_zero", identical=False):
        if share not in _SHARES:
            raise ValueError(f"share must be one of {sorted(_SHARES)}; got {share!r}.")
        self.summary, self.share, self.identical = summary, share, identical

    @classmethod
    def from_table(cls, df, *, share="with_zero", ax=None):
        # When every eps gives the functions of eps = 0, only eps = 0 is drawn.
        require_networks(df)
        summary = random_init_summary(df)
        return cls(summary.drawn, share=share, identical=summary.identical).plot(ax=ax)

    def _draw(self, ax):
        figure = ax.figure
        summary, column = self.summary, self.share
        nets = summary[summary["init"] != RANDOM_FUNCTION]
        control = summary[summary["init"] == RANDOM_FUNCTION]
        styles, offsets, eps_values = _drawing(nets, self.identical)
        ns = sorted(int(n) for n in summary["n_bits"].unique())
        self.series_ = []
        for key, label, style, g in _each_setting(nets, styles, eps_values, self.identical):
            interval_errorbar(ax, g["n_bits"] * offsets[key], g, column, capsize=2,
                              label=label, **style)
            self.series_.append(label)
        if column != "constant" and len(control):  # random functions are never constant
            c = control.sort_values("n_bits")
            interval_errorbar(ax, c["n_bits"], c, "with_zero", fmt="k*", ms=8, capsize=2, label="random function (measured)")
            ax.plot(ns, [POISSON_LIMIT] * len(ns), color="black", lw=1.0, ls=(0, (1, 1)),
                    label="reference: random function, limit 1 - 1/e")
        log_axis(ax, ns, base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("string length N")
        ax.set_title(_SHARES[column], fontsize="small")
        ax.set_ylabel("share of networks (Wilson 95% interval)")
        return lambda: _legend(figure, [ax], styles, eps_values, [], set(self.series_))
