"""Turn one inline token's children into pieces (text, atoms, pairs, breaks).

Works in the inline token's ``content`` coordinates with the ranges recorded by ``_parse``.
Text is whatever lies between positioned tokens, so pending text, unmatched delimiters and
trailing spaces are all covered without needing their own positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

from ._model import Piece

_PAIR_TYPES = {
    "em_open": ("open", "em"),
    "em_close": ("close", "em"),
    "strong_open": ("open", "strong"),
    "strong_close": ("close", "strong"),
    "s_open": ("open", "s"),
    "s_close": ("close", "s"),
}
_ATOM_ROLES = {
    "code_inline": "code",
    "html_inline": "html",
    "footnote_ref": "footnote",
    "math_inline": "math",
    "math_inline_double": "math",
    "image": "image",
    "hardbreak": "break",
}
# Alt text we hand to the model only when it is plain words (it is not rendered as Markdown
# by every consumer, and a stray character could end the label).
_ALT_UNSAFE = set("`<>*_[]\\&!\n{}$")


def _delimiter_spans(children: Sequence[Token]) -> dict[int, tuple[int, int]]:
    """Spans of emphasis-like delimiters, absorbing the empty text left by ``**``/``__``."""
    spans: dict[int, tuple[int, int]] = {}
    for i, tok in enumerate(children):
        if tok.type not in _PAIR_TYPES or "pos" not in tok.meta:
            continue
        start, end = tok.meta["pos"]
        need = len(tok.markup)
        j = i - 1
        while end - start < need and j >= 0 and _residue(children[j]) and children[j].meta["pos"][1] == start:
            start = children[j].meta["pos"][0]
            j -= 1
        j = i + 1
        while end - start < need and j < len(children) and _residue(children[j]) and children[j].meta["pos"][0] == end:
            end = children[j].meta["pos"][1]
            j += 1
        spans[i] = (start, end)
    return spans


def _residue(tok: Token) -> bool:
    return tok.type == "text" and not tok.content and "pos" in tok.meta


def _ref_style(content: str, label_end: int) -> str:
    after = content[label_end + 1 : label_end + 2]
    if after == "(":
        return ""
    if after == "[":
        return "collapsed" if content[label_end + 2 : label_end + 3] == "]" else ""
    return "shortcut"


@dataclass
class _Walk:
    """One pass over an inline token's children: the pieces so far and where the text ends.

    The per-token handlers below share it, so each construct's rule reads on its own.
    """

    content: str
    pieces: list[Piece] = field(default_factory=list)
    cursor: int = 0
    link_ends: list[tuple[int, int]] = field(default_factory=list)  # open links' (label_end, end)
    skip_to_close: int = 0  # depth inside an autolink, whose children the atom already covers

    def gap(self, to: int) -> None:
        """Text is whatever lies between positioned tokens: emit it up to ``to``."""
        if to > self.cursor:
            self.pieces.append(Piece("text", self.cursor, to))
        self.cursor = max(self.cursor, to)

    def skipping(self, tok: Token) -> bool:
        """True while inside an autolink (tracking nested link tokens until its close)."""
        if not self.skip_to_close:
            return False
        if tok.type == "link_close":
            self.skip_to_close -= 1
        elif tok.type == "link_open":
            self.skip_to_close += 1
        return True


def _pair(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """Emphasis-like delimiters become open/close pieces; the words between are translated."""
    kind, role = _PAIR_TYPES[tok.type]
    walk.gap(start)
    walk.pieces.append(Piece(kind, start, end, role))
    walk.cursor = end
    return True


def _link_open(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """A link's label is translated; an autolink (or one without a label) is kept whole."""
    walk.gap(start)
    if tok.markup in ("autolink", "linkify") or "label_end" not in tok.meta:
        walk.pieces.append(Piece("atom", start, end, "autolink"))
        walk.cursor = end
        walk.skip_to_close = 1
        return True
    label_end = tok.meta["label_end"]
    style = _ref_style(walk.content, label_end)
    label = walk.content[start + 1 : label_end] if style else ""
    walk.pieces.append(Piece("open", start, start + 1, "link", label, style))
    walk.link_ends.append((label_end, end))
    walk.cursor = start + 1
    return True


