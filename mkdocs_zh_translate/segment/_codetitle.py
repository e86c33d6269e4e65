"""The title of a code block: ``` ```yaml title="in mkdocs.yml (global configuration)" ```.

pymdownx.superfences shows a fence's ``title`` option above the code (Pygments' ``filename``,
HTML-escaped plain text, outside the ``<pre>``). When it is words it is prose people read;
when it is one word (``mkdocs.yml``, ``src/app.py``, ``package``) or holds template or code
characters (``{{ name }}.py.jinja``) it names a file and stays as written. The fence line is
read the way superfences reads it (``RE_NESTED_FENCE_START``: an optional language, then
``key`` or ``key="value"`` options, a value ending at the first matching quote followed by a
space or the line's end); a line it would not accept, or a title shown as HTML
(``title_mode="html"``), is left alone. The value must not gain its quote.
"""

from __future__ import annotations

import re

from ._placeholders import has_words

_LANG_RE = re.compile(r"[ \t]*\.?[\w#.+-]+(?=[ \t]|$)")
_KEY_RE = re.compile(r"[ \t]*([a-zA-Z][a-zA-Z0-9_]*)")
# A title with template or code characters names a generated file (`{{ name }}.py.jinja`,
# `<project>/setup.py`): kept as written.
_CODE_CHARS = frozenset("{}<>`$%|\\")


def fence_options(rest: str) -> dict[str, tuple[int, int, str]] | None:
    """``key -> (value start, value end, quote)`` of the options after a fence's backticks
    (offsets into ``rest``; a bare key has an empty span), or None when superfences would not
    read the line as options."""
    m = _LANG_RE.match(rest)
    pos = m.end() if m else 0
    options: dict[str, tuple[int, int, str]] = {}
    while (k := _KEY_RE.match(rest, pos)) is not None:
        pos = k.end()
        span = (pos, pos, "")
        if rest.startswith(('="', "='"), pos):
            quote = rest[pos + 1]
            at = pos + 2
            while (at := rest.find(quote, at)) >= 0 and at + 1 < len(rest) and rest[at + 1] not in " \t":
                at += 1
            if at < 0:
                return None
            span = (pos + 2, at, quote)
            pos = at + 1
        if pos < len(rest) and rest[pos] not in " \t":
            return None
        options[k.group(1)] = span
    return options if not rest[pos:].strip() else None


def code_title(line: str, fence: str) -> tuple[int, int, str] | None:
    """``(start, end, quote)`` in ``line`` of a code block title worth translating, or None."""
    at = line.find(fence)
    if at < 0:
        return None
    base = at + len(fence)
    options = fence_options(line[base:])
    if not options or "title" not in options:
        return None
    mode = options.get("title_mode")
    if mode is not None and line[base + mode[0] : base + mode[1]] != "text":
        return None
    start, end, quote = options["title"]
    value = line[base + start : base + end].strip()
    if not quote or len(value.split()) < 2 or not has_words(value) or _CODE_CHARS & set(value):
        return None
    lead = len(line[base + start : base + end]) - len(line[base + start : base + end].lstrip())
    return base + start + lead, base + start + lead + len(value), quote
