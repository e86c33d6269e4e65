"""Pipe tables the way Python-Markdown's ``tables`` extension reads them.

markdown-it's GFM table rule disagrees with ``TableProcessor`` (markdown/extensions/tables.py)
in two ways that cost whole tables their translation: its delimiter row wants ``:?-+:?`` per
cell, where Python-Markdown takes any mix of ``-``, ``:`` and spaces (``:----- ----:``), so the
table was read as one paragraph that the page guard then kept English; and it splits a row at
every unescaped ``|``, where Python-Markdown leaves a ``|`` inside a code span alone
(``| `str | list[str]` |``), so that row's cells were cut in the wrong places and located
nowhere. This rule takes a table where Python-Markdown does and cuts its cells where
Python-Markdown does; the tokens it pushes are the ones markdown-it's rule pushes, and each
cell's ``inline`` token records where its content starts in the page (``meta["zh_cell"]``), so
the segmenter locates it without searching the row.

Which lines belong to the table is still markdown-it's answer (a blank line, a line indented
less, or a line another block starts with ends it), and a cell's content spells ``\\|`` as
``|``, as markdown-it's does: cells that both parsers read alike give the same segments.
"""

from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import MD_TRIM_CHARS
from markdown_it.rules_block import StateBlock

# TableProcessor.RE_CODE_PIPES: an escaped backslash, escaped backticks, a backtick run, an
# escaped pipe, a pipe. One alternation, no nested repetition: linear.
_CODE_PIPES_RE = re.compile(r"(\\\\)|(\\`+)|(`+)|(\\\|)|(\|)")
_DELIMITER_CHARS = frozenset("|:- ")
# Cells markdown-it would invent for short rows (its MAX_AUTOCOMPLETED_CELLS): a wide header
# over many one-cell rows would otherwise make tokens quadratic in the page's length.
_MAX_FILLED_CELLS = 0x10000


def _good_pipes(row: str) -> list[int]:
    """Offsets of the ``|`` that split ``row`` into cells: not escaped, not in a code span.

    Backtick runs pair as ``TableProcessor._split`` pairs them: a run (less one backtick when it
    is escaped) with the next run of that stored length; a pipe between a pair's ends is code.
    The next run of a length is found by bisection in the runs of that length, so a row of many
    unpaired runs stays fast (Python-Markdown rescans the rest of the row for each)."""
    tics: list[tuple[int, int, int, int]] = []  # (stored length, start, last offset, escaped)
    pipes: list[int] = []
    for m in _CODE_PIPES_RE.finditer(row):
        if m.group(2):
            tics.append((len(m.group(2)) - 1, m.start(2), m.end(2) - 1, 1))
        elif m.group(3):
            tics.append((len(m.group(3)), m.start(3), m.end(3) - 1, 0))
        elif m.group(5):
            pipes.append(m.start(5))
    by_length: dict[int, list[int]] = {}
    for index, tic in enumerate(tics):
        by_length.setdefault(tic[0], []).append(index)
    regions: list[tuple[int, int]] = []
    pos = 0
    while pos < len(tics):
        size = tics[pos][0] - tics[pos][3]
        same = by_length.get(size, [])
        at = bisect.bisect_right(same, pos)
        if size == 0 or at == len(same):
            pos += 1
            continue
        closer = same[at]
        regions.append((tics[pos][1], tics[closer][2]))
        pos = closer + 1
    good: list[int] = []
    region = 0
    for pipe in pipes:
        while region < len(regions) and regions[region][1] < pipe:
            region += 1
        if region < len(regions) and regions[region][0] <= pipe:
            continue
        good.append(pipe)
    return good


def _end_border(row: str) -> int:
    """Length of ``row`` without a trailing border pipe (``RE_END_BORDER``: a ``|`` after an
    even run of backslashes, the run going with it), or ``len(row)`` when there is none."""
    if not row.endswith("|"):
        return len(row)
    body = row[:-1]
    run = len(body) - len(body.rstrip("\\"))
    return len(body) - run if run % 2 == 0 else len(row)


def split_row(row: str, border: bool) -> list[tuple[int, str]]:
    """``TableProcessor._split_row``: the cells of ``row`` (already stripped of spaces), each
    with its offset in ``row``; with a ``border`` the outer pipes are cut off first."""
    start, end = 0, len(row)
    if border:
        if row.startswith("|"):
            start = 1
        end = start + _end_border(row[start:])
    body = row[start:end]
    cells: list[tuple[int, str]] = []
    pos = 0
    for pipe in _good_pipes(body):
        cells.append((start + pos, body[pos:pipe]))
        pos = pipe + 1
    cells.append((start + pos, body[pos:]))
    return cells


