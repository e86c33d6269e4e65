"""Term-constrained decoding: a target term must appear (once per source occurrence) in every
hypothesis, spelled inside the search so the rest of the sentence is built around it.

A lexically constrained search (Post & Vilar 2018, simplified): each constraint is a target
*string* (a glossary term's Chinese), not one token sequence, so any spelling of it with the
vocabulary's pieces counts. Per hypothesis the state holds how many times each term has been
emitted and the term it is in the middle of spelling (characters so far). From that state the
search gets one ``tags.Mask`` per row and step, as for placeholders:

* *in the middle of a term* (a piece that begins it was chosen): an **only** list, the pieces
  that continue it and leave it completable: once begun, a term is finished (no beam
  allocation keeps half-spelled terms alive, so none is left half-spelled);
* *outside*: a **ban** list, EOS while a term is missing (its place and score go to the piece
  that begins the first missing term: where the model wants to stop, the term comes instead,
  as ``tags.Mask.eos_to`` does for tags) and, once a term has all its occurrences, the pieces
  that would spell it whole again (exactly once per source occurrence);
* *after a tail*: a term begun right after the end of a sentence (where the model wanted to
  stop) ends the output: once every term is out, **only** EOS or a piece of sentence-end
  punctuation, then only EOS (a model made to say a word it never wanted there otherwise
  rambles on).

A term begins only at a piece boundary (a piece whose text, a leading space aside, is a prefix
of the term or starts with it); a piece holding the whole term anywhere counts as an
occurrence. A term no sequence of pieces can spell (a character the vocabulary lacks) gets no
constraint: :meth:`TermVocab.spellable` says so and the caller falls back. Combined with a
placeholder automaton (``tags.TagAutomaton``) the two masks are merged: a sentence with terms
and markup has both constraints.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .tags import START, Mask, TagAutomaton, TagVocab

TermState = tuple[tuple[int, ...], int, int, int]
"""(occurrences emitted per term, term being spelled or -1, characters of it spelled so far,
flags: ``ENDED`` the last piece ended a sentence, ``TAIL`` a term began after a sentence end)."""

ENDED, TAIL = 1, 2
#: A piece ending with one of these ends a sentence: a term begun after it is a tail.
SENTENCE_END = (".", "!", "?", "。", "！", "？")


@dataclass
class _Term:
    """What the vocabulary offers one target string (computed once per vocabulary and string)."""

    text: str
    begins: dict[int, int]  # piece id -> characters of the term it spells (a leading space aside)
    whole: np.ndarray  # ids of pieces holding the whole term
    rest: dict[int, np.ndarray] = field(default_factory=dict)  # chars spelled -> continuing ids
    ok: dict[int, bool] = field(default_factory=dict)  # chars spelled -> completable


@dataclass
class TermVocab:
    """The target vocabulary's pieces seen as term spellers; caches each term's tables."""

    vocab: TagVocab
    terms: dict[str, _Term] = field(default_factory=dict)
    automata: dict[tuple[tuple[str, int], ...], TermAutomaton] = field(default_factory=dict)
    _ends: tuple[np.ndarray, np.ndarray] | None = None
    _index: tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]] | None = None

    def _by_char(self) -> tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]:
        """Ids by first character, by first character after leading spaces, by every character
        they hold: a term's tables look only at pieces that can matter (opus-mt has 65,001)."""
        if self._index is None:
            first: dict[str, list[int]] = {}
            body_first: dict[str, list[int]] = {}
            holding: dict[str, list[int]] = {}
            for i, s in enumerate(self.vocab.surfaces):
                if not s:
                    continue
                first.setdefault(s[0], []).append(i)
                body = s.lstrip(" ")
                if body:
                    body_first.setdefault(body[0], []).append(i)
                for ch in set(s):
                    holding.setdefault(ch, []).append(i)
            self._index = (first, body_first, holding)
        return self._index

    def sentence_ends(self) -> tuple[np.ndarray, np.ndarray]:
        """Per id: the piece ends a sentence; the piece is only sentence-end punctuation."""
        if self._ends is None:
            surfaces = self.vocab.surfaces
            self._ends = (np.array([s.rstrip(" ").endswith(SENTENCE_END) for s in surfaces], dtype=bool),
                          np.array([bool(s.strip()) and set(s.strip()) <= set(SENTENCE_END) for s in surfaces],
                                   dtype=bool))
        return self._ends

    def term(self, text: str) -> _Term:
        hit = self.terms.get(text)
        if hit is None:
            begins: dict[int, int] = {}
            surfaces = self.vocab.surfaces
            _first, body_first, holding = self._by_char()
            whole = [i for i in holding.get(text[:1], []) if text in surfaces[i]]
            for i in body_first.get(text[:1], []):
                body = surfaces[i].lstrip(" ")
                if text.startswith(body) or body.startswith(text):
                    begins[i] = min(len(body), len(text))
            hit = self.terms[text] = _Term(text, begins, np.array(whole, dtype=np.int64))
        return hit

    def continuing(self, term: _Term, done: int) -> np.ndarray:
        """Ids that continue ``term`` after ``done`` characters and leave it completable."""
        hit = term.rest.get(done)
        if hit is None:
            rest = term.text[done:]
            surfaces = self.vocab.surfaces
            ok = [i for i in self._by_char()[0].get(rest[:1], [])
                  if surfaces[i].startswith(rest)
                  or (rest.startswith(surfaces[i]) and self._completable(term, done + len(surfaces[i])))]
            hit = term.rest[done] = np.array(ok, dtype=np.int64)
        return hit

    def _completable(self, term: _Term, done: int) -> bool:
        if done >= len(term.text):
            return True
        hit = term.ok.get(done)
        if hit is None:
            term.ok[done] = False  # cycles cannot happen (pieces are non-empty); guards recursion
            hit = term.ok[done] = bool(self.continuing(term, done).size)
        return hit

    def spellable(self, text: str) -> bool:
        """Whether some sequence of pieces spells ``text`` (else no constraint can force it)."""
        term = self.term(text)
        return bool(text) and any(n == len(text) or self._completable(term, n) for n in term.begins.values())

    def automaton(self, targets: Sequence[str]) -> TermAutomaton | None:
        """The constraint for a sentence whose output must hold ``targets`` (one entry per
        occurrence; repeats mean more occurrences); None when none is spellable."""
        counts: dict[str, int] = {}
        for t in targets:
            if t and self.spellable(t):
                counts[t] = counts.get(t, 0) + 1
        if not counts:
            return None
        key = tuple(sorted(counts.items()))
        auto = self.automata.get(key)
        if auto is None:
            auto = self.automata[key] = TermAutomaton(self, [self.term(t) for t, _ in key], [n for _, n in key])
        return auto


