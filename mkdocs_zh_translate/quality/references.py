"""What ``eval`` scores against: pairs of English source and a person's Chinese.

Two sources, one shape (:class:`Reference`: the placeholder text the pipeline translates and
the reference in the same placeholder form):

* a site's reviewed PO entries, read as the build reads them (``ReviewedLayer.check``: not
  fuzzy, not obsolete, markup kept; an entry the build would reject is skipped and counted);
* a TSV file, ``english<TAB>reference`` per line, both readable Markdown as in a PO entry
  (blank lines and ``#`` comments skipped). A bad line is one error naming ``file:line``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ZhTranslateError
from ..segment import Segment, SegmentError, from_readable, segment_markdown
from ..textfile import NotUtf8Error, open_bytes, split_bom
from ..untrusted import display

if TYPE_CHECKING:
    from ..pipeline.backends import TranslatorSpec
    from ..pipeline.glossary import Glossary
    from ..review.site import Site


class ReferencesError(ZhTranslateError):
    """A reference file that cannot be used (``file:line: why``)."""


@dataclass(frozen=True)
class Reference:
    """One sentence to score: where the reference is written, the source as the pipeline
    translates it (placeholders), the reference in the same form, the pairs the ladder may drop."""

    where: str
    source: str
    reference: str
    droppable: frozenset[int] = frozenset()


@dataclass
class ReferenceSet:
    """The references of one run, where they came from, and the site's translator and glossary
    when they came from a site (a TSV has neither)."""

    origin: str
    references: list[Reference] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "file:line: why" of entries not used
    spec: TranslatorSpec | None = None
    glossary: Glossary | None = None
    review_dir: Path | None = None  # where a site's reviewed entries were looked for


def _tsv_lines(path: Path, name: str) -> Iterator[tuple[int, str]]:
    """(number, text) of each line of the file, read one line at a time: lines end at ``\\n``
    only (``\\r\\n`` too), so a U+2028 or NEL inside a reference does not shift the line
    numbers of the messages (``str.splitlines`` would break there)."""
    with open_bytes(path, name, "TSV file", ReferencesError) as handle:
        for number, raw in enumerate(handle, start=1):  # binary lines end at b"\n" only
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ReferencesError(str(NotUtf8Error(name, number, raw[exc.start]))) from None
            if number == 1:
                line, _bom = split_bom(line)
            yield number, line.removesuffix("\n").removesuffix("\r")


def read_tsv(path: Path, limit: int | None = None) -> ReferenceSet:
    """The references of a TSV file, the first ``limit`` of them (all for None), read line by
    line: a file far larger than memory is fine with a limit, and the lines after the
    ``limit``-th reference are not read at all. :class:`ReferencesError` names ``file:line`` of
    the first bad line (no tab, an empty side, English that is not exactly one segment, a
    reference that loses or adds markup)."""
    name = display(path)
    found = ReferenceSet(name)
    for number, line in _tsv_lines(path, name):
        if limit is not None and len(found.references) >= limit:
            break
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{name}:{number}"
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            raise ReferencesError(f"{where}: expected `english<TAB>reference` (one tab, text on both sides)")
        found.references.append(_reference(where, parts[0].strip(), parts[1].strip()))
    return found


def _reference(where: str, english: str, chinese: str) -> Reference:
    try:
        segments = segment_markdown(english).segments
    except SegmentError as exc:
        raise ReferencesError(f"{where}: cannot segment the English: {exc}") from None
    if len(segments) != 1:
        raise ReferencesError(
            f"{where}: the English is {len(segments)} segments to translate; give one sentence or paragraph per line"
        )
    segment = segments[0]
    parsed = from_readable(segment, chinese)
    if parsed.problems:
        problems = "; ".join(parsed.problems)
        raise ReferencesError(f"{where}: the reference does not keep the English's markup ({problems})")
    return Reference(where, segment.text, parsed.text, segment.droppable_pairs)


def site_references(site: Site) -> ReferenceSet:
    """The reviewed entries of ``site``'s PO files, read as the build reads them
    (``ReviewedLayer.check``); entries the build would reject are listed in ``skipped``."""
    from ..review.layer import ReviewedLayer

    layer = ReviewedLayer(site.review_dir)
    found = ReferenceSet(display(site.config_file), spec=site.spec, glossary=site.glossary, review_dir=site.review_dir)
    for path, units in site.pages.items():
        for unit, entry, text in layer.reviewed(path, units, found.skipped):
            segment = unit.segment or Segment(unit.text, 0, 0, 1, "string")
            found.references.append(
                Reference(f"{display(path)}:{entry.linenum}", unit.text, text, segment.droppable_pairs)
            )
    return found


def limited(references: Sequence[Reference], limit: int | None) -> list[Reference]:
    """The first ``limit`` references (all of them for None)."""
    return list(references if limit is None else references[:limit])
