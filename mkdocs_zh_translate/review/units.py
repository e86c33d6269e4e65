"""What a page (and the site) contributes to the PO files: one *unit* per PO entry.

Both ``review sync`` (writing entries) and the build (looking them up) derive the entries'
keys here, from the same segments, so the two can never disagree about which entry belongs to
which segment. A unit is a distinct readable source text; the same text twice on a page is one
entry with two ``#:`` references, as gettext does. ``msgctxt`` appears only when one readable
text stands for different segments (e.g. a heading and a table cell whose markup differs), i.e.
only where the same text may need different translations.

msgids carry no soft line breaks (:func:`~..segment.soft_breaks_as_spaces`): re-wrapping a
paragraph keeps its entry. Entries written before that are found through :func:`entry_key`,
which reads every file's msgids the same way, and ``review sync`` rewrites them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polib

from ..segment import Segment, SegmentedPage, soft_breaks_as_spaces, to_readable


@dataclass
class Unit:
    """One PO entry's source: readable ``msgid``, optional ``msgctxt``, placeholder ``text``."""

    msgid: str
    msgctxt: str | None
    text: str  # the placeholder form the translator and the cache see
    kind: str
    segment: Segment | None  # None for plain site strings (nav titles, site name, ...)
    occurrences: list[tuple[str, str]] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)  # segment indices within its page

    @property
    def key(self) -> Key:
        return (self.msgctxt, self.msgid)


Key = tuple[str | None, str]
_SPACES = re.compile(r"[ \t]+")  # one class, one quantifier: linear; not NBSP, which renders


def entry_key(entry: polib.POEntry) -> Key:
    """The (msgctxt, msgid) a PO entry stands for, read as :class:`Unit` keys are made: a file
    written before msgids dropped soft breaks still matches, with no review lost."""
    return (entry.msgctxt, soft_breaks_as_spaces(entry.msgid))


def loose_key(key: Key) -> Key:
    """``key`` with every run of spaces as one and none at the ends: two English texts that
    differ only there render the same, so a review of one still serves the other (where its
    markup fits: spaces inside a code span are the code's, and the review's code span then
    no longer matches)."""
    return (key[0], _SPACES.sub(" ", key[1]).strip(" "))


def is_site_wide(segment: Segment) -> bool:
    """Default admonition titles ("Note", "Warning") are not written on the page: one
    translation serves the whole site, so they live in the site-wide file."""
    return segment.restore.insert_title


def page_units(page: SegmentedPage, location: str, line_offset: int = 0) -> tuple[list[Unit], list[Unit]]:
    """(this page's units, its site-wide units), each in page order."""
    units: dict[tuple[bool, str, str], Unit] = {}
    for index, segment in enumerate(page.segments):
        site = is_site_wide(segment)
        readable = soft_breaks_as_spaces(segment.text if site else to_readable(segment))
        unit = units.get((site, readable, segment.text))
        if unit is None:
            unit = units[(site, readable, segment.text)] = Unit(readable, None, segment.text, segment.kind, segment)
        ref = (location, str(segment.line + line_offset))
        if ref not in unit.occurrences:
            unit.occurrences.append(ref)
        unit.indices.append(index)
    pages = [u for (site, _r, _t), u in units.items() if not site]
    sites = [u for (site, _r, _t), u in units.items() if site]
    _add_contexts(pages)
    _add_contexts(sites)
    return pages, sites


def _add_contexts(units: Sequence[Unit]) -> None:
    """Give a msgctxt to every unit whose readable text is shared with a different segment."""
    groups: dict[str, list[Unit]] = {}
    for unit in units:
        groups.setdefault(unit.msgid, []).append(unit)
    for group in groups.values():
        if len(group) < 2:
            continue
        kinds: dict[str, int] = {}
        for unit in group:
            n = kinds.get(unit.kind, 0) + 1
            kinds[unit.kind] = n
            unit.msgctxt = unit.kind if n == 1 else f"{unit.kind} {n}"


def string_units(strings: Iterable[tuple[str, str]]) -> list[Unit]:
    """Site strings (text, where it comes from) as units of the site-wide file."""
    units: dict[str, Unit] = {}
    for text, origin in strings:
        if not text.strip():
            continue
        unit = units.setdefault(text, Unit(soft_breaks_as_spaces(text), None, text, "string", None))
        ref = (origin, "")
        if ref not in unit.occurrences:
            unit.occurrences.append(ref)
    return list(units.values())


def merge_site_units(groups: Iterable[Sequence[Unit]]) -> list[Unit]:
    """Site-wide units from every page and the site strings, one per (msgctxt, msgid)."""
    out: dict[tuple[str | None, str], Unit] = {}
    for group in groups:
        for unit in group:
            have = out.get(unit.key)
            if have is None:
                out[unit.key] = Unit(
                    unit.msgid, unit.msgctxt, unit.text, unit.kind, unit.segment, list(unit.occurrences)
                )
            else:
                have.occurrences.extend(o for o in unit.occurrences if o not in have.occurrences)
    return list(out.values())
