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


# The attribute form superfences also reads (``RE_NESTED_FENCE_START``'s ``attrs``): an optional
# language, then everything from a `{` to the line's last `}` (```` ```{.py title="Usage"} ````).
_BRACES_RE = re.compile(r"(?:[ \t]*\.?[\w#.+-]+(?=[ \t{]))?[ \t]*\{([^\n]*)\}[ \t]*$")
# Python-Markdown's attr_list scanner (``get_attrs``), which superfences hands the braces to, as
# one pattern with its alternatives in the scanner's order: the first that matches is taken.
_ATTR_TOKEN_RE = re.compile(r"""([^ =}]+)="(.*?)"|([^ =}]+)='(.*?)'|[^ =}]+=[^ =}]+|[^ =}]+| """)


def brace_form(rest: str) -> bool:
    """Is ``rest`` (what follows a fence's backticks) the ``{...}`` form?"""
    return _BRACES_RE.match(rest) is not None


def brace_options(rest: str) -> dict[str, tuple[int, int, str]] | None:
    """Like :func:`fence_options` for the ``{...}`` form, or None when the line is not one.

    Tabs are left alone (superfences expands them first; such a line is rare and stays English).
    """
    m = _BRACES_RE.match(rest)
    if m is None or "\t" in m.group(1):
        return None
    options: dict[str, tuple[int, int, str]] = {}
    pos, end = m.start(1), m.end(1)
    while pos < end and (t := _ATTR_TOKEN_RE.match(rest, pos, end)) is not None and t.end() > pos:
        if t.group(1) is not None:
            options[t.group(1)] = (t.start(2), t.end(2), '"')
        elif t.group(3) is not None:
            options[t.group(3)] = (t.start(4), t.end(4), "'")
        pos = t.end()
    return options


def code_title(line: str, fence: str) -> tuple[int, int, str] | None:
    """``(start, end, quote)`` in ``line`` of a code block title worth translating, or None."""
    at = line.find(fence)
    if at < 0:
        return None
    base = at + len(fence)
    options = fence_options(line[base:])
    if options is None:
        options = brace_options(line[base:])
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
