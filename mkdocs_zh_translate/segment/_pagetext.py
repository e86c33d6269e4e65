"""The page text the segmenter reads: as given, newline-normalised, and as the parser sees it.

Segments carry offsets into the page as given (CRLF and all); markdown-it reads the normalised
text. :class:`PageText` maps one to the other and numbers lines.
"""

from __future__ import annotations

import bisect

from ._fancylists import markers_as_digits
from ._locate import Lines


class PageText:
    """The page in both spellings: as given, and newline-normalised as markdown-it sees it.

    ``parsed`` is what the parser reads: ``norm``, with fancy list markers (``b.``, ``iv)``)
    spelled as digits of the same length where the site has pymdownx.fancylists, so that
    CommonMark's list rule finds those items; offsets are the same in both.
    """

    def __init__(self, text: str, *, fancy_lists: bool = False) -> None:
        self.text = text
        norm = text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")
        self.norm = norm
        self._to_orig: list[int] | None = None
        if len(norm) != len(text):
            mapping: list[int] = []
            i = 0
            while i < len(text):
                mapping.append(i)
                i += 2 if text.startswith("\r\n", i) else 1
            mapping.append(len(text))
            self._to_orig = mapping
        self.parsed = markers_as_digits(norm) if fancy_lists else norm
        self.lines = Lines(self.parsed)
        self.newline = "\r\n" if "\r\n" in text else "\n"

    def orig(self, offset: int) -> int:
        return offset if self._to_orig is None else self._to_orig[offset]

    def line_number(self, orig_offset: int) -> int:
        norm_offset = orig_offset if self._to_orig is None else bisect.bisect_left(self._to_orig, orig_offset)
        return self.lines.line_of(norm_offset) + 1


def continuation(text: str, start: int, newline: str) -> str:
    """Line break for a new line inside the block that starts at ``start``: the page's newline,
    then the line's prefix with ``>`` kept and everything else (list markers) as spaces."""
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    return newline + "".join(ch if ch in "> \t" else " " for ch in prefix)
