"""Where the words of an image's attributes are: a Markdown image's title, a raw ``<img>``'s alt.

A Markdown image's alt is translated like a link label; a raw-HTML ``<img alt="…">`` (common
in READMEs turned into index pages: logos, badges, diagrams in ``<p align="center">``) kept its
English alt, which screen readers and a broken image show. Its value is translated as plain
text and written back escaped for the attribute (``&``, ``<``, quotes), so nothing a model
writes can end the attribute or the tag.
"""

from __future__ import annotations

import re

from ._html import code_free_tags

# One attribute of a start tag: a name, then optionally `=` and a quoted or bare value. Each
# repetition is one attribute: a linear scan of the tag, never backtracking into a value.
_ATTRIBUTE_RE = re.compile(r"""\s+([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|[^\s"'=<>`]+))?""")
_IMG_RE = re.compile(r"<img(?=[\s/>])", re.IGNORECASE)
# What an alt's source may not hold to be translated: an entity or markup (its unescaped text
# would not be the value), template braces.
_ALT_SOURCE_UNSAFE = frozenset("&<>{}\n")


def image_title(raw: str) -> tuple[int, int, str] | None:
    """``(start, end, quote)`` in an image's ``](src "Title")`` of its quoted title, or None."""
    body = raw.rstrip()
    if not body.endswith(")"):
        return None
    body = body[:-1].rstrip()
    quote = body[-1:]
    if quote not in ("'", '"') or len(body) < 2:
        return None
    opening = body.rfind(quote, 0, len(body) - 1)
    if opening < 1 or body[opening - 1] not in " \t\n":
        return None
    return opening + 1, len(body) - 1, quote


def img_alt(tag: str) -> tuple[int, int] | None:
    """``(start, end)`` in ``tag`` (the text of one start tag) of an ``<img>``'s quoted alt
    value, when it is plain text; else None."""
    m = _IMG_RE.match(tag)
    if m is None:
        return None
    pos = m.end()
    while (attr := _ATTRIBUTE_RE.match(tag, pos)) is not None:
        pos = attr.end()
        if attr.group(1).lower() != "alt":
            continue
        group = 2 if attr.group(2) is not None else 3 if attr.group(3) is not None else 0
        if not group or _ALT_SOURCE_UNSAFE & set(attr.group(group)):
            return None
        return attr.start(group), attr.end(group)
    return None


def html_alts(content: str) -> list[tuple[int, int]]:
    """``(start, end)`` in a raw HTML block's ``content`` of every ``<img>`` alt to translate
    (none inside ``<pre>``, ``<code>``, scripts or what reads as code)."""
    out = []
    for start, tag in code_free_tags(content):
        found = img_alt(tag)
        if found is not None:
            out.append((start + found[0], start + found[1]))
    return out
