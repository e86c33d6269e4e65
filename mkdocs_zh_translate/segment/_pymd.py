"""Where Python-Markdown reads a block differently from CommonMark: what must stay English.

The segmenter parses with markdown-it (CommonMark); MkDocs renders with Python-Markdown. Where
the two disagree, translating what CommonMark calls prose can change what Python-Markdown builds
(a reference definition becomes a paragraph, a list item a paragraph, code text). The rules
here find those places; the segmenter leaves them English, or keeps the syntax outside the
translation. Each is named after the Python-Markdown code it mirrors (markdown 3.x). When a
rule is unsure it says "English": an untranslated sentence costs little, a changed page a lot.
Every scan here is linear in its input (no nested quantifiers, bounded backtracking).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ._model import EMPHASIS_ROLES, Piece

# blockprocessors.ReferenceProcessor.RE, its head: `^[ ]{0,3}\[([^\[\]]*)\]:[ ]*\n?[ ]*([^\s]+)`.
# Python-Markdown searches every block for it (the label may span lines, may be empty) and takes
# what matches out of the paragraph as a definition; CommonMark accepts fewer definitions and none
# after paragraph text. The tail (title, end of line) is not checked: a near miss stays English.
_REFDEF_RE = re.compile(r"^ {0,3}\[([^\[\]]*)\]:[ ]*(?:\n[ ]*)?\S", re.MULTILINE)
# blockprocessors.OListProcessor.RE / UListProcessor.RE: what starts a list item at a block start.
# CommonMark refuses ten digits and more (`1234567890. x` is a paragraph there).
_LIST_MARKER_RE = re.compile(r"(?:\d+\.|[*+-])[ ]+(?=\S)")
# blockprocessors.HashHeaderProcessor.RE takes `\\.` or any non-backslash: a line that ends in an
# odd run of backslashes is no heading there (`### foo\` is a paragraph).
_TRAILING_BACKSLASHES_RE = re.compile(r"\\+$")
_HASH_LINE_RE = re.compile(r"^#.*$", re.MULTILINE)


def near_heading_start(content: str) -> int | None:
    """Offset in a paragraph's ``content`` of a ``#`` line that is text only for its odd trailing
    backslashes: a translation ending that line (or a mark after the backslash) makes it a
    heading. That line and all after it stay English."""
    for m in _HASH_LINE_RE.finditer(content):
        if no_python_markdown_heading(m.group(0)):
            return m.start()
    return None


def refdef_start(content: str) -> int | None:
    """Offset in a paragraph's ``content`` of the first line Python-Markdown takes for a link
    reference definition, or None. That line and all after it stay English."""
    m = _REFDEF_RE.search(content)
    return m.start() if m else None


def python_markdown_references(state: StateCore) -> None:
    """Register the definitions only Python-Markdown sees (inside paragraphs) before inline
    parsing, so ``[label]`` there is read as the link it will be, not as bracketed words."""
    references = state.env.setdefault("references", {})
    for i, tok in enumerate(state.tokens):
        if tok.type != "inline" or "]:" not in tok.content or state.tokens[i - 1].type != "paragraph_open":
            continue
        for m in _REFDEF_RE.finditer(tok.content):
            label = normalizeReference(m.group(1))
            if label and label not in references:
                references[label] = {"title": "", "href": "", "map": tok.map}


def install(md: MarkdownIt) -> None:
    md.core.ruler.after("block", "zh_pymd_references", python_markdown_references)


def list_marker_length(text: str) -> int:
    """Length of a list marker (``12345678901. ``, ``* ``) that opens ``text``, else 0.

    It is syntax to Python-Markdown even where CommonMark reads prose, so it stays outside the
    translation: a mark or a word before it would turn the list item into a paragraph.
    """
    m = _LIST_MARKER_RE.match(text)
    return m.end() if m else 0


def no_python_markdown_heading(line: str) -> bool:
    """True for a ``#`` line Python-Markdown does not read as a heading (odd trailing ``\\``)."""
    m = _TRAILING_BACKSLASHES_RE.search(line)
    return m is not None and len(m.group(0)) % 2 == 1


