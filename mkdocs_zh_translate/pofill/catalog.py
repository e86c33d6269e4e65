"""PO files edited in place, line by line: only the entries we fill change, every other byte stays.

Re-serialising a catalog (polib, babel) re-wraps every entry to the writer's own width and
style, so one filled entry would turn into a diff of the whole file and fight with
``sphinx-intl update`` / ``msgmerge`` afterwards. Instead this module scans the file into entry
blocks with their line ranges, replaces just the ``msgstr`` lines (wrapped the way the file
already wraps) and the flag line of the entries that change, and checks the result by parsing
it with polib: everything that was not meant to change must read back identical.

Entries we write carry one translator comment, ``# zh-translate: machine <hash>`` (written
``#, fuzzy``) or ``# zh-translate: machine translated <hash>`` (written translated, ``po fill
--translated``), the hash being that of the text we wrote. The word tells the two apart where
the flags alone cannot: a fuzzy draft whose ``#, fuzzy`` a reviewer deleted is an accepted
review, a ``translated`` entry without it is still ours.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from ..errors import ZhTranslateError
from ..review.pocheck import PoSyntaxError, check_lines, polib_error
from ..review.poparse import parse_po
from ..review.poscan import Kind, PoLine, scan_lines, split_lines
from .rst import backslash_escaped

MARKER = "zh-translate: machine"
TRANSLATED = "translated"  # the marker's word for entries written as translated (not fuzzy)
_MARKER_RE = re.compile(r"#\s*" + re.escape(MARKER) + r"(\s+" + TRANSLATED + r")?\s+([0-9a-f]+)\s*$")
_STRING_RE = re.compile(r'^\s*"(.*)"\s*$')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_STANDARD_WIDTHS = (76, 78, 79, 80)
_CJK_RE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


class CatalogError(ZhTranslateError):
    """A PO file we cannot edit safely; the message names the file and line."""


def unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    )


@dataclass
class Entry:
    """One entry block of a PO file with the line numbers (0-based) needed to edit it."""

    start: int
    end: int = 0  # exclusive
    obsolete: bool = False
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int | None, str] = field(default_factory=dict)  # None: singular msgstr
    flags: list[str] = field(default_factory=list)
    flags_line: int | None = None
    comments: list[tuple[int, str]] = field(default_factory=list)  # translator comments "# ..."
    keyword_lines: list[tuple[str, int, int]] = field(default_factory=list)  # (keyword, first, end)
    msgid_line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return any(self.msgstr.values())

    def marker(self) -> tuple[bool, str] | None:
        """(written translated?, hash of the text written) from our marker; None without one."""
        for _line, text in self.comments:
            m = _MARKER_RE.match(text)
            if m:
                return m.group(1) is not None, m.group(2)
        return None

    def marker_hash(self) -> str | None:
        """The hash our machine marker recorded, or None when the entry carries no marker."""
        mark = self.marker()
        return mark[1] if mark else None

    def is_untouched_machine(self) -> bool:
        """Marked as ours, its text still the one we wrote, and still in a state we leave it in:
        fuzzy, or not fuzzy under a ``translated`` marker. A fuzzy draft a reviewer un-fuzzied
        (marker without ``translated``) is theirs, and so is any entry whose text changed."""
        mark = self.marker()
        if mark is None or mark[1] != text_hash(self.msgstr_text()):
            return False
        return self.fuzzy or mark[0]

    def stored_as(self, fuzzy: bool) -> bool:
        """Whether the entry is already stored the way a run writing ``fuzzy`` entries would."""
        mark = self.marker()
        return mark is not None and self.fuzzy == fuzzy and mark[0] == (not fuzzy)

    def msgstr_text(self) -> str:
        return self.msgstr.get(None, self.msgstr.get(0, ""))


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass
class Catalog:
    """A PO file's lines and entries, ready for in-place edits."""

    path: str
    lines: list[str]  # with their line endings
    entries: list[Entry]
    width: int  # wrap width of the file's multi-line strings; 0 = never wrapped

    def header_value(self, name: str) -> str | None:
        for entry in self.entries:
            if entry.is_header and not entry.obsolete:
                for line in split_lines(entry.msgstr.get(None, "")):
                    key, _, value = line.partition(":")
                    if key.strip().lower() == name.lower():
                        return value.strip()
        return None

    def nplurals(self) -> int | None:
        forms = self.header_value("Plural-Forms") or ""
        m = re.search(r"nplurals\s*=\s*(\d+)", forms)
        return int(m.group(1)) if m else None


