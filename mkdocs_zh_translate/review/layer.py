"""The build's view of the PO files: reviewed translations for segments, checked first.

A reviewed entry (``msgstr`` set, not fuzzy, not obsolete) wins over the machine cache and the
model. Its Markdown is turned back into the segment's placeholder form against the source's own
protected parts; an entry that lost a URL or code span, or adds HTML, a script or a link, is
rejected with a warning naming the PO file and line, and the segment falls back to the machine
translation (or English). Nothing here ever writes a PO file.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polib

from ..pipeline.cache import Hit
from ..pipeline.origin import Origin
from ..segment import Segment, SegmentedPage, from_readable
from .moved import Found, lookup, moved_away
from .store import PAGE_SUFFIX, PoReader, display, entry_state, has_po_files, page_po_path, site_po_path
from .units import Key, Unit, entry_key, loose_key, merge_site_units, page_units, string_units


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
        self._found: Found | None = None  # the site-wide view of the last :meth:`pages` pass
        self._warned: set[str] = set()  # the rejections that pass reported (not repeated by strings)
        # ``review serve`` translates one page of the site per save: the other pages' keys (and
        # the site-wide ones) are those of its full pass, so a review another page holds is not
        # taken for one that moved away. Every other front end passes the whole site each time.
        self.partial_passes = False
        self._site_keys: tuple[dict[str, set[Key]], set[Key]] | None = None
        self._moved: dict[Path, tuple[polib.POFile | None, set[Key], dict[Key, tuple[Path, polib.POEntry]]]] = {}

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
        found: Found | None = None,
    ) -> Iterator[tuple[Unit, polib.POEntry, str]]:
        """Each of ``units`` that ``path``'s file (its ``entries`` when the caller has them)
        holds a usable reviewed translation of: the unit, its entry, the placeholder text. A
        rejected entry's warning goes to ``warnings``. The one lookup loop the build (pages,
        site strings) and ``eval``'s references share, so they never disagree on an entry.
        With ``found`` (the build), a unit the file holds no active entry for is looked up as
        ``review sync`` would fill it (:func:`.moved.lookup`): the file's obsolete entry of a
        text that came back, else a review that moved here from another page."""
        if entries is None:
            entries = self.reader.index(path)
        units = list(units)
        missing = any(u.key not in entries for u in units)
        obsolete = obsolete_index(self.reader.get(path)) if found is not None and missing else {}
        loose = self.reader.loose(path) if missing else {}
        taken = {u.key for u in units}  # an entry a unit has exactly is no other unit's loose match
        for unit in units:
            where, entry, spaces = path, entries.get(unit.key), False
            if entry is None:
                where, entry, spaces = self._elsewhere(path, unit, (entries, obsolete), loose, taken, found)
            if entry is None:
                continue
            text, warning = self.check(unit, entry, where)
            if warning and not spaces:  # a re-spaced English whose review no longer fits: stale
                warnings.append(warning)
            if text is not None:
                yield unit, entry, text

    def _elsewhere(
        self,
        path: Path,
        unit: Unit,
        own: tuple[dict[Key, polib.POEntry], dict[Key, polib.POEntry]],
        loose: dict[Key, Key],
        taken: set[Key],
        found: Found | None,
    ) -> tuple[Path, polib.POEntry | None, bool]:
        """The entry ``review sync`` gives a unit its file has no active entry for, in sync's
        order: the file's obsolete one (the text came back), an unused active one whose English
        differs in spaces only (flagged: used only where its translation still fits), a review
        that moved here from another page (:func:`.moved.lookup`). ``own``: the file's active
        and obsolete entries by key."""
        active, obsolete = own
        if found is not None and unit.key in obsolete:
            return path, _revived(obsolete[unit.key]), False
        old = loose.get(loose_key(unit.key))
        if old is not None and old not in taken:
            taken.add(old)
            return path, active[old], True
        if found is not None:
            got = lookup(path, [unit.key], {}, {}, found).get(unit.key)
            if got is not None:
                return got[0], _revived(got[1]), False
        return path, None, False

    def page(
        self, src_uri: str, page: SegmentedPage, location: str, line_offset: int = 0, found: Found | None = None
    ) -> PageReview:
        """Reviewed hits for ``page``'s segments (raises ReviewError for a malformed file).
        ``found``: the site-wide view of moved reviews (:meth:`pages`), else this page alone."""
        review = PageReview()
        page_path, site_path = page_po_path(self.review_dir, src_uri), site_po_path(self.review_dir)
        units, site_units = page_units(page, location, line_offset)
        for path, group in ((page_path, units), (site_path, site_units)):
            if not group:
                continue
            entries = self.reader.index(path)
            used: set[Key] = set()  # the entries found (a loosely matched one is not stale)
            for unit, entry, text in self.reviewed(path, group, review.warnings, entries, found):
                used.add(entry_key(entry))
                for index in unit.indices:
                    review.hits[index] = Hit(text, None, Origin.REVIEWED)
            if path == page_path:
                review.stale = stale_entries(entries, {u.key for u in group} | used)
                review.suggested = sum(1 for entry in entries.values() if entry_state(entry) == "suggested")
        return review

    def pages(
        self, jobs: Sequence[tuple[str, SegmentedPage, str, int]], strings: Sequence[str] = ()
    ) -> dict[str, PageReview]:
        """:meth:`page` for every page of the site, ``(src_uri, page, location, line_offset)``,
        with the site's strings: a reviewed text that moved to another page is found where it
        now stands, as ``review sync`` will put it (every PO file is read), and is not counted
        stale in the file it left. Remembered for :meth:`strings` of the same pass."""
        keys = {src: page_units(page, location, offset) for src, page, location, offset in jobs}
        site_units = merge_site_units([*(s for _p, s in keys.values()), string_units((t, "") for t in strings)])
        page_keys = {src: {u.key for u in keys[src][0]} for src in keys}
        site_keys = {u.key for u in site_units}
        if self.partial_passes:
            page_keys, site_keys = self._whole_site(page_keys, site_keys)
        files = [(page_po_path(self.review_dir, src), page_keys[src]) for src in sorted(page_keys)]
        files.append((site_po_path(self.review_dir), site_keys))
        known = {path for path, _keys in files}
        if self.review_dir.is_dir():
            orphans = sorted(self.review_dir.rglob("*" + PAGE_SUFFIX))
            files.extend((p, set()) for p in orphans if p not in known and not p.name.startswith("."))
        self._found = found = Found(self._moved_away(files))
        reviews = {src: self.page(src, page, location, offset, found) for src, page, location, offset in jobs}
        self._warned = set()
        for review in reviews.values():  # a site.po entry on many pages is one rejected review: told once
            fresh = [w for w in dict.fromkeys(review.warnings) if w not in self._warned]
            self._warned.update(fresh)
            review.warnings = fresh
        for src, review in reviews.items():  # a review another page took over is not stale here
            entries = self.reader.index(page_po_path(self.review_dir, src))
            left = found.left(page_po_path(self.review_dir, src))
            review.stale -= sum(1 for key in left if key in entries and entry_state(entries[key]) == "reviewed")
        return reviews

    def _moved_away(self, files: Sequence[tuple[Path, set[Key]]]) -> dict[Key, tuple[Path, polib.POEntry]]:
        """:func:`.moved.moved_away` of ``files``; in partial passes each file's share is kept
        while its parse and its keys stay the same (one save changes one file of hundreds)."""
        if not self.partial_passes:
            return moved_away((path, self.reader.get(path), kept) for path, kept in files)
        moved: dict[Key, tuple[Path, polib.POEntry]] = {}
        for path, kept in files:
            po = self.reader.get(path)
            cached = self._moved.get(path)
            if cached is None or cached[0] is not po or cached[1] != kept:
                cached = self._moved[path] = (po, set(kept), moved_away([(path, po, kept)]))
            for key, found in cached[2].items():  # the first file's wins, as moved_away decides
                moved.setdefault(key, found)
        return moved

    def _whole_site(
        self, page_keys: dict[str, set[Key]], site_keys: set[Key]
    ) -> tuple[dict[str, set[Key]], set[Key]]:
        """This pass's keys completed with the first pass's for the pages it does not hold."""
        if self._site_keys is None:
            self._site_keys = (dict(page_keys), set(site_keys))
            return page_keys, site_keys
        pages, site = self._site_keys
        pages.update(page_keys)
        return dict(pages), site | site_keys

    def has_files(self) -> bool:
        """Whether there are PO files at all (a site nobody reviews gets no review counts)."""
        return has_po_files(self.review_dir)

    def strings(self, strings: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        """Reviewed translations of site strings (nav titles, site name, front matter)."""
        found: dict[str, str] = {}
        warnings: list[str] = []
        units = string_units((s, "") for s in strings)
        for unit, _entry, text in self.reviewed(site_po_path(self.review_dir), units, warnings, found=self._found):
            found[unit.text] = text
        return found, [w for w in dict.fromkeys(warnings) if w not in self._warned]


def obsolete_index(po: polib.POFile | None) -> dict[Key, polib.POEntry]:
    """The obsolete entries of ``po`` by key (what ``review sync`` revives when a text returns)."""
    return {entry_key(e): e for e in po or [] if e.obsolete}


def _revived(entry: polib.POEntry) -> polib.POEntry:
    """An obsolete entry as ``review sync`` brings it back (same text, flags and line)."""
    if not entry.obsolete:
        return entry
    revived = copy.copy(entry)
    revived.obsolete = False
    return revived


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
