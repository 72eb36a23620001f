"""Generated blocks between two marker lines of a text file (README, docs pages).

The one place that rewrites such a block, so that the headline and the
published claims edit their files the same way.
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
