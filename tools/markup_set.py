"""A known-alignment markup set: English sentences with inline markup and exact references.

The tiny models learn an invented task (``tools/export_tiny.py``): each English word becomes a
fixed run of CJK characters, monotone, with some words dropped ("the") and some phrases merged
("in order to" -> one chunk), and placeholders copied in place. So where each markup span
belongs in the target is known: between the chunks of the words around it. This module makes
sentences with markup as the segmenter emits it and their reference targets, and scores a
translation against a reference (used by ``benchmarks/markup.py``).

How the reference is exact by construction: tags are put only at *word boundaries* of the
tag-free sentence (between space-separated words, or between a word and its trailing
punctuation), the reference is ``pseudo_translate`` of the tagged sentence (which copies each
tag between the chunks of its neighbours), and a sentence is kept only if removing the tags
from its reference gives the chunks of ``pseudo_translate`` of the tag-free sentence (same
tokens, see :func:`tokens`). That rejects exactly the boundaries inside a merged phrase, where
no placement is right. Pairs whose content translates to nothing (a lone "the") are rejected
too: nothing could tell where they go.

Markup kinds, as the segmenter writes them (one counter in reading order, outer before inner):
atoms ``code`` (inline code), ``url`` (an autolink), ``footnote`` (a footnote mark, glued to the
word before it); pairs ``emphasis`` (droppable by the ladder), ``link`` and ``image`` (alt
text; not droppable). Pairs may nest (emphasis in a link, a link in emphasis, two marks on the
same words as ``[**x**](u)``) and sit next to each other or to an atom.

Held back: a sentence is kept only if neither it nor its tag-free text is a training sentence of
any preset (seed 0) of the tiny models. ``python -m tools.markup_set --n 5`` prints a few.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from mkdocs_zh_translate.segment import TAG_RE, strip_tags, tokenize

from .export_tiny import PRESETS, make_pair, pseudo_translate

ATOM_KINDS = ("code", "url", "footnote")
PAIR_KINDS = ("emphasis", "link", "image")
#: How many markup items a sentence gets (0-4), and how often.
COUNT_WEIGHTS = {0: 10, 1: 30, 2: 25, 3: 20, 4: 15}
#: The ladder splits longer segments into sentences; the set stays one sentence each.
MAX_CHARS = 200


@dataclass(frozen=True)
class MarkupCase:
    """One sentence: ``source`` with placeholders, its ``reference`` target with them at their
    right places, ``droppable`` (the emphasis pair ids the ladder may drop, as
    ``Segment.droppable_pairs``) and the kind of each placeholder id."""

    source: str
    reference: str
    droppable: frozenset[int] = frozenset()
    kinds: dict[int, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Generating
# ---------------------------------------------------------------------------------------------


@functools.cache
def training_sources(seed: int = 0) -> frozenset[str]:
    """Every training sentence (and its tag-free text) of every preset for ``seed``: rebuilt
    from the trainer's own data stream (``_build``: ``make_pair(Random(seed), rate)`` per pair)."""
    longest: dict[float, int] = {}  # presets of one rate share a stream: the longest covers all
    for preset in PRESETS.values():
        longest[preset.placeholder_rate] = max(longest.get(preset.placeholder_rate, 0), preset.pairs)
    seen: set[str] = set()
    for rate, count in longest.items():
        rng = random.Random(seed)
        for _ in range(count):
            source = make_pair(rng, rate)[0]
            seen.add(source)
            seen.add(_plain(source))
    return frozenset(seen)


def _plain(text: str) -> str:
    return " ".join(strip_tags(text).split())


@dataclass
class _Pair:
    start: int  # first word index
    end: int  # last word index
    kind: str
    num: int = 0


@dataclass
class _Atom:
    gap: int  # before word ``gap`` (``len(words)``: at the end)
    kind: str
    num: int = 0


def _pick_pairs(rng: random.Random, words: int, count: int) -> list[_Pair]:
    """``count`` word spans, each disjoint from or nested in the others (never crossing)."""
    pairs: list[_Pair] = []
    for _ in range(count * 4):
        if len(pairs) == count:
            break
        if pairs and rng.random() < 0.3:  # nest in (or on the very words of) an earlier span
            outer = rng.choice(pairs)
            start = rng.randint(outer.start, outer.end)
            end = rng.randint(start, outer.end)
            kind = "emphasis" if outer.kind != "emphasis" else rng.choice(("link", "emphasis"))
        else:
            length = rng.choice((1, 1, 2, 2, 3, 4))
            start = rng.randrange(words)
            end = min(words - 1, start + length - 1)
            kind = rng.choice(("emphasis", "emphasis", "link", "link", "image"))
        if any(p.start == start and p.end == end and p.kind == kind for p in pairs):
            continue
        crossing = any(
            (p.start < start <= p.end < end) or (start < p.start <= end < p.end) for p in pairs
        )
        if not crossing:
            pairs.append(_Pair(start, end, kind))
    return pairs


