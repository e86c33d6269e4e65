"""Placeholder-constrained decoding: an automaton over the target pieces that spell tags.

The engine knows no Markdown, but it knows a generic tag protocol its callers may put in the
source text: atoms ``<xN/>`` and pairs ``<gN>…</gN>``. With constraints on, each hypothesis
of a sentence whose source holds well-formed tags carries a small automaton state: which tags
it has emitted, which pairs are open (a stack) and the tag it is in the middle of spelling
(the characters since its ``<``). From that state the search gets, per row and step, one of
two masks on the few piece ids involved:

* *outside a tag*: a **ban** list: the pieces that would start (or spell) a tag the state does
  not allow (one the source lacks, one already emitted, a close that is not the innermost open
  pair, any tag once all are out) and EOS while anything is missing;
* *inside a tag*: an **only** list: the pieces that extend the partial tag towards an allowed
  one (a model whose vocabulary has ``<x1/>`` as one piece never needs this; opus-mt and the
  tag-free model spell a tag with ordinary pieces such as ``<``, ``x``, ``1``, ``/>``).

Masks are computed once per distinct state (cached) by simulating each candidate piece's
characters; a piece is allowed only if the tag it leaves open can still be completed with the
vocabulary's pieces, so a hypothesis never walks into a dead end. A sentence without tags (or
with malformed ones: a repeated atom, an unmatched pair) gets no automaton: decoding is then
exactly the unconstrained search, which keeps the fp32 parity contract with transformers.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .tokenizer import SPIECE_UNDERLINE

TAG_RE = re.compile(r"<x(\d+)/>|<g(\d+)>|</g(\d+)>")
#: Characters a tag is spelled with; a piece made only of these may continue a partial tag.
TAG_CHARS = frozenset("<>/xg0123456789")

State = tuple[frozenset[str], tuple[str, ...], str]
"""(tags emitted, open pairs' closing tags innermost last, the partial tag since its ``<``)."""

START: State = (frozenset(), (), "")


class Constraint(Protocol):
    """What the search asks of a per-sentence constraint (``TagAutomaton``, or tags and terms
    together: ``terms.Constrained``): a start state, the state after a piece (None: the piece
    breaks it) and the mask a state puts on the next piece."""

    @property
    def start(self) -> Hashable: ...

    def feed(self, state: Any, token: int) -> Any | None: ...

    def mask(self, state: Any) -> Mask: ...

    def forced_ids(self) -> np.ndarray:
        """Every id a mask may leave as the only choice or send EOS to: a vocabulary shortlist
        (``shortlist.py``) must hold them, or a forced token would be out of reach."""
        ...


@dataclass(frozen=True)
class Mask:
    """What one state allows next: ``only`` the listed ids, or everything but them.

    ``eos_to`` (outside a tag, tags still missing): the id that takes EOS's place and score,
    or -1 (EOS is simply banned). Where the model wants to stop, the missing tags start
    instead, so a model that never learnt to place tags still finishes (its tags at the end)
    rather than rambling on to the maximum length.
    """

    ids: np.ndarray
    only: bool
    eos_to: int = -1


def source_tags(text: str) -> tuple[frozenset[str], dict[str, str]] | None:
    """The tags of a source text: (atoms and opening tags, opening tag -> closing tag).

    None when it has none or they are malformed (a repeated tag, a pair missing one half):
    such a sentence is decoded without constraints, and the caller's checks stay the judge.
    """
    seen: list[str] = []
    atoms: set[str] = set()
    opens: dict[str, str] = {}
    closes: set[str] = set()
    for m in TAG_RE.finditer(text):
        tag = m.group(0)
        if tag in seen:
            return None
        seen.append(tag)
        if m.group(1) is not None:
            atoms.add(tag)
        elif m.group(2) is not None:
            opens[tag] = f"</g{m.group(2)}>"
        else:
            closes.add(tag)
    if not seen or set(opens.values()) != closes:
        return None
    return frozenset(atoms) | frozenset(opens), opens


@dataclass
class TagVocab:
    """The target vocabulary as surface strings, and the few pieces tags can be made of."""

    surfaces: list[str]
    eos_id: int
    with_lt: np.ndarray  # ids whose surface holds "<": the only ones that can start a tag
    by_surface: dict[str, int]  # the first id of each surface string
    tag_only: np.ndarray  # ids whose surface is all TAG_CHARS: the only ones inside a tag
    neutral: np.ndarray  # bool per id: no "<" in it (outside a tag, the state stays)
    automata: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], TagAutomaton] = field(default_factory=dict)

    @classmethod
    def build(cls, pieces: Sequence[str], eos_id: int, special: Sequence[int]) -> TagVocab:
        """``pieces[i]``: the SentencePiece piece of id ``i``; ``special`` ids decode to nothing."""
        skip = set(special)
        surfaces = ["" if i in skip else p.replace(SPIECE_UNDERLINE, " ") for i, p in enumerate(pieces)]
        with_lt = np.array([i for i, s in enumerate(surfaces) if "<" in s], dtype=np.int64)
        tag_only = np.array([i for i, s in enumerate(surfaces) if s and set(s) <= TAG_CHARS], dtype=np.int64)
        neutral = np.array(["<" not in s for s in surfaces], dtype=bool)
        by_surface: dict[str, int] = {}
        for i, s in enumerate(surfaces):
            by_surface.setdefault(s, i)
        return cls(surfaces, eos_id, with_lt, by_surface, tag_only, neutral)