def parse_catalog(text: str, path: str) -> Catalog:
    """Scan ``text`` into entries. Raises CatalogError for what msgfmt or polib would reject."""
    lines = split_lines(text, keepends=True)
    scanned = scan_lines(lines)  # once, for the checker and for the entries
    try:
        check_lines(scanned)
    except PoSyntaxError as exc:
        raise CatalogError(f"{path}:{exc.line}: malformed PO file: {exc.message}") from None
    try:
        parse_po(text)  # check_po refused duplicates in linear time
    except (OSError, ValueError) as exc:
        at, reason = polib_error(exc)
        raise CatalogError(f"{path}:{at}: malformed PO file: {reason}") from None
    builder = _EntryBuilder(path)
    for line in scanned:
        _BUILD[line.kind](builder, line)
    builder.finish(len(lines))
    return Catalog(path, lines, builder.entries, detect_width(lines, builder.entries))


@dataclass
class _EntryBuilder:
    """Entries collected from the scanned lines: the entry being read, the keyword whose string
    continuation lines extend (with its first line, for the edits' line ranges), and the raw
    strings of each keyword until the entry ends."""

    path: str
    entries: list[Entry] = field(default_factory=list)
    current: Entry | None = None
    keyword: str | None = None
    kw_first: int = 0
    values: dict[str, list[str]] = field(default_factory=dict)

    def close_keyword(self, at: int) -> None:
        """The keyword's lines end before line ``at`` (0-based): record its range."""
        if self.current is not None and self.keyword is not None:
            self.current.keyword_lines.append((self.keyword, self.kw_first, at))
        self.keyword = None

    def finish(self, at: int) -> None:
        """The entry ends before line ``at``: its strings unescaped into their fields."""
        self.close_keyword(at)
        current = self.current
        if current is not None:
            for key, parts in self.values.items():
                _set_value(current, key, unescape("".join(parts)))
            current.end = at
            self.entries.append(current)
        self.current = None
        self.values.clear()

    def _after_msgstr(self) -> bool:
        return self.current is not None and any(k.startswith("msgstr") for k in self.values)

    def _open(self, n: int, obsolete: bool) -> Entry:
        """The entry line ``n`` belongs to, started here when none is open."""
        if self.current is None:
            self.current = Entry(start=n, obsolete=obsolete)
        return self.current

    def blank(self, line: PoLine) -> None:
        """A blank line ends the string; it ends the entry only after a msgstr. Before one
        (between comments and msgid, msgid and msgstr) msgfmt, the checker and polib read on."""
        if self._after_msgstr():
            self.finish(line.number - 1)
        else:
            self.close_keyword(line.number - 1)

    def comment(self, line: PoLine) -> None:
        """A comment after a msgstr starts the next entry; ``#,`` flags and ``#`` translator
        comments (where our marker is) are kept with their lines, for the edits."""
        n, body = line.number - 1, line.body
        if self._after_msgstr():
            self.finish(n)
        current = self._open(n, line.obsolete)
        self.close_keyword(n)
        if body.startswith("#,"):
            current.flags = [f.strip() for f in body[2:].split(",") if f.strip()]
            current.flags_line = n
        elif body.startswith("# ") or body == "#":
            current.comments.append((n, body))

    def keyword_line(self, line: PoLine) -> None:
        """A msgctxt or msgid after a msgstr starts the next entry; every keyword starts a string."""
        n, key = line.number - 1, line.keyword
        gap = line.body[len(key) :]
        if not gap[:1].isspace() or not gap.lstrip().startswith('"'):
            self.other(line)  # the editor wants blanks between keyword and string
        if key in ("msgctxt", "msgid") and self._after_msgstr():
            self.finish(n)
        current = self._open(n, line.obsolete)
        self.close_keyword(n)
        self.keyword, self.kw_first = key, n
        if key == "msgid":
            current.msgid_line = n
        s = _STRING_RE.match(gap)
        if not s:
            raise CatalogError(f"{self.path}:{line.number}: malformed PO file: unterminated string")
        self.values.setdefault(key, []).append(s.group(1))

    def string(self, line: PoLine) -> None:
        s = _STRING_RE.match(line.body)
        if not s or self.keyword is None:
            self.other(line)
        else:
            self.values[self.keyword].append(s.group(1))

    def other(self, line: PoLine) -> NoReturn:
        raise CatalogError(f"{self.path}:{line.number}: malformed PO file: not PO syntax")  # never quoted: see pocheck


