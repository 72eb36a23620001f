"""The headline figures of the README and the docs, generated from study tables.

``skxor headline`` reads the tables a ``skxor reproduce`` (quick presets) wrote
and renders one bullet per study: every number in it comes from the tables,
with its interval. The block between the markers in ``README.md`` and in
``docs/results/measured.rst`` is replaced by the rendering, so the figures
users read are the figures the quick presets produce (a test checks this).
"""

from pathlib import Path

from .._utils._files import naming_the_table, read_table
from ._blocks import FORMATS, read_named_block, replace_named_block


def headline_renderers():
    """Study name -> headline renderer: each registered study's ``headline``, in order."""
    from ._registry import STUDIES

    renderers = {}
    for name, study in STUDIES.items():
        if study.headline is not None:
            renderers[name] = study.headline
    return renderers


def render_headline(folder, fmt="md"):
    """The headline block for the tables in ``folder``.

    Parameters
    ----------
    folder : path
        A results folder written by ``skxor reproduce`` (one ``<study>.csv``
        per study).
    fmt : {"md", "rst"}, default="md"

    Returns
    -------
    text : str
        One bullet per registered study with a headline (its
        :attr:`Study.headline <skxor.studies.Study>`) whose table is in
        the folder, in the registry's order.

    Raises
    ------
    ValueError
        No study table in ``folder``, or a table holding rows of several
        settings (its ``setting`` column; see :func:`run_studies`).

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from skxor.studies import render_headline
    >>> folder = tempfile.mkdtemp()
    >>> pd.DataFrame({"attention": ["softmax"] * 4, "n": 0, "d": 100, "m": 16,
    ...               "n_steps": 1, "step_length": 100.0, "seed": range(4),
    ...               "success": [True, True, True, False], "specialised": True,
    ...               "loss_after_step": 0.0}).to_csv(f"{folder}/one_step.csv", index=False)
    >>> text = render_headline(folder)  # one bullet: the one-step study's headline
    >>> text.startswith("* **Gradient steps"), text.endswith("3/4 = 0.75 [0.30, 0.95].")
    (True, True)
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {sorted(FORMATS)}; got {fmt!r}.")
    from ._registry import STUDIES

    folder = Path(folder)
    bullets = []
    for name in headline_renderers():
        path = folder / f"{name}.csv"
        if not path.exists():
            continue
        table = read_table(path)
        # The headline states one setting's figures: never pool several.
        settings = table["setting"].nunique(dropna=False) if "setting" in table else 1
        if settings > 1:
            raise ValueError(
                f"{path} holds rows of {settings} settings (runs with other parameters "
                "merged into it); the headline describes one: render it from a folder "
                "written by one run (skxor reproduce --out EMPTY_FOLDER)."
            )
        study = STUDIES[name]
        with naming_the_table(name, path):  # the summary, once, handed to the renderer
            bullets.append(study.render("headline", table, study.summary(table)))
    if not bullets:
        raise ValueError(f"no study table (e.g. one_step.csv) found in {folder}.")
    return "\n".join(f"* {b}" for b in bullets)


def replace_block(text, block, fmt):
    """``text`` with the lines between the headline markers replaced by ``block``."""
    return replace_named_block(text, "headline", block, fmt)


def read_block(text, fmt):
    """The lines between the headline markers of ``text`` (None when absent)."""
    return read_named_block(text, "headline", fmt)


def write_headline(folder, paths):
    """Replace the headline block of each file in ``paths`` (``.md`` or ``.rst``).

    Parameters
    ----------
    folder : path
        A results folder written by ``skxor reproduce``.
    paths : list of path
        Files holding the headline markers
        (:func:`~skxor.studies._blocks.markers` of ``"headline"``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from skxor.studies import write_headline
    >>> folder = Path(tempfile.mkdtemp())
    >>> pd.DataFrame({"attention": ["erf"], "n": 0, "d": 10, "m": 4, "seed": 0,
    ...               "step_length": 10.0, "success": False, "specialised": False,
    ...               "loss_after_step": 1.0}).to_csv(folder / "one_step.csv", index=False)
    >>> page = folder / "page.md"
    >>> _ = page.write_text("<!-- skxor-headline:start -->\\n<!-- skxor-headline:end -->\\n")
    >>> write_headline(folder, [page])
    >>> "erf (steps of 10) 0/1" in page.read_text()
    True
    """
    for path in map(Path, paths):
        fmt = "rst" if path.suffix == ".rst" else "md"
        block = render_headline(folder, fmt)
        if fmt == "rst":
            block = "\n" + block + "\n"
        path.write_text(replace_block(path.read_text(), block, fmt))

