"""Text that moved to another page keeps its review: one rule for ``review sync`` and the build.

A reviewer's admonition moved verbatim from one page to another leaves its entry in the old
page's PO file. ``review sync`` hands it to the new page's file (:mod:`.sync`); until someone
runs it, the build must find it there too, or the new page shows machine text while ``review
check`` (which counts the synced content) says all is reviewed. Both ask this module, with the
files in the same order, so they always pick the same entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polib

from .store import entry_state
from .units import Key, entry_key

HUMAN_STATES = ("reviewed", "stale", "suggested")


def carries_human_text(entry: polib.POEntry) -> bool:
    """Reviewed, stale, or a memory suggestion (maybe a reviewer's unfinished edit of one)."""
    return entry_state(entry) in HUMAN_STATES


def moved_away(files: Iterable[tuple[Path, polib.POFile | None, set[Key]]]) -> dict[Key, tuple[Path, polib.POEntry]]:
    """Human text whose source left its file, by key, with the file it left: another page that
    now holds the same source takes it over. ``files``: each PO file with the keys its page (or
    the site-wide strings) holds now, in the order ``review sync`` reads them (pages by source
    path, then ``site.po``, then orphaned files). The first file's wins, an active entry before
    an obsolete one."""
    moved: dict[Key, tuple[Path, polib.POEntry]] = {}
    for path, old, keep in files:
        for entry in sorted(old or [], key=lambda e: e.obsolete):  # active entries first
            key = entry_key(entry)
            if key not in keep and carries_human_text(entry):
                moved.setdefault(key, (path, entry))
    return moved


@dataclass
class Found:
    """Where the build finds each unit's entry when its own file lacks it (see :func:`lookup`)."""

    moved: dict[Key, tuple[Path, polib.POEntry]] = field(default_factory=dict)
    taken: set[tuple[Path, Key]] = field(default_factory=set)  # (file it left, key) taken by another page

    def left(self, path: Path) -> set[Key]:
        """The keys of ``path``'s file that another page took over: not stale there."""
        return {key for where, key in self.taken if where == path}


def lookup(
    path: Path,
    keys: Iterable[Key],
    active: Mapping[Key, polib.POEntry],
    obsolete: Mapping[Key, polib.POEntry],
    found: Found,
) -> dict[Key, tuple[Path, polib.POEntry]]:
    """The entry ``review sync`` would give each of ``keys`` in ``path``'s file: its own active
    entry, else its own obsolete one (a text that came back), else the human text that moved
    here from another file (recorded in ``found.taken``)."""
    out: dict[Key, tuple[Path, polib.POEntry]] = {}
    for key in keys:
        own = active.get(key) or obsolete.get(key)
        if own is not None:
            out[key] = (path, own)
        elif key in found.moved and found.moved[key][0] != path:
            out[key] = found.moved[key]
            found.taken.add((found.moved[key][0], key))
    return out
