"""The segmenter's public API: segment a page, splice translations back.

Translating a whole page (cache, model, fallback policy) is the pipeline's job:
``mkdocs_zh_translate.translate_markdown``.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..spans import apply_edits
from ._model import Segment, SiteSyntax
from ._segmenter import build_segments, untitled_admonition_types
from ._splice import pin_attr, restore_segment


@dataclass(frozen=True)
class SegmentedPage:
    """A page and its segments (in page order)."""

    source: str
    segments: list[Segment] = field(default_factory=list)
    # indices of the segments whose translation a person wrote (a reviewed PO entry): the
    # splice holds them to the review check's rule, not the model's (no runaway length)
    reviewed: frozenset[int] = frozenset()
    # where each block at the page's top level starts (offsets into ``source``, in order), as
    # the parse that found the segments reads the page: the page guard cuts regions there only
    blocks: tuple[int, ...] = ()

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
        # Attribute text inside an image (its title, a lightbox caption) lies inside a segment's
        # kept syntax when the image sits in prose: edited into that syntax, not the page.
        inner: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
        for index, (segment, translation) in enumerate(zip(self.segments, translations)):
            host = segment.restore.host
            if translation is None or host is None:
                continue
            out = restore_segment(segment, translation, heading_ids=heading_ids, reviewed=index in self.reviewed)
            if out is not None:
                inner.setdefault(host, []).append((segment.start - host[0], segment.end - host[0], out))
        hosts = sorted(inner)
        for index, (segment, translation) in enumerate(zip(self.segments, translations)):
            if translation is None or segment.restore.host is not None:
                continue
            first = at = bisect.bisect_left(hosts, (segment.start, segment.start))
            edited: dict[str, str] = {}
            while at < len(hosts) and hosts[at][1] <= segment.end:
                raw = self.source[hosts[at][0] : hosts[at][1]]
                edited[raw] = _edited(raw, inner[hosts[at]])
                at += 1
            person = index in self.reviewed
            out = restore_segment(_with_syntax(segment, edited), translation, heading_ids=heading_ids, reviewed=person)
            if out is None:
                continue  # English: its hosts' edits go to the page
            for host in hosts[first:at]:
                del inner[host]
            edits.append((segment.start, segment.end, out))
            r = segment.restore
            if heading_ids and r.slug is not None and r.pin_at is not None and translation != segment.text:
                gap = "" if self.source[r.pin_at : r.pin_at + 1].isspace() else " "
                edits.append((r.pin_at, r.pin_at, f" {pin_attr(r.slug)}{gap}"))
        for host, host_edits in inner.items():  # no translated segment around them
            edits.extend((host[0] + start, host[0] + end, out) for start, end, out in host_edits)
        return _edited(self.source, edits)


def _with_syntax(segment: Segment, edited: dict[str, str]) -> Segment:
    """``segment`` with the kept syntax (atoms, pair delimiters) spelled ``edited[raw]``."""
    if not edited:
        return segment
    r = segment.restore
    atoms = {i: (edited.get(raw, raw), role) for i, (raw, role) in r.atoms.items()}
    pairs = {i: (o, edited.get(c, c), piece) for i, (o, c, piece) in r.pairs.items()}
    return dataclasses.replace(segment, restore=dataclasses.replace(r, atoms=atoms, pairs=pairs))


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with the non-overlapping ``(start, end, replacement)`` edits applied."""
    return apply_edits(text, edits)


def segment_markdown(
    text: str,
    *,
    slugify: Callable[[str, str], str] | None = None,
    syntax: SiteSyntax | None = None,
    front_matter: bool = True,
) -> SegmentedPage:
    """Split a Markdown page into translatable segments with exact source offsets.

    ``slugify(text, separator)`` is the site's heading-id function (the ``toc`` extension's
    ``slugify`` option); the default is Python-Markdown's. ``syntax`` says what the site's
    extensions change (tab ids from titles, fancy lists); the default assumes neither.
    ``front_matter=False``: the text has no front matter (MkDocs split it off, or could not
    parse it and renders the lines as page body): a leading ``---`` block is segmented as the
    body it is, never as YAML values.
    """
    segments, blocks = build_segments(text, slugify, syntax=syntax, front_matter=front_matter)
    return SegmentedPage(text, segments, blocks=blocks)


def untitled_admonitions(text: str, *, front_matter: bool = True) -> set[str]:
    """The admonition types (``!!! type``, ``??? type``, ``/// type``) ``text`` uses without a
    title, lower-cased: Python-Markdown shows the type's name instead, which a site's translated
    admonition titles must then cover. Found as the segmenter finds them (the segments it offers
    as titles to insert), so a marker inside a code block is none."""
    return untitled_admonition_types(text, front_matter=front_matter)


__all__ = [
    "Segment",
    "SegmentedPage",
    "SiteSyntax",
    "segment_markdown",
    "untitled_admonitions",
]
