"""The search's parts: one bisection, the suspects to try first, and what ends a search.

Both searches of the guard (over regions, and over the whole page's segments) bisect the same
way; :func:`bisect` is that one way, over anything that halves.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar


class Page(Protocol):
    """What the guard needs of a segmented page (``segment.SegmentedPage``)."""

    @property
    def source(self) -> str: ...

    @property
    def segments(self) -> Sequence[Any]: ...

    @property
    def blocks(self) -> Sequence[int]:
        """Where the page's top-level blocks start, by the segmenter's parse (the regions' cuts)."""
        ...

    def splice(self, translations: Sequence[str | None]) -> str: ...


class OverBudget(Exception):
    """The guard's search on this page went past its budget: the page goes back to English."""


def source_span(page: Page, index: int) -> tuple[int, int] | None:
    """Where segment ``index`` lies in the page's source; None for a page whose segments do
    not say (then neither the suspects nor the regions can be found)."""
    seg = page.segments[index]
    start, end = getattr(seg, "start", None), getattr(seg, "end", None)
    return None if start is None or end is None else (start, end)


def _needles(item: str) -> list[str]:
    """Lower-case strings a breaking segment's source likely contains, for a changed item."""
    if item.startswith("zh-guard-autodoc:"):
        return [item.split(":")[2].lower()]
    if item.startswith("autoref:"):
        return [item[len("autoref:") :].lower()]
    if item.lower().startswith("<pre"):
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", item))
        return [line.strip().lower() for line in text.splitlines() if len(line.strip()) >= 4][:3]
    return [item.lower()] if len(item) >= 3 else []


def suspects(page: Page, candidates: Sequence[int], changed: list[str]) -> list[int]:
    """Candidates whose source (plus the next two lines) contains a needle of a changed item."""
    needles = [n for item in changed for n in _needles(item)]
    if not needles:
        return []
    source = page.source
    out = []
    for i in candidates:
        span = source_span(page, i)
        if span is None:
            return []
        start, stop = span
        for _ in range(3):
            nxt = source.find("\n", stop + 1)
            stop = len(source) if nxt < 0 else nxt
        window = source[start:stop].lower()
        if any(n in window for n in needles):
            out.append(i)
    return out


T = TypeVar("T")


def bisect(
    whole: T,
    broken: Callable[[T], bool],
    split: Callable[[T], tuple[T, T] | None],
    found: Callable[[T], None],
    *,
    known_broken: bool = False,
) -> None:
    """Report (``found``) every smallest part of ``whole`` that ``broken`` still finds broken.

    ``split`` halves a part, or says (None) that it is as small as the search goes. A part
    known to be broken is not probed again, and when its left half is whole the right half
    must be what breaks it: no probe for that either. The probes run in page order (left half
    first), so a search's renders and the budget it spends do not depend on the caller."""
    if not known_broken and not broken(whole):
        return
    halves = split(whole)
    if halves is None:
        found(whole)
        return
    left, right = halves
    left_broken = broken(left)
    if left_broken:
        bisect(left, broken, split, found, known_broken=True)
    bisect(right, broken, split, found, known_broken=known_broken and not left_broken)


def _halves(indices: list[int]) -> tuple[list[int], list[int]] | None:
    """Two halves of a run of segments; None for one segment."""
    if len(indices) == 1:
        return None
    middle = len(indices) // 2
    return indices[:middle], indices[middle:]


def bisect_segments(indices: list[int], broken: Callable[[list[int]], bool], *, known_broken: bool) -> list[int]:
    """The single segments of ``indices`` that break the page with the others (:func:`bisect`),
    in the order found."""
    bad: list[int] = []
    bisect(indices, broken, _halves, bad.extend, known_broken=known_broken)
    return bad
