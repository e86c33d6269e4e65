"""Heading pins for a site without attr_list: the zh build reads ``{ #slug }`` and nothing else.

The segmenter pins each translated heading to its English id with a trailing ``{ #slug }`` (or
``{ id="slug" }``), which needs an attribute-list reader in the zh build. Adding the whole
attr_list extension to a site that does not enable it changes how the site's own text renders:
any ``{...}`` after an inline element or at the end of a paragraph becomes attributes
(mkdocs-macros text such as ``{% raw %}`{{ read_csv() }}`{% endraw %}`` lost its ``{% endraw %}``
and the code span got an attribute ``_``). This extension reads only the exact pin the splice
writes, only at the end of a heading, so every other byte of the site renders as in English.

It is loaded by name (:data:`PINS`, Python-Markdown's ``makeExtension`` convention), so the
config keeps a list of extension names, as MkDocs' own validation leaves it.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree.ElementTree import Element

from markdown import Markdown
from markdown.extensions import Extension
from markdown.extensions.attr_list import AttrListTreeprocessor

PINS = "mkdocs_zh_translate.plugin.pins"

# What segment._splice.pin_attr writes after a heading, and nothing more general: `{ #slug }`
# or `{ id="slug" }` (a slug has no space or brace; escapes are STX/ETX placeholders by now).
# The space before it is looked behind, not matched: `[ ]+\{` searched over a long run of spaces
# backtracks through the run from every start (quadratic).
_PIN = re.compile(r'(?<= )\{ (#[^\s{}]+|id="[^"\s{}]*") \}[ ]*$')


def heading_pin(text: str) -> tuple[str, str] | None:
    """(the text before the pin, the pin's attribute) when ``text`` ends in a pin, else None."""
    match = _PIN.search(text)
    if match is None:
        return None
    return text[: match.start()].rstrip(" "), match.group(1)


class _HeadingPins(AttrListTreeprocessor):
    """attr_list's attribute assignment, applied to a heading's trailing pin only."""

    def run(self, doc: Element) -> None:
        for elem in doc.iter():
            if elem.tag not in ("h1", "h2", "h3", "h4", "h5", "h6"):
                continue
            if len(elem):
                last = elem[-1]
                found = heading_pin(last.tail or "")
                if found and not self.assign_attrs(elem, found[1], strict=True):
                    last.tail = found[0]
            elif elem.text:
                found = heading_pin(elem.text)
                if found and not self.assign_attrs(elem, found[1], strict=True):
                    elem.text = found[0]


class HeadingPinsExtension(Extension):
    """Registers :class:`_HeadingPins` where attr_list would run (before toc reads the ids)."""

    def extendMarkdown(self, md: Markdown) -> None:  # Python-Markdown's name
        md.treeprocessors.register(_HeadingPins(md), "zh_heading_pins", 8)
        md.registerExtension(self)


def makeExtension(**kwargs: Any) -> HeadingPinsExtension:  # Python-Markdown's hook
    return HeadingPinsExtension(**kwargs)
