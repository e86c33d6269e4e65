"""Find where an inline token's ``content`` sits in the page, character by character.

markdown-it builds ``content`` by cutting container prefixes (``> ``, list indentation),
trimming, and for table cells unescaping ``\\|``. We rebuild the mapping from the line range in
``Token.map`` and check every character; a block whose content cannot be matched exactly (tabs
expanded to spaces, say) is simply not segmented, which keeps the page intact.
"""

from __future__ import annotations

import bisect
import re

from markdown_it.token import Token

_ATX_OPEN_RE = re.compile(r"#{1,6}")


class Lines:
    """Line starts and ends of a newline-normalised page."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())
        self.ends = [s - 1 for s in self.starts[1:]] + [len(text)]

    def line(self, index: int) -> str:
        return self.text[self.starts[index] : self.ends[index]]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1


def lines_map(lines: Lines, first: int, content: str) -> list[int] | None:
    out: list[int] = []
    parts = content.split("\n")
    for j, part in enumerate(parts):
        index = first + j
        if index >= len(lines.starts):
            return None
        text = lines.line(index)
        col = len(text) - len(part)
        if not text.endswith(part):
            stripped = text.rstrip()
            col = len(stripped) - len(part)
            if j != len(parts) - 1 or not stripped.endswith(part):
                return None
        base = lines.starts[index] + col
        out.extend(range(base, base + len(part)))
        out.append(base + len(part))  # the "\n" after this line (or the end sentinel)
    return out


def _find_map(lines: Lines, index: int, content: str, start_col: int) -> tuple[list[int], int] | None:
    text = lines.line(index)
    col = text.find(content, start_col)
    if col < 0:
        return None
    base = lines.starts[index] + col
    return list(range(base, base + len(content) + 1)), col + len(content)


def _cell_map(text: str, base: int, content: str) -> list[int] | None:
    """Table cells: the content starts at ``base`` (the table rule recorded it) and spells
    ``\\|`` as ``|``; walk both, so a ``|`` maps to its backslash and ``\\|`` stays whole."""
    out: list[int] = []
    pos = base
    for ch in content:
        out.append(pos)
        if text.startswith(ch, pos):
            pos += 1
        elif ch == "|" and text.startswith("\\|", pos):
            pos += 2
        else:
            return None
    out.append(pos)
    return out


class Locator:
    """Maps inline tokens of one page to page offsets."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines

    def locate(self, tok: Token, how: str) -> list[int] | None:
        """Page offset of each character of ``tok.content`` plus an end sentinel, or None."""
        content = tok.content
        if not content or (tok.map is None and how != "explicit"):
            return None
        result: list[int] | None
        first = tok.map[0] if tok.map else 0  # None only for "explicit", which does not use it
        if how == "explicit":
            base = tok.meta["zh_offset"]
            result = list(range(base, base + len(content) + 1))
        elif tok.map is None:  # explicit is the only kind located without a map
            return None
        elif how == "atx":
            index = first
            m = _ATX_OPEN_RE.search(self.lines.line(index))
            found = _find_map(self.lines, index, content, m.end() if m else 0)
            result = found[0] if found else None
        elif how == "cell":
            if "zh_cell" not in tok.meta:
                return None
            result = _cell_map(self.lines.text, tok.meta["zh_cell"], content)
        else:
            result = lines_map(self.lines, first, content)
        if result is None or not self.verify(content, result, how):
            return None
        return result

    def verify(self, content: str, cmap: list[int], how: str) -> bool:
        text = self.lines.text
        if len(cmap) != len(content) + 1 or cmap[-1] > len(text):
            return False
        n, first = len(content), cmap[0]
        if cmap[:n] == list(range(first, first + n)) and text[first : first + n] == content:
            return True  # one contiguous run, equal as a whole (the loop below, at C speed)
        for ch, pos in zip(content, cmap):
            if ch == "|" and how == "cell" and text[pos : pos + 2] == "\\|":
                continue
            if ch == "\n":
                if pos >= len(text) or text[pos] != "\n":
                    return False
            elif pos >= len(text) or text[pos] != ch:
                return False
        return True
