"""SensitivityProfileDisplay: per-string sensitivity histograms."""

import numpy as np

from ..boolean import TruthTable
from ..sensitivity import SensitivityProfile, sensitivity_profile
from ._base import (
    axes_or_new,
    check_matplotlib,
    default_name,
    grouped_bars,
    estimator_n_bits,
    finish_bars,
    resolve_references,
)


class SensitivityProfileDisplay:
    """Sensitivity profile visualization: the fraction of strings per sensitivity.

    The sensitivity of a string x is the number of positions whose flip
    changes f(x). The display draws the profile of a function as bars, with
    the profiles of reference functions beside them in the same groups; every
    series has its own colour, hatch and legend entry (with its average
    sensitivity), so none hides another. Sampled profiles get Wilson error
    bars.

    It is recommended to build a display with :meth:`from_estimator`,
    :meth:`from_function` or :meth:`from_predictions`; the constructor takes
    profiles already computed. Needs matplotlib (``pip install skxor[plot]``),
    imported only when drawing.

    Parameters
    ----------
    profile : SensitivityProfile
        The profile to show (from :func:`skxor.sensitivity.sensitivity_profile`).
    name : str or None, default=None
        Its legend label; ``"f"`` when None.
    references : dict of {str: SensitivityProfile} or None, default=None
        Reference profiles drawn beside it, labelled by their keys.

    Attributes
    ----------
    bars_ : list of matplotlib BarContainer
        One per series, the profile first.
    ax_ : matplotlib Axes
        Axes with the histogram.
    figure_ : matplotlib Figure
        Figure containing the histogram.

    See Also
    --------
    skxor.sensitivity.sensitivity_profile : Compute a profile.
    FourierSpectrumDisplay : Fourier weight per degree.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skxor.boolean import SparseParity
    >>> from skxor.plotting import SensitivityProfileDisplay
    >>> disp = SensitivityProfileDisplay.from_function(
    ...     SparseParity(6, support=[0, 3]), 6, name="sparse XOR",
    ...     references=["majority", "parity"])
    >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    ['sparse XOR (average 2)', 'MAJORITY (average 1.88)', 'PARITY (average 6)']
    >>> disp.ax_.get_xlabel()
    'sensitivity s(f, x)'
    """

    def __init__(self, profile, *, name=None, references=None):
        self.profile = profile
        self.name = name
        self.references = references

    def plot(self, ax=None, *, name=None, **bar_kwargs):
        """Draw the histogram.

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Where to draw; a new figure when None.
        name : str or None, default=None
            Legend label of the profile; overrides the one given at
            construction.
        **bar_kwargs
            Passed to ``ax.bar`` for the profile's bars (not the references').

        Returns
        -------
        display : SensitivityProfileDisplay
            Object that stores the computed values.
        """
        ax, figure = axes_or_new(ax, f"{type(self).__name__}.plot")
        if not isinstance(self.profile, SensitivityProfile):
            raise TypeError(
                f"profile must be a SensitivityProfile; got {type(self.profile).__name__}."
            )
        name = name if name is not None else (self.name if self.name is not None else "f")
        series = {name: self.profile, **(self.references or {})}
        for label, prof in series.items():
            if not isinstance(prof, SensitivityProfile):
                raise TypeError(
                    f"the reference {label!r} must be a SensitivityProfile; got "
                    f"{type(prof).__name__}."
                )
            if prof.n_bits != self.profile.n_bits:
                raise ValueError(
                    f"the reference {label!r} has N={prof.n_bits} bits, the profile "
                    f"N={self.profile.n_bits}."
                )
        profiles = list(series.values())
        errors = [
            None if p.fraction_ci is None else np.abs(p.fraction_ci.T - p.fractions)
            for p in profiles
        ]
        labels = [f"{label} (average {p.average:.3g})" for label, p in series.items()]
        x = np.arange(self.profile.n_bits + 1)
        self.bars_ = grouped_bars(
            ax, x, [p.fractions for p in profiles], labels, errors=errors,
            bar_kwargs=bar_kwargs,
        )
        sampled = any(p.method != "exhaustive" for p in profiles)
        return finish_bars(
            self, ax, figure, x, xlabel="sensitivity s(f, x)",
            ylabel="fraction of sampled strings" if sampled else "fraction of strings",
            heights=[p.fractions for p in profiles], errors=errors,
        )

    @classmethod
    def from_function(
        cls,
        f,
        n_bits,
        *,
        name=None,
        references=None,
        method="auto",
        n_samples=10_000,
        input_encoding=None,
        random_state=None,
        ax=None,
        **bar_kwargs,
    ):
        """Profile any function, model or truth table, with references, and draw it.

        Parameters
        ----------
        f : callable, fitted estimator, torch.nn.Module or ndarray
            Anything :func:`skxor.sensitivity.sensitivity_profile` takes: a
            callable on (n, N) 0/1 uint8 strings returning 0/1 or -1/+1
            labels, a fitted classifier, a torch module mapping float spins
            to logits, or a truth table of length 2^N.
        n_bits : int
            String length N.
        name : str or None, default=None
            Legend label; the class name of ``f`` when None.
        references : sequence of {"parity", "majority", "first"}, dict or None, \
default=None
            Reference functions profiled the same way (same method, samples
            and seed): names, or a mapping ``{label: function}`` of anything
            ``f`` may be.
        method : {"auto", "exhaustive", "sampled"}, default="auto"
            See :func:`~skxor.sensitivity.sensitivity_profile`.
        n_samples : int, default=10000
            Uniform strings of a sampled profile.
        input_encoding : {"01", "pm1"} or None, default=None
            Override how strings are presented to ``f`` (not the references).
        random_state : int, RandomState instance or None, default=None
            Seeds sampled strings.
        ax : matplotlib Axes or None, default=None
            Where to draw; a new figure when None.
        **bar_kwargs
            Passed to ``ax.bar`` for the profile's bars.

        Returns
        -------
        display : SensitivityProfileDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_function")  # before the work
        kwargs = dict(method=method, n_samples=n_samples, random_state=random_state)
        profile = sensitivity_profile(f, n_bits, input_encoding=input_encoding, **kwargs)
        refs = {
            label: value if isinstance(value, SensitivityProfile)
            else sensitivity_profile(value, n_bits, **kwargs)
            for label, value in resolve_references(references, n_bits).items()
        }
        name = default_name(f) if name is None else name
        return cls(profile, name=name, references=refs).plot(ax=ax, **bar_kwargs)

    @classmethod
    def from_estimator(cls, estimator, n_bits=None, *, name=None, references=None,
                       method="auto", n_samples=10_000, random_state=None, ax=None,
                       **bar_kwargs):
        """Profile a fitted classifier (its predictions) and draw it.

        Parameters
        ----------
        estimator : fitted classifier
            Its predicted class ``classes_[1]`` is the value 1; it gets
            strings in the encoding it was fitted with (see
            :mod:`skxor.boolean`).
        n_bits : int or None, default=None
            String length N; ``estimator.n_features_in_`` when None.
        name : str or None, default=None
            Legend label; the estimator's class name when None.
        references, method, n_samples, random_state, ax, **bar_kwargs
            As in :meth:`from_function`.

        Returns
        -------
        display : SensitivityProfileDisplay
        """
        return cls.from_function(
            estimator, estimator_n_bits(estimator, n_bits), name=name or type(estimator).__name__,
            references=references, method=method, n_samples=n_samples,
            random_state=random_state, ax=ax, **bar_kwargs,
        )

    @classmethod
    def from_predictions(cls, X, y_pred, *, input_encoding="01", values="01", name=None,
                         references=None, ax=None, **bar_kwargs):
        """Profile saved predictions on all 2^N strings and draw it.

        Parameters
        ----------
        X : array-like of shape (2^N, N)
            Every string once, in any order.
        y_pred : array-like of shape (2^N,) or (2^N, 1)
            The prediction on each string.
        input_encoding : {"01", "1-2b", "2b-1", "pm1"}, default="01"
            How X encodes bits (see
            :meth:`skxor.boolean.TruthTable.from_predictions`).
        values : {"01", "pm1", "f", "1-f", "2f-1", "1-2f"}, default="01"
            How ``y_pred`` encodes f.
        name : str or None, default=None
            Legend label; ``"predictions"`` when None.
        references, ax, **bar_kwargs
            As in :meth:`from_function` (the profiles are exhaustive).

        Returns
        -------
        display : SensitivityProfileDisplay
        """
        table = TruthTable.from_predictions(
            X, y_pred, input_encoding=input_encoding, values=values
        )
        return cls.from_function(
            table.table, table.n_bits, name=name or "predictions",
            references=references, method="exhaustive", ax=ax, **bar_kwargs,
        )
