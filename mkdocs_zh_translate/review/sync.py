"""``review sync`` and ``review prune``: keep the PO files in step with the site, msgmerge-style.

Per PO file: an entry whose (msgctxt, msgid) is still on the page keeps its translation and
flags. A new source text that closely resembles a vanished entry carrying *human* text
(reviewed, a stale review, or a translation-memory suggestion) inherits that text as a fuzzy suggestion with the
old source as ``#| msgid``: the reviewer sees what changed, and nothing a person wrote is lost.
Other new entries get the cached machine text, fuzzy (or stay empty when the cache has none).
Vanished entries become obsolete (``#~``) until ``review prune``. Every file is computed
before any is written, so a malformed file stops the command with nothing half-done.

An English that changed in spaces only (it renders the same) keeps its entry and review. A
reviewer's fuzzy draft is a person's text too (:mod:`.drafts`). A file is written only over the
bytes it was read from: a reviewer's save during the run is never overwritten (:func:`apply`).
"""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib

from ..owned import Owned
from .confidence import annotate
from .drafts import (
    draft_pairs,
    find_drafts,
    has_draft_mark,
    refresh_draft_mark,
    with_draft_mark,
    without_draft_mark,
)
from .layer import review_problems
from .memory import DEFAULT_THRESHOLD, Memory, refresh_mark, suggest, with_mark
from .moved import carries_human_text, moved_away
from .powrap import DEFAULT_WIDTH
from .site import Site
from .store import (
    PAGE_SUFFIX,
    ReviewError,
    check_no_links,
    display,
    entry_state,
    existing_text,
    load_po,
    new_po,
    render_po,
    unchanged,
    write_if_changed,
)
from .units import Key, Unit, entry_key, loose_key

SIMILARITY = 0.6  # difflib ratio above which a changed source keeps the old translation


@dataclass
class Planned:
    """One PO file's new content (``text`` None: delete the file)."""

    path: Path
    po: polib.POFile
    text: str | None
    removed: int = 0  # obsolete entries dropped (prune)
    seen: bytes | None = None  # the file as it was read (None: absent): written only over exactly that
    read: bool = False  # ``seen`` was recorded (a plan made without reading writes unchecked)
    drafts: int = 0  # obsolete drafts kept (prune)


class ChangedOnDisk(ReviewError):
    """PO files that changed on disk after they were read (a reviewer saved one while the command
    ran): they were not written. ``written``: the files written before the change was seen
    (none when it was seen before any write, so planning again from the new content is safe)."""

    def __init__(self, paths: Sequence[Path], written: Sequence[Path]) -> None:
        self.paths, self.written = list(paths), list(written)
        names = ", ".join(display(p) for p in self.paths)
        done = f"{len(self.written)} other file(s) written; " if self.written else "nothing written; "
        super().__init__(
            f"{names}: changed on disk while the command ran (saved by an editor?); not overwritten: "
            f"{done}run the command again"
        )


def _copy(entry: polib.POEntry, **changes: Any) -> polib.POEntry:
    fields = dict(
        msgid=entry.msgid,
        msgctxt=entry.msgctxt,
        msgstr=entry.msgstr,
        flags=list(entry.flags),
        previous_msgid=entry.previous_msgid,
        previous_msgctxt=entry.previous_msgctxt,
        tcomment=entry.tcomment,
        comment=entry.comment,
        occurrences=list(entry.occurrences),
        obsolete=entry.obsolete,
    )
    fields.update(changes)
    return polib.POEntry(**fields)


@dataclass
class _OldEntries:
    """A PO file's previous entries by key, and the keys already given to a unit: each old
    entry serves at most one unit, and whatever no unit took becomes obsolete."""

    active: dict[Key, polib.POEntry]
    obsolete: dict[Key, polib.POEntry]
    used: set[Key]
    drafts: Collection[Key] = ()  # entries holding a reviewer's draft (:mod:`.drafts`)
    loose: dict[Key, Key] = field(default_factory=dict)  # active keys by :func:`.units.loose_key`

    @classmethod
    def of(cls, old: polib.POFile | None, drafts: Collection[Key] = ()) -> _OldEntries:
        entries = list(old) if old is not None else []
        active = {entry_key(e): e for e in entries if not e.obsolete}
        obsolete = {entry_key(e): e for e in entries if e.obsolete}
        loose: dict[Key, Key] = {}
        for key in active:
            loose.setdefault(loose_key(key), key)
        return cls(active, obsolete, set(), drafts, loose)

    def human_leftovers(self) -> list[polib.POEntry]:
        """Vanished active entries holding a person's text (a draft too): what a changed source
        may inherit."""
        return [
            e for k, e in self.active.items() if k not in self.used and (carries_human_text(e) or k in self.drafts)
        ]


