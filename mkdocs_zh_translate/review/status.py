"""How far the review has come: per page and in total, counted on the merged PO content.

Counting the *merged* content (what ``review sync`` would write) rather than the files as they
are means a CI ``check`` sees a changed English sentence as stale even before anyone synced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polib

from .store import entry_state

STATES = ("reviewed", "machine", "stale", "missing")


@dataclass
class Counts:
    label: str
    path: Path | None = None
    reviewed: int = 0
    machine: int = 0
    stale: int = 0
    missing: int = 0
    obsolete: int = 0

    @property
    def total(self) -> int:
        return self.reviewed + self.machine + self.stale + self.missing

    @property
    def percent(self) -> float:
        return 100.0 * self.reviewed / self.total if self.total else 100.0

    def add(self, other: Counts) -> None:
        for name in (*STATES, "obsolete"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Status:
    pages: list[Counts] = field(default_factory=list)
    total: Counts = field(default_factory=lambda: Counts("total"))


def count(po: polib.POFile, label: str, path: Path | None = None) -> Counts:
    counts = Counts(label, path)
    for entry in po:
        if entry.obsolete:
            counts.obsolete += 1
        else:
            state = entry_state(entry)
            setattr(counts, state, getattr(counts, state) + 1)
    return counts


def status_of(files: Sequence[tuple[Path, str, polib.POFile]]) -> Status:
    status = Status()
    for path, label, po in files:
        counts = count(po, label, path)
        status.pages.append(counts)
        status.total.add(counts)
    return status


def format_status(status: Status) -> str:
    width = max([len(c.label) for c in status.pages] + [len("page")])
    head = f"{'page':<{width}}  {'reviewed':>8}  {'machine':>7}  {'stale':>5}  {'missing':>7}  {'obsolete':>8}  {'done':>6}"
    lines = [head, "-" * len(head)]
    for c in [*status.pages, status.total]:
        if c is status.total:
            lines.append("-" * len(head))
        lines.append(
            f"{c.label:<{width}}  {c.reviewed:>8}  {c.machine:>7}  {c.stale:>5}  {c.missing:>7}  {c.obsolete:>8}  {c.percent:>5.1f}%"
        )
    return "\n".join(lines)
