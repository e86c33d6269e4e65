"""What of a rendered page a translation must leave exactly as it was, read from its HTML.

One pass of an HTML parser collects every feature the guard compares (see the package doc); a
:class:`Structure` says what differs between two pages, in words for the reason a warning
gives and raw for the search's suspects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser

# How a reason names each compared feature.
_LABELS = {
    "pre": "<pre> block",
    "links": "href/src",
    "ids": "id",
    "code": "inline code",
    "math": "math",
    "blocks": "list/quote/table structure",
}
FEATURES = tuple(_LABELS)

# The block elements whose count and nesting a translation must keep (see the module doc).
_BLOCKS = frozenset(
    "ul ol li blockquote table thead tbody tfoot tr th td dl dt dd details summary p".split()
)


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
        for name in FEATURES[:-1]:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                out += list((mine - theirs).elements()) + list((theirs - mine).elements())
        return out

    def differences(self, other: Structure, features: Sequence[str] = FEATURES) -> list[str]:
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