@dataclass
class TermAutomaton:
    """The term constraint of one sentence (shared by sentences with the same terms)."""

    tv: TermVocab
    terms: list[_Term]
    need: list[int]
    _masks: dict[TermState, Mask] = field(default_factory=dict)

    def __post_init__(self) -> None:
        size = len(self.tv.vocab.surfaces)
        self._relevant = np.zeros(size, dtype=bool)  # pieces that may change an outside state
        self._ends, self._stops = self.tv.sentence_ends()
        self._openers = {self._opener(t) for t in self.terms}
        for term in self.terms:
            self._relevant[list(term.begins)] = True
            self._relevant[term.whole] = True

    @property
    def start(self) -> TermState:
        return (tuple(0 for _ in self.terms), -1, 0, 0)

    def complete(self, state: TermState) -> bool:
        return state[1] < 0 and all(c >= n for c, n in zip(state[0], self.need))

    def _ending(self, ended: bool) -> Mask:
        """After a tail: EOS, or first one piece of sentence-end punctuation."""
        stops = [] if ended else np.flatnonzero(self._stops).tolist()
        return Mask(np.array(sorted({self.tv.vocab.eos_id, *stops}), dtype=np.int64), only=True)

    def feed(self, state: TermState, token: int) -> TermState:
        counts, cur, done, flags = state
        surface = self.tv.vocab.surfaces[token]
        if cur >= 0:  # the mask let only continuations through
            text = self.terms[cur].text
            done += len(surface)
            if done < len(text):
                return (counts, cur, done, flags)
            bumped = list(counts)
            bumped[cur] += 1
            return (tuple(bumped), -1, 0, flags & TAIL)
        ended = ENDED if self._ends[token] else 0
        if not self._relevant[token]:
            return state if flags & ENDED == ended else (counts, cur, done, (flags & TAIL) | ended)
        # a term begun here by the piece EOS is redirected to, right after a sentence end
        tail = TAIL if flags & TAIL or (flags & ENDED and token in self._openers) else 0
        bumped = list(counts)
        for j, term in enumerate(self.terms):
            bumped[j] += surface.count(term.text)
        for j, term in enumerate(self.terms):
            n = term.begins.get(token, 0)
            if n and n < len(term.text) and bumped[j] < self.need[j]:
                return (tuple(bumped), j, n, tail)  # a piece that begins a missing term: finish it
        return (tuple(bumped), -1, 0, (tail if tuple(bumped) != counts else flags & TAIL) | ended)

    def forced_ids(self) -> np.ndarray:
        """Every piece that begins, holds or continues a term (``only`` lists and EOS's
        replacements), EOS and the sentence-end pieces a tail may end with."""
        parts = [np.array([self.tv.vocab.eos_id, *self._openers], dtype=np.int64), np.flatnonzero(self._stops)]
        for term in self.terms:
            parts.append(np.array(list(term.begins), dtype=np.int64))
            parts.append(term.whole)
            parts.extend(self.tv.continuing(term, done) for done in range(1, len(term.text)))
        ids = np.unique(np.concatenate(parts))
        return ids[ids >= 0]

    def mask(self, state: TermState) -> Mask:
        hit = self._masks.get(state)
        if hit is not None:
            return hit
        counts, cur, done, flags = state
        if cur >= 0:
            hit = Mask(self.tv.continuing(self.terms[cur], done), only=True)
        elif flags & TAIL and self.complete(state):
            hit = self._ending(bool(flags & ENDED))
        else:
            ban = [self.terms[j].whole for j in range(len(self.terms)) if counts[j] >= self.need[j]]
            eos_to = -1
            if not self.complete(state):
                missing = next(j for j in range(len(self.terms)) if counts[j] < self.need[j])
                eos_to = self._opener(self.terms[missing])  # one of self._openers
                ban.append(np.array([self.tv.vocab.eos_id], dtype=np.int64))
            ids = np.unique(np.concatenate(ban)) if ban else np.zeros(0, dtype=np.int64)
            hit = Mask(ids, only=False, eos_to=eos_to)
        self._masks[state] = hit
        return hit

    def _opener(self, term: _Term) -> int:
        """The piece that begins ``term`` where the model wanted EOS: the longest one that
        leaves it completable (the whole term in one piece when the vocabulary has it)."""
        best, best_len = -1, 0
        for i, n in term.begins.items():
            if n > best_len and (n == len(term.text) or self.tv._completable(term, n)):
                s = self.tv.vocab.surfaces[i]
                if s.lstrip(" ") == term.text[:n]:  # nothing after the term in the piece
                    best, best_len = i, n
        return best


