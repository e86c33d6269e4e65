"""Heading ids as MkDocs would give the English page, so translated pages keep every anchor.

MkDocs' default ``toc`` extension derives an id from the heading's rendered text
(``slugify``: ASCII-fold, drop punctuation, lower-case, join words with ``-``) and makes it
unique within the page with ``_1``, ``_2``, ... suffixes. A translated heading would get a new
id (``# 安装`` becomes ``_1``), breaking every ``#anchor`` link; pinning the English id keeps them.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Container, Iterable, MutableSet, Sequence

from markdown_it.token import Token

_COUNTED_RE = re.compile(r"^(.*)_([0-9]+)$")
_ID_IN_ATTR_RE = re.compile(r"(?:^|[\s{:])#([^\s}]+)")
# Rendered text of each inline token type as the toc extension sees it (tags stripped).
_TEXT_TYPES = {"text", "text_special", "code_inline", "math_inline", "math_inline_double"}


def slugify(value: str, separator: str = "-") -> str:
    """Python-Markdown's default ``toc`` slug of ``value`` (ASCII only)."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    cleaned = re.sub(r"[^\w\s-]", "", folded).strip().lower()
    return re.sub(rf"[{re.escape(separator)}\s]+", separator, cleaned)


def unique(candidate: str, used: MutableSet[str]) -> str:
    """The first of ``candidate``, ``candidate_1``, ``candidate_2``... not yet in ``used``."""
    while candidate in used or not candidate:
        m = _COUNTED_RE.match(candidate)
        candidate = f"{m.group(1)}_{int(m.group(2)) + 1}" if m else f"{candidate}_1"
    used.add(candidate)
    return candidate


def heading_text(children: Iterable[Token], emoji: Container[str] | None = None) -> str:
    """The heading's visible text, roughly what ``toc`` reads from the rendered element.

    ``emoji``: the shortcodes the site's emoji extension replaces (an image or icon: no text for
    the id); any other shortcode is text. ``None``: every shortcode is replaced."""
    parts: list[str] = []
    for tok in children:
        if tok.type in _TEXT_TYPES:
            parts.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif tok.type == "zh_atom" and _atom_is_text(tok, emoji):
            parts.append(tok.content)
    return " ".join(html.unescape("".join(parts)).split())


def _atom_is_text(tok: Token, emoji: Container[str] | None) -> bool:
    """Math and Jinja atoms are the heading's text; a shortcode is where no emoji replaces it."""
    if tok.info == "emoji":
        return emoji is not None and tok.content not in emoji
    return tok.info in ("math", "jinja")


# Inline tokens that stay text of the heading element itself; every other token becomes a child
# element (code, emphasis, a link, an emoji's image), and attr_list reads a heading's ``{...}``
# from the text after its last child only: braces inside a code span are code.
_TAIL_TOKENS = frozenset({"text", "text_special", "softbreak", "html_inline"})
_TAIL_ATOMS = frozenset({"jinja", "attr", "html"})


def heading_tail(children: Sequence[Token]) -> Sequence[Token]:
    """The tokens after the heading's last child element: where attr_list looks for ``{...}``."""
    for index in range(len(children) - 1, -1, -1):
        tok = children[index]
        if tok.type not in _TAIL_TOKENS and not (tok.type == "zh_atom" and tok.info in _TAIL_ATOMS):
            return children[index + 1 :]
    return children


def heading_attr_start(text: str) -> int | None:
    """Where a heading's trailing attr_list starts (its ``{``), the way attr_list reads it.

    Python-Markdown's ``HEADER_RE`` is ``[ ]+\\{\\:?[ ]*([^\\}\\n ][^\\n]*)\\}[ ]*$``: any words
    count (``{: android}``, ``{: #x cmd-line}``), not only ``#id``/``.cls``/``k=v``. Found
    without a backtracking regex: the leftmost `` {`` whose group is not empty, closed by the
    ``}`` that ends the line.
    """
    body = text.rstrip(" ")
    if not body.endswith("}") or "\n" in body:
        return None
    last = len(body) - 1
    pos = body.find(" {")
    while 0 <= pos < last:
        brace = pos + 1
        inner = brace + 1
        if body.startswith(":", inner):
            inner += 1
        while inner < last and body[inner] == " ":
            inner += 1
        if inner < last and body[inner] != "}":
            return brace
        pos = body.find(" {", brace)
    return None


def attr_id(attr: str) -> str | None:
    """The ``#id`` of an attr_list like ``{: #id .cls }``, if it sets one."""
    m = _ID_IN_ATTR_RE.search(attr)
    return m.group(1) if m else None
