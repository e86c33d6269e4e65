"""Regions of a page: where the guard may cut it, and the bisection over its regions.

Rendering a region instead of the page keeps each probe of the search small (see
:class:`Regions`). A region starts where one of the page's top-level blocks starts, as the
segmenter's parse found them (``SegmentedPage.blocks``: one reading of the page, so a fence, a
pymdownx block, a raw HTML block, a loose list or a multi-line comment is never cut), after a
blank line (Python-Markdown starts a new block only there).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ._search import OverBudget, Page, bisect, bisect_segments, source_span
from ._structure import FEATURES, Structure

# Lines every region is rendered with: link reference definitions and abbreviations, which act
# on the whole page (a region without them would show `[text][ref]` as text on both sides).
_PAGE_WIDE = re.compile(r"^ {0,3}(?:\[[^\]\n^]+\]:[ \t]*\S|\*\[[^\]\n]+\]:).*$", re.MULTILINE)
# What regions are compared by: ids are left out (``toc`` numbers a repeated heading by what
# comes before it on the page; the zh heading is pinned to the page's number).
_REGION_FEATURES = tuple(f for f in FEATURES if f != "ids")
_CUT_TRIES = 3  # cuts tried per window before its segments are bisected in it as one region
_SPACE = " \t\r\n\f\v"


def _after_blank_line(source: str, start: int) -> bool:
    """Is the line before the one at ``start`` blank? (Walks back over whitespace only: the
    runs between blocks are disjoint, so a page's checks are linear in its length.)"""
    breaks, at = 0, start
    while at > 0 and source[at - 1] in _SPACE and breaks < 2:
        at -= 1
        if source[at] == "\n" or (source[at] == "\r" and source[at + 1 : at + 2] != "\n"):
            breaks += 1
    return breaks >= 2


def region_starts(page: Page) -> list[int]:
    """Offsets where a region of ``page`` may start: its top-level blocks after a blank line
    (see the module doc); 0 is not listed."""
    return [b for b in page.blocks if b > 0 and _after_blank_line(page.source, b)]


class Unusable(Exception):
    """The regions of this page cannot stand for it: search the whole page instead."""


class Regions:
    """Bisection over regions of the page, each probe rendering only the region it tests.

    A render of a big page costs hundreds of milliseconds (copier's configuring.md: 0.65 s;
    whole-page bisection needed 58 renders to find 15 segments in a code block that broke).
    The page is cut where a top-level block starts (:func:`region_starts`), between regions
    that hold translated segments, into windows that tile it; a broken window's halves are
    rendered in English and with their segments translated and compared (ids aside), down to
    one region, whose segments are then bisected rendering that region only. So the renders of
    one search add up to a few pages' length, not one page per probe. A cut is trusted only
    where the English halves add up to the English window (<pre> blocks and block structure);
    a window with no trusted cut is bisected as one region. What is found is confirmed on the
    whole page by the caller."""

    def __init__(
        self, render: Callable[[str], Structure], page: Page, translations: list[str | None], candidates: list[int]
    ) -> None:
        """``render``: the guard's render of Markdown to its structure (it raises OverBudget)."""
        self.render, self.page, self.translations = render, page, translations
        source = page.source
        self.wide = "\n\n" + "\n".join(m.group(0) for m in _PAGE_WIDE.finditer(source)) + "\n"
        spans = []
        for i in candidates:
            span = source_span(page, i)
            if span is None:
                raise Unusable
            start, end = span
            pin = getattr(getattr(page.segments[i], "restore", None), "pin_at", None)
            spans.append((min(start, end if pin is None else pin), max(end, start if pin is None else pin)))
        starts = [b for b in region_starts(page) if not any(a < b <= z for a, z in spans)]
        # one unit per run of segments between two cuts: (start offset, its segments)
        self.units: list[tuple[int, list[int]]] = []
        cut = 0
        for i, (start, _end) in zip(candidates, spans):
            while cut < len(starts) and starts[cut] <= start:
                cut += 1
            begin = starts[cut - 1] if cut else 0
            if self.units and self.units[-1][0] == begin:
                self.units[-1][1].append(i)
            else:
                self.units.append((begin, [i]))
        self.length = len(source)
        self.english: dict[tuple[int, int], Structure] = {}

    def _span(self, lo: int, hi: int) -> tuple[int, int, list[int]]:
        """Units lo..hi-1 as a window: from the first's start (0 for the first unit) to the
        next unit's start (the page's end for the last), so windows tile the page."""
        start = 0 if lo == 0 else self.units[lo][0]
        end = self.length if hi == len(self.units) else self.units[hi][0]
        return start, end, [i for _, members in self.units[lo:hi] for i in members]

    def _english(self, start: int, end: int) -> Structure:
        key = (start, end)
        if key not in self.english:
            try:
                self.english[key] = self.render(self.page.source[start:end] + self.wide)
            except OverBudget:
                raise
            except Exception as exc:
                raise Unusable from exc
        return self.english[key]

    def _differs(self, start: int, end: int, segments: Sequence[int]) -> bool:
        keep = set(segments)
        trial = [tr if i in keep else None for i, tr in enumerate(self.translations)]
        spliced = self.page.splice(trial)
        region = spliced[start : len(spliced) - (self.length - end)]
        english = self._english(start, end)
        try:
            return bool(english.differences(self.render(region + self.wide), _REGION_FEATURES))
        except OverBudget:
            raise
        except Exception:  # a translation that makes the renderer fail breaks the region
            return True

    def _cut(self, lo: int, hi: int) -> int | None:
        """Where to halve units lo..hi-1: the cut nearest the middle whose English halves add
        up to the English window (a few tried); None when none does (a construct the region
        segmenter reads otherwise than the renderer, e.g. a fence superfences does not accept)."""
        start, end, _ = self._span(lo, hi)
        whole = self._english(start, end)
        middle = (lo + hi) // 2
        tried = sorted(range(lo + 1, hi), key=lambda k: abs(k - middle))[:_CUT_TRIES]
        for cut in tried:
            left = self._english(*self._span(lo, cut)[:2])
            right = self._english(*self._span(cut, hi)[:2])
            if left.pre + right.pre == whole.pre and left.blocks + right.blocks == whole.blocks:
                return cut
        return None

    def search(self, english: Structure, spliced: Structure) -> list[int]:
        """The segments that break their regions; [] when the regions cannot tell."""
        if len(self.units) < 2 or not english.differences(spliced, _REGION_FEATURES):
            return []  # one region is the page; or only ids differ, which regions do not compare
        self.english[(0, self.length)] = english
        bad: list[int] = []

        def window_broken(units: tuple[int, int]) -> bool:
            start, end, indices = self._span(*units)
            return self._differs(start, end, indices)

        def halve(units: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
            lo, hi = units
            middle = self._cut(lo, hi) if hi - lo > 1 else None
            return None if middle is None else ((lo, middle), (middle, hi))

        def segments(units: tuple[int, int]) -> None:
            """One region, or no trusted cut: bisect its segments, rendering it."""
            start, end, indices = self._span(*units)
            bad.extend(bisect_segments(indices, lambda some: self._differs(start, end, some), known_broken=True))

        bisect((0, len(self.units)), window_broken, halve, segments, known_broken=True)
        return bad
