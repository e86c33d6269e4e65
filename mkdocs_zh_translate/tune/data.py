"""What a tuning run learns from and is measured on, chosen without torch.

The training pairs are a site's reviewed entries as ``eval`` reads them (the build's own check:
not fuzzy, so no machine draft and no translation-memory suggestion; markup that fits) plus the
glossary's terms. They are scored as plain text (placeholders removed, ``quality.metrics.plain``)
and trained as plain text too: what chrF measures, and the model sees no tag it was not trained
on (the real opus-mt never saw a placeholder).

The validation share is held out by *group*: a PO file (one page's reviews) at a time, so the
near-duplicates one page repeats (a heading and the sentence that repeats it, a list of similar
items) never sit on both sides. A site with one PO file is split by near-duplicate cluster
instead (the English with digits, punctuation and case removed). Either way no training pair
keeps an English that normalises like a validation one. The choice is a hash of the group's name
and the seed: the same reviews and seed give the same split on every machine.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..quality.metrics import plain
from ..quality.references import Reference

#: Default share of the reviewed entries held out for validation.
HELD_OUT = 0.2
#: The fewest held-out entries a run accepts: fewer cannot tell a gain from noise.
MIN_HELD_OUT = 5
#: The fewest training pairs a run accepts.
MIN_TRAIN = 10

#: Where a glossary term's training pair comes from.
GLOSSARY = "glossary.yml"

_NOT_WORD = re.compile(r"[^a-z]+")


@dataclass(frozen=True)
class Pair:
    """One training or validation pair as plain text, with where it was reviewed."""

    where: str
    source: str
    target: str

    @property
    def digest(self) -> str:
        """A hash of the English alone: how a tuned model's record names its held-out entries
        (line numbers move when a PO file is edited; the English does not)."""
        return source_digest(self.source)


def source_digest(source: str) -> str:
    """The hash the record keeps of an English (plain text), 16 hex digits."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


@dataclass
class Split:
    """The pairs of one run: ``train`` (reviews and glossary terms), ``held_out`` (reviews only),
    and how they were chosen."""

    train: list[Pair]
    held_out: list[Pair]
    by: str  # "file" or "near-duplicate"
    terms: int = 0  # glossary terms among ``train``
    dropped: int = 0  # training pairs left out for matching a held-out English


def pairs_of(references: Iterable[Reference]) -> list[Pair]:
    """Reviewed references as plain-text pairs (one per distinct English; empty sides skipped)."""
    seen: set[str] = set()
    out: list[Pair] = []
    for ref in references:
        source, target = plain(ref.source), plain(ref.reference)
        if source and target and source not in seen:
            seen.add(source)
            out.append(Pair(ref.where, source, target))
    return out


def group_of(pair: Pair) -> str:
    """The PO file a reviewed pair came from (``where`` is ``file:line``)."""
    return pair.where.rpartition(":")[0] or pair.where


def near_key(text: str) -> str:
    """What near-duplicates share: the English's letters, lowercased, words single-spaced."""
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def _rank(name: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}\0{name}".encode()).hexdigest()


def split(pairs: Sequence[Pair], terms: Sequence[Pair] = (), *, held_out: float = HELD_OUT, seed: int = 0) -> Split:
    """Hold out about ``held_out`` of ``pairs`` by whole groups (see the module docstring)."""
    files = {group_of(p) for p in pairs}
    by, key = ("file", group_of) if len(files) >= 3 else ("near-duplicate", lambda p: near_key(p.source))
    groups: dict[str, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(key(pair), []).append(pair)
    wanted = max(1, round(held_out * len(pairs))) if held_out > 0 else 0
    chosen: list[Pair] = []
    for name in sorted(groups, key=lambda g: _rank(g, seed)):
        if len(chosen) >= wanted:
            break
        chosen.extend(groups[name])
    held = {near_key(p.source) for p in chosen}
    ids = {id(p) for p in chosen}
    rest = [p for p in pairs if id(p) not in ids]
    train = [p for p in rest if near_key(p.source) not in held]
    train_terms = [t for t in terms if near_key(t.source) not in held]
    return Split(train + train_terms, chosen, by, len(train_terms), len(rest) - len(train))


def glossary_pairs(terms: Iterable[tuple[str, str | None]]) -> list[Pair]:
    """The glossary's (English, Chinese) terms as training pairs; a term kept in English
    (Chinese None) teaches the model to copy it."""
    return [Pair(GLOSSARY, english, chinese or english) for english, chinese in terms if english.strip()]


def entries_digest(pairs: Iterable[Pair]) -> str:
    """One hash of every pair a run used, in a fixed order: two runs on the same reviews agree."""
    digest = hashlib.sha256()
    for line in sorted(f"{p.source}\0{p.target}" for p in pairs):
        digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()


#: Replay pairs per training pair, by default (see :func:`replay_pairs`).
REPLAY = 2.0


def _grams(text: str, sizes: tuple[int, ...] = (1, 2, 3)) -> set[str]:
    chars = "".join(text.split())
    return {chars[i : i + n] for n in sizes for i in range(len(chars) - n + 1)}


def rejected_forms(base_outputs: Sequence[str], targets: Sequence[str], *, at_least: int = 2) -> set[str]:
    """What the reviewers replaced: runs of one to three characters that the base model wrote
    in ``at_least`` reviewed sentences and no reviewed translation kept (the model's spelling
    of a term the team spells otherwise). Runs of CJK characters only: Latin words and
    punctuation are shared by both sides too often to tell anything."""
    rejected: dict[str, int] = {}
    kept: set[str] = set()
    for out, ref in zip(base_outputs, targets):
        mine = {g for g in _grams(out) if all("\u3400" <= c <= "\u9fff" for c in g)}
        theirs = _grams(ref)
        kept |= mine & theirs
        for g in mine - theirs:
            rejected[g] = rejected.get(g, 0) + 1
    return {g for g, n in rejected.items() if n >= at_least and g not in kept}


def replay_sources(english: Iterable[str], split: Split, n: int, *, seed: int = 0) -> list[str]:
    """Up to ``n`` of the site's other English (plain text) for replay: none a reviewed or
    held-out English normalises like, chosen by a seeded hash (the same on every machine)."""
    taken = {near_key(p.source) for p in (*split.train, *split.held_out)}
    pool: dict[str, str] = {}
    for text in english:
        source = plain(text)
        key = near_key(source)
        if source and key and key not in taken and key not in pool:
            pool[key] = source
    order = sorted(pool, key=lambda k: _rank(k, seed))
    return [pool[k] for k in order[:n]]


def replay_pairs(sources: Sequence[str], base_outputs: Sequence[str], forms: set[str]) -> list[Pair]:
    """The base model's own translations of the site's other English, as training pairs: what
    keeps a small model translating the rest of the site (and its general text) as before while
    it learns the reviews. A pair whose translation holds a form the reviewers replaced
    (:func:`rejected_forms`) is left out, so replay never teaches it back."""
    return [Pair("replay", s, t) for s, t in zip(sources, base_outputs)
            if t and not any(form in t for form in forms)]
