"""The page guard proper: render, compare, search, revert (see the package doc)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence

from ._regions import Regions, Unusable
from ._render import Render
from ._search import OverBudget, Page, bisect_segments, suspects
from ._structure import Structure, structure
from ._verdict import GuardResult, VerdictStore, decode_verdict, encode_verdict, verdict_key

# The guard's time on one page (renders and comparison, CPU time of its thread) is at most
# BUDGET times the first render, of the English page, or BUDGET_FLOOR_S if that is more; plus
# the render under way when it runs out (see the module doc).
BUDGET = 8.0
BUDGET_FLOOR_S = 1.0


class PageGuard:
    """Checks spliced pages against their English page with one renderer (see module doc)."""

    def __init__(
        self,
        render: Render,
        *,
        verdicts: VerdictStore | None = None,
        fingerprint: str = "",
        budget: float = BUDGET,
        floor_s: float = BUDGET_FLOOR_S,
        clock: Callable[[], float] = time.thread_time,
        english: Mapping[str, Structure] | None = None,
    ) -> None:
        """``verdicts``: where verdicts are kept across builds (None: none are); ``fingerprint``:
        what identifies ``render`` (:func:`extensions_fingerprint`), part of every verdict's key;
        ``budget``, ``floor_s``, ``clock``: the search's budget (see the module doc); ``english``:
        structures of English pages the site rendered as ``render`` would, by Markdown (module doc)."""
        self.render = render
        self.verdicts = verdicts
        self.fingerprint = fingerprint
        self.english = english
        self.borrowed = 0  # English renders taken from ``english`` instead of rendered
        self.budget, self.floor_s, self.clock = budget, floor_s, clock
        self.renders = 0
        self.rendered = 0  # characters of Markdown rendered: what the renders cost, roughly
        self.pages = 0
        self.reverted = 0
        self.reused = 0  # pages whose stored verdict was used (no render)
        self.over_budget = 0  # pages sent back to English whole because the search ran out
        self._last: Structure | None = None
        self._deadline: float | None = None  # the clock's reading where this page's budget ends
        self._pending: tuple[str, float] | None = None  # a borrowed page's English Markdown, start

    def _structure(self, markdown: str) -> Structure:
        if self._deadline is not None and self.clock() > self._deadline:
            raise OverBudget
        self.renders += 1
        self.rendered += len(markdown)
        self._last = structure(self.render(markdown))
        return self._last

    def check(
        self,
        english_markdown: str,
        page: Page,
        translations: Sequence[str | None],
        *,
        label: str = "page",
        line_offset: int = 0,
    ) -> GuardResult:
        """Compare the page spliced with ``translations`` with the English page; revert what
        breaks it. A stored verdict for the same inputs is used instead, when there is one."""
        self.pages += 1
        current = list(translations)
        candidates = [
            i for i, (seg, tr) in enumerate(zip(page.segments, current)) if tr is not None and tr != seg.text
        ]
        if not candidates:
            return GuardResult(current)
        if self.verdicts is None:
            return self._check(english_markdown, page, current, candidates, label, line_offset)
        try:
            key, spliced = self._keyed(english_markdown, page, current, label, line_offset)
        except Exception:  # a page that cannot be spliced as it is: the guard proper decides
            return self._check(english_markdown, page, current, candidates, label, line_offset)
        result = decode_verdict(self.verdicts.get_verdict(key), current, candidates)
        if result is not None:
            self.reused += 1
            self.reverted += len(result.reverted)
        else:
            over = self.over_budget
            result = self._check(english_markdown, page, current, candidates, label, line_offset)
            if self.over_budget == over:  # a search that ran out of time is no verdict to keep
                self.verdicts.set_verdict(key, encode_verdict(result))
        if not result.reverted and result.translations == list(translations):  # (the search edits `current`)
            result.spliced = spliced  # nothing reverted: the page is the one in the key
        return result

    def save(self) -> None:
        """Have the verdict store write this pass's verdicts (the end of a translation pass)."""
        if self.verdicts is not None:
            self.verdicts.save_verdicts()

    def verdict_key(
        self,
        english_markdown: str,
        page: Page,
        translations: Sequence[str | None],
        *,
        label: str = "page",
        line_offset: int = 0,
    ) -> str:
        """A hash of everything the verdict depends on: the guard's format and the package's
        version, the renderer (extensions and their options), the English Markdown, the page
        and its segments (as the source and the fully spliced page show them), the
        translations, and what the reason names (label, line offset)."""
        return self._keyed(english_markdown, page, list(translations), label, line_offset)[0]

    def _keyed(
        self, english_markdown: str, page: Page, translations: list[str | None], label: str, line_offset: int
    ) -> tuple[str, str]:
        """:meth:`verdict_key`, with the fully spliced page it hashed."""
        spliced = page.splice(list(translations))
        key = verdict_key(self.fingerprint, label, line_offset, english_markdown, page.source, spliced, translations)
        return key, spliced

    def _check(
        self,
        english_markdown: str,
        page: Page,
        current: list[str | None],
        candidates: list[int],
        label: str,
        line_offset: int,
    ) -> GuardResult:
        """The guard proper: render, compare, and search for the breaking segments."""
        before, before_chars = self.renders, self.rendered
        self._deadline = None
        started = self.clock()
        borrowed = self.english.get(english_markdown) if self.english is not None else None
        if borrowed is not None:
            self.borrowed += 1
            english = borrowed
            self._pending = (english_markdown, started)  # the budget is set if the page differs
        else:
            try:
                english = self._structure(english_markdown)
            except Exception:  # the site's renderer fails on its own page: nothing to compare with
                return GuardResult(current, renders=self.renders - before, rendered=self.rendered - before_chars)
            self._deadline = started + max(self.budget * (self.clock() - started), self.floor_s)

        def broken(translated: Sequence[int]) -> list[str]:
            keep = set(translated)
            trial = [tr if i in keep else None for i, tr in enumerate(current)]
            try:
                return english.differences(self._structure(page.splice(trial)))
            except OverBudget:
                raise
            except Exception as exc:  # a translation that makes the renderer fail breaks the page
                return [f"rendering failed: {type(exc).__name__}: {exc}"]

        try:
            regional = english_markdown == page.source
            counts = (before, before_chars)
            return self._search(english, page, current, candidates, broken, regional, label, line_offset, counts)
        except OverBudget:
            self.over_budget += 1
            self.reverted += len(candidates)
            spent = self.clock() - started
            return GuardResult(
                [None] * len(current),
                reverted=list(candidates),
                whole_page=True,
                reason=(
                    f"{label}: the page guard found a changed structure but its search went over budget "
                    f"({self.renders - before} renders, {spent:.1f} s of CPU, more than {self.budget:g}x the "
                    "English render); the whole page is kept in English"
                ),
                renders=self.renders - before,
                rendered=self.rendered - before_chars,
            )
        finally:
            self._deadline = None
            self._pending = None

    def _start_budget(self) -> None:
        """With a borrowed English render, render the English page now, only to time it: the
        search's budget is what it was with the English render made here."""
        if self._pending is None:
            return
        english_markdown, started = self._pending
        self._pending = None
        last = self._last
        begun = self.clock()
        with contextlib.suppress(Exception):  # it rendered in the site's build: keep the borrowed one
            self._structure(english_markdown)
        self._deadline = started + max(self.budget * (self.clock() - begun), self.floor_s)
        self._last = last

    def _search(
        self,
        english: Structure,
        page: Page,
        current: list[str | None],
        candidates: list[int],
        broken: Callable[[Sequence[int]], list[str]],
        regional: bool,
        label: str,
        line_offset: int,
        counts: tuple[int, int],
    ) -> GuardResult:
        """The page spliced with every candidate differs from the English page, or not: find the
        segments that break it (raises OverBudget when the budget runs out)."""
        before, before_chars = counts  # the guard's renders and characters when the page began
        first = broken(candidates)
        if not first:
            return GuardResult(current, renders=self.renders - before, rendered=self.rendered - before_chars)
        spliced = self._last
        assert spliced is not None  # set by the render in broken()
        self._start_budget()

        # Where the page broke, cheaply: bisect over regions of the page, rendering only the
        # region (see Regions); what it finds is confirmed on the whole page. Else, or when that
        # is not enough, the search over the whole page.
        local: list[int] = []
        if regional:
            try:
                local = Regions(self._structure, page, current, candidates).search(english, spliced)
            except Unusable:
                local = []
        whole = False
        bad: list[int] = []
        if local and not broken([i for i in candidates if i not in set(local)]):
            bad = local
        else:
            # Suspects first: segments whose source mentions what changed (the directive's name,
            # the lost URL or code). If the page is whole without them, bisect among them only.
            likely = suspects(page, candidates, english.changed(spliced))
            among = candidates
            if likely and len(likely) < len(candidates):
                suspected = set(likely)
                if not broken([i for i in candidates if i not in suspected]):
                    among = likely
            bad = bisect_segments(among, lambda indices: bool(broken(indices)), known_broken=True)
            found = set(bad)
            kept = [i for i in candidates if i not in found]
            whole = not bad or (bool(kept) and bool(broken(kept)))
        if whole:
            bad = list(candidates)
        for i in bad:
            current[i] = None
        self.reverted += len(bad)
        lines = sorted({getattr(page.segments[i], "line", 0) + line_offset for i in bad})
        where = f"line {lines[0]}" if len(lines) == 1 else f"lines {', '.join(map(str, lines[:5]))}" + (
            "…" if len(lines) > 5 else ""
        )
        what = "; ".join(first[:3])
        if whole:
            reason = f"{label}: the translation changed the page structure ({what}); the whole page is kept in English"
        else:
            reason = (
                f"{label}: the translation changed the page structure ({what}); "
                f"{len(bad)} segment(s) at {where} kept in English"
            )
        renders = self.renders - before
        return GuardResult(
            current,
            reverted=sorted(bad),
            whole_page=whole or len(bad) == len(candidates),
            reason=reason,
            renders=renders,
            rendered=self.rendered - before_chars,
        )

    def __call__(self, english_markdown: str, page: Page, translations: Sequence[str | None]) -> list[str | None]:
        """The pipeline's entry point: the translations with the breaking ones set to ``None``."""
        return self.check(english_markdown, page, translations).translations


def make_guard(render: Render) -> PageGuard:
    return PageGuard(render)