def _render(words: list[str], pairs: list[_Pair], atoms: list[_Atom]) -> str:
    """The tagged sentence. Items are numbered afterwards (:func:`_number`), in reading order."""
    items: list[_Pair | _Atom] = [*pairs, *atoms]
    for number, item in enumerate(items, 1):
        item.num = number  # provisional, unique
    out: list[str] = []
    for i in range(len(words) + 1):
        glued = [a for a in atoms if a.gap == i and a.kind == "footnote" and i > 0]
        loose = [a for a in atoms if a.gap == i and a not in glued]
        if i == len(words):
            if loose and out:  # atoms at the very end go before the final punctuation
                tail = ""
                if out[-1][-1:] in (".", "?", "!"):
                    out[-1], tail = out[-1][:-1], out[-1][-1]
                out[-1] += " " + " ".join(f"<x{a.num}/>" for a in loose) + tail
            if glued and out:
                out[-1] += "".join(f"<x{a.num}/>" for a in glued)
            break
        if glued and out:  # a footnote mark right after the word before it (after its closes)
            out[-1] += "".join(f"<x{a.num}/>" for a in glued)
        word = words[i]
        core, trail = word, ""
        if core[-1:] in (",", ".", ":", ";", "?", "!") and len(core) > 1:
            core, trail = core[:-1], core[-1]
        # outer (longer) spans open first and close last
        opening = sorted((p for p in pairs if p.start == i), key=lambda p: (p.start - p.end, p.num))
        closing = sorted((p for p in pairs if p.end == i), key=lambda p: (p.end - p.start, -p.num))
        text = "".join(f"<g{p.num}>" for p in opening) + core + "".join(f"</g{p.num}>" for p in closing) + trail
        out.extend(f"<x{a.num}/>" for a in loose)
        out.append(text)
    return " ".join(out)


def _number(text: str) -> tuple[str, dict[int, int]]:
    """Number placeholders 1, 2, ... in order of first appearance (the segmenter's one counter);
    returns the text and old -> new ids."""
    new: dict[int, int] = {}

    def sub(m: re.Match[str]) -> str:
        old = int(m.group(1) or m.group(2) or m.group(3))
        num = new.setdefault(old, len(new) + 1)
        return f"<x{num}/>" if m.group(1) else f"<g{num}>" if m.group(2) else f"</g{num}>"

    return TAG_RE.sub(sub, text), new


def _valid(source: str, reference: str, plain: str) -> bool:
    if tokens(strip_tags(reference)) != tokens(pseudo_translate(plain)):
        return False  # a tag inside a merged phrase: no right place for it
    # every pair must hold some translated text
    for m in re.finditer(r"<g(\d+)>", reference):
        close = reference.find(f"</g{m.group(1)}>", m.end())
        if close < 0 or not strip_tags(reference[m.end() : close]).strip():
            return False
    return len(source) <= MAX_CHARS and len(TAG_RE.findall(source)) == len(TAG_RE.findall(reference))


def make_case(rng: random.Random, held_back: frozenset[str] = frozenset()) -> MarkupCase:
    """One sentence with 0-4 markup items and its reference (resampled until valid)."""
    while True:
        plain = make_pair(rng, 0.0)[0]
        words = plain.split(" ")
        count = rng.choices(list(COUNT_WEIGHTS), weights=list(COUNT_WEIGHTS.values()))[0]
        n_pairs = sum(rng.random() < 0.55 for _ in range(count))
        pairs = _pick_pairs(rng, len(words), n_pairs)
        atoms = [
            _Atom(rng.randint(1 if kind == "footnote" else 0, len(words)), kind)
            for kind in (rng.choice(ATOM_KINDS) for _ in range(count - len(pairs)))
        ]
        source, ids = _number(_render(words, pairs, atoms))
        if source in held_back or plain in held_back:
            continue
        reference = pseudo_translate(source)
        if not _valid(source, reference, plain):
            continue
        items: list[_Pair | _Atom] = [*pairs, *atoms]
        kinds = {ids[item.num]: item.kind for item in items}
        droppable = frozenset(ids[p.num] for p in pairs if p.kind == "emphasis")
        return MarkupCase(source, reference, droppable, kinds)


