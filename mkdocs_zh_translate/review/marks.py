"""Segment marks of the review build: which rendered text is which segment, in review mode only.

``review serve`` lets a reviewer pick a sentence on the rendered Chinese page. The page is the
theme's own render of the translated Markdown, so the only reliable way to know where a
segment landed is to carry its number through the render. In review mode each translated
segment's text is wrapped, before it is spliced into the page, in two invisible marks::

    U+FDD0 <digits> U+FDD2  text  U+FDD1 <digits> U+FDD2

(the digits are U+FDE0..U+FDE9). These are Unicode noncharacters: no text a page, a model or a
PO file holds uses them (``review serve`` refuses an edit that contains one), Markdown treats
them as plain text, and they are neither word characters nor punctuation, so they never change
how emphasis or a list is read. After the render, :func:`mark_html` turns each pair that
encloses a balanced run of the page's HTML into ``<span data-zh-seg="N">``;
a pair that does not (the marks landed in different elements) marks the innermost element
holding both instead; marks inside a tag (an ``alt`` or ``title`` attribute), inside ``pre``,
``code``, ``script``, ``style``, ``textarea`` or ``title``, and anywhere else in the page (the
table of contents, the window title, the search index) are removed (:func:`strip_marks`).

The shipped build never calls this module: its output stays byte-identical. Every pattern
here is linear (one quantifier per alternative, no nesting).
"""

from __future__ import annotations

import re

OPEN, CLOSE, END = "\ufdd0", "\ufdd1", "\ufdd2"
_ZERO = 0xFDE0
_DIGITS = "".join(chr(_ZERO + d) for d in range(10))
_ALL = OPEN + CLOSE + END + _DIGITS
_MARK = re.compile(f"([{OPEN}{CLOSE}])([{_DIGITS}]+){END}")
_STRAY = re.compile(f"[{_ALL}]")
# a comment, a tag, a text run, or a lone "<" that starts neither: one quantifier each
_TOKEN = re.compile(r"<!--.*?-->|<[^>]*>|[^<]+|<", re.S)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_RAW = frozenset("pre code script style textarea title svg".split())


def _code(index: int) -> str:
    return "".join(chr(_ZERO + int(d)) for d in str(index))


def mark(index: int, text: str) -> str:
    """``text`` (a segment's translation, placeholder form) wrapped in segment ``index``'s marks."""
    code = _code(index)
    return f"{OPEN}{code}{END}{text}{CLOSE}{code}{END}"


def has_marks(text: str) -> bool:
    """Whether ``text`` holds any character the marks are made of (an edit may not)."""
    return _STRAY.search(text) is not None


def strip_marks(text: str) -> str:
    """``text`` without any mark character."""
    return _STRAY.sub("", text) if has_marks(text) else text


def _number(digits: str) -> str:
    return "".join(str(ord(c) - _ZERO) for c in digits)


class _Marker:
    """One pass over the page's HTML tokens, remembering the open elements. Linear: a stack
    state is named by (depth, its innermost element), a closing tag searches the stack only
    when an element of its name is open (and pops what it passes), and the walk to a common
    ancestor of an unbalanced pair is bounded."""

    WALK = 64  # ancestors looked at for an unbalanced pair; deeper, the segment stays unmarked

    def __init__(self) -> None:
        self.out: list[str] = []
        self.stack: list[tuple[str, int]] = []  # open element: (name, index of its tag in out)
        self.parent: dict[int, int] = {}  # element -> its parent element (-1: none)
        self.open_names: dict[str, int] = {}
        self.raw_depth = 0  # open elements whose text is not prose (pre, code, script...)
        self.pending: dict[str, tuple[int, tuple[int, int]]] = {}  # segment: (placeholder, state)

    def state(self) -> tuple[int, int]:
        return (len(self.stack), self.stack[-1][1] if self.stack else -1)

    def tag(self, token: str) -> None:
        token = strip_marks(token)
        found = _TAG_NAME.match(token)
        self.out.append(token)
        if found is None or token.startswith("<!"):
            return
        name = found.group(1).lower()
        if token.startswith("</"):
            if self.open_names.get(name):
                while self.stack:
                    popped, _at = self.stack.pop()
                    self.open_names[popped] -= 1
                    self.raw_depth -= popped in _RAW
                    if popped == name:
                        break
        elif name not in _VOID and not token.endswith("/>"):
            self.parent[len(self.out) - 1] = self.stack[-1][1] if self.stack else -1
            self.stack.append((name, len(self.out) - 1))
            self.open_names[name] = self.open_names.get(name, 0) + 1
            self.raw_depth += name in _RAW

    def text(self, token: str) -> None:
        if not has_marks(token):
            self.out.append(token)
            return
        if self.raw_depth:
            self.out.append(strip_marks(token))
            return
        at = 0
        for found in _MARK.finditer(token):
            self.out.append(strip_marks(token[at : found.start()]))
            at = found.end()
            number = _number(found.group(2))
            if found.group(1) == OPEN:
                self.pending[number] = (len(self.out), self.state())
                self.out.append("")
            elif number in self.pending:
                self.close(number)
        self.out.append(strip_marks(token[at:]))

    def common(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """The innermost element open in both states (-1: none, or none within :attr:`WALK`)."""
        (da, ea), (db, eb) = a, b
        for _step in range(self.WALK):
            if ea == eb:
                return ea
            if da >= db:
                if ea < 0:
                    return -1
                ea, da = self.parent[ea], da - 1
            else:
                if eb < 0:
                    return -1
                eb, db = self.parent[eb], db - 1
        return -1

    def close(self, number: str) -> None:
        placeholder, opened = self.pending.pop(number)
        attribute = f'data-zh-seg="{number}"'
        if opened == self.state():
            self.out[placeholder] = f"<span {attribute}>"
            self.out.append("</span>")
            return
        parent = self.common(opened, self.state())  # unbalanced: the element holding both marks
        if parent >= 0 and "data-zh-seg=" not in self.out[parent]:
            tag = self.out[parent]
            cut = len(tag) - (2 if tag.endswith("/>") else 1)
            self.out[parent] = f"{tag[:cut]} {attribute}{tag[cut:]}"


def mark_html(html: str) -> str:
    """The page's HTML with each marked segment pickable (see the module's docstring) and no
    mark character left anywhere."""
    if not has_marks(html):
        return html
    marker = _Marker()
    for found in _TOKEN.finditer(html):
        token = found.group()
        if token.startswith("<") and len(token) > 1:
            marker.tag(token)
        else:
            marker.text(token)
    return "".join(marker.out)