def _link_close(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """The close covers ``](target)`` recorded at the open; False when no link is open."""
    if not walk.link_ends:
        return False
    label_end, end = walk.link_ends.pop()
    walk.gap(label_end)
    walk.pieces.append(Piece("close", label_end, end, "link"))
    walk.cursor = end
    return True


def _image(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """Plain-word alt text is translated like a label; anything else keeps the image whole."""
    walk.gap(start)
    content = walk.content
    label_end = tok.meta.get("label_end", -1)
    alt = content[start + 2 : label_end] if label_end > start else ""
    if alt.strip() and not (_ALT_UNSAFE & set(alt)):
        style = _ref_style(content, label_end)
        walk.pieces.append(Piece("open", start, start + 2, "image", alt if style else "", style))
        walk.pieces.append(Piece("text", start + 2, label_end))
        walk.pieces.append(Piece("close", label_end, end, "image"))
    else:
        walk.pieces.append(Piece("atom", start, end, "image"))
    walk.cursor = end
    return True


def _softbreak(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """A soft line break is its own piece so the translation can re-wrap."""
    walk.gap(start)
    walk.pieces.append(Piece("break", start, end))
    walk.cursor = end
    return True


def _hardbreak(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """A hard break: two spaces before a newline (Python-Markdown's only form) stay in the text,
    ``  \n``, where they mark a sentence boundary the translation keeps (``split_lines``); the
    newline is a line break like any other. Any other form (a backslash, a tab) is an atom."""
    walk.gap(start)
    pieces, content = walk.pieces, walk.content
    if pieces and pieces[-1].kind == "text":
        last = pieces[-1]
        raw = content[last.start : last.end]
        keep = len(raw.rstrip(" \t"))
        if content[start] == "\n" and keep < last.end - last.start:
            if raw.endswith("  ") and not raw[keep:].strip(" "):
                walk.pieces.append(Piece("break", start, end))
                walk.cursor = end
                return True
            pieces.pop()
            if keep:
                pieces.append(Piece("text", last.start, last.start + keep))
            start = last.start + keep
    pieces.append(Piece("atom", start, end, "break"))
    walk.cursor = end
    return True


def _atom(walk: _Walk, tok: Token, start: int, end: int) -> bool:
    """Every other positioned token is kept verbatim, with a role naming what it is."""
    walk.gap(start)
    role = tok.info if tok.type == "zh_atom" else _ATOM_ROLES.get(tok.type, tok.type)
    if tok.type == "text_special":
        role = "escape" if tok.info == "escape" else "entity"
    walk.pieces.append(Piece("atom", start, end, role))
    walk.cursor = end
    return True


_Handler = Callable[[_Walk, Token, int, int], bool]
_HANDLERS: dict[str, _Handler] = {
    **dict.fromkeys(_PAIR_TYPES, _pair),
    "link_open": _link_open,
    "link_close": _link_close,
    "image": _image,
    "softbreak": _softbreak,
    "hardbreak": _hardbreak,
}


def inline_pieces(children: Sequence[Token], content: str) -> list[Piece] | None:
    """Pieces in content coordinates, or None when the positions do not add up."""
    walk = _Walk(content)
    spans = _delimiter_spans(children)
    for i, tok in enumerate(children):
        if walk.skipping(tok) or tok.type == "text" or "pos" not in tok.meta:
            continue
        start, end = spans.get(i, tok.meta["pos"])
        if start < walk.cursor and tok.type != "link_close":
            return None
        if not _HANDLERS.get(tok.type, _atom)(walk, tok, start, end):
            return None
    if walk.link_ends:
        return None
    walk.gap(len(content))
    return walk.pieces