def _row_text(state: StateBlock, line: int) -> tuple[int, str]:
    """The row on ``line`` as TableProcessor sees it (spaces stripped) and its page offset."""
    begin = state.bMarks[line] + state.tShift[line]
    raw = state.src[begin : state.eMarks[line]]
    stripped = raw.strip(" ")
    return begin + len(raw) - len(raw.lstrip(" ")), stripped


def _border(header: str) -> bool:
    return header.startswith("|") or _end_border(header) < len(header)


def _all_rows_bordered(state: StateBlock, first: int, end_line: int) -> bool:
    """Does every line of Python-Markdown's block from ``first`` on (up to a blank line) start
    or end with a border pipe? Stops at the first that does not: each line is read once."""
    line = first
    while line < end_line and not state.isEmpty(line) and state.sCount[line] >= state.blkIndent:
        row = _row_text(state, line)[1]
        if not (row.startswith("|") or _end_border(row) < len(row)):
            return False
        line += 1
    return True


def _is_table(state: StateBlock, start_line: int, end_line: int) -> tuple[bool, list[tuple[int, str]]]:
    """``TableProcessor.test``: the header's cells when the block starting at ``start_line``
    is a table to Python-Markdown."""
    _, header = _row_text(state, start_line)
    border = _border(header)
    cells = split_row(header, border)
    if len(cells) < 2 and not border:
        return False, cells
    delimiter = split_row(_row_text(state, start_line + 1)[1], border)
    if len(delimiter) != len(cells) or not set("".join(text for _, text in delimiter)) <= _DELIMITER_CHARS:
        return False, cells
    if len(cells) == 1 and not _all_rows_bordered(state, start_line + 1, end_line):
        return False, cells  # one column: every row needs a border pipe (checked last: it reads the block)
    return True, cells


def _push_row(state: StateBlock, line: int, cells: list[tuple[int, str]], columns: int, cell: str) -> None:
    """One ``tr`` of ``columns`` cells (missing ones empty, extra ones dropped, as both parsers do)."""
    begin, _ = _row_text(state, line)
    state.push("tr_open", "tr", 1).map = [line, line + 1]
    for index in range(columns):
        state.push(f"{cell}_open", cell, 1)
        token = state.push("inline", "", 0)
        token.map = [line, line + 1]
        token.children = []
        if index < len(cells):
            offset, text = cells[index]
            content = text.strip(MD_TRIM_CHARS)
            lead = len(text) - len(text.lstrip(MD_TRIM_CHARS))
            token.content = content.replace("\\|", "|")
            token.meta["zh_cell"] = begin + offset + lead
        else:
            token.content = ""
        state.push(f"{cell}_close", cell, -1)
    state.push("tr_close", "tr", -1)


def table(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A table where Python-Markdown sees one, its rows up to where markdown-it's rule ends one."""
    if start_line + 2 > end_line:
        return False
    second = start_line + 1
    if state.sCount[second] < state.blkIndent or state.is_code_block(second) or state.is_code_block(start_line):
        return False
    if state.isEmpty(second):
        return False
    found, header = _is_table(state, start_line, end_line)
    if not found:
        return False
    if silent:
        return True
    border = _border(_row_text(state, start_line)[1])
    columns = len(header)
    old_parent = state.parentType
    state.parentType = "table"
    terminators = state.md.block.ruler.getRules("blockquote")
    opening = state.push("table_open", "table", 1)
    opening.map = [start_line, 0]
    state.push("thead_open", "thead", 1).map = [start_line, start_line + 1]
    _push_row(state, start_line, header, columns, "th")
    state.push("thead_close", "thead", -1)
    body: list[int] | None = None
    filled = 0
    line = start_line + 2
    while line < end_line:
        if state.sCount[line] < state.blkIndent or state.isEmpty(line) or state.is_code_block(line):
            break
        if any(rule(state, line, end_line, True) for rule in terminators):
            break
        cells = split_row(_row_text(state, line)[1], border)
        filled += columns - len(cells)
        if filled > _MAX_FILLED_CELLS:
            break
        if body is None:
            body = [line, 0]
            state.push("tbody_open", "tbody", 1).map = body
        _push_row(state, line, cells, columns, "td")
        line += 1
    if body is not None:
        body[1] = line
        state.push("tbody_close", "tbody", -1)
    state.push("table_close", "table", -1)
    opening.map[1] = line
    state.parentType = old_parent
    state.line = line
    return True


def install(md: MarkdownIt) -> None:
    # TableProcessor takes a block that is a table from its first line: a table never ends the
    # paragraph above it (those lines are that paragraph's text).
    md.block.ruler.at("table", table, {"alt": []})
