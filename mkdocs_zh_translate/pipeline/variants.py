"""Chinese variants beyond Simplified: Traditional for Taiwan, Hong Kong or in general, from one run.

A variant is made from the Simplified translation by conversion (OpenCC, with a phrase table
per region: ``s2twp`` writes Taiwan's vocabulary, 軟體 for 软件), segment by segment, in the
placeholder form the pipeline translates: only the text between placeholders is converted, so
code, URLs and every other protected part (they are atoms, restored from the English after the
splice) stay byte-identical, and the page guard checks each variant's pages as it checks the
Simplified ones. What a conversion makes is stored in the machine cache under a fingerprint
that names how (the Simplified translator's, the table, OpenCC's version, the variant's own
glossary terms), so a rebuild with a warm cache converts nothing twice and loads no model.

Reviews come per variant (``translations/zh-TW/*.po``); a segment its reviewers have not
reviewed takes the Simplified review converted. The Simplified site never sees a conversion.

OpenCC is an optional extra (``hant``), imported only when a variant is built.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from ..errors import ZhTranslateError
from ..families import SIMPLIFIED, TRADITIONAL
from ..segment import SegmentedPage, tokenize
from .cache import Hit
from .lazy import TranslationFailed
from .origin import Origin
from .service import Requests, TranslationService

if TYPE_CHECKING:
    from .glossary import Glossary
    from .reviews import ReviewedPage, Reviewer

EXTRA = "hant"


@dataclass(frozen=True)
class Region:
    """What a variant code means: OpenCC's table for it by default, Material's language for its
    interface, the label the language switcher shows."""

    table: str
    theme_language: str
    label: str


#: The variants a site can add to Simplified, by BCP 47 code (the code is also the URL prefix
#: ``site/zh-TW/`` and the review directory ``translations/zh-TW/``).
REGIONS: dict[str, Region] = {
    "zh-TW": Region("s2twp", "zh-TW", "繁體中文（台灣）"),
    "zh-HK": Region("s2hk", "zh-Hant", "繁體中文（香港）"),
    TRADITIONAL: Region("s2t", "zh-Hant", "繁體中文"),
}

#: OpenCC's conversions from Simplified that a variant may name as its ``table``.
TABLES = ("s2t", "s2tw", "s2twp", "s2hk")

#: How a variant is made: ``convert`` the Simplified text (OpenCC); ``model``: asked of the model
#: itself (a multi-target model's Traditional, ``target: zh-Hant``); ``both``: the model first,
#: and where it cannot (no Traditional code, no model, a sentence it left English) the conversion.
#: The model's text then goes through the table as well: Simplified left in it (a glossary term)
#: is converted, and the region's words replace the generic ones where the table has them.
VIA = ("convert", "model", "both")


class VariantError(ZhTranslateError):
    """A variant option that cannot be built (unknown code or table, OpenCC missing)."""


@dataclass(frozen=True)
class Variant:
    """One extra variant of the site: its code and the OpenCC table it is converted with."""

    code: str
    table: str
    via: str = "convert"

    @property
    def region(self) -> Region:
        return REGIONS[self.code]


def parse_variants(value: object) -> list[Variant]:
    """The option's value (``[zh-Hans, zh-TW]``, or entries ``{code: zh-TW, table: s2tw}``) as
    the extra variants it asks for, in order; Simplified (``zh-Hans``), always built, is left
    out. Raises :class:`VariantError` with one line on a bad entry."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise VariantError(f"expected a list of variants such as [zh-Hans, zh-TW], got {value!r}")
    found: list[Variant] = []
    for item in value:
        code, table, via = _entry(item)
        if code == SIMPLIFIED:
            continue
        if code not in REGIONS:
            raise VariantError(f"unknown Chinese variant {code!r}: use {SIMPLIFIED} or {', '.join(REGIONS)}")
        table = table or REGIONS[code].table
        if table not in TABLES:
            raise VariantError(f"variant {code}: unknown OpenCC table {table!r}: use one of {', '.join(TABLES)}")
        if any(v.code == code for v in found):
            raise VariantError(f"variant {code} is listed twice")
        if via not in VIA:
            raise VariantError(f"variant {code}: unknown way {via!r} to make it: use one of {', '.join(VIA)}")
        found.append(Variant(code, table, via))
    return found


