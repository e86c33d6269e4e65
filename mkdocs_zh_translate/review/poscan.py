"""PO files cut into typed lines: the one place that says what kind of line a line is.

The strict checker (:mod:`.pocheck`, msgfmt's rules) and the in-place catalog editor
(:mod:`..pofill.catalog`) both walk a PO file line by line. Each used to classify lines with
its own patterns, so a line could be a keyword to one and "not PO syntax" to the other, and
``po fill`` read every file three times (checker, polib, editor). Now both read the lines this
module yields: ``po fill`` scans a file once and hands the same list to the checker and to the
editor (polib still parses it once, as a second opinion).

The scanner only classifies; it never refuses. What a line may do where (a string line with no
keyword before it, a comment inside an obsolete entry) is the reader's judgement: the checker
raises with the line number the scanner recorded, the editor records entries. Pure and linear:
one anchored match per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

# msgfmt's keywords; the string may follow after blanks or directly after the keyword
_KEYWORD_RE = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[[0-9]+\])?)(?=[ \t\"])[ \t]*(.*)$")
_MARKS = (".", ":", ",", "|")  # the second character of "#." "#:" "#," "#|" comments


class Kind(Enum):
    """What a PO line is, before any judgement of where it stands."""

    BLANK = "blank"  # empty or only blanks: ends an entry
    COMMENT = "comment"  # "#", "#.", "#:", "#,", "#|", or an obsolete entry's bare "#~"
    KEYWORD = "keyword"  # msgctxt, msgid, msgid_plural, msgstr, msgstr[n], then its string
    STRING = "string"  # a continuation line: a quoted string alone
    OTHER = "other"  # none of those: not PO syntax (or a misspelt keyword)


@dataclass(frozen=True)
class PoLine:
    """One classified line.

    ``body`` is the line without surrounding blanks and, on an obsolete entry's line, without
    its ``#~`` (an obsolete previous-string line ``#~| msgid …`` reads ``#| msgid …``, as it
    would in a live entry)."""

    number: int  # 1-based
    kind: Kind
    body: str
    obsolete: bool = False  # the line starts with "#~"
    mark: str = ""  # COMMENT: "#", "#.", "#:", "#,", "#|"; "#~" for a bare obsolete mark
    keyword: str = ""  # KEYWORD: the keyword as written ("msgstr[1]")
    rest: str = ""  # KEYWORD: what follows the keyword and its blanks (its string)


def split_lines(text: str, *, keepends: bool = False) -> list[str]:
    """A PO file's lines, cut at ``\\n`` only (``\\r\\n`` is one break, as in
    ``str.splitlines``): the one way every reader of PO text cuts it.

    ``str.splitlines`` also breaks at U+2028, U+2029, NEL and ``\\x1c``-``\\x1e``, which
    gettext and our writer put inside a string as they are (and at ``\\v``, ``\\f``, a lone
    ``\\r``, which a hand-written file may hold raw): a page holding U+2028 became a PO file
    whose string no reader could close ("unterminated string"). msgfmt breaks at ``\\n`` only,
    and so do we. Like ``splitlines``: no empty last line after a final
    newline, and ``keepends`` keeps each line's ``\\n``."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ended with a newline (or was empty)
    if keepends:
        last = len(lines) - 1
        ended = text.endswith("\n")
        return [line + "\n" if i < last or ended else line for i, line in enumerate(lines)]
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def scan_lines(lines: Iterable[str]) -> list[PoLine]:
    """Every line classified (``lines`` as :func:`split_lines` cuts them, with or without ends)."""
    return [classify(number, raw) for number, raw in enumerate(lines, 1)]


def scan_text(text: str) -> list[PoLine]:
    """A whole file's text classified, line by line."""
    return scan_lines(split_lines(text))


def classify(number: int, raw: str) -> PoLine:
    """The kind of one line (``number`` 1-based)."""
    body = raw.strip()
    if not body:
        return PoLine(number, Kind.BLANK, "")
    obsolete = body.startswith("#~")
    if obsolete:
        body = body[2:].strip()
        if not body:
            return PoLine(number, Kind.COMMENT, "", True, "#~")
        if body.startswith("|"):
            body = "#" + body  # "#~| msgid …": a previous string of an obsolete entry
    if body.startswith("#"):
        mark = body[:2] if body[1:2] in _MARKS else "#"
        return PoLine(number, Kind.COMMENT, body, obsolete, mark)
    if body.startswith('"'):
        return PoLine(number, Kind.STRING, body, obsolete)
    m = _KEYWORD_RE.match(body)
    if m:
        return PoLine(number, Kind.KEYWORD, body, obsolete, keyword=m.group(1), rest=m.group(2))
    return PoLine(number, Kind.OTHER, body, obsolete)
