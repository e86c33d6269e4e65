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
line; a fence-looking line missing from it is text to Python-Markdown. One exception: options
the default validator refuses but a site extension takes (``exec="on"``, ``config-example``)
open a block here, see ``_extension_header``.
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


_LANG_RE = re.compile(r"[ \t]*\.?[\w#.+-]+(?=[ \t]|$)")  # as ``_codetitle`` reads a fence's language
# One word after the language: a name (hyphens allowed) with an optional quoted value.
_WORD_RE = re.compile(r"""[ \t]+([a-zA-Z][\w-]*)(?:="[^"]*"|='[^']*')?(?=[ \t]|$)""")


def _option_ok(key: str, value: str | None) -> bool:
    if key not in _OPTIONS or value is None:
        return False
    if key == "hl_lines":
        return _HL_LINES_RE.fullmatch(value) is not None
    return key != "linenums" or value[:1].isdigit()


def header_ok(header: str) -> bool:
    """Does the site open a code block with ``header`` (what follows the backtick/tilde run)?
    A language alone, an attribute list in braces, or options highlight validates; or options
    of the site's own (see :func:`_extension_header`)."""
    if brace_form(header):
        return True
    options = fence_options(header)
    if options is None:
        return _extension_header(header)
    return all(
        _option_ok(key, header[s:e] if quote else None) if key in _OPTIONS else True
        for key, (s, e, quote) in options.items()
    )


def _extension_header(header: str) -> bool:
    """A language, then words or ``key="value"`` options highlight does not know: SuperFences'
    default validator refuses them, yet a site writes them for an extension that takes them: a
    custom fence's validator (markdown-exec's ``exec="on"``) or a preprocessor running before
    SuperFences (hatch's ```` ```toml config-example ```` becomes tabs of code). Read as code:
    code content is never prose, and later fences keep their pairs. A header with code
    punctuation (```` ```from typing import A, B ````, a code line typed on the fence line) or a
    highlight option with a bad value stays refused."""
    m = _LANG_RE.match(header)
    pos = m.end() if m else 0
    words = 0
    while (w := _WORD_RE.match(header, pos)) is not None and w.end() > pos:
        if w.group(1) in _OPTIONS:
            return False  # highlight's own option: SuperFences validates it, nothing else does
        pos = w.end()
        words += 1
    return words > 0 and not header[pos:].strip(" \t")


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