_BUILD: dict[Kind, Callable[[_EntryBuilder, PoLine], None]] = {
    Kind.BLANK: _EntryBuilder.blank,
    Kind.COMMENT: _EntryBuilder.comment,
    Kind.KEYWORD: _EntryBuilder.keyword_line,
    Kind.STRING: _EntryBuilder.string,
    Kind.OTHER: _EntryBuilder.other,
}


def _set_value(entry: Entry, key: str, value: str) -> None:
    """One keyword's unescaped string stored in its field (``msgstr[n]`` under ``n``)."""
    if key == "msgctxt":
        entry.msgctxt = value
    elif key == "msgid":
        entry.msgid = value
    elif key == "msgid_plural":
        entry.msgid_plural = value
    elif key == "msgstr":
        entry.msgstr[None] = value
    else:
        entry.msgstr[int(key[7:-1])] = value


def detect_width(lines: list[str], entries: list[Entry]) -> int:
    """The wrap width the file was written with, judged from its own wrapped strings.

    Each inner line of a wrapped string bounds the width from below (it fit) and, with the
    first word of the next line, from above (that word did not fit). The common writers use 76
    (babel, sphinx-intl), 78 (polib) or 79 (GNU gettext): take the smallest of those the bounds
    allow, else the lower bound, so new lines never get longer than the file's own. Files whose
    long strings sit on one line (Sphinx's own .pot output) are not wrapped (0)."""
    low, high = 0, 10**9
    longest_single = 0
    for entry in entries:
        for _key, first, end in entry.keyword_lines:
            body = [lines[i].rstrip("\r\n").strip() for i in range(first, end)]
            if len(body) == 1:
                longest_single = max(longest_single, len(body[0]))
                continue
            for row, following in itertools.pairwise(body[1:]):
                if row.endswith('\\n"'):
                    continue
                low = max(low, len(row))
                word = re.match(r'"(\s*\S+\s?)', following)
                if word:
                    high = min(high, len(row) + len(word.group(1)) - 1)
    if low:
        return next((w for w in _STANDARD_WIDTHS if low <= w <= high), low)
    if longest_single > 80:
        return 0
    return 76


def format_string(keyword: str, value: str, width: int, prefix: str = "") -> list[str]:
    """``keyword "value"`` as PO lines wrapped like gettext: on spaces, between CJK characters,
    and after every escaped newline; each line at most ``width`` characters when possible."""
    escaped = escape(value)
    single = f'{prefix}{keyword} "{escaped}"'
    has_inner_newline = "\\n" in escaped[:-2]
    if (width <= 0 or len(single) <= width) and not has_inner_newline:
        return [single]
    chunks: list[str] = []
    for piece in re.split(r"(?<=\\n)", escaped):
        if piece:
            chunks.extend(_wrap(piece, width - 2 - len(prefix)) if width > 0 else [piece])
    return [f'{prefix}{keyword} ""'] + [f'{prefix}"{c}"' for c in chunks]


def _wrap(escaped: str, room: int) -> list[str]:
    """Split an escaped string into lines of at most ``room`` characters at allowed breaks."""
    room = max(room, 10)
    out: list[str] = []
    while len(escaped) > room:
        cut = 0
        for i in range(1, room + 1):
            prev, nxt = escaped[i - 1], escaped[i] if i < len(escaped) else ""
            if prev == "\\" and backslash_escaped(escaped, i):
                continue  # never split an escape sequence
            if prev == " " and nxt != " ":
                cut = i
            elif _CJK_RE.match(prev) or (nxt and _CJK_RE.match(nxt) and prev != "\\"):
                cut = i if not nxt or nxt not in "，。、；：！？）」』】" else cut
        if cut <= 0:  # no break opportunity within the room: break at the next one
            m = re.search(r"(?<=[ ])(?=[^ ])", escaped[room:])
            if not m:
                break
            cut = room + m.start()
        out.append(escaped[:cut])
        escaped = escaped[cut:]
    if escaped:
        out.append(escaped)
    return out


@dataclass
class Edit:
    """A new translation for one entry, and the machine marker to record with it."""

    entry: Entry
    msgstr: str
    plural: bool = False
    fuzzy: bool = True  # False: written translated, with the ``translated`` marker


def apply_edits(catalog: Catalog, edits: list[Edit]) -> str:
    """The file's text with every edit applied and nothing else changed."""
    return apply_edits_mapped(catalog, edits)[0]


