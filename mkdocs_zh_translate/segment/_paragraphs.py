"""A paragraph ends where SuperFences opens a fence, however far the fence is indented.

SuperFences is a preprocessor: it takes a fenced block out of the page before Python-Markdown
reads any block, whatever the fence's indentation, so a fence indented four columns or more
past the paragraph text it follows (``1) Step:`` then an eight-space fence, common in lists
written with ``1)``, ``a.`` or roman markers) is code inside that paragraph. CommonMark reads
those lines as the paragraph's lazy continuation: the fence was prose, translated, and the
code lost. Here the paragraph stops at such a fence line, and the fence is read as a fence.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from ._blocks import superfence, superfence_openers

BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _indented_fence(state: StateBlock, line: int, end_line: int) -> bool:
    """Does SuperFences open a block on ``line``, four columns or more past the paragraph?
    (Remembered per parse: many paragraphs before one far fence ask about the same line.)"""
    if state.sCount[line] - state.blkIndent < 4:
        return False
    memo: dict[tuple[int, int], bool] = state.env.setdefault("zh_indented_fences", {})
    key = (line, end_line)
    if key not in memo:
        old = state.blkIndent
        state.blkIndent = state.sCount[line]  # read as a fence at its own indentation
        try:
            memo[key] = superfence(state, line, end_line, True)
        finally:
            state.blkIndent = old
    return memo[key]


def _paragraph_before_fences(paragraph: BlockRule) -> BlockRule:
    """The paragraph rule, stopped at the first SuperFences opener after its first line when
    that opener is indented as code (a less indented one ends the paragraph on its own)."""

    def rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        openers = superfence_openers(state)
        at = bisect.bisect_right(openers, start_line)
        line_max = state.lineMax
        fence = openers[at] if at < len(openers) and openers[at] < line_max else -1
        if fence < 0 or not _indented_fence(state, fence, line_max):
            return paragraph(state, start_line, end_line, silent)
        state.lineMax = fence
        try:
            found = paragraph(state, start_line, end_line, silent)
        finally:
            state.lineMax = line_max
        if found and not silent and state.line == fence:
            old = state.blkIndent
            state.blkIndent = state.sCount[fence]
            try:
                superfence(state, fence, line_max, False)
            finally:
                state.blkIndent = old
        return found

    return rule


def install(md: MarkdownIt) -> None:
    paragraph = next(r.fn for r in md.block.ruler.__rules__ if r.name == "paragraph")
    md.block.ruler.at("paragraph", _paragraph_before_fences(paragraph))
