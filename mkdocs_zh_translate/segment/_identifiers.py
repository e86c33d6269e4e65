"""Text that is only an identifier: kept as written, never sent to the model.

Reference tables and generated API pages write names as plain text: a cell ``prompt_literal_start``
or ``**before_load_schema**``, a nav item ``[data_merge](data_merge.md)``, a dotted
``assets.override.css``. Sent to a model they come back as words (``提示文字开始``), and the name a
reader searches for is gone. A name is a word with an underscore (``snake_case``, ``__init__``,
``MAX_SIZE``) or dotted words (``os.path.join``, ``mkdocs.yml``), a call's ``()`` allowed; plain
words (``Settings``) are prose, since nothing tells them from English.

Two places: a segment whose words are all names is no segment, and a formatting run (emphasis, a
link's label, a mark) holding one name becomes one atom with its delimiters, so the sentence
around it is translated and the name is not. An ``_`` emphasis stays a pair: the splice turns it
into ``*`` where Chinese would touch it, which an atom could not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._model import Piece
from ._placeholders import strip_tags

_PART_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# What separates names in a list of them (``a_b, c_d``): it carries no words.
_SEPARATORS_RE = re.compile(r"[\s,;/|]+")
_RUN_ROLES = frozenset({"em", "strong", "s", "mark", "link"})


def is_identifier(word: str) -> bool:
    """Is ``word`` a name: dotted words, or one word with an underscore and a letter?"""
    if word.endswith("()"):
        word = word[:-2]
    parts = word.split(".")
    if not all(_PART_RE.fullmatch(part) for part in parts):
        return False
    return len(parts) > 1 or ("_" in word and any(ch.isalpha() for ch in word))


def only_identifiers(segment_text: str) -> bool:
    """Are the words of a segment (placeholders aside) all names? Then nothing is translated."""
    words = [w for w in _SEPARATORS_RE.split(strip_tags(segment_text)) if w]
    return bool(words) and all(is_identifier(w) for w in words)


def identifier_runs(pieces: Sequence[Piece], text: str) -> list[Piece]:
    """``pieces`` with every run ``open, text, close`` whose text is one name (``**a_b**``,
    ``[data_merge](data_merge.md)``) made one atom of role ``identifier``; an image's alt and
    an ``_`` emphasis stay as they are."""
    out: list[Piece] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        if i + 2 < len(pieces) and _named_run(p, pieces[i + 1], pieces[i + 2], text):
            out.append(Piece("atom", p.start, pieces[i + 2].end, "identifier"))
            i += 3
            continue
        out.append(p)
        i += 1
    return out


def _named_run(opening: Piece, inner: Piece, closing: Piece, text: str) -> bool:
    if opening.kind != "open" or closing.kind != "close" or inner.kind != "text":
        return False
    if opening.role not in _RUN_ROLES or closing.role != opening.role or "_" in text[opening.start : opening.end]:
        return False
    return is_identifier(text[inner.start : inner.end].strip())