def merge(
    old: polib.POFile | None,
    units: Sequence[Unit],
    machine: dict[tuple[str | None, str], str],
    moved: dict[tuple[str | None, str], polib.POEntry] | None = None,
    memory: Memory | None = None,
    scores: dict[tuple[str | None, str], float | None] | None = None,
    drafts: Collection[Key] = (),
) -> polib.POFile:
    """The new content of one PO file for ``units`` given its ``old`` content; ``moved`` holds
    human translations of the same source texts that vanished from other files; ``memory``
    offers reviewed translations of near-identical English to entries no person translated;
    ``scores`` the machine cache's confidence for the units it holds a translation of
    (``confidence``); ``drafts`` the keys of the old entries that hold a reviewer's draft
    (:mod:`.drafts`): carried like a stale review, else kept obsolete with their marker."""
    po = new_po(old)
    olds = _OldEntries.of(old, drafts)
    out: list[polib.POEntry | None] = [_kept(olds, unit, machine, memory) for unit in units]
    # a change of spaces only (renders the same): the entry stays, its review with it if it fits
    out = [done or _kept(olds, unit, machine, memory, loose=True) for unit, done in zip(units, out)]
    # changed sources: the most similar vanished entry that holds a person's translation
    candidates = olds.human_leftovers()
    for index, unit in enumerate(units):
        if out[index] is None:
            out[index] = _new_entry(unit, olds, candidates, machine, moved, memory)
    for unit, done in zip(units, out):
        assert done is not None
        done.occurrences = [(path, line) for path, line in unit.occurrences]
        done.comment = annotate(unit.kind, done.comment, scores or {}, unit.key)
        done.tcomment = refresh_mark(done)
        done.tcomment = refresh_draft_mark(done)
        po.append(done)
    seen: set[Key] = {entry_key(e) for e in po}
    for key, entry in list(olds.active.items()) + list(olds.obsolete.items()):
        if key in olds.used or key in seen:
            continue
        seen.add(key)
        gone = _copy(entry, obsolete=True, occurrences=[], previous_msgid=None, previous_msgctxt=None)
        if key in drafts:
            gone.tcomment = with_draft_mark(gone.tcomment)
        po.append(gone)
    return po


def _kept(
    olds: _OldEntries,
    unit: Unit,
    machine: dict[tuple[str | None, str], str],
    memory: Memory | None,
    loose: bool = False,
) -> polib.POEntry | None:
    """The unit's own old entry (active, else obsolete: a text that came back), revived with
    its translation and flags; None when the file never had this source text. ``loose``: an
    unused active entry holding a person's text whose English differs in runs of spaces only
    (:func:`.units.loose_key`) and whose translation still fits the unit's markup (a code
    span's spaces are the code's)."""
    have = olds.active.get(unit.key) or olds.obsolete.get(unit.key)
    key = unit.key
    if loose:
        key = olds.loose.get(loose_key(unit.key), unit.key)
        have = olds.active.get(key) if key not in olds.used and key != unit.key else None
        if have is None or not carries_human_text(have) or review_problems(unit, have.msgstr):
            return None  # machine text follows its English as before (a new entry, the old obsolete)
    if have is None:
        return None
    olds.used.add(key)
    entry = _copy(have, obsolete=False, msgid=unit.msgid)  # an older file's soft breaks go
    if not entry.msgstr and unit.key in machine:
        entry.msgstr, entry.flags = machine[unit.key], _with_fuzzy(entry.flags)
    return suggest(memory, unit, entry, machine.get(unit.key))


def _new_entry(
    unit: Unit,
    olds: _OldEntries,
    candidates: Sequence[polib.POEntry],
    machine: dict[tuple[str | None, str], str],
    moved: dict[tuple[str | None, str], polib.POEntry] | None,
    memory: Memory | None,
) -> polib.POEntry:
    """The entry of a source text the file did not hold: taken over when it moved here from
    another page, else inheriting the most similar vanished human text (fuzzy), else the
    machine text (fuzzy) or a memory suggestion."""
    if moved and unit.key in moved:  # the same text moved here from another page
        return _copy(moved[unit.key], obsolete=False, msgid=unit.msgid)
    best = _most_similar(unit.msgid, candidates, olds.used)
    if best is not None:
        olds.used.add(entry_key(best))
        previous = best.previous_msgid if entry_state(best) in ("stale", "suggested") else best.msgid
        tcomment = best.tcomment
        if entry_key(best) in olds.drafts:  # a draft is offered, as a suggestion: no review went stale
            tcomment = with_mark(without_draft_mark(tcomment), 0.0)  # the similarity: refresh_mark
        return polib.POEntry(
            msgid=unit.msgid,
            msgctxt=unit.msgctxt,
            msgstr=best.msgstr,
            flags=_with_fuzzy(best.flags),
            previous_msgid=previous,
            previous_msgctxt=best.msgctxt if best.msgctxt != unit.msgctxt else None,
            tcomment=tcomment,
        )
    text = machine.get(unit.key, "")
    entry = polib.POEntry(msgid=unit.msgid, msgctxt=unit.msgctxt, msgstr=text, flags=["fuzzy"] if text else [])
    return suggest(memory, unit, entry, text or None)


