"""pymdownx.fancylists' list markers, spelled as digits for CommonMark's list rule.

With fancylists, ``a.``, ``B)``, ``iv.``, ``XII)`` and ``#.`` start ordered list items, as
``1.`` does. markdown-it's list rule knows digits only; rather than a second list rule, the
parser reads a copy of the page where each such marker is a run of ``1`` of the same length
(``b.`` -> ``1.``, ``iv)`` -> ``11)``). Offsets are unchanged, so segments still come from the
page as written: the marker is outside every segment either way.

The markers follow fancylists' own pattern (``pymdownx/fancylists.py``): a lowercase letter;
an uppercase letter only before ``)`` or ``.`` and two spaces (``A. Smith`` is a name, not an
item); a roman numeral of two or more letters, or one before ``)``/``.  ``; ``#`` (generic).
"""

from __future__ import annotations

import re

# fancylists lets a numeral repeat a letter up to ten times (``VIIIII.`` restarts a list at 10).
_ROMAN_LOWER = r"m{0,9}(?:c[md]|d?c{0,10})(?:x[cl]|l?x{0,10})(?:i[xv]|v?i{0,10})"
_ROMAN_UPPER = _ROMAN_LOWER.upper()
# Line start (blockquote markers and indentation, one character class: a line that has no
# marker gives its prefix back once, character by character), the marker, its delimiter and a
# space. The numeral's repetitions are bounded: linear.
_MARKER_RE = re.compile(
    r"^([ \t>]*)"
    r"(#|[a-z]|[A-Z](?=\)|\.  )|(?=[ivxlcdm]{2})" + _ROMAN_LOWER + r"|(?=[IVXLCDM]{2})" + _ROMAN_UPPER + r")"
    r"(?=[.)] )",
    re.MULTILINE,
)


# A marker right after another one on the same line (``a) a) item``: a list nested in the first
# item), after the first marker's delimiter and spaces.
_NESTED_RE = re.compile(
    r"[.)] +"
    r"(#|[a-z]|[A-Z](?=\)|\.  )|(?=[ivxlcdm]{2})" + _ROMAN_LOWER + r"|(?=[IVXLCDM]{2})" + _ROMAN_UPPER + r"|[0-9]{1,9})"
    r"(?=[.)] )"
)


def markers_as_digits(text: str) -> str:
    """``text`` with every fancylists marker at a line start replaced by ``1``s of its length,
    and so are the markers of lists nested on the same line (``a) a) item``)."""
    out: list[str] = []
    pos = 0
    for m in _MARKER_RE.finditer(text):
        out.append(text[pos : m.start(2)])
        out.append("1" * len(m.group(2)))
        pos = m.end(2)
        while (nested := _NESTED_RE.match(text, pos)) is not None:
            out.append(text[pos : nested.start(1)])
            out.append("1" * len(nested.group(1)))
            pos = nested.end(1)
    out.append(text[pos:])
    return "".join(out)