def apply_edits_mapped(catalog: Catalog, edits: list[Edit]) -> tuple[str, list[int]]:
    """``apply_edits`` plus where each old line (0-based) is in the new text, so problems can
    be reported at the line the user will see after the write."""
    plan = _LinePlan()
    for edit in edits:
        _plan_msgstr(plan, catalog, edit)
        _plan_flags(plan, catalog, edit)
        _plan_marker(plan, edit)
    return plan.apply(catalog.lines)


@dataclass
class _LinePlan:
    """The line edits of a whole file, gathered before any is made, so every entry's line
    numbers stay those of the file as read."""

    replace: dict[int, list[str] | None] = field(default_factory=dict)  # line -> replacement lines (None deletes)
    insert: dict[int, list[str]] = field(default_factory=dict)  # before line -> new lines

    def apply(self, lines: list[str]) -> tuple[str, list[int]]:
        """The new text, and where each old line went (the first line of what replaced it)."""
        eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        out: list[str] = []
        where: list[int] = []
        for n, line in enumerate(lines):
            out.extend(x + eol for x in self.insert.get(n, []))
            where.append(len(out))
            if n in self.replace:
                out.extend(x + eol for x in (self.replace[n] or []))
            else:
                out.append(line)
        return "".join(out), where


def _plan_msgstr(plan: _LinePlan, catalog: Catalog, edit: Edit) -> None:
    """The stored msgstr lines give way to the new one, wrapped the way the file wraps."""
    stored = [(k, a, b) for k, a, b in edit.entry.keyword_lines if k.startswith("msgstr")]
    first, last = stored[0][1], stored[-1][2]
    keyword = "msgstr[0]" if edit.plural else "msgstr"
    plan.replace[first] = format_string(keyword, edit.msgstr, catalog.width)
    for n in range(first + 1, last):
        plan.replace[n] = None


def _plan_flags(plan: _LinePlan, catalog: Catalog, edit: Edit) -> None:
    """``fuzzy`` added or dropped on the flag line (one is inserted before the entry's first
    ``#|``/keyword line when it has none); a translated write drops the ``#|`` previous strings,
    which belong to a fuzzy match only."""
    e = edit.entry
    flags = (["fuzzy"] if edit.fuzzy else []) + [f for f in e.flags if f != "fuzzy"]
    flag_line = "#, " + ", ".join(flags)
    if e.flags_line is not None:
        plan.replace[e.flags_line] = [flag_line] if flags else None
    elif flags:
        heads = ("#|", "msgctxt", "msgid")
        at = next((n for n in range(e.start, e.end) if catalog.lines[n].startswith(heads)), e.msgid_line)
        plan.insert.setdefault(at, []).append(flag_line)
    if not edit.fuzzy:
        for n in range(e.start, e.end):
            if catalog.lines[n].startswith("#|"):
                plan.replace[n] = None


def _plan_marker(plan: _LinePlan, edit: Edit) -> None:
    """Our marker comment with the new text's hash: in place of the old one, else first."""
    word = "" if edit.fuzzy else f" {TRANSLATED}"
    marker = f"# {MARKER}{word} {text_hash(edit.msgstr)}"
    old_marker = next((n for n, text in edit.entry.comments if text.startswith(f"# {MARKER}")), None)
    if old_marker is not None:
        plan.replace[old_marker] = [marker]
    else:
        plan.insert.setdefault(edit.entry.start, []).insert(0, marker)


def check_edits(before: str, after: str, edits: list[Edit], path: str) -> None:
    """Parse the edited text and make sure exactly the intended translations changed."""
    old, new = parse_po(before), parse_po(after)
    wanted = {(e.entry.msgctxt, e.entry.msgid): e for e in edits}
    old_entries = [(x.msgctxt, x.msgid, x.obsolete) for x in old]
    new_entries = [(x.msgctxt, x.msgid, x.obsolete) for x in new]
    if old_entries != new_entries:
        raise CatalogError(f"{path}: internal error: editing would change the entries; file left as it was")
    for a, b in zip(old, new):
        edit = wanted.get((a.msgctxt, a.msgid)) if not a.obsolete else None
        if edit is None:
            if (a.msgstr, a.msgstr_plural, a.flags, a.comment) != (b.msgstr, b.msgstr_plural, b.flags, b.comment):
                raise CatalogError(f"{path}:{a.linenum}: internal error: an entry we did not fill would change")
            continue
        got = b.msgstr_plural.get(0) if edit.plural else b.msgstr
        if got != edit.msgstr or ("fuzzy" in b.flags) != edit.fuzzy:
            raise CatalogError(f"{path}:{a.linenum}: internal error: the new translation does not read back")
