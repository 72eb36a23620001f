"""The base of the study displays and the selection of the rows they draw.

Part of :mod:`skxor.studies.figures`, which re-exports every name here.
"""

import numpy as np

from .._utils._docstrings import fill_doc
from .._utils._style import axes_or_new

__all__ = ["StudyDisplay", "one_value", "rows_where", "select_rows"]


def select_rows(table, column, values):
    """The rows of ``table`` whose ``column`` is among ``values`` (all of them when None).

    A display drawing a selection of a study's table says which values the
    table has when asked for one it lacks.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.figures import select_rows
    >>> table = pd.DataFrame({"d_model": [8, 32, 32]})
    >>> len(select_rows(table, "d_model", 32)), len(select_rows(table, "d_model", None))
    (2, 3)
    >>> select_rows(table, "d_model", [16])
    Traceback (most recent call last):
    ...
    ValueError: d_model [16] is not in the table; it has [8, 32].
    """
    if values is None:
        return table
    values = np.atleast_1d(values)
    missing = sorted(set(values.tolist()) - set(table[column].tolist()))
    if missing:
        raise ValueError(f"{column} {missing} is not in the table; it has "
                         f"{sorted(table[column].unique().tolist())}.")
    return table[table[column].isin(values)]


def rows_where(table, **values):
    """The rows of ``table`` whose columns equal ``values`` (column name: value), in order.

    The series or panel a figure or report draws from a summary, declared by
    the values that pick it: ``rows_where(summary, k=2, m=32)``.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.figures import rows_where
    >>> table = pd.DataFrame({"k": [2, 2, 3], "m": [8, 32, 32]})
    >>> rows_where(table, k=2, m=32).index.tolist(), len(rows_where(table))
    ([1], 3)
    """
    missing = sorted(set(values) - set(table.columns))
    if missing:
        raise ValueError(f"rows_where: the table has no column {missing}; it has {list(table.columns)}.")
    keep = np.ones(len(table), dtype=bool)
    for column, value in values.items():
        keep &= (table[column] == value).to_numpy()
    return table[keep]


def one_value(table, column, value):
    """``value`` of ``column``, checked to be in ``table``; when None, the table's only one.

    A display that draws one value per axes (one depth, one width) takes it
    from the table when the table has no other.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.figures import one_value
    >>> one_value(pd.DataFrame({"n_layers": [2, 2]}), "n_layers", None)
    2
    >>> one_value(pd.DataFrame({"n_layers": [1, 2]}), "n_layers", None)
    Traceback (most recent call last):
    ...
    ValueError: the table has several n_layers ([1, 2]): choose one with n_layers.
    """
    if value is None:
        values = sorted(table[column].unique().tolist())
        if len(values) != 1:
            raise ValueError(f"the table has several {column} ({values}): choose one with "
                             f"{column}.")
        return values[0]
    select_rows(table, column, value)  # one of the table's
    return value


class StudyDisplay:
    """Base of the study displays, after scikit-learn's Display API.

    A display holds what it draws (built by its ``from_table`` or from a
    summary); :meth:`plot` draws it on any axes through one hook,
    ``_draw(ax)``, which draws the data and returns a function building the
    legends (called only with ``legend=True``).
    """

    @classmethod
    @fill_doc
    def from_table(cls, df, *, ax=None):
        """Build the display from its study's table and plot it.

        Every study display's ``from_table``: a display that draws part of
        the table (one panel of its study's figure) takes the keywords of its
        class that select that part, with the meaning the class gives them.

        Parameters
        ----------
        %(display_table)s
        %(ax)s

        Returns
        -------
        display : StudyDisplay
            The display, drawn.
        """
        return cls(df).plot(ax=ax)

    @fill_doc
    def plot(self, ax=None, *, legend=True):
        """Draw the display.

        Parameters
        ----------
        %(plot_ax_legend)s

        Returns
        -------
        self : display
            With ``ax_``, ``figure_`` and ``legends_`` (empty with
            ``legend=False``) set.
        """
        ax, figure = axes_or_new(ax, f"{type(self).__name__}.plot")
        legends = self._draw(ax)
        self.legends_ = list(legends()) if legend else []
        self.ax_, self.figure_ = ax, figure
        return self

    def _draw(self, ax):  # pragma: no cover - abstract
        raise NotImplementedError
