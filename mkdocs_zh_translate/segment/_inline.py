"""Turn one inline token's children into pieces (text, atoms, pairs, breaks).

Works in the inline token's ``content`` coordinates with the ranges recorded by ``_parse``.
Text is whatever lies between positioned tokens, so pending text, unmatched delimiters and
trailing spaces are all covered without needing their own positions.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def inline_pieces(children: Sequence[Token], content: str) -> list[Piece] | None:
    """Pieces in content coordinates, or None when the positions do not add up."""
    pieces: list[Piece] = []
    cursor = 0
    spans = _delimiter_spans(children)
    link_ends: list[tuple[int, int]] = []
    skip_to_close = 0

    def gap(to: int) -> None:
        nonlocal cursor
        if to > cursor:
            pieces.append(Piece("text", cursor, to))
        cursor = max(cursor, to)

    for i, tok in enumerate(children):
        if skip_to_close:
            if tok.type == "link_close":
                skip_to_close -= 1
            elif tok.type == "link_open":
                skip_to_close += 1
            continue
        if tok.type == "text" or "pos" not in tok.meta:
            continue
        start, end = spans.get(i, tok.meta["pos"])
        if start < cursor and tok.type != "link_close":
            return None
        if tok.type in _PAIR_TYPES:
            kind, role = _PAIR_TYPES[tok.type]
            gap(start)
            pieces.append(Piece(kind, start, end, role))
            cursor = end
        elif tok.type == "link_open":
            gap(start)
            if tok.markup in ("autolink", "linkify") or "label_end" not in tok.meta:
                pieces.append(Piece("atom", start, end, "autolink"))
                cursor = end
                skip_to_close = 1
                continue
            label_end = tok.meta["label_end"]
            style = _ref_style(content, label_end)
            label = content[start + 1 : label_end] if style else ""
            pieces.append(Piece("open", start, start + 1, "link", label, style))
            link_ends.append((label_end, end))
            cursor = start + 1
        elif tok.type == "link_close":
            if not link_ends:
                return None
            label_end, end = link_ends.pop()
            gap(label_end)
            pieces.append(Piece("close", label_end, end, "link"))
            cursor = end
        elif tok.type == "image":
            gap(start)
            label_end = tok.meta.get("label_end", -1)
            alt = content[start + 2 : label_end] if label_end > start else ""
            if alt.strip() and not (_ALT_UNSAFE & set(alt)):
                style = _ref_style(content, label_end)
                pieces.append(Piece("open", start, start + 2, "image", alt if style else "", style))
                pieces.append(Piece("text", start + 2, label_end))
                pieces.append(Piece("close", label_end, end, "image"))
            else:
                pieces.append(Piece("atom", start, end, "image"))
            cursor = end
        elif tok.type == "softbreak":
            gap(start)
            pieces.append(Piece("break", start, end))
            cursor = end
        elif tok.type == "hardbreak":
            gap(start)
            if pieces and pieces[-1].kind == "text":  # "foo  \n": the spaces are the break
                last = pieces[-1]
                keep = len(content[last.start : last.end].rstrip(" \t"))
                if content[start] == "\n" and keep < last.end - last.start:
                    pieces.pop()
                    if keep:
                        pieces.append(Piece("text", last.start, last.start + keep))
                    start = last.start + keep
            pieces.append(Piece("atom", start, end, "break"))
            cursor = end
        else:
            gap(start)
            role = tok.info if tok.type == "zh_atom" else _ATOM_ROLES.get(tok.type, tok.type)
            if tok.type == "text_special":
                role = "escape" if tok.info == "escape" else "entity"
            pieces.append(Piece("atom", start, end, role))
            cursor = end
    if link_ends:
        return None
    gap(len(content))
    return pieces
