"""PO strings wrapped the way GNU gettext's tools write them (``msgcat``, ``msgmerge``, Poedit).

Translators open the review files with gettext-based tools, which rewrite every string with
their own wrapping; if ours differed, each save would re-wrap the whole file and the next
``review sync`` would wrap it back: diffs nobody wrote. So this module reproduces gettext's
``write-po.c`` layout (as of gettext 0.21 with libunistring 1.0):

* a string is split after every ``\\n`` escape; when it has more than one such part, or its first
  part does not fit on the keyword's line, the keyword line holds ``""`` and the text follows on
  continuation lines;
* lines break only at Unicode line-break opportunities (UAX #14: after spaces, after ``/`` or
  ``-`` before letters, between Han characters, never before 。，）」 nor after （「), never inside
  an escape (``\\"``, ``\\\\``, ``\\n``, ``\\t``), each line at most ``width`` columns with its
  quotes, East Asian wide characters counting two columns;
* a ``width`` of 0 or less writes each part on one line (``msgcat --no-wrap``).

Pure functions, no IO. Known limits (outside the property tests, which compare with ``msgcat``
byte for byte): classes of Unicode characters newer than Python's ``unicodedata``, dictionary-based
scripts (Thai, Lao, Khmer, Myanmar: libunistring breaks them with no dictionary either, but its
handling of their combining marks may differ), and emoji modifier sequences may break at other
places than gettext's; ``review sync`` keeps a file's bytes whenever its content is unchanged,
so a file another tool wrapped is never rewritten for its layout alone.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

DEFAULT_WIDTH = 79  # gettext's page width

_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v", "\\": "\\", '"': '"'}

# break opportunities before a character
PROHIBITED, POSSIBLE, MANDATORY = 0, 1, 2

# libunistring's uc_width disagrees with Unicode's East Asian width / general category here
_WIDTH_EXCEPTIONS = {0x0CBF: 1, 0x0CC6: 1, 0x11A07: 1, 0x11A08: 1, 0x11C3F: 1}
_ZERO_WIDTH_LO = ((0xD7B0, 0xD7C6), (0xD7CB, 0xD7FB), (0x1160, 0x11FF))


def char_width(ch: str) -> int:
    """Columns ``ch`` takes in a terminal (libunistring's ``uc_width`` for UTF-8): 2 for East
    Asian wide and full-width characters, 0 for combining marks and format characters."""
    cp = ord(ch)
    if cp in _WIDTH_EXCEPTIONS:
        return _WIDTH_EXCEPTIONS[cp]
    category = unicodedata.category(ch)
    if category == "Cc":
        return 0  # gettext ignores control characters' width
    if category in ("Mn", "Me", "Cf") or any(lo <= cp <= hi for lo, hi in _ZERO_WIDTH_LO):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def derived_class(cp: int) -> str:
    """The UAX #14 line-break class most characters have, guessed from ``unicodedata``;
    :data:`.linebreak_data.EXCEPTIONS` lists the code points where the guess is wrong."""
    ch = chr(cp)
    category = unicodedata.category(ch)
    if 0xAC00 <= cp <= 0xD7A3:  # Hangul syllables: LV (no final consonant) or LVT
        return "H2" if (cp - 0xAC00) % 28 == 0 else "H3"
    if category in ("Mn", "Mc", "Me", "Cc"):
        return "CM"
    if category in ("Cn", "Co", "Cs"):
        return "AL"
    if category == "Nd":
        return "NU"
    if category == "Ps":
        return "OP"
    if category == "Pe":
        return "CL"
    if category in ("Pi", "Pf"):
        return "QU"
    if category == "Zs":
        return "BA"
    if unicodedata.east_asian_width(ch) in ("W", "F") and category not in ("Po", "Pd"):
        return "ID"
    if category == "Sc":
        return "PR"
    return "AL"


@lru_cache(maxsize=1)
def _exceptions() -> tuple[list[int], list[int], list[str]]:
    from .linebreak_data import EXCEPTIONS

    starts: list[int] = []
    ends: list[int] = []
    classes: list[str] = []
    for row in EXCEPTIONS.strip().splitlines():
        start, end, klass = row.split()
        starts.append(int(start, 16))
        ends.append(int(end, 16))
        classes.append(klass)
    return starts, ends, classes


@lru_cache(maxsize=4096)
def line_break_class(ch: str) -> str:
    """The UAX #14 class of ``ch`` as libunistring resolves it for UTF-8 text (rule LB1:
    ambiguous and SA characters are alphabetic, CJ is NS)."""
    cp = ord(ch)
    starts, ends, classes = _exceptions()
    index = bisect.bisect_right(starts, cp) - 1
    klass = classes[index] if index >= 0 and cp <= ends[index] else derived_class(cp)
    if klass == "SA":
        return "AL"  # libunistring has no dictionary for Thai, Lao, Khmer, Myanmar
    if klass == "CJ":
        return "NS"
    return klass


_NO_BREAK_BEFORE = frozenset({"CL", "CP", "EX", "IS", "SY"})
_ALPHA = frozenset({"AL", "HL"})
_LB25 = frozenset(
    {
        ("CL", "PO"), ("CP", "PO"), ("CL", "PR"), ("CP", "PR"), ("NU", "PO"), ("NU", "PR"), ("PO", "OP"),
        ("PO", "NU"), ("PR", "OP"), ("PR", "NU"), ("HY", "NU"), ("IS", "NU"), ("NU", "NU"), ("SY", "NU"),
    }
)  # fmt: skip
_KOREAN = frozenset(
    {
        ("JL", "JL"), ("JL", "JV"), ("JL", "H2"), ("JL", "H3"), ("JV", "JV"), ("JV", "JT"), ("H2", "JV"),
        ("H2", "JT"), ("JT", "JT"), ("H3", "JT"),
    }
)  # fmt: skip
_KOREAN_ALL = frozenset({"JL", "JV", "JT", "H2", "H3"})


def _narrow(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) not in ("F", "W", "H")


def break_opportunities(text: str) -> list[int]:
    """For each character of ``text``: may a line break before it (UAX #14, as libunistring
    reads it)? :data:`PROHIBITED` or :data:`POSSIBLE`; :data:`MANDATORY` marks a hard line break
    character itself (U+2028, NEL, a raw LF), after which a new line starts. No break comes
    before the first character, nor after spaces that begin the text."""
    out = [PROHIBITED] * len(text)
    classes = [line_break_class(ch) for ch in text]
    base: str | None = None  # the class of the last character that is not a combining mark
    base_ch = ""
    before_spaces = ""  # the class before the current run of spaces (LB8, LB14-LB17)
    before_base = ""  # the class before ``base`` (LB21a)
    previous_raw = ""
    regional = 0  # regional indicators in a row (LB30a)
    marked = False  # the base character carries combining marks
    for i, ch in enumerate(text):
        b = classes[i]
        if b in ("BK", "CR", "LF", "NL"):
            out[i] = MANDATORY
            base, previous_raw, regional = None, b, 0
            continue
        if base is None:  # start of the text or of a line: no break, and none after spaces
            if b != "SP":
                base = "AL" if b in ("CM", "ZWJ") else b
                base_ch, before_spaces, before_base = ch, base, ""
                regional = 1 if b == "RI" else 0
            previous_raw = b
            continue
        a = base
        if b in ("SP", "ZW"):
            result = PROHIBITED
        elif before_spaces == "ZW" and a in ("ZW", "SP"):
            result = POSSIBLE
        elif b in ("CM", "ZWJ") and a not in ("SP", "ZW"):
            previous_raw = b  # LB9: the mark belongs to the character before it
            marked = True
            continue
        elif b in ("CM", "ZWJ") and a == "SP":
            result = POSSIBLE  # libunistring: a mark after a space starts a new piece
        elif previous_raw == "ZWJ":
            result = PROHIBITED
        else:
            if b in ("CM", "ZWJ"):
                b = "AL"  # LB10
            result = _pair(a, b, before_spaces, before_base, base_ch, ch, regional)
        out[i] = result
        previous_raw = classes[i]
        if b in ("CM", "ZWJ"):
            b = "AL"
        if b != "SP":
            before_spaces = b
        elif a != "SP":
            before_spaces = a
        before_base = "" if marked else a  # libunistring: no LB21a after a marked HL
        marked = False
        regional = regional + 1 if b == "RI" else 0
        base, base_ch = b, ch
    return out


def _pair(a: str, b: str, before_spaces: str, before_base: str, a_ch: str, b_ch: str, regional: int) -> int:
    """Rules LB11 to LB31 for the characters of classes ``a`` and ``b``, as libunistring 1.0
    applies them: LB16 across spaces only after CL, no LB29 (it breaks ``e.g`` after the full stop).
    The rules are tried in UAX #14's order, one group of them per helper; the first that decides wins."""
    verdict = _glue_and_spaces(a, b, before_spaces)
    if verdict is None:
        verdict = _quotes_and_breaks(a, b, before_base)
    if verdict is None:
        verdict = _numbers_and_affixes(a, b)
    if verdict is None:
        verdict = _scripts_and_emoji(a, b, a_ch, b_ch, regional)
    return POSSIBLE if verdict is None else verdict


