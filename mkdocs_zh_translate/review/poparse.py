"""polib's parser fed lines cut at ``\\n`` only: the one way PO text becomes a ``POFile``.

``polib.pofile(text)`` cuts the text with ``str.splitlines``, which also breaks at U+2028,
U+2029, NEL and ``\\x1c``-``\\x1e``. gettext (``msgcat``, ``msgmerge``) and ``review sync``
write those characters inside a string as they are, so a page holding one became a PO file that
polib (and the strict checker, which cut lines the same way) could not read back: every later
build and sync failed. Here polib reads the text through a ``StringIO`` that breaks at ``\\n``
only (:func:`.poscan.split_lines` cuts it the same way for the checker and ``po fill``), and
the header's fields are read from its msgstr cut the same way (polib cuts those with
``splitlines`` too). Everything else is polib's own parsing; its errors (``OSError``,
``ValueError``) reach the caller unchanged, for :func:`.pocheck.polib_error` to word.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Literal

import polib

from .poscan import split_lines

if TYPE_CHECKING:
    _Parser = polib._POFileParser[polib.POFile]
else:
    _Parser = polib._POFileParser


class _File(polib.POFile):
    """A POFile that remembers the header entry polib's parser looks up and then removes, so
    the header's fields can be read again from its msgstr."""

    header_entry: polib.POEntry | None = None

    def find(
        self, st: str, by: str = "msgid", include_obsolete_entries: bool = False, msgctxt: str | Literal[False] = False
    ) -> polib.POEntry | None:
        found = super().find(st, by, include_obsolete_entries, msgctxt)
        if st == "" and by == "msgid" and msgctxt is False and self.header_entry is None:
            self.header_entry = found
        return found


# A line holding a PO string: a keyword (live, obsolete "#~ " or previous "#| ") or a continuation.
_STRING_LINE = re.compile(r'\s*(?:#~\s*)?(?:#\|\s*)?(?:"|msg)')
_BACKSLASH_OR_BELL = re.compile(r"\\([\\a])")


def _bell_escapes_read(line: str) -> str:
    """``line`` with each ``\\a`` escape of its strings as the BEL it stands for: gettext writes
    BEL so (and so does :mod:`.powrap`), and polib's unescape does not know it (it read back as
    a backslash and an ``a``: the msgid no longer matched its page, and the entry went obsolete
    at every sync). ``\\\\`` pairs are skipped, so ``\\\\a`` stays a backslash and an ``a``."""
    if "\\a" not in line or not _STRING_LINE.match(line):
        return line
    return _BACKSLASH_OR_BELL.sub(lambda m: "\\\\" if m.group(1) == "\\" else "\a", line)


class _LineParser(_Parser):
    """polib's state machine over ``text`` cut at ``\\n`` only (it is given no path: polib
    would open a file named like the text)."""

    def __init__(self, text: str) -> None:
        super().__init__("", klass=_File, encoding="utf-8", check_for_duplicates=False)
        lines = io.StringIO(text, newline="\n")  # no newline translation: lines end at \n only
        self.fhandle = io.StringIO("".join(map(_bell_escapes_read, lines)), newline="\n")


def header_fields(msgstr: str) -> dict[str, str]:
    """The header entry's ``Name: value`` fields, as polib reads them (a line without a colon
    continues the previous field), from lines cut at ``\\n`` only."""
    fields: dict[str, str] = {}
    key: str | None = None
    for line in split_lines(msgstr):
        name, colon, value = line.partition(":")
        if colon:
            key = name
            fields[key] = value.strip()
        elif key is not None:
            fields[key] += "\n" + line.strip()
    return fields


def parse_po(text: str, wrapwidth: int = 78) -> polib.POFile:
    """``text`` parsed by polib with lines cut at ``\\n`` only (duplicates are not looked for:
    the strict checker refuses them in linear time, polib's check is quadratic)."""
    po = _LineParser(text).parse()
    po.wrapwidth = wrapwidth
    header = po.header_entry if isinstance(po, _File) else None
    if header is not None:
        po.metadata = header_fields(header.msgstr)
    return po


__all__ = ["header_fields", "parse_po"]
