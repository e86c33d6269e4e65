"""Which lines pymdownx.superfences pairs into fenced code blocks (with its default settings).

SuperFences is a preprocessor: it reads the page line by line before any block parsing, so
its pairing differs from CommonMark's in ways that move whole paragraphs in or out of ``<pre>``:

- an opening line must have a header it accepts: a language, then nothing, an attribute list
  in braces, or ``key="value"`` options that pymdownx.highlight knows (``hl_lines``,
  ``linenums``, ``title``, ``title_mode``). Anything else (```` ```from typing import X ````)
  and the line is plain text; the fence line after it then opens a block instead of closing one;
- the closing line is the same run (same character, same length) at the opener's indentation;
- a content line indented less than the opener (or leaving its blockquote) abandons the block:
  its opening line is text again;
- a block nothing closes is text.

``superfence_pairs`` replays that scan (linear, one pass) and answers opening line -> closing
line; a fence-looking line missing from it is text to Python-Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._codetitle import brace_form, fence_options

_PREFIX = " \t>"
_RUN_RE = re.compile(r"`{3,}|~{3,}")
_HL_LINES_RE = re.compile(r"\d+(?:-\d+)?(?:[ \t]+\d+(?:-\d+)?)*")
# The options pymdownx.highlight's validator takes without a brace attribute list (each needs a
# value); any other key makes SuperFences refuse the header.
_OPTIONS = ("hl_lines", "linenums", "title", "title_mode")


def _option_ok(key: str, value: str | None) -> bool:
    if key not in _OPTIONS or value is None:
        return False
    if key == "hl_lines":
        return _HL_LINES_RE.fullmatch(value) is not None
    return key != "linenums" or value[:1].isdigit()


def header_ok(header: str) -> bool:
    """Does SuperFences open a block with ``header`` (what follows the backtick/tilde run)?
    A language alone, an attribute list in braces, or options highlight validates."""
    if brace_form(header):
        return True
    options = fence_options(header)
    if options is None:
        return False
    return all(_option_ok(key, header[s:e] if quote else None) for key, (s, e, quote) in options.items())


def _split_prefix(line: str) -> tuple[str, str]:
    """The line's leading spaces, tabs and ``>`` (tabs expanded to 4), and the rest."""
    n = len(line) - len(line.lstrip(_PREFIX))
    return line[:n].expandtabs(4), line[n:]


def _cut(line: str, width: int) -> tuple[str, str]:
    """Up to ``width`` columns of prefix characters from the line, and what follows them."""
    taken: list[str] = []
    column = 0
    index = 0
    for ch in line:
        if column >= width or ch not in _PREFIX:
            break
        size = 4 - column % 4 if ch == "\t" else 1
        taken.append(" " * size if ch == "\t" else ch)
        column += size
        index += 1
    return "".join(taken), line[index:]


def superfence_pairs(lines: Sequence[str]) -> dict[int, int]:
    """Opening line -> closing line of every block SuperFences makes of ``lines``."""
    pairs: dict[int, int] = {}
    opener = -1
    fence = ""
    width = 0  # the opener's prefix, in columns
    prefix_chars = 0  # ... in characters (blockquote lines compare against this)
    quotes = 0
    blank_run = 0
    for number, line in enumerate(lines):
        if opener < 0:
            prefix, rest = _split_prefix(line)
            m = _RUN_RE.match(rest)
            if m and header_ok(rest[m.end() :]):
                opener, fence = number, m.group(0)
                width = len(prefix)
                prefix_chars = len(line) - len(rest)
                quotes = prefix.count(">")
                blank_run = 0
            continue
        ws, content = _cut(line, width)
        level = ws.count(">")
        closes = content.startswith(fence) and not content[len(fence) :].strip(" \t")
        if quotes:
            if level > quotes:
                opener = -1
            elif content == "":
                blank_run += 1
            elif len(ws) < prefix_chars or (blank_run and level < quotes):
                opener = -1
            elif closes:
                pairs[opener] = number
                opener = -1
            else:
                blank_run = 0
        elif level:
            opener = -1
        elif not (ws + content).strip():
            blank_run += 1
        elif len(ws) != width and content:
            opener = -1
        elif closes and not content.startswith((" ", "\t")):
            pairs[opener] = number
            opener = -1
        else:
            blank_run = 0
    return pairs
