"""The build's view of the PO files: reviewed translations for segments, checked first.

A reviewed entry (``msgstr`` set, not fuzzy, not obsolete) wins over the machine cache and the
model. Its Markdown is turned back into the segment's placeholder form against the source's own
protected parts; an entry that lost a URL or code span, or adds HTML, a script or a link, is
rejected with a warning naming the PO file and line, and the segment falls back to the machine
translation (or English). Nothing here ever writes a PO file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polib

from ..pipeline.cache import Hit
from ..pipeline.origin import Origin
from ..segment import Segment, SegmentedPage, from_readable
from .store import PoReader, display, entry_state, has_po_files, page_po_path, site_po_path
from .units import Key, Unit, entry_key, page_units, string_units


@dataclass
class PageReview:
    """Reviewed translations of one page: segment index -> hit, and rejected entries."""

    hits: dict[int, Hit] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    stale: int = 0  # reviewed entries of the page's file whose English changed (see stale_entries)
    suggested: int = 0  # translation-memory suggestions in the page's file, awaiting a reviewer


def review_problems(unit: Unit, text: str) -> list[str]:
    """Why the build would reject ``text`` as the translation of ``unit`` (lost or added
    markup, controls); empty when it fits."""
    return from_readable(unit.segment or Segment(unit.text, 0, 0, 1, "string"), text).problems


def reviewed_text(entry: polib.POEntry | None) -> str | None:
    if entry is None or entry.obsolete or not entry.msgstr or "fuzzy" in entry.flags:
        return None
    return entry.msgstr


class ReviewedLayer:
    """Answers "has a person translated this segment?" from ``review_dir``'s PO files."""

    def __init__(self, review_dir: Path, reader: PoReader | None = None) -> None:
        self.review_dir = review_dir
        self.reader = reader or PoReader(review_dir)

    def check(self, unit: Unit, entry: polib.POEntry, path: Path) -> tuple[str | None, str | None]:
        """(placeholder translation, None) or (None, warning); (None, None) when ``entry`` is not
        reviewed. The one reading of a reviewed entry: the build and ``eval`` share it."""
        text = reviewed_text(entry)
        if text is None:
            return None, None
        segment = unit.segment or Segment(unit.text, 0, 0, 1, "string")
        parsed = from_readable(segment, text)
        if parsed.problems:
            where = f"{display(path)}:{entry.linenum}"
            return None, (
                f"{where}: reviewed translation rejected ({'; '.join(parsed.problems)}); "
                "using the machine translation for this segment"
            )
        return parsed.text, None

    def reviewed(
        self,
        path: Path,
        units: Iterable[Unit],
        warnings: list[str],
        entries: dict[Key, polib.POEntry] | None = None,
    ) -> Iterator[tuple[Unit, polib.POEntry, str]]:
        """Each of ``units`` that ``path``'s file (its ``entries`` when the caller has them)
        holds a usable reviewed translation of: the unit, its entry, the placeholder text. A
        rejected entry's warning goes to ``warnings``. The one lookup loop the build (pages,
        site strings) and ``eval``'s references share, so they never disagree on an entry."""
        if entries is None:
            entries = self.reader.index(path)
        for unit in units:
            entry = entries.get(unit.key)
            if entry is None:
                continue
            text, warning = self.check(unit, entry, path)
            if warning:
                warnings.append(warning)
            if text is not None:
                yield unit, entry, text

    def page(self, src_uri: str, page: SegmentedPage, location: str, line_offset: int = 0) -> PageReview:
        """Reviewed hits for ``page``'s segments (raises ReviewError for a malformed file)."""
        review = PageReview()
        page_path, site_path = page_po_path(self.review_dir, src_uri), site_po_path(self.review_dir)
        units, site_units = page_units(page, location, line_offset)
        for path, group in ((page_path, units), (site_path, site_units)):
            if not group:
                continue
            entries = self.reader.index(path)
            if path == page_path:
                review.stale = stale_entries(entries, {u.key for u in group})
                review.suggested = sum(1 for entry in entries.values() if entry_state(entry) == "suggested")
            for unit, _entry, text in self.reviewed(path, group, review.warnings, entries):
                for index in unit.indices:
                    review.hits[index] = Hit(text, None, Origin.REVIEWED)
        return review

    def has_files(self) -> bool:
        """Whether there are PO files at all (a site nobody reviews gets no review counts)."""
        return has_po_files(self.review_dir)

    def strings(self, strings: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        """Reviewed translations of site strings (nav titles, site name, front matter)."""
        found: dict[str, str] = {}
        warnings: list[str] = []
        units = string_units((s, "") for s in strings)
        for unit, _entry, text in self.reviewed(site_po_path(self.review_dir), units, warnings):
            found[unit.text] = text
        return found, warnings


def stale_entries(entries: dict[tuple[str | None, str], polib.POEntry], current: set[tuple[str | None, str]]) -> int:
    """Reviews the build cannot use because the English changed: entries ``review sync``
    already marked (fuzzy, with the old ``#| msgid``), and reviewed entries whose source is no
    longer on the page (the next sync turns them into such suggestions, or obsolete ones when
    the paragraph is gone)."""
    return sum(
        1
        for key, entry in entries.items()
        if entry_state(entry) == "stale" or (key not in current and reviewed_text(entry) is not None)
    )


def rejected_entries(units: Sequence[Unit], po: polib.POFile) -> dict[tuple[str | None, str], list[str]]:
    """Reviewed entries of ``po`` whose text the build would reject, with the reasons."""
    by_key = {u.key: u for u in units}
    found: dict[tuple[str | None, str], list[str]] = {}
    for entry in po:
        text = reviewed_text(entry)
        unit = by_key.get(entry_key(entry))
        if text is None or unit is None:
            continue
        problems = review_problems(unit, text)
        if problems:
            found[unit.key] = problems
    return found
