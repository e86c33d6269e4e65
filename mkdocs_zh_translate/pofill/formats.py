"""One msgid -> the placeholder texts to translate, and the translations -> the msgstr.

``rst`` (Sphinx catalogs) uses this package's own reST protection: one text per msgid.
``md`` (mdpo / mkdocs-mdpo-plugin catalogs, whose msgids are Markdown) reuses the segmenter:
a msgid is segmented like a small page (usually one segment, sometimes none, e.g. only code)
and the translations are spliced back with its byte-exact splice.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..segment import SegmentedPage, segment_markdown, validate
from .rst import RstMessage, protect_rst

FORMATS = ("rst", "md")


@dataclass
class Message:
    """What the translator sees of one msgid and how its answers become the msgstr."""

    source: str
    texts: list[str]
    droppable: list[set[int]] = field(default_factory=list)
    rst: RstMessage | None = None
    page: SegmentedPage | None = None

    def restore(self, translations: Sequence[str]) -> tuple[str | None, list[str]]:
        if self.rst is not None:
            return self.rst.restore(translations[0])
        assert self.page is not None
        problems = [p for text, out in zip(self.texts, translations) for p in validate(text, out)]
        if problems:
            return None, problems
        result = self.page.splice(list(translations), heading_ids=False)
        return result, []


def protect(source: str, fmt: str, keep_names: Collection[str] = ()) -> Message:
    """``keep_names``: reST reference names the catalog's other messages refer to."""
    if fmt == "rst":
        msg = protect_rst(source, keep_names)
        return Message(source, [msg.text], [msg.droppable], rst=msg)
    if fmt == "md":
        page = segment_markdown(source)
        return Message(
            source, [s.text for s in page.segments], [set(s.droppable_pairs) for s in page.segments], page=page
        )
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