def _glue_and_spaces(a: str, b: str, before_spaces: str) -> int | None:
    """LB11 to LB18: word joiners and glue, closing punctuation, and what spaces do (a space
    after an opening bracket or quote still binds; any other space is a break opportunity)."""
    no = PROHIBITED
    if a == "WJ" or b == "WJ" or a == "GL":
        return no
    if b == "GL" and a not in ("SP", "BA", "HY"):
        return no
    if b in _NO_BREAK_BEFORE:
        return no
    if before_spaces == "OP" and a in ("OP", "SP"):
        return no
    if before_spaces == "QU" and a in ("QU", "SP") and b == "OP":
        return no
    if (before_spaces == "CL" or a == "CP") and b == "NS":  # libunistring: CP only without spaces
        return no
    if before_spaces == "B2" and a in ("B2", "SP") and b == "B2":
        return no
    if a == "SP":
        return POSSIBLE
    return None


def _quotes_and_breaks(a: str, b: str, before_base: str) -> int | None:
    """LB19 to LB22: quotes, contingent breaks, hyphens and other break-after marks, and
    inseparable characters (ellipses)."""
    no = PROHIBITED
    if a == "QU" or b == "QU":
        return no
    if a == "CB" or b == "CB":
        return POSSIBLE
    if b in ("BA", "HY", "NS") or a == "BB":
        return no
    if a in ("HY", "BA") and before_base == "HL":
        return no
    if a == "SY" and b == "HL":
        return no
    if b == "IN":
        return no
    return None