CombinedState = tuple[Hashable, TermState]


@dataclass
class Constrained:
    """Placeholder tags (optional) and terms of one sentence, as one constraint for the search:
    the same ``start``/``feed``/``mask`` interface as ``tags.TagAutomaton``."""

    tags: TagAutomaton | None
    terms: TermAutomaton
    _masks: dict[Any, Mask] = field(default_factory=dict)

    @property
    def start(self) -> CombinedState:
        return (START, self.terms.start)

    def feed(self, state: CombinedState, token: int) -> CombinedState | None:
        tag_state, term_state = state
        if self.tags is not None:
            nxt = self.tags.feed(tag_state, token)  # type: ignore[arg-type]
            if nxt is None:
                return None
            tag_state = nxt
        return (tag_state, self.terms.feed(term_state, token))

    def forced_ids(self) -> np.ndarray:
        ids = self.terms.forced_ids()
        return ids if self.tags is None else np.union1d(ids, self.tags.forced_ids())

    def mask(self, state: CombinedState) -> Mask:
        tag_state, term_state = state
        term_mask = self.terms.mask(term_state)
        if self.tags is None:
            return term_mask
        hit = self._masks.get(state)
        if hit is None:
            hit = self._masks[state] = merge(self.tags.mask(tag_state), term_mask)  # type: ignore[arg-type]
        return hit


def merge(a: Mask, b: Mask) -> Mask:
    """Both masks at once: allowed means allowed by each. EOS goes where the tags send it
    first (their pieces must close what is open), else where the terms do."""
    eos_to = a.eos_to if a.eos_to >= 0 else b.eos_to
    if a.only or b.only:  # where they leave nothing in common, the tags (``a``) win
        if a.only and b.only:
            ids = np.intersect1d(a.ids, b.ids)
        else:
            only, ban = (a, b) if a.only else (b, a)
            ids = only.ids[~np.isin(only.ids, ban.ids)]
        return Mask(ids, only=True) if ids.size else a
    return Mask(np.union1d(a.ids, b.ids), only=False, eos_to=eos_to)
