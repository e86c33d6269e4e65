"""Reviewed catalog entries checked before Sphinx splices them: words may change, markup may not.

The rule the MkDocs build applies to reviewed PO entries, for Sphinx's catalogs. A catalog comes
from contributors, and Sphinx's ``Locale`` parses each ``msgstr`` as reST (or MyST) in place of
the English: ```先读指南 <javascript:alert(1)>`_`` would ship a ``javascript:`` link, a raw role
from ``rst_prolog`` a live ``<img onerror=…>``. So each reviewed entry a document uses is parsed
here the way ``Locale`` will parse it, and so is its English; the two must make the same
elements (:func:`.guard.markup_changed`: the message guard's facts, every element counted).
Where the English itself does not survive that parse (reST on a MyST page, whose entry is
MyST), the translation must make the English node's links, references, code, raw markup and
images, exactly as the message guard requires of machine text.
A raw block's translation (``gettext_additional_targets = ["raw"]``) may change the text
between its HTML tags, never a tag, an attribute or a script. Invisible controls (bidi
overrides, zero-width characters) the English does not have are refused as in MkDocs.

A rejected entry is ignored: the message is machine-translated as if it had no review (or kept
in English), with a warning naming the PO file and line, and counted.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.nodes import LITERAL_TYPE_NODES, extract_messages

from ..plaintext import invisible_controls
from . import guard
from .catalogs import Source, entry_line

# a text with none of these cannot hold reST or MyST markup (a role, link, URI, directive,
# list, substitution, HTML): parsing it is not needed to know it adds none
_MARKUP_CHARS = frozenset(string.punctuation + "\n\r\t\v\f")


@dataclass
class Rejection:
    """A reviewed entry the build ignores: where it is (``file:line``) and why."""

    where: str
    reason: str

    def message(self) -> str:
        return f"reviewed translation rejected ({self.reason}); using the machine translation for this message"

    def line(self) -> str:
        return f"{self.where}: {self.message()}"


def check(
    transform: Any, sources: list[tuple[Source, dict[str, str]]], reviewed: dict[str, str]
) -> dict[str, Rejection]:
    """The reviewed entries of ``transform``'s document that break the rule, removed from
    ``reviewed`` (msgid -> msgstr, as Sphinx will merge it); msgid -> why, for each."""
    rejected: dict[str, Rejection] = {}
    seen: set[str] = set()
    for node, msg in extract_messages(transform.document):
        if msg in seen or msg not in reviewed:
            continue
        seen.add(msg)
        reason = problem(transform, node, msg, reviewed[msg])
        if reason:
            source = next(src for src, catalog in sources if msg in catalog)
            rejected[msg] = Rejection(entry_line(source, msg), reason)
            del reviewed[msg]
    return rejected


def problem(transform: Any, node: nodes.Element, msg: str, msgstr: str) -> str:
    """Why ``msgstr`` may not stand for ``msg`` at ``node`` ("" when it may)."""
    added = [c for c in invisible_controls(msgstr) if c not in invisible_controls(msg)]
    if added:
        return "adds invisible control characters: " + ", ".join(added)
    if isinstance(node, (addnodes.translatable, nodes.meta)) or _alt_text(node, msg):
        return ""  # a caption, meta content or alt text: Sphinx sets it as text, escaped on output
    if isinstance(node, nodes.raw):
        return _raw_changed(str(node.get("format", "")), msg, msgstr)
    if isinstance(node, LITERAL_TYPE_NODES):
        return ""  # Sphinx parses the translation as a literal block: text
    if not (_MARKUP_CHARS.intersection(msg) or _MARKUP_CHARS.intersection(msgstr)):
        return ""
    with logging.suppress_logging():  # Sphinx's own parse of an accepted entry reports its problems
        english = guard.published(transform, msg, node)
        translated = guard.published(transform, msgstr, node)
    changed = guard.markup_changed(english, translated)
    if changed and english.tagname == translated.tagname and guard.lost(node, english):
        # the English does not survive a parse of its own (reST on a MyST page, whose entry is
        # written in MyST; a MyST link defined elsewhere in the file, whose entry carries the
        # definition): the translation is held to the English node, as machine text is
        return "" if not guard.lost(node, translated) else changed
    return changed


def _alt_text(node: nodes.Element, msg: str) -> bool:
    """An image's alt text (its other message, ``.. image:: uri``, is markup: the image's URI)."""
    return isinstance(node, nodes.image) and node.get("alt") == msg


def _raw_changed(fmt: str, msg: str, msgstr: str) -> str:
    """A raw block's translation: for HTML, the same tags, attributes, comments and script or
    style content as the English (only the text between tags changes); any other format as is."""
    if msgstr == msg:
        return ""
    if "html" not in fmt.lower().split():
        return f"changes raw {fmt or 'markup'} content"
    if _html_markup(msg) != _html_markup(msgstr):
        return "changes the HTML of a raw block (only its text may change)"
    return ""


class _Markup(HTMLParser):
    """The HTML markup of a text in order: tags with their attributes, comments, declarations,
    and the content of ``<script>``/``<style>`` (code, not words). One pass (html.parser)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[str, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append(("<", tag, *(f"{k}={v}" for k, v in attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.found.append(("/", tag))

    def handle_data(self, data: str) -> None:
        if getattr(self, "cdata_elem", None):  # inside <script> or <style>
            self.found.append(("code", data))

    def handle_comment(self, data: str) -> None:
        self.found.append(("!--", data))

    def handle_decl(self, decl: str) -> None:
        self.found.append(("!", decl))

    def handle_pi(self, data: str) -> None:
        self.found.append(("?", data))

    def unknown_decl(self, data: str) -> None:
        self.found.append(("![", data))


def _html_markup(text: str) -> list[tuple[str, ...]]:
    parser = _Markup()
    parser.feed(text)
    parser.close()
    parser.found.append(("rest", parser.rawdata))  # an unterminated tag at the end stays unparsed
    return parser.found
