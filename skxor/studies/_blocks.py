"""Generated blocks between two marker lines of a text file (README, docs pages).

The one place that names, reads and rewrites such a block, so that ``skxor
headline`` and ``skxor publish`` edit their files the same way: the block
``name`` of a Markdown file lies between ``<!-- skxor-NAME:start -->`` and
``<!-- skxor-NAME:end -->``, of a reStructuredText file between
``.. skxor-NAME:start`` and ``.. skxor-NAME:end``.
"""

import re


def replace_between(text, start, end, block):
    """``text`` with the lines between the marker lines ``start`` and ``end`` replaced by ``block``.

    Raises ValueError when the markers are not in ``text``.

    Examples
    --------
    >>> from skxor.studies._blocks import replace_between
    >>> replace_between("a\\n<s>\\nold\\n<e>\\nb", "<s>", "<e>", "new")
    'a\\n<s>\\nnew\\n<e>\\nb'
    """
    pattern = re.compile(re.escape(start) + r"\n(?:.*?\n)?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"the markers {start!r} and {end!r} were not found.")
    return pattern.sub(lambda _: f"{start}\n{block}\n{end}", text)


#: The file formats whose blocks this module knows.
FORMATS = ("md", "rst")


def markers(name, fmt):
    """The start and end lines of the generated block ``name`` in a ``fmt`` file.

    Examples
    --------
    >>> from skxor.studies._blocks import markers
    >>> markers("claims", "md")
    ('<!-- skxor-claims:start -->', '<!-- skxor-claims:end -->')
    >>> markers("headline", "rst")
    ('.. skxor-headline:start', '.. skxor-headline:end')
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {list(FORMATS)}; got {fmt!r}.")
    if fmt == "md":
        return f"<!-- skxor-{name}:start -->", f"<!-- skxor-{name}:end -->"
    return f".. skxor-{name}:start", f".. skxor-{name}:end"


def replace_named_block(text, name, block, fmt):
    """``text`` with the lines between the markers of block ``name`` replaced by ``block``.

    Examples
    --------
    >>> from skxor.studies._blocks import replace_named_block
    >>> text = "a\\n<!-- skxor-x:start -->\\nold\\n<!-- skxor-x:end -->\\nb\\n"
    >>> replace_named_block(text, "x", "new", "md")
    'a\\n<!-- skxor-x:start -->\\nnew\\n<!-- skxor-x:end -->\\nb\\n'
    """
    return replace_between(text, *markers(name, fmt), block)


def read_named_block(text, name, fmt):
    """The lines between the markers of block ``name`` in ``text`` (None when absent).

    Examples
    --------
    >>> from skxor.studies._blocks import read_named_block
    >>> read_named_block("<!-- skxor-x:start -->\\nold\\n<!-- skxor-x:end -->", "x", "md")
    'old'
    """
    start, end = markers(name, fmt)
    match = re.search(re.escape(start) + r"\n(?:(.*?)\n)?" + re.escape(end), text, re.S)
    return (match.group(1) or "") if match else None

