"""PO syntax checked the way ``msgfmt --check-format`` reads it, before any parser sees the file.

polib forgives what msgfmt refuses: ``msgstr "常见问题`` without its closing quote is read as
``常见问`` (one character lost), an unknown escape is kept, a stray string line is glued to the
previous entry, and a duplicate entry is reported at line 1 or not at all. PO files come from
outside contributors and are rewritten by ``review sync``, so a file either passes these rules
or is refused with ``file:line`` and nothing is written. Used by the review store and by
``po fill`` (Sphinx catalogs). Pure: text in, the first problem out, in linear time.

A message never quotes the file beyond :func:`..untrusted.excerpt` of a piece that is PO syntax
(a misspelt ``msg…`` keyword, an escape): a file that is not PO at all (a linked ``.env``) is
"not PO syntax" at its line, so no secret in it reaches a CI log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..errors import ZhTranslateError
from ..untrusted import excerpt
from .poscan import Kind, PoLine, scan_text

_ESCAPE_RE = re.compile(r"\\(?:[\\\"ntrabfv?']|[0-7]{1,3}|x[0-9A-Fa-f]+)")
_SPECIAL_RE = re.compile(r'[\\"]')
_MISSPELT_RE = re.compile(r"msg[a-z_]{0,16}(?:\[[0-9]{1,3}\])?")  # the only unknown keyword worth quoting
_POLIB_LINE_RE = re.compile(r"\(line ([0-9]+)\)")
_POLIB_REASONS = ("unescaped double quote found", "invalid continuation line", "unknown keyword")


class PoSyntaxError(ZhTranslateError, ValueError):
    """``line`` (1-based) and what is wrong there, in msgfmt's terms."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"{line}: {message}")
        self.line = line
        self.message = message


@dataclass
class _Entry:
    line: int
    obsolete: bool
    msgctxt: str | None = None
    msgid: str | None = None
    has_msgstr: bool = False


def _string(body: str, line: int) -> str:
    """The text of one quoted PO string (``"…"`` plus trailing blanks); its escapes checked."""
    body = body.rstrip(" \t\r")
    if not body.startswith('"'):
        raise PoSyntaxError(line, "a string must start with '\"'")
    out: list[str] = []
    i = 1
    while True:  # from one backslash or quote to the next: plain runs are copied in one slice
        special = _SPECIAL_RE.search(body, i)
        if special is None:
            raise PoSyntaxError(line, "unterminated string (the closing '\"' is missing)")
        out.append(body[i : special.start()])
        i = special.start()
        if body[i] == '"':
            if body[i + 1 :].strip():
                raise PoSyntaxError(line, "text after the closing '\"' of a string")
            return "".join(out)
        m = _ESCAPE_RE.match(body, i)
        if m is None:
            shown = excerpt(body[i : i + 2]) if i + 1 < len(body) else "\\ at the end of the line"
            raise PoSyntaxError(line, f"invalid escape sequence {shown}")
        out.append(m.group(0))
        i = m.end()


def check_po(text: str) -> None:
    """Raise :class:`PoSyntaxError` at the first line msgfmt would refuse."""
    check_lines(scan_text(text))


def check_lines(lines: Iterable[PoLine]) -> None:
    """:func:`check_po` of a file already cut by :func:`.poscan.scan_lines` (``po fill`` scans
    a catalog once for the checker and the editor)."""
    checker = _Checker()
    for line in lines:
        _CHECKS[line.kind](checker, line)
    checker.close_keyword()
    _check_entries(checker.entries)


