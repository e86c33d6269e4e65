"""The segmenter's public API: segment a page, splice translations back, translate a page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ._model import Segment
from ._segmenter import build_segments
from ._splice import droppable_pairs, restore_segment
from ._translate import SegmentTranslation, translate_segments


@dataclass(frozen=True)
class SegmentedPage:
    """A page and its segments (in page order)."""

    source: str
    segments: list[Segment] = field(default_factory=list)

    def splice(self, translations: Sequence[str | None], *, heading_ids: bool = True) -> str:
        """The page with each segment replaced by its translation; every other byte untouched.

        ``None`` (or a translation whose placeholders do not match) keeps the English segment.
        ``heading_ids`` pins translated headings to their English id with ``{ #slug }``
        (needs Python-Markdown's attr_list, which MkDocs sites use; turn it off for plain
        CommonMark renderers).
        """
        if len(translations) != len(self.segments):
            raise ValueError(f"{len(translations)} translations for {len(self.segments)} segments")
        edits: list[tuple[int, int, str]] = []
        for segment, translation in zip(self.segments, translations):
            if translation is None:
                continue
            out = restore_segment(segment, translation, heading_ids=heading_ids)
            if out is None:
                continue
            edits.append((segment.start, segment.end, out))
            r = segment.restore
            if heading_ids and r.slug is not None and r.pin_at is not None and translation != segment.text:
                gap = "" if self.source[r.pin_at : r.pin_at + 1].isspace() else " "
                edits.append((r.pin_at, r.pin_at, f" #{r.slug}{gap}"))
        text = self.source
        for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
            text = text[:start] + replacement + text[end:]
        return text


def segment_markdown(text: str) -> SegmentedPage:
    """Split a Markdown page into translatable segments with exact source offsets."""
    return SegmentedPage(text, build_segments(text))


def translate_markdown(text: str, translator: object, *, heading_ids: bool = True) -> str:
    """Segment ``text``, translate each distinct segment once, and splice the results back."""
    page = segment_markdown(text)
    unique: dict[str, set[int]] = {}
    for segment in page.segments:
        unique.setdefault(segment.text, droppable_pairs(segment))
    texts = list(unique)
    results = translate_segments(texts, translator, droppable=[unique[t] for t in texts])
    by_text = {t: r.text for t, r in zip(texts, results)}
    return page.splice([by_text[s.text] for s in page.segments], heading_ids=heading_ids)


__all__ = [
    "Segment",
    "SegmentTranslation",
    "SegmentedPage",
    "segment_markdown",
    "translate_markdown",
    "translate_segments",
]