def _most_similar(msgid: str, candidates: Sequence[polib.POEntry], used: set[Key]) -> polib.POEntry | None:
    """The unused candidate whose source is most like ``msgid`` (difflib ratio at least
    :data:`SIMILARITY`; the first of equals), None if none is. Cheap upper bounds rule most
    candidates out before the quadratic ratio: a PO file may hold many vanished entries."""
    best, score = None, SIMILARITY
    matcher = difflib.SequenceMatcher(None, "", msgid, autojunk=False)  # b analysed once
    size = len(msgid)
    for cand in candidates:
        if entry_key(cand) in used:
            continue
        total = size + len(entry_key(cand)[1])
        if total and 2.0 * min(size, len(entry_key(cand)[1])) / total < score:
            continue  # real_quick_ratio before any work: a PO file may hold many vanished entries
        matcher.set_seq1(entry_key(cand)[1])
        if matcher.quick_ratio() < score:
            continue  # cheap upper bound first: big pages compare many pairs
        ratio = matcher.ratio()
        if ratio >= score:
            best, score = cand, ratio
    return best


def _with_fuzzy(flags: Sequence[str]) -> list[str]:
    return list(flags) if "fuzzy" in flags else ["fuzzy", *flags]


def po_date(when: float | None = None) -> str:
    """A PO header date (``2024-05-01 12:30+0000``), UTC: ``when``, else ``SOURCE_DATE_EPOCH``
    (reproducible builds, tests), else now."""
    if when is None:
        epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
        when = float(epoch) if epoch.isdigit() else time.time()
    return time.strftime("%Y-%m-%d %H:%M+0000", time.gmtime(when))


def _sources(po: polib.POFile | None) -> list[tuple[object, ...]]:
    return [(e.msgctxt, e.msgid, tuple(e.occurrences), e.obsolete) for e in po or []]


def _translations(po: polib.POFile | None) -> list[tuple[object, ...]]:
    return [(e.msgctxt, e.msgid, e.msgstr, tuple(e.flags), e.obsolete) for e in po or []]


def finish_header(po: polib.POFile, old: polib.POFile | None, site_name: str, now: str) -> None:
    """Dates and project name: POT-Creation-Date moves only when the English entries changed,
    PO-Revision-Date only when a translation or flag changed (never on a no-op sync)."""
    meta = po.metadata
    if site_name and meta.get("Project-Id-Version") in ("", "mkdocs-zh-translate"):
        meta["Project-Id-Version"] = site_name
    if not meta.get("POT-Creation-Date") or _sources(old) != _sources(po):
        meta["POT-Creation-Date"] = now
    if not meta.get("PO-Revision-Date") or _translations(old) != _translations(po):
        meta["PO-Revision-Date"] = now


def plan_sync(
    site: Site, width: int | None = None, now: str | None = None, memory: float = DEFAULT_THRESHOLD
) -> list[Planned]:
    """New content for every PO file of the site, and for orphaned page files (all obsolete).
    Reads every file first: a malformed one raises ReviewError before anything is written.

    Text that moved to another page (or a renamed page) keeps its human translation: an exact
    source match among the entries that vanished from *other* files is taken over as it was.
    A file whose content is unchanged keeps its bytes, whoever wrapped it (Poedit, msgcat).
    ``memory``: the similarity (%) at which a reviewed translation is offered to a near-identical
    English anywhere on the site (:mod:`.memory`); 0 offers none."""
    width = site.po_width if width is None else width
    now = now or po_date()
    olds, seen = _read_all(site)
    moved = _moved_away(site, olds)
    machine, scores = _per_file(site)
    drafts = find_drafts(olds, {path: {u.key for u in units} for path, units in site.pages.items()}, site.former)
    tm = Memory.of_files(olds.values(), memory, draft_pairs(olds, drafts)) if memory > 0 else None
    planned: list[Planned] = []
    for path, old in olds.items():
        units = site.pages.get(path, [])
        if old is None and not units:
            continue
        elsewhere = {u.key: moved[u.key][1] for u in units if u.key in moved and moved[u.key][0] != path}
        po = merge(
            old, units, machine.get(path, {}), elsewhere, tm, scores.get(path), drafts=drafts.get(path, ())
        )
        finish_header(po, old, site.site_name, now)
        text = render_po(po, width)
        if old is not None and render_po(old, width) == text:
            text = existing_text(path, site.review_dir) or text  # same content: the file stays as it is
        planned.append(Planned(path, po, text, seen=seen[path], read=True))
    return planned


