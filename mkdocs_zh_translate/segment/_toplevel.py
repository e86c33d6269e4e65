"""Where the page's top-level blocks start, as the segmenter's parse reads them.

The page guard cuts a page into regions between top-level blocks (a region is rendered on its
own). Reading the blocks off the segmenter's own parse keeps one reading of the page: a fence
superfences does not close, a pymdownx block, a raw HTML block up to its closing tag, a loose
list, an HTML comment with blank lines in it — wherever the segmenter sees one block, no region
boundary falls inside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it.token import Token

from ._pagetext import PageText


def block_starts(tokens: Sequence[Token], page: PageText) -> tuple[int, ...]:
    """Offsets into the page as given (CRLF and all) of the line each top-level block starts
    on, in page order. A block is top-level when no container holds it: a list, a quote, an
    admonition or a pymdownx block (their tokens nest), or a raw HTML block whose inside is
    Markdown (md_in_html: its blocks are parsed at the page's level, ``zh_inside`` says how far
    it reaches). Reference definitions make no token: they belong to the block after them."""
    out: list[int] = []
    inside = 0  # lines before this one belong to an md_in_html block
    for tok in tokens:
        if tok.level != 0 or tok.nesting < 0 or tok.map is None:
            continue
        first = tok.map[0]
        if first >= inside:
            out.append(page.orig(page.lines.starts[first]))
        inside = max(inside, int(tok.meta.get("zh_inside", 0)))
    return tuple(sorted(set(out)))
