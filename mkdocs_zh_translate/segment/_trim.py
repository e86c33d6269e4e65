"""Trimming a block's pieces: what stays outside the translation at its edges.

Task-list boxes and callout keywords at the start, attr_lists, setext-looking underlines,
closing heading hashes and whitespace at the end are syntax the splice puts back as it was; the
segmenter's builder cuts them off before a block's pieces become a segment. Pure functions of
the page text and the pieces.
"""

from __future__ import annotations

import re

from ._model import Piece
from ._slug import heading_attr_start

_LEAD_MARKER_RE = re.compile(r"(?:\[[ xX]\]|\[![A-Za-z]+\][+-]?)(?=[ \t]|$)[ \t]*")
# markdown-callouts: a paragraph (or blockquote) that opens with ``NOTE:`` becomes an
# admonition of that type; the keyword must stay as written.
# (markdown_callouts/callouts.py: ``(^ {0,3}>([!?])? ?|\A)([A-Z]{2,}):([ \n])``; the ``>`` is
# gone by the time we see the paragraph, a collapsible ``>?`` leaves its ``?``.)
_CALLOUT_RE = re.compile(r"(?:[!?] ?)?[A-Z]{2,}:(?=[ \t]|$)[ \t]*")
UNDERLINE_RE = re.compile(r"(?:=+|-+)[ \t]*$")
_CLOSING_HASHES_RE = re.compile(r"[ \t]+#+[ \t]*$")


def _raw(text: str, p: Piece) -> str:
    return text[p.start : p.end]


def trim(
    text: str, pieces: list[Piece], *, lead_marker: bool, atx: bool, callout: bool = False
) -> tuple[list[Piece], Piece | None, bool]:
    """Cut what must stay outside the translation: task/callout markers, trailing attr_lists,
    closing heading hashes, edge whitespace; and say whether a callout marker was cut (the
    block is rebuilt otherwise then)."""
    callout_hit = _cut_lead_markers(text, pieces, lead_marker=lead_marker, callout=callout)
    trailing_attr = _cut_tail(text, pieces)
    if atx:
        _rstrip_last_text(text, pieces, closing_hashes=trailing_attr is not None)
    _rstrip_last_text(text, pieces)
    return pieces, trailing_attr, callout_hit


def _cut_lead_markers(text: str, pieces: list[Piece], *, lead_marker: bool, callout: bool) -> bool:
    """Drop a leading task-list box and/or callout marker (and a line break left bare by it);
    say whether a callout was found, which changes how the block is rebuilt."""
    callout_hit = False
    for wanted, pattern in ((lead_marker, _LEAD_MARKER_RE), (callout, _CALLOUT_RE)):
        if not (wanted and pieces and pieces[0].kind == "text"):
            continue
        m = pattern.match(_raw(text, pieces[0]))
        if m:
            callout_hit = pattern is _CALLOUT_RE
            first = pieces.pop(0)
            if first.start + m.end() < first.end:
                pieces.insert(0, Piece("text", first.start + m.end(), first.end))
            elif pieces and pieces[0].kind == "break":
                pieces.pop(0)
    return callout_hit


def _cut_tail(text: str, pieces: list[Piece]) -> Piece | None:
    """Drop trailing breaks, blank text, a setext-looking underline and attr_lists; return
    the first attr_list found (the one the block keeps), later ones are dropped."""
    trailing_attr = None
    while pieces:
        last = pieces[-1]
        if _junk_tail(text, pieces):
            pieces.pop()
        elif _attr_tail(text, pieces):
            trailing_attr = trailing_attr or pieces.pop()
            if trailing_attr is not last:
                pieces.pop()
        else:
            break
    return trailing_attr


def _junk_tail(text: str, pieces: list[Piece]) -> bool:
    """The last piece carries no words: a break, blank text, or "===" after a line break
    (CommonMark would read a setext underline there)."""
    last = pieces[-1]
    if last.kind == "break" or (last.kind == "text" and not _raw(text, last).strip()):
        return True
    return (
        last.kind == "text"
        and len(pieces) > 1
        and pieces[-2].kind == "break"
        and UNDERLINE_RE.match(_raw(text, last)) is not None
    )


def _attr_tail(text: str, pieces: list[Piece]) -> bool:
    """The last piece is an attr_list standing apart (alone, after a break or a space), so
    it belongs to the block, not to the words before it."""
    last = pieces[-1]
    return (
        last.kind == "atom"
        and last.role == "attr"
        and (
            len(pieces) == 1
            or pieces[-2].kind == "break"
            or (pieces[-2].kind == "text" and _raw(text, pieces[-2])[-1:].isspace())
        )
    )


def _rstrip_last_text(text: str, pieces: list[Piece], *, closing_hashes: bool = False) -> None:
    """Trailing spaces (and, for an ATX heading with an attr_list, its closing hashes) stay
    outside the translation; a text piece left empty is dropped."""
    if pieces and pieces[-1].kind == "text":
        last = pieces.pop()
        raw = _CLOSING_HASHES_RE.sub("", _raw(text, last)) if closing_hashes else _raw(text, last)
        raw = raw.rstrip()
        if raw:
            pieces.append(Piece("text", last.start, last.start + len(raw)))


def word_attr(text: str, pieces: list[Piece]) -> Piece | None:
    """A trailing attr_list the inline rule did not take (``{: android}``, ``{: #\\6.0}``):
    cut off the pieces, so it stays outside the translation like any other."""
    if not pieces:
        return None
    first, end = pieces[0].start, pieces[-1].end
    cut = heading_attr_start(text[first:end])
    if cut is None:
        return None
    at = first + cut
    kept: list[Piece] = []
    for p in pieces:
        if p.end <= at:
            kept.append(p)
        elif p.start < at:
            if p.kind != "text":
                return None
            kept.append(Piece("text", p.start, at))
    if sum(p.kind == "open" for p in kept) != sum(p.kind == "close" for p in kept):
        return None  # the braces sit inside emphasis or a link: leave the heading as it is
    while kept and kept[-1].kind in ("text", "break") and not _raw(text, kept[-1]).strip():
        kept.pop()
    if kept and kept[-1].kind == "text":
        last = kept.pop()
        kept.append(Piece("text", last.start, last.start + len(_raw(text, last).rstrip())))
    pieces[:] = kept
    return Piece("atom", at, end, "attr")
