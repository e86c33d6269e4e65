"""A reviewer's draft: a machine entry a person edited but left fuzzy (Poedit's "needs work").

Nothing in the file says who wrote a fuzzy msgstr. What ``review sync`` knows is the machine
cache: a fuzzy entry whose text is not the cache's machine text for its English was written by
a person (the rule :func:`.memory.open_to_suggestion` already applies to the entries still on
the page). When the English of such an entry changes or goes, the draft must not become an
anonymous obsolete entry that ``review prune`` deletes:

* a similar new English takes it over as a suggestion (fuzzy, the old English as ``#| msgid``,
  the suggestion marker), as a stale review is carried;
* otherwise it stays obsolete with :data:`DRAFT_MARK`, a translator comment that ``review
  prune`` respects (only a person deletes a draft) and that keeps it recognisable when the cache
  no longer knows the old English;
* either way the translation memory offers it to near-identical English.

A cache that never held the old English (cleared, another model) cannot vouch either way; such
an entry is treated as machine text, as before. An entry written by an older model and never
refreshed reads as a draft: that errs on the side of keeping text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import polib

from .store import entry_state
from .units import Key, entry_key

DRAFT_MARK = "zh-translate: a reviewer's draft (fuzzy), kept until a person deletes it"

Former = Callable[[Sequence[str]], dict[str, str]]
"""``former(englishes) -> {english: machine text}``: the machine cache's text for English no
longer on the site (what ``review sync`` wrote for it), where the cache still holds it."""


def has_draft_mark(entry: polib.POEntry) -> bool:
    return any(line == DRAFT_MARK for line in (entry.tcomment or "").split("\n"))


def without_draft_mark(tcomment: str | None) -> str:
    return "\n".join(line for line in (tcomment or "").split("\n") if line != DRAFT_MARK)


def with_draft_mark(tcomment: str | None) -> str:
    kept = without_draft_mark(tcomment)
    return f"{kept}\n{DRAFT_MARK}" if kept else DRAFT_MARK


def refresh_draft_mark(entry: polib.POEntry) -> str:
    """An active entry's translator comment: the draft marker only while it is still an
    unreviewed fuzzy text (a reviewer who accepted or emptied it ended the draft)."""
    if has_draft_mark(entry) and entry_state(entry) != "machine":
        return without_draft_mark(entry.tcomment)
    return entry.tcomment or ""


def find_drafts(
    olds: Mapping[Path, polib.POFile | None],
    current: Mapping[Path, set[Key]],
    former: Former | None,
) -> dict[Path, set[Key]]:
    """Per PO file, the keys of the drafts among its entries whose English left the page
    (active entries about to become obsolete, and obsolete ones): marked ones, and fuzzy machine
    entries whose text differs from the machine text ``former`` finds for their English."""
    candidates: list[tuple[Path, polib.POEntry]] = []
    for path, po in olds.items():
        keep = current.get(path, set())
        candidates.extend((path, e) for e in po or [] if entry_key(e) not in keep and entry_state(e) == "machine")
    unknown = sorted({entry_key(e)[1] for _p, e in candidates if not has_draft_mark(e)})
    machine = former(unknown) if former is not None and unknown else {}
    drafts: dict[Path, set[Key]] = {}
    for path, entry in candidates:
        text = machine.get(entry_key(entry)[1])
        if has_draft_mark(entry) or (text is not None and text != entry.msgstr):
            drafts.setdefault(path, set()).add(entry_key(entry))
    return drafts


def draft_pairs(olds: Mapping[Path, polib.POFile | None], drafts: Mapping[Path, set[Key]]) -> list[tuple[str, str]]:
    """(English, draft) of every draft, in file order: what the translation memory offers after
    the reviewed texts."""
    pairs: list[tuple[str, str]] = []
    for path, po in olds.items():
        keys = drafts.get(path, set())
        pairs.extend((entry_key(e)[1], e.msgstr) for e in po or [] if entry_key(e) in keys and e.msgstr)
    return pairs