def markup_set(n: int = 1000, seed: int = 0) -> list[MarkupCase]:
    """``n`` held-back cases, the same for the same ``seed`` (distinct sources)."""
    rng = random.Random(f"markup-set-{seed}")
    held_back = training_sources(0)
    cases: dict[str, MarkupCase] = {}
    while len(cases) < n:
        case = make_case(rng, held_back)
        cases.setdefault(case.source, case)
    return list(cases.values())


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"<x\d+/>|</?g\d+>|[A-Za-z0-9]+|\S")


def tokens(text: str) -> list[str]:
    """The scoring tokens of a target: each tag, each ASCII word or number, each other
    non-space character (a CJK character, a punctuation mark). Spaces do not count: where a
    space goes beside a name or a tag is not placement."""
    return _TOKEN_RE.findall(text)


def tag_contexts(text: str) -> dict[str, list[tuple[str, str]]]:
    """Each tag -> for each of its occurrences, the non-tag tokens right before and after it
    (``""`` at the sentence's start or end; other tags in between are skipped)."""
    toks = tokens(text)
    words = [t for t in toks if not TAG_RE.fullmatch(t)]
    contexts: dict[str, list[tuple[str, str]]] = {}
    before = 0
    for tok in toks:
        if TAG_RE.fullmatch(tok):
            left = words[before - 1] if before else ""
            right = words[before] if before < len(words) else ""
            contexts.setdefault(tok, []).append((left, right))
        else:
            before += 1
    return contexts


@dataclass(frozen=True)
class Score:
    """How one translation compares with its reference.

    * ``exact``: the token sequences (:func:`tokens`: tags and text, spaces ignored) are equal,
      i.e. right text and every tag at its place, in the right order and nesting;
    * ``text``: the token sequences with every tag removed are equal (the words are right,
      wherever the tags went);
    * ``tags``/``tags_placed``: the reference's tags, and those the output holds exactly once
      between the same two text tokens as the reference (:func:`tag_contexts`: the nearest
      non-tag token on each side, or the sentence's start/end). Local on purpose: a word
      mistranslated elsewhere in the sentence does not move a tag. Two tags between the same
      tokens (``</g1><x2/>``) both count as placed in either order; ``exact`` tells orders
      apart.
    * ``placeable``/``placed_placeable``: the reference's tags whose two neighbours are also
      neighbours in the output's text (so some placement would be right whatever the words
      elsewhere), and those of them placed: placement with translation errors factored out,
      tag by tag (a tag whose neighbour the model mistranslated cannot be placed by anyone).
    """

    exact: bool
    text: bool
    tags: int
    tags_placed: int
    placeable: int = 0
    placed_placeable: int = 0


def score(output: str, reference: str) -> Score:
    """Score one output against its reference (see :class:`Score`)."""
    out_tokens, ref_tokens = tokens(output), tokens(reference)
    out_text = [t for t in out_tokens if not TAG_RE.fullmatch(t)]
    ref_text = [t for t in ref_tokens if not TAG_RE.fullmatch(t)]
    got, want = tag_contexts(output), tag_contexts(reference)
    placed = sum(1 for tag, at in want.items() if got.get(tag) == at)
    adjacent = set(zip(["", *out_text], [*out_text, ""]))
    placeable = [tag for tag, at in want.items() if all(pair in adjacent for pair in at)]
    return Score(out_tokens == ref_tokens, out_text == ref_text, sum(map(len, want.values())), placed,
                 len(placeable), sum(1 for tag in placeable if got.get(tag) == want[tag]))


def well_nested(text: str) -> bool:
    """Every pair opened before it is closed, closed in reverse order (the references' shape)."""
    stack: list[int | str] = []
    for kind, pid in tokenize(text):
        if kind == "open":
            stack.append(pid)
        elif kind == "close" and (not stack or stack.pop() != pid):
            return False
    return not stack


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.markup_set [--n N] [--seed S] [--json]``: print cases."""
    parser = argparse.ArgumentParser(prog="python -m tools.markup_set", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    for case in markup_set(args.n, args.seed):
        if args.json:
            row = asdict(case)
            row["droppable"] = sorted(case.droppable)
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(f"{case.source}\n  -> {case.reference}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
