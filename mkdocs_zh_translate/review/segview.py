"""What the ``review serve`` panel shows of one segment, and the site's review queue.

Both are plain JSON-able values built from what the review commands already read: the PO
entry (:mod:`.store`), the machine cache's text and confidence (as ``review sync`` writes them),
the translation memory (:mod:`.memory`) and the glossary. Every string in them is untrusted
(PO files, glossary, model output): the panel puts them into the page as text only
(``textContent``), and the queue page escapes them (:func:`html.escape`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polib

from .edit import entry_version
from .layer import reviewed_text
from .memory import Memory
from .store import SUGGESTION_MARK, entry_state
from .units import Unit

if TYPE_CHECKING:
    from ..pipeline.glossary import Glossary

# Queue order: stale reviews first (a person's work went out of date), then the machine texts
# nobody reviewed, least confident first; unscored ones after the scored.
_STATE_RANK = {"stale": 0, "suggested": 1, "machine": 1, "missing": 1}


@dataclass(frozen=True)
class Machine:
    """The machine cache's view of a unit: its text (readable, as in the PO file) and score."""

    text: str | None
    score: float | None


def state_of(entry: polib.POEntry | None) -> str:
    """:func:`.store.entry_state`, ``missing`` when the file holds no entry (or an obsolete one)."""
    if entry is None or entry.obsolete:
        return "missing"
    return entry_state(entry)


def _suggestion_score(entry: polib.POEntry) -> float | None:
    for line in (entry.tcomment or "").split("\n"):
        if line.startswith(SUGGESTION_MARK):
            digits = "".join(ch for ch in line[len(SUGGESTION_MARK) :] if ch.isdigit())
            return float(digits) if digits else None
    return None


def suggestions(unit: Unit, entry: polib.POEntry | None, memory: Memory | None) -> list[dict[str, object]]:
    """The entry's own translation-memory suggestion (a fuzzy entry ``review sync`` marked),
    then the memory's best match for the English now, when it differs."""
    found: list[dict[str, object]] = []
    if entry is not None and state_of(entry) == "suggested":
        score = _suggestion_score(entry)
        found.append({"english": entry.previous_msgid or "", "chinese": entry.msgstr, "score": score})
    best = memory.lookup(unit) if memory is not None else None
    if best is not None and all(s["chinese"] != best.chinese for s in found):
        found.append({"english": best.english, "chinese": best.chinese, "score": round(best.score, 1)})
    return found


def segment_view(
    unit: Unit,
    entry: polib.POEntry | None,
    machine: Machine,
    memory: Memory | None,
    glossary: Glossary | None,
) -> dict[str, object]:
    """The panel's data for ``unit``: English, machine text and confidence, suggestions,
    glossary terms, the entry's state and text, and the version a save must name."""
    state = state_of(entry)
    terms = glossary.entries_in(unit.text) if glossary else []
    return {
        "english": unit.msgid,
        "msgctxt": unit.msgctxt,
        "kind": unit.kind,
        "machine": machine.text,
        "confidence": None if machine.score is None else round(machine.score, 3),
        "state": state,
        "current": entry.msgstr if entry is not None and not entry.obsolete else "",
        "reviewed": reviewed_text(entry) if entry is not None else None,
        "previous": entry.previous_msgid if state == "stale" and entry is not None else None,
        "suggestions": suggestions(unit, entry, memory),
        "glossary": [{"term": term, "chinese": chinese} for term, chinese in terms],
        "version": entry_version(entry),
    }


@dataclass(frozen=True)
class QueueItem:
    """One line of the review queue: a unit of a page that needs a person."""

    page: str  # src_uri
    index: int  # the unit's first segment on the page
    state: str
    score: float | None
    english: str
    text: str

    def rank(self) -> tuple[int, int, float]:
        return (_STATE_RANK.get(self.state, 2), self.score is None, self.score or 0.0)

    def json(self) -> dict[str, object]:
        return {
            "page": self.page,
            "index": self.index,
            "state": self.state,
            "confidence": None if self.score is None else round(self.score, 3),
            "english": self.english,
            "text": self.text,
        }


def queue_items(
    page: str, units: Iterable[Unit], entries: dict[tuple[str | None, str], polib.POEntry], machine: dict[str, Machine]
) -> list[QueueItem]:
    """The units of one page that need a person: stale reviews and unreviewed texts (machine,
    suggested, missing); ``machine`` by unit placeholder text."""
    items: list[QueueItem] = []
    for unit in units:
        entry = entries.get(unit.key)
        state = state_of(entry)
        if state == "reviewed" or not unit.indices:
            continue
        seen = machine.get(unit.text, Machine(None, None))
        text = entry.msgstr if entry is not None and entry.msgstr else seen.text or ""
        items.append(QueueItem(page, unit.indices[0], state, seen.score, unit.msgid, text))
    return items


def worst_first(items: Iterable[QueueItem]) -> list[QueueItem]:
    """Stale reviews first, then unreviewed texts from the least confident; ties in page order."""
    return sorted(items, key=QueueItem.rank)