def _numbers_and_affixes(a: str, b: str) -> int | None:
    """LB23 to LB25: letters next to digits, and currency or percent signs next to numbers,
    ideographs and letters stay together."""
    no = PROHIBITED
    if (a in _ALPHA and b == "NU") or (a == "NU" and b in _ALPHA):
        return no
    if (a == "PR" and b in ("ID", "EB", "EM")) or (a in ("ID", "EB", "EM") and b == "PO"):
        return no
    if (a in ("PR", "PO") and b in _ALPHA) or (a in _ALPHA and b in ("PR", "PO")):
        return no
    if (a, b) in _LB25:
        return no
    return None


def _scripts_and_emoji(a: str, b: str, a_ch: str, b_ch: str, regional: int) -> int | None:
    """LB26 to LB30b: Korean syllable blocks, letters in a row, narrow brackets against letters,
    flag pairs of regional indicators, and emoji with their modifiers."""
    no = PROHIBITED
    if (a, b) in _KOREAN or (a in _KOREAN_ALL and b == "PO") or (a == "PR" and b in _KOREAN_ALL):
        return no
    if a in _ALPHA and b in _ALPHA:
        return no
    if (a in ("AL", "HL", "NU") and b == "OP" and _narrow(b_ch)) or (
        a == "CP" and _narrow(a_ch) and b in ("AL", "HL", "NU")
    ):
        return no
    if a == "RI" and b == "RI" and regional % 2 == 1:
        return no
    if a == "EB" and b == "EM":
        return no
    return None


