"""Translation memory for ``review sync``: reviewed Chinese offered for near-identical English.

A docs site repeats itself: the same warning on ten pages with one word changed, a paragraph
re-wrapped, a sentence copied and edited. When one of them is reviewed, the others should not
wait for a person to translate them again from the machine text. ``review sync`` asks this
module, for an entry that holds no person's text, whether the site's review store has a
reviewed translation of an English that is at least ``threshold`` % similar (rapidfuzz's
``ratio``: normalised Indel similarity of the texts with runs of whitespace as one space, so a
re-wrapped paragraph scores 100). The answer is only ever a *suggestion*: the entry gets the
reviewed Chinese, ``#, fuzzy`` and the similar English as ``#| msgid``, as msgmerge does, so the
reviewer sees what changed and the build keeps ignoring it until the fuzzy flag goes. A
suggestion whose markup does not fit the new English (a lost code span, a link the new text
lacks) is not offered: it is checked as the build checks a reviewed entry.

Fuzzy with ``#| msgid`` is also the shape of a stale review, which ``review check --max-stale``
fails on and only a person can resolve; a suggestion is not one. So it carries a translator
comment, ``# zh-translate: suggestion from translation memory (93% match)``
(:data:`.store.SUGGESTION_MARK`), which msgcat and msgmerge keep and Poedit and Lokalize show,
and its state is ``suggested``. A reviewer accepts it by deleting ``#, fuzzy`` (reviewed; the
next sync drops the marker), or edits it and keeps the flag: a person's draft, never
overwritten, still counted as suggested until accepted.

Cost: comparing every new entry with every reviewed one would be quadratic on a big site. Each
reviewed text is indexed under its few rarest words (a near match keeps most of its words, so
it shares one of them); a lookup scores only the texts sharing a word with it whose length can
reach the threshold, with rapidfuzz's ``extract`` and a ``score_cutoff``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import polib

from .store import SUGGESTION_MARK, entry_state, has_suggestion_mark, suggestion_mark, without_suggestion_mark
from .units import Unit, entry_key

DEFAULT_THRESHOLD = 90  # % similarity of the English for a reviewed translation to be offered
_WORD = re.compile(r"\w+")  # one class, one quantifier: linear on any text
_OFFERS = 3  # best matches tried when the first one's markup does not fit


def _normal(text: str) -> str:
    """The text as it is compared: runs of whitespace (soft line breaks) as one space."""
    return " ".join(text.split())


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _index_size(words: int) -> int:
    """How many of a text's rarest words index it: one per five words, at least two (an edit
    that keeps 90% of a sentence leaves most of its rare words alone)."""
    return max(2, 1 + words // 5)


@dataclass(frozen=True)
class Suggestion:
    english: str  # the reviewed entry's msgid (becomes ``#| msgid``)
    chinese: str  # its reviewed msgstr
    score: float  # similarity, 0-100


class Memory:
    """The reviewed (English, Chinese) pairs of a site, looked up by near-identical English."""

    def __init__(self, pairs: Iterable[tuple[str, str]], threshold: float = DEFAULT_THRESHOLD) -> None:
        self.threshold = float(threshold)
        self.work = 0  # index entries visited by lookups: what a growth test counts
        self._english: list[str] = []
        self._chinese: list[str] = []
        self._normal: list[str] = []
        exact: dict[str, int] = {}
        for english, chinese in pairs:
            normal = _normal(english)
            if normal in exact:  # the first one found wins, as files are read in a fixed order
                continue
            exact[normal] = len(self._english)
            self._english.append(english)
            self._chinese.append(chinese)
            self._normal.append(normal)
        self._exact = exact
        words = [_words(text) for text in self._normal]
        frequency: dict[str, int] = {}
        for group in words:
            for word in group:
                frequency[word] = frequency.get(word, 0) + 1
        self._postings: dict[str, list[int]] = {}
        for number, group in enumerate(words):
            rarest = sorted(group, key=lambda w: (frequency[w], w))[: _index_size(len(group))]
            for word in rarest:
                self._postings.setdefault(word, []).append(number)
        self._wordless = [n for n, group in enumerate(words) if not group]  # "…", "→": by length

    def __len__(self) -> int:
        return len(self._english)

    @classmethod
    def of_files(
        cls, files: Iterable[polib.POFile | None], threshold: float = DEFAULT_THRESHOLD,
        drafts: Iterable[tuple[str, str]] = (),
    ) -> Memory:
        """The memory of every reviewed entry (not fuzzy, obsolete ones too: a person's work on
        an English that left the site) of ``files``, in their order; then ``drafts`` (English,
        a reviewer's unfinished text: :mod:`.drafts`), offered only where no review matches."""
        pairs: list[tuple[str, str]] = []
        for po in files:
            for entry in po or []:
                if entry_state(entry) == "reviewed":
                    pairs.append((entry_key(entry)[1], entry.msgstr))
        return cls([*pairs, *drafts], threshold)

    def _candidates(self, normal: str) -> list[int]:
        size = len(normal)
        ratio = self.threshold / 100.0
        # 2 * min / (a + b) bounds the ratio: lengths outside this band cannot reach it
        low, high = size * ratio / (2.0 - ratio), size * (2.0 - ratio) / ratio
        found: set[int] = set()
        for word in _words(normal):
            postings = self._postings.get(word, ())
            self.work += len(postings)
            found.update(postings)
        if not found:
            self.work += len(self._wordless)
            found.update(self._wordless)
        return sorted(n for n in found if low <= len(self._normal[n]) <= high)

    def lookup(self, unit: Unit) -> Suggestion | None:
        """The most similar reviewed translation whose markup fits ``unit``, or None."""
        if self.threshold <= 0 or not self._english:
            return None
        from rapidfuzz import fuzz, process  # here: every CLI command builds the parser that names this module

        from .layer import review_problems

        normal = _normal(unit.msgid)
        ranked: list[tuple[int, float]] = []
        same = self._exact.get(normal)
        if same is not None:
            ranked.append((same, 100.0))
        else:
            numbers = self._candidates(normal)
            choices = [self._normal[n] for n in numbers]
            found = process.extract(
                normal, choices, scorer=fuzz.ratio, score_cutoff=self.threshold, limit=_OFFERS
            )
            ranked.extend((numbers[index], score) for _text, score, index in found)
        for number, score in ranked:
            if not review_problems(unit, self._chinese[number]):
                return Suggestion(self._english[number], self._chinese[number], score)
        return None


def open_to_suggestion(entry: polib.POEntry, machine_text: str | None) -> bool:
    """Whether ``entry`` holds no person's text: empty, or exactly the cached machine text.
    A fuzzy entry the cache cannot vouch for may hold a reviewer's unfinished edit: kept."""
    state = entry_state(entry)
    return state == "missing" or (state == "machine" and machine_text is not None and entry.msgstr == machine_text)


def with_mark(tcomment: str | None, score: float) -> str:
    """``tcomment`` with the marker line for ``score``: in the old marker's place, else last;
    the team's other comment lines as they were."""
    lines = tcomment.split("\n") if tcomment else []
    old = [n for n, line in enumerate(lines) if line.startswith(SUGGESTION_MARK)]
    at = old[0] if old else len(lines)
    kept = [line for n, line in enumerate(lines) if n not in old]
    return "\n".join([*kept[:at], suggestion_mark(score), *kept[at:]])


def suggest(memory: Memory | None, unit: Unit, entry: polib.POEntry, machine_text: str | None) -> polib.POEntry:
    """``entry`` with the memory's suggestion (fuzzy, ``#| msgid`` the similar English, the
    marker translator comment with the similarity) when it holds no person's text and the
    memory has one; else ``entry`` as it is."""
    if memory is None or not open_to_suggestion(entry, machine_text):
        return entry
    found = memory.lookup(unit)
    if found is None:
        return entry
    entry.msgstr = found.chinese
    entry.flags = ["fuzzy", *(f for f in entry.flags if f != "fuzzy")]
    entry.previous_msgid = found.english
    entry.previous_msgctxt = None
    entry.tcomment = with_mark(entry.tcomment, found.score)
    return entry


def refresh_mark(entry: polib.POEntry) -> str:
    """``entry``'s translator comment as ``review sync`` writes it back. The suggestion marker
    says what is true now: gone once a reviewer accepted the suggestion (deleted ``#, fuzzy``:
    a reviewed entry) or emptied it; with the similarity of the English it translates
    (``#| msgid``) to the entry's English now, which moves when that English changed (the
    suggestion, or a reviewer's edit of it, carried to the new text like a stale review). A
    marker without ``#| msgid`` (msgmerge drops it when the msgid is unchanged) stays as it was."""
    tcomment: str = entry.tcomment or ""
    if not has_suggestion_mark(entry):
        return tcomment
    if "fuzzy" not in entry.flags or not entry.msgstr:
        return without_suggestion_mark(tcomment)
    if entry.previous_msgid is None:
        return tcomment
    from rapidfuzz import fuzz

    return with_mark(tcomment, fuzz.ratio(_normal(entry.msgid), _normal(entry.previous_msgid)))
