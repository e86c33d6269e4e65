"""Which HTML tags open a raw HTML block: data, shared by the segmenter and the page guard.

Python-Markdown reads a line at the margin that opens one of its block-level tags as raw HTML
up to the matching closing tag; any other tag at the margin (an inline ``<span>``, an autolink
``<https://…>``) is Markdown. The segmenter must read those blocks as Python-Markdown does (its
HTML block rule), and the page guard must not cut a page for its regions inside one: one list,
so the two cannot disagree about where raw HTML runs.
"""

from __future__ import annotations

# Python-Markdown's block-level tags (markdown.util.BLOCK_LEVEL_ELEMENTS, as md.block_level_elements).
HTML_BLOCK_TAGS = frozenset(
    "address article aside blockquote body canvas center colgroup dd details dialog dir div dl dt "
    "embed fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr "
    "html iframe legend li main map menu nav noscript object ol output p pre progress section "
    "summary table tbody td tfoot th thead tr ul video audio math script style".split()
)
# Block-level tags that are void in HTML: no closing tag ever comes, the block is its one line.
HTML_VOID_BLOCK_TAGS = frozenset({"hr"})
