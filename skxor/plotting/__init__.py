"""scikit-learn-style displays of sensitivity, Fourier spectra and attention.

Each display follows scikit-learn's ``*Display`` API: build it with a class
method (``from_estimator``, ``from_function`` or ``from_predictions``) that
computes what it shows and draws it, or construct it from values already
computed and call ``plot(ax=...)``; ``plot`` returns the display, whose
``ax_`` and ``figure_`` attributes hold the matplotlib objects.

* :class:`SensitivityProfileDisplay`: fraction of strings per sensitivity
  value, reference functions (PARITY, MAJORITY, FIRST or any) beside it.
* :class:`FourierSpectrumDisplay`: Fourier weight per degree.
* :class:`AttentionDisplay`: each head's attention over the positions of a
  fitted :class:`~skxor.SparseXORTransformer`, the true support marked.

matplotlib (``pip install skxor[plot]``) is imported only when drawing, so
``import skxor.plotting`` works without it.
"""

from ._attention import AttentionDisplay
from ._fourier import FourierSpectrumDisplay
from ._sensitivity import SensitivityProfileDisplay

__all__ = ["AttentionDisplay", "FourierSpectrumDisplay", "SensitivityProfileDisplay"]