def traditional_code(locale: str) -> str | None:
    """The variant a locale or language tag names (``zh_TW``, ``zh-Hant-HK``, ``zh_Hant``), or
    None for Simplified and anything that is not Chinese."""
    parts = [p.casefold() for p in locale.replace("_", "-").split("-")]
    if not parts or parts[0] != "zh":
        return None
    if "tw" in parts[1:]:
        return "zh-TW"
    if "hk" in parts[1:] or "mo" in parts[1:]:
        return "zh-HK"
    return TRADITIONAL if "hant" in parts[1:] else None


def _entry(item: object) -> tuple[str, str | None, str]:
    if isinstance(item, str):
        return item, None, VIA[0]
    if isinstance(item, dict) and isinstance(item.get("code"), str) and set(item) <= {"code", "table", "via"}:
        table, via = item.get("table"), item.get("via", VIA[0])
        if (table is None or isinstance(table, str)) and isinstance(via, str):
            return item["code"], table, via
    raise VariantError(
        f"a variant is a code such as zh-TW, or {{code: zh-TW, table: s2twp, via: convert}}; got {item!r}"
    )


# -- conversion ----------------------------------------------------------------------------


@cache
def _opencc(table: str) -> Any:
    try:
        import opencc
    except ImportError:
        raise VariantError(
            f"Traditional Chinese variants need OpenCC: pip install 'mkdocs-zh-translate[{EXTRA}]'"
        ) from None
    return opencc.OpenCC(f"{table}.json")


def opencc_version() -> str:
    """OpenCC's version, part of the cache key of what it converts (new tables, new text)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("opencc")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Converter:
    """Simplified text to a variant's, prose only. ``terms``: the variant's own glossary terms,
    ``{Simplified term: variant term}`` (see :func:`variant_terms`), put in after conversion."""

    table: str
    terms: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, text: str) -> str:
        """``text`` (placeholder form: ``<x1/>`` atoms, ``<g1>…</g1>`` pairs) with the text
        between placeholders converted; the placeholders are never handed to OpenCC."""
        parts = []
        for kind, value in tokenize(text):
            if kind == "text":
                parts.append(self.prose(str(value)))
            elif kind == "atom":
                parts.append(f"<x{value}/>")
            elif kind == "open":
                parts.append(f"<g{value}>")
            else:
                parts.append(f"</g{value}>")
        return "".join(parts)

    def prose(self, text: str) -> str:
        """Plain text converted (ASCII is never touched: OpenCC maps Han characters and CJK
        punctuation only; a text without a non-ASCII character is not handed over at all)."""
        if text.isascii():
            return text
        converted: str = _opencc(self.table).convert(text)
        for simplified, term in self.terms.items():
            converted = converted.replace(self.prose_plain(simplified), term)
        return converted

    def prose_plain(self, text: str) -> str:
        """``text`` converted without the variant's terms (what a Simplified term becomes)."""
        return str(_opencc(self.table).convert(text))

    def fingerprint(self) -> str:
        """How this converter converts, for the cache key of what it makes."""
        terms = hashlib.sha256(json.dumps(sorted(self.terms.items()), ensure_ascii=False).encode()).hexdigest()[:12]
        return f"opencc-{opencc_version()}:{self.table}" + (f":terms-{terms}" if self.terms else "")


def variant_terms(base: Glossary | None, own: Glossary | None) -> dict[str, str]:
    """The variant glossary's terms as replacements of the Simplified glossary's: an English
    term that both give (``cache``: 缓存 in ``translations/zh/``, 快取 in ``translations/zh-TW/``)
    is written the variant's way wherever the Simplified text has the Simplified term."""
    if base is None or own is None:
        return {}
    simplified = {t.english.casefold(): t.chinese for t in base.terms if t.chinese}
    return {
        simplified[t.english.casefold()]: t.chinese
        for t in own.terms
        if t.chinese and simplified.get(t.english.casefold())
    }


# -- the variant's pipeline ----------------------------------------------------------------