def _read_all(site: Site) -> tuple[dict[Path, polib.POFile | None], dict[Path, bytes | None]]:
    """Every page's PO file (None where there is none yet), then the orphaned page files of
    the review directory: all are read (and checked) before anything is planned. With the
    bytes each was read from: :func:`apply` writes a file only over exactly those."""
    olds: dict[Path, polib.POFile | None] = {}
    seen: dict[Path, bytes | None] = {}
    paths = list(site.pages)
    if site.review_dir.is_dir():
        for path in sorted(site.review_dir.rglob("*" + PAGE_SUFFIX)):
            if path not in site.pages and not path.name.startswith("."):
                paths.append(path)
    for path in paths:
        olds[path], seen[path] = load_po(path, site.review_dir)
    return olds, seen


def _moved_away(site: Site, olds: dict[Path, polib.POFile | None]) -> dict[Key, tuple[Path, polib.POEntry]]:
    """Human text whose source left its file (:func:`.moved.moved_away`, as the build finds it)."""
    return moved_away((path, old, {u.key for u in site.pages.get(path, [])}) for path, old in olds.items())


def _per_file(
    site: Site,
) -> tuple[dict[Path, dict[tuple[str | None, str], str]], dict[Path, dict[tuple[str | None, str], float | None]]]:
    """The machine cache's texts and confidence scores grouped by PO file, in one pass each
    (looking them up per file would cost files x entries)."""
    machine: dict[Path, dict[tuple[str | None, str], str]] = {}
    for (path, unit_key), text in site.machine.items():  # one pass: per file it would be files x entries
        machine.setdefault(path, {})[unit_key] = text
    scores: dict[Path, dict[tuple[str | None, str], float | None]] = {}
    for (path, unit_key), score in site.scores.items():
        scores.setdefault(path, {})[unit_key] = score
    return machine, scores


def plan_prune(review_dir: Path, width: int | None = None) -> list[Planned]:
    """Every PO file without its obsolete entries (a file left with none is deleted), but for
    a reviewer's drafts (:data:`.drafts.DRAFT_MARK`): only a person deletes those."""
    width = DEFAULT_WIDTH if width is None else width
    planned: list[Planned] = []
    if not review_dir.is_dir():
        return planned
    for path in sorted(review_dir.rglob("*.po")):
        if path.name.startswith("."):
            continue
        old, seen = load_po(path, review_dir)
        if old is None:
            continue
        po = new_po(old)
        for entry in old:
            if not entry.obsolete or has_draft_mark(entry):
                po.append(entry)
        drafts = sum(1 for entry in old if entry.obsolete and has_draft_mark(entry))
        removed = sum(1 for entry in old if entry.obsolete) - drafts
        if removed:
            planned.append(Planned(path, po, render_po(po, width) if len(po) else None, removed, seen, True, drafts))
        elif drafts:  # nothing to write: counted only
            planned.append(Planned(path, po, seen.decode("utf-8") if seen else "", 0, seen, True, drafts))
    return planned


def apply(planned: Sequence[Planned], review_dir: Path | None = None) -> list[Path]:
    """Write (or delete) the planned files; returns the paths that changed on disk. With
    ``review_dir``, every path is checked first (no symbolic links inside it): all or nothing.

    A file read for the plan is written only while it still holds what was read: a reviewer
    who saved it meanwhile (an editor's temporary file and rename) would lose that save to a
    plan made from the older text. Every file is compared before any is written (a change seen
    then raises :class:`ChangedOnDisk` with nothing written: plan again), and each once more
    right before its own write (a change seen then skips that file only, and is raised after
    the others are written)."""
    root = review_dir
    if review_dir is not None:
        for plan in planned:
            check_no_links(review_dir, plan.path)
    moved = [p.path for p in planned if not _still_as_read(p, root)]
    if moved:
        raise ChangedOnDisk(moved, [])
    changed: list[Path] = []
    for plan in planned:
        if not _still_as_read(plan, root):
            moved.append(plan.path)
        elif plan.text is None:
            po_files = Owned(review_dir or plan.path.parent, lambda rel: rel.suffix == PAGE_SUFFIX, "the PO files")
            if po_files.remove(plan.path):
                changed.append(plan.path)
        elif write_if_changed(plan.path, plan.text):
            changed.append(plan.path)
    if moved:
        raise ChangedOnDisk(moved, changed)
    return changed


def _still_as_read(plan: Planned, root: Path | None) -> bool:
    return not plan.read or unchanged(plan.path, root or plan.path.parent, plan.seen)