def fragile_emphasis(pieces: Sequence[Piece], text: str) -> bool:
    """Would Python-Markdown pair this segment's ``*``/``_`` runs differently once translated?

    Its delimiter processor calls a run an opener at the start of the text or after whitespace,
    a closer at the end or before whitespace, and ambiguous elsewhere (punctuation does not count,
    unlike CommonMark). A translation puts other characters beside the runs at the segment's
    edges, so an opener there becomes ambiguous, and the rule of three then pairs unusual
    runs differently (``*foo *bar**``, ``**foo*``, ``*foo**bar*``). Ordinary emphasis is not
    affected; these are: a run that is partly literal text, a run shared by two delimiters of the
    same length, and a literal run of the pair's character inside the pair.
    """
    delimiters = [p for p in pieces if p.kind in ("open", "close") and p.role in EMPHASIS_ROLES and p.role != "s"]
    if not delimiters:
        return False
    return (
        _shared_run(delimiters, text)
        or _partly_literal_run(delimiters, text)
        or _literal_run_inside(pieces, delimiters, text)
    )


def _shared_run(delimiters: Sequence[Piece], text: str) -> bool:
    """Two adjacent delimiters of the same length and character: one run split in two
    (``*foo**bar*``), which Python-Markdown may pair the other way."""
    for a, b in itertools.pairwise(delimiters):
        if a.end == b.start and a.end - a.start == b.end - b.start and text[a.start] == text[b.start]:
            return True
    return False


def _partly_literal_run(delimiters: Sequence[Piece], text: str) -> bool:
    """A delimiter whose run goes on as literal text (``**foo*``): the run's length, which the
    rule of three reads, is not the delimiter's."""
    covered = {i for p in delimiters for i in range(p.start, p.end)}
    for p in delimiters:
        char = text[p.start]
        for at in (p.start - 1, p.end):
            if 0 <= at < len(text) and text[at] == char and at not in covered:
                return True
    return False


def _literal_run_inside(pieces: Sequence[Piece], delimiters: Sequence[Piece], text: str) -> bool:
    """A literal run of a pair's own character inside that pair (``*foo *bar**``), which
    Python-Markdown may take for a delimiter once the words around it change."""
    depth: dict[str, int] = {}
    delimiter_ids = {id(p) for p in delimiters}
    for p in pieces:
        if id(p) in delimiter_ids:
            char = text[p.start]
            depth[char] = depth.get(char, 0) + (1 if p.kind == "open" else -1)
        elif p.kind == "text":
            chunk = text[p.start : p.end]
            for char, open_pairs in depth.items():
                if open_pairs > 0 and char in chunk and _bound_run(chunk, char):
                    return True
    return False


def _bound_run(chunk: str, char: str) -> bool:
    """Does ``chunk`` hold a run of ``char`` that Python-Markdown may take for a delimiter?
    One that touches a non-space character; for ``_`` (smart: ``MERGE_HEAD`` is one word) one
    that is not between two word characters."""
    for m in re.finditer(re.escape(char) + "+", chunk):
        before = chunk[m.start() - 1 : m.start()]
        after = chunk[m.end() : m.end() + 1]
        if char == "_" and _word(before) and _word(after):
            continue
        if not (before.isspace() and after.isspace()):
            return True
    return False


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def unclosed_fence_blocks(
    tokens: Sequence[Token], lines: Sequence[str], text_fences: Sequence[int] = ()
) -> list[tuple[int, int]]:
    """Line ranges ``[first, end)`` that stay English around fences nothing closes.

    CommonMark ends a fence at the end of its container or of the page; Python-Markdown's fenced
    code (and SuperFences) needs the closing fence, so there the fence line is text, and its
    backticks may pair with backticks further on (``> ```\\nfoo\\n``` `` is inline code around
    ``foo``). ``text_fences`` are more such lines: fence lines SuperFences does not open a block
    with. Python-Markdown's unit is the block between blank lines: the whole block around such a
    fence's first line is left alone.
    """
    starts: list[int] = list(text_fences)
    for tok in tokens:
        if tok.type != "fence" or tok.map is None:
            continue
        first, end = tok.map
        if tok.content.count("\n") != end - first - 2:  # no closing fence line
            starts.append(first)
    ranges: list[tuple[int, int]] = []
    for line in sorted(starts):
        if ranges and ranges[-1][0] <= line < ranges[-1][1]:
            continue
        first = line
        while first > 0 and lines[first - 1].strip():
            first -= 1
        end = line + 1
        while end < len(lines) and lines[end].strip():
            end += 1
        ranges.append((first, end))
    return ranges
