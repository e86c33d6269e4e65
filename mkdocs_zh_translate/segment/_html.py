"""Text inside raw HTML blocks: the words between tags are segments, the tags stay as they are.

Python-Markdown passes raw HTML through untouched, so a ``<p align="center">Intro</p>`` block
would stay English. We translate only the text between tags; tags, comments and the content
of ``<pre>``, ``<code>``, ``<script>``, ``<style>``... are never touched.
"""

from __future__ import annotations

import bisect
import re

from ._model import Piece

_TOKEN_RE = re.compile(
    r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>|<![A-Za-z][^>]*>"
    r"|</?([A-Za-z][A-Za-z0-9-]*)(?:\s(?:[^>\"']|\"[^\"]*\"|'[^']*')*)?/?>",
    re.DOTALL,
)
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_BREAK_OR_ENTITY_RE = re.compile(r"\n[ \t]*|" + _ENTITY_RE.pattern)
_FENCE_RE = re.compile(r"[ \t]*(`{3,}|~{3,})")
_RAW_TAGS = frozenset({"script", "style", "pre", "code", "textarea", "kbd", "samp", "math", "svg", "template"})


def _text_pieces(content: str, start: int, end: int) -> list[Piece]:
    """Text, entity atoms and line breaks of ``content[start:end]`` (content coordinates)."""
    pieces: list[Piece] = []
    pos = start
    for m in _BREAK_OR_ENTITY_RE.finditer(content, start, end):
        if m.start() > pos:
            pieces.append(Piece("text", pos, m.start()))
        kind = "break" if m.group(0).startswith("\n") else "atom"
        pieces.append(Piece(kind, m.start(), m.end(), "" if kind == "break" else "entity"))
        pos = m.end()
    if end > pos:
        pieces.append(Piece("text", pos, end))
    return pieces


def _code_like_lines(content: str) -> list[int]:
    """Start offsets of lines a CommonMark reader would take for indented code.

    Python-Markdown keeps a raw HTML block going across blank lines; CommonMark ends it there
    and reads a following line indented four columns as code. Text there is left alone.
    """
    starts = []
    offset = 0
    after_blank = False
    for line in content.split("\n"):
        blank = not line.strip()
        indented = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) >= 4
        if not blank and indented and after_blank:
            starts.append(offset)
        else:
            after_blank = blank or (after_blank and indented)
        offset += len(line) + 1
    return starts


def _fenced_lines(content: str) -> list[int]:
    """Start offsets of lines inside ````` ``` ````` / ``~~~`` fences: superfences turns them into
    code before Python-Markdown even looks at the HTML around them."""
    starts = []
    offset = 0
    fence: str | None = None
    for line in content.split("\n"):
        m = _FENCE_RE.match(line)
        if fence is None and m:
            fence = m.group(1)
            starts.append(offset)
        elif fence is not None:
            starts.append(offset)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line[m.end() :].strip():
                fence = None
        offset += len(line) + 1
    return starts


def html_text_runs(content: str) -> list[list[Piece]]:
    """Pieces of every run of words between tags of an HTML block, in content coordinates."""
    code_lines = _code_like_lines(content) + _fenced_lines(content)
    runs = _runs(content)
    return [run for run in runs if not any(_overlaps_line(content, start, run) for start in code_lines)]


def _overlaps_line(content: str, line_start: int, run: list[Piece]) -> bool:
    line_end = content.find("\n", line_start)
    line_end = len(content) if line_end < 0 else line_end
    return run[0].start <= line_end and run[-1].end >= line_start


def _runs(content: str) -> list[list[Piece]]:
    runs: list[list[Piece]] = []
    pos = 0
    raw_until: str | None = None
    for m in _TOKEN_RE.finditer(content):
        tag = (m.group(1) or "").lower()
        closing = m.group(0).startswith("</")
        if raw_until is None:
            _add_run(runs, content, pos, m.start())
            if tag in _RAW_TAGS and not closing and not m.group(0).endswith("/>"):
                raw_until = tag
        elif closing and tag == raw_until:
            raw_until = None
        pos = m.end()
    if raw_until is None and "<!--" not in content[pos:] and "<" not in content[pos:]:
        _add_run(runs, content, pos, len(content))
    return runs


def _add_run(runs: list[list[Piece]], content: str, start: int, end: int) -> None:
    blank = re.search(r"\n[ \t]*\n", content[start:end])
    if blank:  # a blank line separates two paragraphs of text: two segments
        _add_run(runs, content, start, start + blank.start())
        _add_run(runs, content, start + blank.end() - 1, end)
        return
    chunk = content[start:end]
    if "<" in chunk or not any(ch.isalpha() for ch in chunk):
        return  # an unparsed "<" means we misread the markup: leave the run alone
    lead = len(chunk) - len(chunk.lstrip())
    trail = len(chunk) - len(chunk.rstrip())
    runs.append(_text_pieces(content, start + lead, end - trail))


def code_free_tags(content: str) -> list[tuple[int, str]]:
    """``(offset, text)`` of every start tag of an HTML block that is markup, not code: none
    inside ``<pre>``, ``<script>``... nor on lines that read as code (see ``html_text_runs``)."""
    code_lines = _code_like_lines(content) + _fenced_lines(content)
    out: list[tuple[int, str]] = []
    raw_until: str | None = None
    for m in _TOKEN_RE.finditer(content):
        tag = (m.group(1) or "").lower()
        closing = m.group(0).startswith("</")
        if raw_until is not None:
            if closing and tag == raw_until:
                raw_until = None
            continue
        if tag in _RAW_TAGS and not closing and not m.group(0).endswith("/>"):
            raw_until = tag
        elif tag and not closing:
            out.append((m.start(), m.group(0)))
    lines = sorted(code_lines)
    return [(start, text) for start, text in out if not _on_code_line(content, lines, start, start + len(text))]


def _on_code_line(content: str, line_starts: list[int], start: int, end: int) -> bool:
    """Does ``content[start:end]`` touch one of the lines starting at ``line_starts``?"""
    at = bisect.bisect_right(line_starts, end) - 1
    if at < 0:
        return False
    line_end = content.find("\n", line_starts[at])
    return (len(content) if line_end < 0 else line_end) >= start
