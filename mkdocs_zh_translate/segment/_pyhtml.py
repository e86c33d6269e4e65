"""Inline HTML the way Python-Markdown reads it, where CommonMark reads text.

Python-Markdown's ``HTML_RE`` takes ``<`` + a letter + anything up to ``>`` (no ``<``, ``@`` or
space before the first space) as raw HTML: ``<HATCH_RUFF_VERSION>`` (a marker a site's own
preprocessor replaces), ``<b and c>``. CommonMark's stricter tag grammar leaves them as text,
so a translation could touch them or put marks around a marker that becomes a list. This rule
runs after markdown-it's ``html_inline`` and ``autolink`` and keeps what they left as an atom.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

# markdown/inlinepatterns.py HTML_RE, the tag half: `<(\/?[a-zA-Z][^<>@ ]*( [^<>]*)?)>`
_HTML_RE = re.compile(r"</?[a-zA-Z][^<>@ \n]*(?: [^<>]*)?>")


def python_markdown_html(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "<":
        return False
    m = _HTML_RE.match(state.src, state.pos, state.posMax)
    if not m:
        return False
    if not silent:
        token = state.push("zh_atom", "", 0)
        token.info = "html"
        token.content = m.group(0)
        token.meta["pos"] = (state.pos, m.end())
    state.pos = m.end()
    return True


def install(md: MarkdownIt) -> None:
    md.inline.ruler.after("html_inline", "zh_pyhtml", python_markdown_html)
