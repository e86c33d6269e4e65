"""The placeholder language shared by segments and translations, and its validator.

``<xN/>`` is an atom (kept verbatim), ``<gN>…</gN>`` a pair whose content is translated.
These ASCII forms survive SentencePiece intact; models still drop, repeat or reorder them, so
every translation is checked against its source before it may touch a page.
"""

from __future__ import annotations

import re
from collections import Counter

TAG_RE = re.compile(r"<x(\d+)/>|<g(\d+)>|</g(\d+)>")
# Damaged tags a model produces: "< x1 />", "<g1 >", "</ g1>", "<x1>", "<g1/>".
# No two adjacent `\s*` (quadratic on "<" + spaces): each optional slash takes its own spaces.
_LOOSE_RE = re.compile(r"<\s*+(?:/\s*+)?[xXgG]\s*+\d++\s*+(?:/\s*+)?>")


def tokenize(text: str) -> list[tuple[str, str | int]]:
    """Split into ("text", str), ("atom", id), ("open", id), ("close", id)."""
    out: list[tuple[str, str | int]] = []
    pos = 0
    for m in TAG_RE.finditer(text):
        if m.start() > pos:
            out.append(("text", text[pos : m.start()]))
        if m.group(1):
            out.append(("atom", int(m.group(1))))
        elif m.group(2):
            out.append(("open", int(m.group(2))))
        else:
            out.append(("close", int(m.group(3))))
        pos = m.end()
    if pos < len(text):
        out.append(("text", text[pos:]))
    return out


def strip_tags(text: str) -> str:
    """The text with every placeholder (well-formed or damaged) removed."""
    return _LOOSE_RE.sub("", TAG_RE.sub("", text))


def placeholder_spans(text: str) -> list[tuple[int, int]]:
    """The character ranges of every placeholder in ``text``, well-formed or damaged (what
    :func:`strip_tags` removes): a wrapper that asked the model for plain text finds here what
    the model made up."""
    return [m.span() for m in _LOOSE_RE.finditer(text)]


def has_words(text: str) -> bool:
    """Whether anything but placeholders, spaces and punctuation is left to translate."""
    return any(ch.isalpha() for ch in strip_tags(text))


def renumber(text: str) -> tuple[str, dict[int, int]]:
    """Number the placeholders of ``text`` from 1 again; returns the text and new -> old ids."""
    mapping: dict[int, int] = {}
    reverse: dict[int, int] = {}

    def sub(m: re.Match[str]) -> str:
        old = int(m.group(1) or m.group(2) or m.group(3))
        if old not in reverse:
            reverse[old] = len(reverse) + 1
            mapping[reverse[old]] = old
        new = reverse[old]
        if m.group(1):
            return f"<x{new}/>"
        return f"<g{new}>" if m.group(2) else f"</g{new}>"

    return TAG_RE.sub(sub, text), mapping


def apply_ids(text: str, mapping: dict[int, int]) -> str:
    """Undo ``renumber`` on a translation (ids not in ``mapping`` are left as they are)."""

    def sub(m: re.Match[str]) -> str:
        if m.group(1):
            return f"<x{mapping.get(int(m.group(1)), int(m.group(1)))}/>"
        if m.group(2):
            return f"<g{mapping.get(int(m.group(2)), int(m.group(2)))}>"
        return f"</g{mapping.get(int(m.group(3)), int(m.group(3)))}>"

    return TAG_RE.sub(sub, text)


#: An output longer than this many times its source's characters, plus the slack, is a model
#: repeating itself up to its length limit ("…车斯车斯车斯…": small models do it on long
#: sentences), not a translation: Chinese takes fewer characters than the English it
#: translates. It fails like a broken placeholder, so the ladder tries another candidate, then
#: the sentence in pieces (shorter inputs), then English.
RUNAWAY_RATIO = 3
RUNAWAY_SLACK = 20


def validate(source: str, translated: str, *, runaway: bool = True) -> list[str]:
    """Problems that make ``translated`` unusable for ``source``; empty when it is fine.

    The translation must hold exactly the source's placeholders, each once, with every pair
    opened before it is closed and pairs properly nested. ``runaway=False``: a text a person
    wrote may be as long as they chose; only a model's output repeats itself.
    """
    problems: list[str] = []
    want = Counter((kind, pid) for kind, pid in tokenize(source) if kind != "text")
    got_seq = [(kind, pid) for kind, pid in tokenize(translated) if kind != "text"]
    got = Counter(got_seq)
    for key in sorted(set(want) | set(got), key=lambda k: (k[1], k[0])):
        kind, pid = key
        tag = {"atom": f"<x{pid}/>", "open": f"<g{pid}>", "close": f"</g{pid}>"}[str(kind)]
        if got[key] != want[key]:
            if got[key] == 0:
                problems.append(f"{tag} missing")
            elif want[key] == 0:
                problems.append(f"{tag} not in the source")
            else:
                problems.append(f"{tag} appears {got[key]} times")
    stack: list[int | str] = []
    for kind, pid in got_seq:
        if kind == "open":
            stack.append(pid)
        elif kind == "close":
            if not stack or stack[-1] != pid:
                problems.append(f"</g{pid}> closes out of order")
                break
            stack.pop()
    else:
        if stack:
            problems.append(f"<g{stack[-1]}> never closed")
    loose_src = len(_LOOSE_RE.findall(TAG_RE.sub("", source)))
    loose_out = len(_LOOSE_RE.findall(TAG_RE.sub("", translated)))
    if loose_out > loose_src:
        problems.append("damaged placeholder")
    source_text, translated_text = strip_tags(source).strip(), strip_tags(translated).strip()
    if source_text and not translated_text:
        problems.append("empty translation")
    elif runaway and len(translated_text) > RUNAWAY_RATIO * len(source_text) + RUNAWAY_SLACK:
        problems.append("runaway translation (far longer than its source)")
    return problems


def without_pairs(text: str, pairs: set[int] | frozenset[int]) -> str:
    """``text`` with the tags of ``pairs`` removed (their content stays)."""
    return re.sub(r"</?g(\d+)>", lambda m: "" if int(m.group(1)) in pairs else m.group(0), text)
