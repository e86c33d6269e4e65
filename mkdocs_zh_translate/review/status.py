"""How far the review has come: per page and in total, counted on the merged PO content.

Counting the *merged* content (what ``review sync`` would write) rather than the files as they
are means a CI ``check`` sees a changed English sentence as stale even before anyone synced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib

from ..pipeline.report import PageCounts, run_report
from .store import display, entry_state
from .units import entry_key

STATES = ("reviewed", "rejected", "machine", "stale", "suggested", "missing")


@dataclass
class ReviewFile:
    """One PO file as the commands see it: merged content and the reviewed entries the build
    would reject (key -> reasons)."""

    path: Path
    label: str
    po: polib.POFile
    rejected: dict[tuple[str | None, str], list[str]] = field(default_factory=dict)


@dataclass
class Counts:
    label: str
    path: Path | None = None
    reviewed: int = 0
    rejected: int = 0  # reviewed, but losing or adding markup: the build ignores them
    machine: int = 0
    stale: int = 0
    suggested: int = 0  # translation-memory suggestions awaiting a reviewer (not stale: see store)
    missing: int = 0
    obsolete: int = 0

    @property
    def total(self) -> int:
        return self.reviewed + self.rejected + self.machine + self.stale + self.suggested + self.missing

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


def state_of(entry: polib.POEntry, file: ReviewFile) -> str:
    state = entry_state(entry)
    if state == "reviewed" and entry_key(entry) in file.rejected:
        return "rejected"
    return state


def count(file: ReviewFile) -> Counts:
    counts = Counts(file.label, file.path)
    for entry in file.po:
        if entry.obsolete:
            counts.obsolete += 1
        else:
            state = state_of(entry, file)
            setattr(counts, state, getattr(counts, state) + 1)
    return counts


def status_of(files: Sequence[ReviewFile]) -> Status:
    status = Status()
    for file in files:
        counts = count(file)
        status.pages.append(counts)
        status.total.add(counts)
    return status


def status_report(status: Status) -> dict[str, Any]:
    """``review status --json``: the run report's structure (``pipeline.report``), one entry per
    PO file. Its entries are the segments: machine entries (fuzzy machine text, from the cache)
    count as ``cached``, empty ones as ``untranslated``; ``run`` adds obsolete entries and the
    share reviewed."""
    pages = {
        c.label: PageCounts(
            segments=c.total,
            reviewed=c.reviewed,
            cached=c.machine,
            untranslated=c.missing,
            rejected_reviews=c.rejected,
            stale_reviews=c.stale,
            suggested=c.suggested,
            left_behind=c.rejected,  # what a strict build fails on
        )
        for c in status.pages
    }
    run = {"obsolete": status.total.obsolete, "percent_reviewed": round(status.total.percent, 1)}
    return run_report("review status", pages, run)


def format_status(status: Status) -> str:
    width = max([len(c.label) for c in status.pages] + [len("page")])
    head = (
        f"{'page':<{width}}  {'reviewed':>8}  {'rejected':>8}  {'machine':>7}  {'stale':>5}  {'suggested':>9}"
        f"  {'missing':>7}  {'obsolete':>8}  {'done':>6}"
    )
    lines = [head, "-" * len(head)]
    for c in [*status.pages, status.total]:
        if c is status.total:
            lines.append("-" * len(head))
        lines.append(
            f"{c.label:<{width}}  {c.reviewed:>8}  {c.rejected:>8}  {c.machine:>7}  {c.stale:>5}  {c.suggested:>9}"
            f"  {c.missing:>7}  {c.obsolete:>8}  {c.percent:>5.1f}%"
        )
    return "\n".join(lines)


def rejection_lines(files: Sequence[ReviewFile]) -> list[str]:
    """``path: msgid "...": reasons`` for every reviewed entry the build would reject."""
    lines = []
    for file in files:
        for entry in file.po:
            problems = file.rejected.get(entry_key(entry))
            if problems and not entry.obsolete:
                first = entry.msgid.splitlines()[0] if entry.msgid else ""
                short = first if len(first) <= 50 else first[:47] + "..."
                # two entries of one msgid differ in their context: named, or the lines read the same
                ctx = f" (msgctxt {entry.msgctxt!r})" if entry.msgctxt else ""
                lines.append(f"{display(file.path)}: msgid {short!r}{ctx}: rejected ({'; '.join(problems)})")
    return lines