@dataclass
class _Checker:
    """Where the walk through a file stands: the entries so far, the one being read, and the
    keyword whose string a continuation line extends."""

    entries: list[_Entry] = field(default_factory=list)
    current: _Entry | None = None
    keyword: str | None = None
    parts: list[str] = field(default_factory=list)

    def close_keyword(self) -> None:
        """The keyword's string is complete: record a msgctxt or msgid (duplicates compare them)."""
        if self.current is not None and self.keyword is not None:
            value = "".join(self.parts)
            if self.keyword == "msgctxt":
                self.current.msgctxt = value
            elif self.keyword == "msgid":
                self.current.msgid = value
        self.keyword = None

    def blank(self, line: PoLine) -> None:
        """A blank or comment line ends the string; after a msgstr it ends the entry too."""
        self.close_keyword()
        if self.current is not None and self.current.has_msgstr:
            self.current = None

    def comment(self, line: PoLine) -> None:
        """An obsolete entry holds only ``#~`` strings and ``#~|`` previous strings, which
        continue nothing and end nothing; any other comment there is not PO syntax."""
        if not line.obsolete:
            self.blank(line)
        elif line.mark not in ("#|", "#~"):
            _not_po(line)

    def string(self, line: PoLine) -> None:
        if self.keyword is None:
            raise PoSyntaxError(line.number, "a string line that continues no msgid/msgstr (stray continuation line)")
        self.parts.append(_string(line.body, line.number))

    def keyword_line(self, line: PoLine) -> None:
        """A keyword in its place: msgctxt first, one msgid, msgstr after a msgid."""
        self.close_keyword()
        name, number, current = line.keyword, line.number, self.current
        starts = current is None or current.has_msgstr or current.obsolete != line.obsolete
        if name in ("msgctxt", "msgid") and starts:
            current = self.current = _Entry(number, line.obsolete)
            self.entries.append(current)
        if current is None or (name != "msgctxt" and name != "msgid" and current.msgid is None):
            raise PoSyntaxError(number, f"{name} without a msgid before it")
        if name == "msgctxt" and (current.msgctxt is not None or current.msgid is not None):
            raise PoSyntaxError(number, "msgctxt must come first in an entry")
        if name == "msgid" and current.msgid is not None:
            raise PoSyntaxError(number, "second msgid in one entry (missing msgstr?)")
        if name.startswith("msgstr"):
            current.has_msgstr = True
        self.keyword, self.parts = name, [_string(line.rest, number)]

    def other(self, line: PoLine) -> None:
        _not_po(line)


def _not_po(line: PoLine) -> None:
    """Refuse a line that is no PO syntax, quoting it only when it is a misspelt keyword."""
    word = line.body.split(None, 1)[0]
    if _MISSPELT_RE.fullmatch(word):
        raise PoSyntaxError(line.number, f"unknown keyword {excerpt(word)}")
    raise PoSyntaxError(line.number, "not PO syntax (expected a comment, a msgid/msgstr line or a quoted string)")


_CHECKS: dict[Kind, Callable[[_Checker, PoLine], None]] = {
    Kind.BLANK: _Checker.blank,
    Kind.COMMENT: _Checker.comment,
    Kind.STRING: _Checker.string,
    Kind.KEYWORD: _Checker.keyword_line,
    Kind.OTHER: _Checker.other,
}


def _check_entries(entries: list[_Entry]) -> None:
    """Rules over whole entries, once the file is read: every msgid has a msgstr, and no live
    (msgctxt, msgid) is defined twice (a dictionary: linear, where polib's check is quadratic)."""
    seen: dict[tuple[str | None, str], int] = {}
    for entry in entries:
        if entry.msgid is not None and not entry.has_msgstr:
            raise PoSyntaxError(entry.line, "msgid without a msgstr")
        if entry.obsolete or entry.msgid is None:
            continue
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            raise PoSyntaxError(entry.line, f"duplicate message definition (first defined at line {seen[key]})")
        seen[key] = entry.line


def polib_error(exc: Exception) -> tuple[int, str]:
    """(line, reason) of a polib parse error, worded without the file's content: polib's
    messages quote the offending token (``unknown keyword CI_SECRET_TOKEN=…``) and, given text
    instead of a path, the whole file."""
    message = str(exc)
    match = _POLIB_LINE_RE.search(message)
    reason = next((r for r in _POLIB_REASONS if message.endswith(r) or f": {r} " in message), "syntax error")
    return (int(match.group(1)) if match else 1), reason
