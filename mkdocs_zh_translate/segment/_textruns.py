"""Cutting text pieces further: what inside running text is syntax, not words.

Abbreviations, magiclink's links and shorthand, Material's annotation markers become atoms;
CriticMarkup, mark and caret delimiters become pairs. Pure functions of the page text and the
pieces of one block, run by the segmenter's builder before a segment is made of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._model import Piece

# What pymdownx.magiclink links in plain text besides ``scheme://`` URLs (an inline rule takes
# those): ``www.`` hosts and e-mail addresses (kept like URLs), and the GitHub/GitLab shorthand
# ``@user``, ``user/repo#1``, ``#123``, ``!123`` (kept verbatim: a model would rewrite them).
# Every repetition is bounded or anchored by a look-behind, so the scan stays linear.
_MAGIC_RE = re.compile(
    r"(?P<url>(?<![^\s*_~^\[('\"])www\.[A-Za-z0-9][^\s<>`\u0080-\uffff]*"
    r"|(?<![\w.+-])[\w+-]+(?:\.[\w+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b(?![-@]))"
    r"|(?P<shorthand>(?<![\w/.-])[A-Za-z0-9][-\w.]{0,99}/[-\w.]{1,100}[#!][1-9][0-9]*\b"
    r"|(?<![\w&#!/])[#!][1-9][0-9]*\b(?![-\w])"
    r"|(?<![\w.+@/-])@[A-Za-z0-9](?:[-A-Za-z0-9_]{0,37}[A-Za-z0-9])?\b(?![-@.\w]))"
)
_URL_TRAILING = ".,:;!?'\"*_~^"
# Material's annotation markers in prose, ``(1)`` (``{ .annotate }``): the number must survive.
_ANNOTATION_RE = re.compile(r"(?<![\w(])\(\d{1,3}\)(?![\w)])")
# Inline pairs markdown-it does not know: CriticMarkup, pymdownx.mark ``==x==`` and caret
# ``^^x^^``. Their content is translated; the delimiters are kept like emphasis.
_TEXT_PAIRS = (("{++", "++}"), ("{--", "--}"), ("{==", "==}"), ("{>>", "<<}"), ("==", "=="), ("^^", "^^"))


def split_text(pieces: list[Piece], found: Callable[[Piece], Iterable[tuple[int, int, str]]]) -> list[Piece]:
    """Cut the ``(start, end, role)`` spans ``found`` names in text pieces out as atoms."""
    out: list[Piece] = []
    for p in pieces:
        if p.kind != "text":
            out.append(p)
            continue
        pos = p.start
        for start, end, role in found(p):
            if end <= start:
                continue
            if start > pos:
                out.append(Piece("text", pos, start))
            out.append(Piece("atom", start, end, role))
            pos = end
        if p.end > pos:
            out.append(Piece("text", pos, p.end))
    return out


def split_abbreviations(text: str, abbr_re: re.Pattern[str] | None, pieces: list[Piece]) -> list[Piece]:
    """The page's abbreviations (``abbr_re``, None for none) as atoms: matched by their exact
    spelling, translating the word loses them."""
    if abbr_re is None:
        return pieces
    return split_text(pieces, lambda p: ((m.start(), m.end(), "abbr") for m in abbr_re.finditer(text, p.start, p.end)))


def split_pairs(text: str, pieces: list[Piece]) -> list[Piece]:
    """Critic, mark and caret delimiters as pairs (not nested, within one text run)."""
    out: list[Piece] = []
    for p in pieces:
        if p.kind != "text" or not any(o in text[p.start : p.end] for o, _c in _TEXT_PAIRS):
            out.append(p)
            continue
        pos = p.start
        dead: set[str] = set()  # openers with no closer left in this run
        next_at: dict[str, int] = {}  # each opener's next position: every find scans forward only
        while True:
            best: tuple[int, int, str, str] | None = None
            for opener, closer in _TEXT_PAIRS:
                if opener in dead:
                    continue
                at = next_at.get(opener, -1)
                if at < pos:
                    at = next_at[opener] = text.find(opener, pos, p.end)
                if at < 0:
                    dead.add(opener)
                elif best is None or at < best[0]:
                    best = (at, at + len(opener), opener, closer)
            if best is None:
                break
            at, inner, opener, closer = best
            close_at = text.find(closer, inner + 1, p.end)
            if close_at < 0:
                dead.add(opener)
                continue
            if at > pos:
                out.append(Piece("text", pos, at))
            out.append(Piece("open", at, inner, "mark"))
            out.append(Piece("text", inner, close_at))
            out.append(Piece("close", close_at, close_at + len(closer), "mark"))
            pos = close_at + len(closer)
        if p.end > pos:
            out.append(Piece("text", pos, p.end))
    return out


def split_magic(text: str, pieces: list[Piece]) -> list[Piece]:
    """Keep what magiclink turns into links out of the model's reach."""

    def found(p: Piece) -> list[tuple[int, int, str]]:
        out = []
        for m in _MAGIC_RE.finditer(text, p.start, p.end):
            end = m.end()
            if m["url"]:
                while end > m.start() and text[end - 1] in _URL_TRAILING:
                    end -= 1
            out.append((m.start(), end, "url" if m["url"] else "shorthand"))
        out.extend((m.start(), m.end(), "annotation") for m in _ANNOTATION_RE.finditer(text, p.start, p.end))
        return sorted(out)

    return split_text(pieces, found)
