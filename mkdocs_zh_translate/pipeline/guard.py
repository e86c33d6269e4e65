"""The page guard: a translated page must keep the English page's structure, or lose segments.

The segmenter recognises the constructs it knows; real sites use more. Rather than
ship a broken page when a construct is unknown, the guard renders the English page and the
spliced zh page with the site's own Markdown renderer and compares what a translation must
never change:

* ``<pre>`` blocks, byte for byte;
* the multiset of ``href``/``src`` values (the Markdown has no language prefix; the zh build
  adds none to relative links), and of mkdocs-autorefs' ``<autoref identifier>`` references;
* element ids (heading anchors, footnotes, code line anchors);
* inline code (``<code>`` outside ``<pre>``) and math (``arithmatex`` elements, ``<math>``);
* the block structure: every list, list item, blockquote, table part, definition list,
  ``<details>`` and paragraph, by its path of such ancestors (``ul>li>p``), so a translation
  that ends a list early, merges an item into prose or lets a quote's text escape its
  blockquote breaks the page as surely as a lost link.

When they differ it finds the offending segments by bisection (each probe is one render of the
page with only some segments translated) and puts them back to English; if the page still
differs with all of those reverted (segments that break only together), the whole page goes
back to English. The result says which segments were reverted and why, in one line.

The guard has a budget (:data:`BUDGET`): Python-Markdown is quadratic on some pages (a run of
``[`` or ``<a ``), and the English build pays that once; the guard renders the English page and
the spliced page (two renders, passing or not) and then, only when they differ, searches. The
search may spend, in CPU time of the guard's thread, :data:`BUDGET` times what the English
page's render took, or :data:`BUDGET_FLOOR_S` when that is more (so ordinary pages, whose
renders take milliseconds, search as before); past that, the page goes back to English whole,
with a warning naming it. The check is made before each render, so a page costs at most the
budget plus one render.

Pure of MkDocs: the front end supplies ``render`` (Markdown -> HTML). The plugin passes
Python-Markdown with the site's ``markdown_extensions``; :func:`python_markdown_renderer` is the
default for front ends without a site (``md``, ``docs``).

The English render may be borrowed: a front end whose site renders every page anyway
passes :class:`PageGuard` ``english``, the structures of those renders by Markdown, when they
are what ``render`` makes of the same Markdown. A page whose exact Markdown the site rendered
costs one render instead of two; the English render is still made, to time the
search's budget, when the page differs. The front end stores only renders it knows to be the
guard's own (see ``plugin/borrow.py``).

Verdicts are cached: the guard's renders cost more than everything else of a cached
rebuild or a ``mkdocs serve`` reload, and an unchanged page with unchanged translations gets the
same verdict. A front end passes a :class:`VerdictStore` (the machine cache) and the renderer's
fingerprint (:func:`extensions_fingerprint`); the key is a hash of everything the verdict
depends on (see :meth:`PageGuard.verdict_key`), so a stored verdict is never stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import html as html_lib
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Protocol

from .stable import parts_key, stable_text

Render = Callable[[str], str]

# The guard's time on one page (renders and comparison, CPU time of its thread) is at most
# BUDGET times the first render, of the English page, or BUDGET_FLOOR_S if that is more; plus
# the render under way when it runs out (see the module doc).
BUDGET = 8.0
BUDGET_FLOOR_S = 1.0

# Bump when what the guard compares or how it searches changes: every stored verdict then misses
# (the package version is in the key too; this number covers a change between releases).
GUARD_FORMAT = 1


class VerdictStore(Protocol):
    """Where verdicts outlive the build (``cache.MachineCache``): short strings by key."""

    def get_verdict(self, key: str) -> str | None: ...

    def set_verdict(self, key: str, value: str) -> None: ...

    def save_verdicts(self) -> None:
        """Write the verdicts set so far (a store may keep them until then)."""

# How a reason names each compared feature.
_LABELS = {
    "pre": "<pre> block",
    "links": "href/src",
    "ids": "id",
    "code": "inline code",
    "math": "math",
    "blocks": "list/quote/table structure",
}
_FEATURES = tuple(_LABELS)

# The block elements whose count and nesting a translation must keep (see the module doc).
_BLOCKS = frozenset(
    "ul ol li blockquote table thead tbody tfoot tr th td dl dt dd details summary p".split()
)

# What a plain Python-Markdown front end renders with when it knows no site: the extensions
# MkDocs sites nearly always enable and that change structure (ids, code, tables).
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "toc",
    "attr_list",
    "tables",
    "fenced_code",
    "footnotes",
    "admonition",
    "md_in_html",
)


class _Page(Protocol):
    """What the guard needs of a segmented page (``segment.SegmentedPage``)."""

    @property
    def source(self) -> str: ...

    @property
    def segments(self) -> Sequence[Any]: ...

    def splice(self, translations: Sequence[str | None]) -> str: ...


@dataclass(frozen=True)
class Structure:
    """What of a rendered page a translation must leave exactly as it was."""

    pre: Counter[str]
    links: Counter[str]
    ids: Counter[str]
    code: Counter[str]
    math: Counter[str]
    blocks: Counter[str] = field(default_factory=Counter)  # "ul>li>p": block elements by nesting

    def changed(self, other: Structure | None) -> list[str]:
        """Every item lost or added between ``self`` and ``other``, raw (block paths left out:
        they name no text a segment's source could contain)."""
        if other is None:
            return []
        out: list[str] = []
        for name in _FEATURES[:-1]:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                out += list((mine - theirs).elements()) + list((theirs - mine).elements())
        return out

    def differences(self, other: Structure, features: Sequence[str] = _FEATURES) -> list[str]:
        """Human names of what differs, with one example each ("a link 'x' lost")."""
        out = []
        for name in features:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine == theirs:
                continue
            lost = list((mine - theirs).elements())
            added = list((theirs - mine).elements())
            label = _LABELS[name]
            if lost:
                more = f" (+{len(lost) - 1} more)" if len(lost) > 1 else ""
                out.append(f"{label} {_short(lost[0])} lost{more}")
            elif added:
                more = f" (+{len(added) - 1} more)" if len(added) > 1 else ""
                out.append(f"{label} {_short(added[0])} added{more}")
        return out


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


def _suspects(page: _Page, candidates: Sequence[int], changed: list[str]) -> list[int]:
    """Candidates whose source (plus the next two lines) contains a needle of a changed item."""
    needles = [n for item in changed for n in _needles(item)]
    if not needles:
        return []
    source = page.source
    out = []
    for i in candidates:
        seg = page.segments[i]
        start, end = getattr(seg, "start", None), getattr(seg, "end", None)
        if start is None or end is None:
            return []
        stop = end
        for _ in range(3):
            nxt = source.find("\n", stop + 1)
            stop = len(source) if nxt < 0 else nxt
        window = source[start:stop].lower()
        if any(n in window for n in needles):
            out.append(i)
    return out


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


class _Collect(HTMLParser):
    """One pass over the HTML: pre blocks as raw text, links, ids, inline code and math."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.links: Counter[str] = Counter()
        self.ids: Counter[str] = Counter()
        self.code: Counter[str] = Counter()
        self.math: Counter[str] = Counter()
        self.blocks: Counter[str] = Counter()
        self._open: list[str] = []  # the open block elements, outermost first
        self._code: list[str] | None = None  # text of the open inline <code>
        self._math: list[tuple[str, list[str]]] = []  # open math elements: (tag, text parts)
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attrs(attrs)
        if tag == "autoref":  # mkdocs-autorefs: becomes a link after rendering
            self.links["autoref:" + (dict(attrs).get("identifier") or "")] += 1
        if tag in _BLOCKS:
            self._open.append(tag)
            self.blocks[">".join(self._open)] += 1
        if tag == "pre":
            self._pre += 1
        elif tag == "code" and not self._pre and self._code is None:
            self._code = []
        if self._math:
            self._math.append((tag, self._math[-1][1]))
        elif tag == "math" or "arithmatex" in (dict(attrs).get("class") or "").split():
            self._math.append((tag, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attrs(attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS and tag in self._open:  # raw HTML may leave some open: close up to it
            while self._open.pop() != tag:
                pass
        if tag == "pre":
            self._pre = max(0, self._pre - 1)
        elif tag == "code" and self._code is not None:
            self.code["".join(self._code)] += 1
            self._code = None
        if self._math and self._math[-1][0] == tag:
            _, parts = self._math.pop()
            if not self._math:
                self.math["".join(parts)] += 1

    def handle_data(self, data: str) -> None:
        if self._code is not None:
            self._code.append(data)
        if self._math:
            self._math[-1][1].append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")

    def _attrs(self, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src"):
                self.links[value] += 1
            elif name == "id":
                self.ids[value] += 1


def _pre_blocks(html: str) -> Counter[str]:
    """Every ``<pre>…</pre>`` as raw bytes (nested pre counts with its outer block)."""
    out: Counter[str] = Counter()
    lower = html.lower()
    start = lower.find("<pre")
    while start >= 0:
        end = lower.find("</pre>", start)
        if end < 0:
            out[html[start:]] += 1
            break
        out[html[start : end + 6]] += 1
        start = lower.find("<pre", end + 6)
    return out


def structure(html: str) -> Structure:
    """The parts of ``html`` a translation must not change."""
    collect = _Collect(html)
    collect.feed(html)
    collect.close()
    return Structure(_pre_blocks(html), collect.links, collect.ids, collect.code, collect.math, collect.blocks)


@dataclass
class GuardResult:
    """What the guard did to one page."""

    translations: list[str | None]
    reverted: list[int] = field(default_factory=list)  # segment indices put back to English
    whole_page: bool = False  # every translated segment put back (bisection found no smaller set, or all)
    reason: str = ""  # one line: what differed; empty when the page passed
    renders: int = 0
    rendered: int = 0  # characters of Markdown those renders read (the search's cost)
    reused: bool = False  # a stored verdict (no render)
    # The page spliced with ``translations`` (heading ids pinned), when the guard already made
    # it for the verdict's key: the caller's page, so it is not spliced a second time.
    spliced: str | None = None


# Where a region of the page may start: a line at the margin after a blank line, outside
# fences, pymdownx.blocks (``/// name`` ... ``///``) and HTML blocks opened at the margin.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_BLOCK_OPEN = re.compile(r"^[ \t]*/{3,}[ \t]*[A-Za-z]")
_BLOCK_CLOSE = re.compile(r"^[ \t]*/{3,}[ \t]*$")
_HTML_OPEN = re.compile(r"^<([A-Za-z][\w-]*)\b")
# Tags that open a raw HTML block (Python-Markdown's block-level list, the common part): an
# autolink `<https://…>` or an inline tag at the margin opens none.
_HTML_BLOCKS = frozenset(
    "address article aside blockquote center details dialog div dl fieldset figure footer form header "
    "iframe main nav noscript ol p pre script section style table ul video audio picture canvas".split()
)
# Lines every region is rendered with: link reference definitions and abbreviations, which act
# on the whole page (a region without them would show `[text][ref]` as text on both sides).
_PAGE_WIDE = re.compile(r"^ {0,3}(?:\[[^\]\n^]+\]:[ \t]*\S|\*\[[^\]\n]+\]:).*$", re.MULTILINE)
# What regions are compared by: ids are left out (``toc`` numbers a repeated heading by what
# comes before it on the page; the zh heading is pinned to the page's number).
_REGION_FEATURES = tuple(f for f in _FEATURES if f != "ids")
_CUT_TRIES = 3  # cuts tried per window before its segments are bisected in it as one region


def region_starts(source: str) -> list[int]:
    """Offsets where a region of ``source`` may start (see _FENCE); 0 is not listed."""
    out: list[int] = []
    fence: tuple[str, int] | None = None
    blocks = 0
    html: str | None = None
    previous_blank = False
    pos = 0
    for line in source.splitlines(keepends=True):
        blank = not line.strip()
        at_margin = not blank and line[0] not in " \t"
        if previous_blank and at_margin and pos and fence is None and not blocks and html is None:
            out.append(pos)
        if fence is not None:
            match = _FENCE.match(line)
            closing = match is not None and match.group(1)[0] == fence[0] and len(match.group(1)) >= fence[1]
            if closing and match is not None and not line[match.end() :].strip():
                fence = None
        elif match := _FENCE.match(line):
            fence = (match.group(1)[0], len(match.group(1)))
        elif _BLOCK_CLOSE.match(line):
            blocks = max(0, blocks - 1)
        elif _BLOCK_OPEN.match(line):
            blocks += 1
        elif html is not None:
            if line.lower().startswith(f"</{html}"):
                html = None
        elif (tag := _HTML_OPEN.match(line)) and tag.group(1).lower() in _HTML_BLOCKS:
            name = tag.group(1).lower()
            if f"</{name}" not in line.lower():
                html = name
        previous_blank = blank
        pos += len(line)
    return out


class _Unusable(Exception):
    """The regions of this page cannot stand for it: search the whole page instead."""


class _OverBudget(Exception):
    """The guard's search on this page went past its budget: the page goes back to English."""


class _Regions:
    """Bisection over regions of the page, each probe rendering only the region it tests.

    A render of a big page costs hundreds of milliseconds (copier's configuring.md: 0.65 s;
    whole-page bisection needed 58 renders to find 15 segments in a code block that broke).
    The page is cut where a block starts at the margin (:func:`region_starts`), between regions
    that hold translated segments, into windows that tile it; a broken window's halves are
    rendered in English and with their segments translated and compared (ids aside), down to
    one region, whose segments are then bisected rendering that region only. So the renders of
    one search add up to a few pages' length, not one page per probe. A cut is trusted only
    where the English halves add up to the English window (<pre> blocks and block structure);
    a window with no trusted cut is bisected as one region. What is found is confirmed on the
    whole page by the caller."""

    def __init__(self, guard: PageGuard, page: _Page, translations: list[str | None], candidates: list[int]) -> None:
        self.guard, self.page, self.translations = guard, page, translations
        source = page.source
        self.wide = "\n\n" + "\n".join(m.group(0) for m in _PAGE_WIDE.finditer(source)) + "\n"
        spans = []
        for i in candidates:
            seg = page.segments[i]
            start, end = getattr(seg, "start", None), getattr(seg, "end", None)
            if start is None or end is None:
                raise _Unusable
            pin = getattr(getattr(seg, "restore", None), "pin_at", None)
            spans.append((min(start, end if pin is None else pin), max(end, start if pin is None else pin)))
        starts = [b for b in region_starts(source) if not any(a < b <= z for a, z in spans)]
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
                self.english[key] = self.guard._structure(self.page.source[start:end] + self.wide)
            except _OverBudget:
                raise
            except Exception as exc:
                raise _Unusable from exc
        return self.english[key]

    def _differs(self, start: int, end: int, segments: Sequence[int]) -> bool:
        keep = set(segments)
        trial = [tr if i in keep else None for i, tr in enumerate(self.translations)]
        spliced = self.page.splice(trial)
        region = spliced[start : len(spliced) - (self.length - end)]
        english = self._english(start, end)
        try:
            return bool(english.differences(self.guard._structure(region + self.wide), _REGION_FEATURES))
        except _OverBudget:
            raise
        except Exception:  # a translation that makes the renderer fail breaks the region
            return True

    def _cut(self, lo: int, hi: int) -> int | None:
        """Where to halve units lo..hi-1: the cut nearest the middle whose English halves add
        up to the English window (a few tried); None when none does (a construct the region
        scanner reads otherwise than the renderer, e.g. a fence superfences does not accept)."""
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

        def segments(start: int, end: int, indices: list[int], known: bool) -> None:
            if not known and not self._differs(start, end, indices):
                return
            if len(indices) == 1:
                bad.extend(indices)
                return
            middle = len(indices) // 2
            left = self._differs(start, end, indices[:middle])
            if left:
                segments(start, end, indices[:middle], True)
            segments(start, end, indices[middle:], known and not left)

        def windows(lo: int, hi: int, known: bool) -> None:
            start, end, indices = self._span(lo, hi)
            if not known and not self._differs(start, end, indices):
                return
            middle = self._cut(lo, hi) if hi - lo > 1 else None
            if middle is None:  # one region, or no trusted cut: bisect its segments, rendering it
                segments(start, end, indices, True)
                return
            left_start, left_end, left_indices = self._span(lo, middle)
            left = self._differs(left_start, left_end, left_indices)
            if left:
                windows(lo, middle, True)
            windows(middle, hi, known and not left)

        windows(0, len(self.units), True)
        return bad


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
            raise _OverBudget
        self.renders += 1
        self.rendered += len(markdown)
        self._last = structure(self.render(markdown))
        return self._last

    def check(
        self,
        english_markdown: str,
        page: _Page,
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
        result = _decode_verdict(self.verdicts.get_verdict(key), current, candidates)
        if result is not None:
            self.reused += 1
            self.reverted += len(result.reverted)
        else:
            over = self.over_budget
            result = self._check(english_markdown, page, current, candidates, label, line_offset)
            if self.over_budget == over:  # a search that ran out of time is no verdict to keep
                self.verdicts.set_verdict(key, _encode_verdict(result))
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
        page: _Page,
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
        self, english_markdown: str, page: _Page, translations: list[str | None], label: str, line_offset: int
    ) -> tuple[str, str]:
        """:meth:`verdict_key`, with the fully spliced page it hashed."""
        from .._version import __version__

        spliced = page.splice(list(translations))
        parts = [
            f"guard={GUARD_FORMAT}",
            f"package={__version__}",
            self.fingerprint,
            label,
            str(line_offset),
            english_markdown,
            page.source,
            spliced,
            json.dumps(list(translations), ensure_ascii=False),
        ]
        return parts_key(parts), spliced

    def _check(
        self,
        english_markdown: str,
        page: _Page,
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
            except _OverBudget:
                raise
            except Exception as exc:  # a translation that makes the renderer fail breaks the page
                return [f"rendering failed: {type(exc).__name__}: {exc}"]

        try:
            regional = english_markdown == page.source
            counts = (before, before_chars)
            return self._search(english, page, current, candidates, broken, regional, label, line_offset, counts)
        except _OverBudget:
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
        page: _Page,
        current: list[str | None],
        candidates: list[int],
        broken: Callable[[Sequence[int]], list[str]],
        regional: bool,
        label: str,
        line_offset: int,
        counts: tuple[int, int],
    ) -> GuardResult:
        """The page spliced with every candidate differs from the English page, or not: find the
        segments that break it (raises _OverBudget when the budget runs out)."""
        before, before_chars = counts  # the guard's renders and characters when the page began
        first = broken(candidates)
        if not first:
            return GuardResult(current, renders=self.renders - before, rendered=self.rendered - before_chars)
        spliced = self._last
        assert spliced is not None  # set by the render in broken()
        self._start_budget()

        bad: list[int] = []

        def bisect(indices: list[int], *, known_broken: bool = False) -> None:
            if not known_broken and not broken(indices):
                return
            if len(indices) == 1:
                bad.extend(indices)
                return
            middle = len(indices) // 2
            left_broken = bool(broken(indices[:middle]))
            if left_broken:
                bisect(indices[:middle], known_broken=True)
            # a broken whole with a whole left half: the right half breaks it (no render needed)
            bisect(indices[middle:], known_broken=known_broken and not left_broken)

        # Where the page broke, cheaply: bisect over regions of the page, rendering only the
        # region (see _Regions); what it finds is confirmed on the whole page. Else, or when that
        # is not enough, the search over the whole page.
        local: list[int] = []
        if regional:
            try:
                local = _Regions(self, page, current, candidates).search(english, spliced)
            except _Unusable:
                local = []
        whole = False
        if local and not broken([i for i in candidates if i not in set(local)]):
            bad = local
        else:
            # Suspects first: segments whose source mentions what changed (the directive's name,
            # the lost URL or code). If the page is whole without them, bisect among them only.
            suspects = _suspects(page, candidates, english.changed(spliced))
            if suspects and len(suspects) < len(candidates):
                suspected = set(suspects)
                if broken([i for i in candidates if i not in suspected]):
                    bisect(candidates, known_broken=True)
                else:
                    bisect(suspects, known_broken=True)
            else:
                bisect(candidates, known_broken=True)
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

    def __call__(self, english_markdown: str, page: _Page, translations: Sequence[str | None]) -> list[str | None]:
        """The pipeline's entry point: the translations with the breaking ones set to ``None``."""
        return self.check(english_markdown, page, translations).translations


def _encode_verdict(result: GuardResult) -> str:
    return json.dumps(
        {"r": result.reverted, "w": result.whole_page, "s": result.reason}, ensure_ascii=False, separators=(",", ":")
    )


def _decode_verdict(raw: str | None, translations: list[str | None], candidates: list[int]) -> GuardResult | None:
    """A stored verdict applied to ``translations``; None for a miss or anything malformed."""
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    reverted, whole, reason = data.get("r"), data.get("w"), data.get("s")
    allowed = set(candidates)
    if (
        not isinstance(reverted, list)
        or not all(isinstance(i, int) and i in allowed for i in reverted)
        or not isinstance(whole, bool)
        or not isinstance(reason, str)
    ):
        return None
    current = list(translations)
    for i in reverted:
        current[i] = None
    return GuardResult(current, reverted=sorted(reverted), whole_page=whole, reason=reason, reused=True)


def extensions_fingerprint(extensions: Sequence[Any], configs: dict[str, Any] | None = None) -> str:
    """What identifies a Python-Markdown renderer: its extensions (names, or instances with
    their options), their options, and the versions of Markdown and of each extension's package."""
    import sys

    versions = []
    for extension in extensions:
        module = extension if isinstance(extension, str) else type(extension).__module__
        top = module.split(".")[0]
        versions.append(f"{top}={getattr(sys.modules.get(top), '__version__', '')}")
    import markdown

    parts = [f"markdown={markdown.__version__}", stable_text(list(extensions)), stable_text(dict(configs or {}))]
    return hashlib.sha256("\x00".join([*parts, *sorted(set(versions))]).encode("utf-8", "surrogatepass")).hexdigest()


def make_guard(render: Render) -> PageGuard:
    return PageGuard(render)


def python_markdown_renderer(
    extensions: Sequence[Any] = DEFAULT_EXTENSIONS, configs: dict[str, Any] | None = None
) -> Render:
    """A Markdown -> HTML function over one reused Python-Markdown instance (``reset`` between
    pages: building the instance, emoji indexes and all, costs far more than a render).

    Render exactly as the site does. Turning Pygments off would halve the time of a render on
    code-heavy pages, but it changes parsing: superfences then accepts fence options it rejects
    with Pygments (copier's ```` ```tree result="shell" ````), so the guard would judge another page
    (measured on the corpus: 6 of 70 <pre> blocks broken again, 119 instead of 18 reverts)."""
    import markdown

    instance: list[markdown.Markdown] = []  # built on the first render: a build whose verdicts
    # are all stored (a cached rebuild) never pays for it

    def render(text: str) -> str:
        if not instance:
            instance.append(markdown.Markdown(extensions=list(extensions), extension_configs=dict(configs or {})))
        md = instance[0]
        md.reset()
        return md.convert(text)

    return render


def autodoc_stub() -> Any:
    """A stand-in for mkdocstrings' Markdown extension in the guard's renderer.

    mkdocstrings renders a whole API page per ``::: identifier`` (hundreds of ms), and from the
    plugin's ``on_post_build`` it would register anchors with autorefs for the wrong page. The
    guard only needs to see that each directive is still a directive with the same identifier,
    heading and options: this block processor matches exactly what mkdocstrings matches (same
    pattern, same option block) and renders ``<div id="zh-guard-autodoc:…">``."""
    import hashlib
    import re
    import xml.etree.ElementTree as etree

    from markdown.blockprocessors import BlockProcessor
    from markdown.extensions import Extension

    class _Autodoc(BlockProcessor):
        regex = re.compile(r"^(?P<heading>#{1,6} *|)::: ?(?P<name>.+?) *$", flags=re.MULTILINE)

        def test(self, parent: etree.Element, block: str) -> bool:
            return bool(self.regex.search(block))

        def run(self, parent: etree.Element, blocks: list[str]) -> None:
            block = blocks.pop(0)
            match = self.regex.search(block)
            assert match is not None
            if match.start() > 0:
                self.parser.parseBlocks(parent, [block[: match.start()]])
            block, rest = self.detab(block[match.end() :])
            if not block and blocks and blocks[0].startswith(("    handler:", "    options:")):
                block = blocks.pop(0)
            options = hashlib.sha1(block.encode()).hexdigest()[:12]
            heading = match["heading"].count("#")
            etree.SubElement(parent, "div", {"id": f"zh-guard-autodoc:{heading}:{match['name']}:{options}"})
            if rest:
                blocks.insert(0, rest)

    class _AutodocStub(Extension):
        def extendMarkdown(self, md: Any) -> None:
            md.parser.blockprocessors.register(_Autodoc(md.parser), "mkdocstrings", 75)

    return _AutodocStub()
