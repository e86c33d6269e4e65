"""One msgid -> the placeholder texts to translate, and the translations -> the msgstr.

``rst`` (Sphinx catalogs) uses this package's own reST protection: one text per msgid.
``md`` (mdpo / mkdocs-mdpo-plugin catalogs, whose msgids are Markdown) reuses the segmenter:
a msgid is segmented like a small page (usually one segment, sometimes none, e.g. only code)
and the translations are spliced back with its byte-exact splice.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..segment import SegmentedPage, segment_markdown, validate
from .rst import RstMessage, protect_rst

FORMATS = ("rst", "md")
_FOOTNOTE_REF = re.compile(r"\[\^([^\]\s^]+)\]")  # [^label]; linear (no nesting)


@dataclass
class Message:
    """What the translator sees of one msgid and how its answers become the msgstr."""

    source: str
    texts: list[str]
    droppable: list[set[int]] = field(default_factory=list)
    rst: RstMessage | None = None
    page: SegmentedPage | None = None
    definitions: str = ""  # footnote definitions appended for the parser (md), cut off again


    def restore(self, translations: Sequence[str]) -> tuple[str | None, list[str]]:
        if self.rst is not None:
            return self.rst.restore(translations[0])
        assert self.page is not None
        problems = [p for text, out in zip(self.texts, translations) for p in validate(text, out)]
        if problems:
            return None, problems
        result = self.page.splice(list(translations), heading_ids=False)
        if self.definitions:
            if not result.endswith(self.definitions):
                return None, ["the footnote definitions changed"]
            result = result[: -len(self.definitions)]
        return result, []


def protect(source: str, fmt: str, keep_names: Collection[str] = ()) -> Message:
    """``keep_names``: reST reference names the catalog's other messages refer to."""
    if fmt == "rst":
        msg = protect_rst(source, keep_names)
        return Message(source, [msg.text], [msg.droppable], rst=msg)
    if fmt == "md":
        # a msgid is one paragraph: its footnote references ("fast[^perf]") have their
        # definitions elsewhere, and without one the parser reads "[^perf]" as text the model
        # may rewrite; a definition with no words per label makes them protected references
        labels = dict.fromkeys(m.group(1) for m in _FOOTNOTE_REF.finditer(source))
        definitions = "".join(f"\n\n[^{label}]: 0" for label in labels) + "\n" if labels else ""
        page = segment_markdown(source + definitions)
        texts = [s.text for s in page.segments]
        return Message(
            source, texts, [set(s.droppable_pairs) for s in page.segments], page=page, definitions=definitions
        )
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