@dataclass(frozen=True)
class ConvertingService(TranslationService):
    """A variant's translation service: its own cache entries first (an earlier build's), else
    the model's own Traditional (``direct``, the ``target: zh-Hant`` service, when the variant is
    made ``via`` the model), else the Simplified service's hit (cached or translated) converted;
    what it makes is stored under the variant's key. Text that stays English (no model) is
    neither converted nor stored."""

    base: TranslationService | None = None
    convert: Callable[[str], str] = str
    direct: TranslationService | None = None
    via: str = VIA[0]

    def translate(self, requests: Requests, fresh: Collection[str] = ()) -> dict[str, Hit]:
        """``fresh``: texts made again (``prefill --retranslate``): not read from this variant's
        entries, and translated again by the Simplified service before they are converted."""
        assert self.base is not None, "a converting service converts a base service's text"
        hits = {t: h for t, h in self.lookup(requests).items() if t not in fresh}
        self.tally.cached += len(hits)
        misses = Requests({t: d for t, d in requests.droppable.items() if t not in hits})
        if not len(misses):
            return hits
        made = self._from_model(misses) if self.direct is not None else {}
        rest = Requests({t: d for t, d in misses.droppable.items() if t not in made})
        if len(rest):
            translated = self.base.tally.translated
            try:
                simplified = self.base.translate(rest, [t for t in fresh if t in rest.droppable])
            finally:
                self.tally.unavailable = self.base.tally.unavailable
            self.tally.translated += self.base.tally.translated - translated
            made.update({t: h if h.origin is Origin.ENGLISH else replace(h, text=self.convert(h.text))
                         for t, h in simplified.items()})
        if self.cache is not None:
            store = {self.key(t, misses.droppable[t]): h for t, h in made.items() if h.origin is not Origin.ENGLISH}
            if store:
                self.cache.machine.store(store, self.cache.fingerprint)
        hits.update(made)
        return hits

    def _from_model(self, misses: Requests) -> dict[str, Hit]:
        """The model's own Traditional for ``misses`` (``via: model``: all of it, English where it
        cannot; ``both``: what it translated whole, the rest is left to the conversion)."""
        assert self.direct is not None
        translated = self.direct.tally.translated
        try:
            found = self.direct.translate(misses)
        except TranslationFailed:
            if self.via == "model":
                raise
            return {}
        finally:
            self.tally.translated += self.direct.tally.translated - translated
        if self.via == "model":
            self.tally.unavailable = self.direct.tally.unavailable
            return {t: h if h.origin is Origin.ENGLISH else replace(h, text=self.convert(h.text))
                    for t, h in found.items()}
        return {t: replace(h, text=self.convert(h.text)) for t, h in found.items()
                if h.origin is not Origin.ENGLISH and h.fallback != "english"}


@dataclass
class ConvertedReviewer:
    """A variant's reviews: its own PO files first, segment by segment; where they have none,
    the Simplified review converted (a person's text, only written in the variant's script).
    Rejected Simplified reviews are the Simplified site's to report, not repeated here."""

    own: Reviewer | None
    base: Reviewer | None
    convert: Callable[[str], str]

    def page(self, src_uri: str, page: SegmentedPage, location: str, line_offset: int = 0) -> ReviewedPage:
        return self.pages([(src_uri, page, location, line_offset)])[src_uri]

    def pages(
        self, jobs: Sequence[tuple[str, SegmentedPage, str, int]], strings: Sequence[str] = ()
    ) -> Mapping[str, ReviewedPage]:
        # a directory without PO files reviews nothing: not read again per page (a variant's
        # reviews often start empty, and the Simplified layer was read by its own pass)
        own = self.own.pages(jobs, strings) if self.own is not None and self.own.has_files() else {}
        base = self.base.pages(jobs, strings) if self.base is not None and self.base.has_files() else {}
        merged: dict[str, ReviewedPage] = {}
        for src, _page, _location, _offset in jobs:
            mine, theirs = own.get(src), base.get(src)
            page = _PageReview()
            if theirs is not None:
                page.hits = {i: replace(h, text=self.convert(h.text)) for i, h in theirs.hits.items()}
            if mine is not None:
                page.hits.update(mine.hits)
                page.warnings, page.stale, page.suggested = list(mine.warnings), mine.stale, mine.suggested
            merged[src] = page
        return merged

    def strings(self, strings: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        found: dict[str, str] = {}
        warnings: list[str] = []
        if self.base is not None:
            base, _ = self.base.strings(strings)
            found.update({s: self.convert(t) for s, t in base.items()})
        if self.own is not None:
            own, warnings = self.own.strings(strings)
            found.update(own)
        return found, warnings

    def has_files(self) -> bool:
        return any(r is not None and r.has_files() for r in (self.own, self.base))


@dataclass
class _PageReview:
    hits: dict[int, Hit] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    stale: int = 0
    suggested: int = 0