def escape(text: str) -> str:
    """``text`` as the inside of a PO string: ``\\``, ``"`` and the C control escapes."""
    return "".join("\\" + _ESCAPES[ch] if ch in _ESCAPES else ch for ch in text)


def fit_breaks(text: str, opportunities: Sequence[int], width: int, start_column: int) -> list[bool]:
    """Where to break ``text`` (True before a character) so that each line takes at most
    ``width`` columns, the first starting at ``start_column``: at each line-break opportunity,
    the previous one becomes a break when the text since it no longer fits (libunistring's
    ``u8_width_linebreaks``). A piece longer than the width stays whole."""
    breaks = [False] * len(text)
    last: int | None = None
    column = start_column
    piece = 0
    for i, ch in enumerate(text):
        kind = opportunities[i]
        if kind != PROHIBITED and last is not None and column + piece > width:
            breaks[last] = True
            column = 0
        if kind == MANDATORY:
            last, column, piece = None, 0, 0
        else:
            if kind == POSSIBLE:
                last = i
                column += piece
                piece = 0
            piece += char_width(ch)
    if last is not None and column + piece > width:
        breaks[last] = True
    return breaks


def wrap_string(keyword: str, value: str, width: int = DEFAULT_WIDTH, prefix: str = "") -> list[str]:
    """The lines gettext writes for ``keyword "value"`` (``msgid``, ``msgstr``, ``msgctxt``),
    each starting with ``prefix`` (``#~ `` for an obsolete entry, ``#| `` for a previous msgid)."""
    parts = _split_after_newlines(value)
    lines: list[str] = []
    after_break = len(prefix) + 1  # a continuation line's text starts after its opening quote
    avail = (width if width > 0 else 0) - 1 - after_break
    first = True
    for part in parts:
        escaped = escape(part)
        if width <= 0:
            if first and len(parts) > 1:
                lines.append(f'{prefix}{keyword} ""')
                first = False
            lines.append(f'{prefix}{keyword} "{escaped}"' if first else f'{prefix}"{escaped}"')
            first = False
            continue
        allowed = _allowed(part, escaped)
        start = len(prefix) + (len(keyword) + 1 if first else 0) + 1 - after_break
        breaks = fit_breaks(escaped, allowed, avail, start)
        if first and escaped and (len(parts) > 1 or start > avail or any(breaks)):
            lines.append(f'{prefix}{keyword} ""')
            first = False
            start = len(prefix) + 1 - after_break
            breaks = fit_breaks(escaped, allowed, avail, start)
        head = f"{prefix}{keyword} " if first else prefix
        first = False
        pieces, begin = [], 0
        for i, cut in enumerate(breaks):
            if cut:
                pieces.append(escaped[begin:i])
                begin = i
        pieces.append(escaped[begin:])
        lines.append(f'{head}"{pieces[0]}"')
        lines.extend(f'{prefix}"{piece}"' for piece in pieces[1:])
    return lines


def _split_after_newlines(value: str) -> list[str]:
    parts: list[str] = []
    begin = 0
    for i, ch in enumerate(value):
        if ch == "\n" and i + 1 < len(value):
            parts.append(value[begin : i + 1])
            begin = i + 1
    parts.append(value[begin:])
    return parts


def _allowed(part: str, escaped: str) -> list[int]:
    """The break opportunities of an escaped part: UAX #14's, except inside an escape sequence
    and before the final ``\\n`` (gettext's overrides)."""
    allowed = break_opportunities(escaped)
    i = 0
    for ch in part:
        if ch in _ESCAPES:
            allowed[i + 1] = PROHIBITED
            i += 2
        else:
            i += 1
    if part.endswith("\n"):
        allowed[-2] = PROHIBITED  # never a line holding only the final \n
    return allowed