@dataclass
class TagAutomaton:
    """The constraint for one source sentence; states are plain hashable tuples."""

    vocab: TagVocab
    tags: frozenset[str]  # atoms and opening tags, each to be emitted exactly once
    closing: dict[str, str]  # opening tag -> its closing tag
    order: tuple[str, ...]  # atoms and opening tags in source order
    _masks: dict[State, Mask] = field(default_factory=dict)
    _viable: dict[State, bool] = field(default_factory=dict)

    @classmethod
    def for_source(cls, vocab: TagVocab, text: str) -> TagAutomaton | None:
        """The automaton for ``text``, or None when it has no (well-formed) tags.

        Shared by every text with the same tags in the same order (most sentences hold one
        ``<x1/>`` or one ``<g1>…</g1>``), so each state's mask is computed once per vocabulary."""
        found = source_tags(text)
        if found is None:
            return None
        order = tuple(m.group(0) for m in TAG_RE.finditer(text) if m.group(0) in found[0])
        key = (order, tuple(sorted(found[1].items())))
        auto = vocab.automata.get(key)
        if auto is None:
            auto = vocab.automata[key] = cls(vocab, found[0], found[1], order)
        return auto

    @property
    def start(self) -> State:
        return START

    def allowed(self, state: State) -> list[str]:
        """Complete tags the state may emit next."""
        emitted, stack, _ = state
        out = [t for t in self.tags if t not in emitted]
        if stack:
            out.append(stack[-1])
        return out

    def complete(self, state: State) -> bool:
        """Every tag emitted, every pair closed, no tag half-spelled: EOS may come."""
        emitted, stack, partial = state
        return not stack and not partial and len(emitted) == len(self.tags)

    def feed_text(self, state: State, text: str) -> State | None:
        """The state after the characters ``text``; None when they break the tags."""
        emitted, stack, partial = state
        for ch in text:
            if not partial and ch != "<":
                continue  # ordinary text (a stray ">" is text too)
            partial += ch
            allowed = self.allowed((emitted, stack, ""))
            if ch == ">":
                if partial not in allowed:
                    return None
                if stack and partial == stack[-1]:
                    stack = stack[:-1]
                else:
                    emitted = emitted | {partial}
                    if partial in self.closing:
                        stack = (*stack, self.closing[partial])
                partial = ""
            elif not any(t.startswith(partial) for t in allowed):
                return None
        return (emitted, stack, partial)

    def feed(self, state: State, token: int) -> State | None:
        """The state after piece ``token`` (EOS and special pieces change nothing)."""
        if not state[2] and self.vocab.neutral[token]:
            return state
        return self.feed_text(state, self.vocab.surfaces[token])

    def viable(self, state: State) -> bool:
        """A half-spelled tag can still be completed with the vocabulary's pieces."""
        if not state[2]:
            return True
        hit = self._viable.get(state)
        if hit is None:
            self._viable[state] = False  # a piece that keeps the state would loop: not progress
            hit = any(self._next_ok(state, int(t)) for t in self.vocab.tag_only)
            self._viable[state] = hit
        return hit

    def _next_ok(self, state: State, token: int) -> bool:
        nxt = self.feed_text(state, self.vocab.surfaces[token])
        return nxt is not None and nxt != state and self.viable(nxt)

    def _opener(self, state: State, ban: list[int]) -> int:
        """The piece that starts the next missing tag where the model wanted EOS: the
        innermost open pair's close, else the first missing tag in source order; spelled
        whole when the vocabulary has it as one piece, else by a lone ``<``; -1 if neither."""
        emitted, stack, _ = state
        missing = [t for t in self.order if t not in emitted]
        nxt = stack[-1] if stack else missing[0]
        for surface in (nxt, "<"):
            tid = self.vocab.by_surface.get(surface, -1)
            if tid >= 0 and tid not in ban:
                return tid
        return -1

    def forced_ids(self) -> np.ndarray:
        """The pieces tags are spelled with (the only ones inside a tag), those that may start
        one, and each tag as one piece where the vocabulary has it (EOS's replacements)."""
        v = self.vocab
        whole = [v.by_surface[t] for t in (*self.tags, *self.closing.values(), "<") if t in v.by_surface]
        return np.union1d(np.union1d(v.tag_only, v.with_lt), np.array(whole, dtype=np.int64))

    def mask(self, state: State) -> Mask:
        """What the state allows next (cached per state)."""
        hit = self._masks.get(state)
        if hit is not None:
            return hit
        v = self.vocab
        if state[2]:
            ok = [int(t) for t in v.tag_only if self._next_ok(state, int(t))]
            hit = Mask(np.array(ok, dtype=np.int64), only=True)
        else:
            ban = [int(t) for t in v.with_lt if not self._next_ok(state, int(t))]
            eos_to = -1
            if not self.complete(state):
                ban.append(v.eos_id)
                eos_to = self._opener(state, ban)
            hit = Mask(np.array(ban, dtype=np.int64), only=False, eos_to=eos_to)
        self._masks[state] = hit
        return hit
