"""One reviewer's save from ``review serve``: a single PO entry written as ``review sync`` would.

The browser is one more editor of the PO files, beside Poedit and a text editor, so it follows
the rules every writer of these files follows:

* the text must fit the segment's markup, as the build checks a reviewed entry
  (:func:`.layer.review_problems`: no lost or added link, code span, HTML; no invisible
  control), and may not hold the review build's own marks (:mod:`.marks`); a refusal says why
  in one line, which the panel shows in place;
* the file is read through :func:`.store.load_po` (no symbolic link, bounded size, strict
  syntax) and written atomically, and only while it still holds exactly the bytes it was read
  from (the lost-update rule of :func:`.sync.apply`): an editor's save in between is never
  overwritten;
* the entry itself must still be what the reviewer saw when the panel opened (its
  :func:`entry_version`): another editor's change of *that* entry is reported, not replaced;
  changes to other entries of the file are kept, since the file is re-read right before the
  write;
* only that entry changes: its ``msgstr``, its ``#, fuzzy`` flag, its ``#|`` previous strings
  and the suggestion or draft marker (a reviewed entry carries neither). The header is left as
  it is, so the file's diff is that one entry (a file ``review sync`` wrote reads back to the
  same bytes). An entry the file lacks (no ``review sync`` since the text appeared) is added
  as sync would add it, and a file that does not exist yet is created with sync's header.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import polib

from .drafts import without_draft_mark
from .layer import review_problems
from .marks import has_marks
from .powrap import DEFAULT_WIDTH
from .store import (
    ReviewError,
    check_no_links,
    display,
    load_po,
    new_po,
    render_po,
    unchanged,
    without_suggestion_mark,
    write_if_changed,
)
from .units import Unit, entry_key

MAX_TEXT = 20_000  # characters of one reviewed text; a page's longest paragraph is far below


class EditRefused(ReviewError):
    """A save that was not written, and why (one line, shown to the reviewer in place)."""


def entry_version(entry: polib.POEntry | None) -> str:
    """A short fingerprint of what a reviewer sees of an entry (text, flags, previous English,
    obsolete or not); "" for no entry. A save names the version it was made from."""
    if entry is None:
        return ""
    seen = "\x00".join([entry.msgstr, ",".join(entry.flags), entry.previous_msgid or "", str(entry.obsolete)])
    return hashlib.sha256(seen.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def find_entry(po: polib.POFile | None, unit: Unit) -> polib.POEntry | None:
    """The file's entry for ``unit``: the active one, else an obsolete one (a text that came back)."""
    found = None
    for entry in po or []:
        if entry_key(entry) == unit.key:
            if not entry.obsolete:
                return entry
            found = found or entry
    return found


def check_text(unit: Unit, text: str) -> None:
    """EditRefused when ``text`` may not become ``unit``'s reviewed translation."""
    if not text.strip():
        raise EditRefused("the translation is empty (to leave a segment unreviewed, do not save it)")
    if len(text) > MAX_TEXT:
        raise EditRefused(f"the translation is longer than {MAX_TEXT} characters")
    if has_marks(text):
        raise EditRefused("the translation contains Unicode noncharacters (U+FDD0-U+FDEF)")
    problems = review_problems(unit, text)
    if problems:
        raise EditRefused("refused: " + "; ".join(problems))


def save_review(
    review_dir: Path, path: Path, unit: Unit, text: str, version: str | None, width: int = DEFAULT_WIDTH
) -> bool:
    """Write ``text`` as ``unit``'s reviewed translation into the PO file at ``path`` (inside
    ``review_dir``); True when the file changed. ``version``: the :func:`entry_version` the
    reviewer saw (None: not checked). EditRefused (nothing written) when the text does not fit,
    the entry changed since, or the file changed on disk between reading and writing."""
    check_text(unit, text)
    check_no_links(review_dir, path)
    po, seen = load_po(path, review_dir)
    entry = find_entry(po, unit)
    if version is not None and entry_version(entry) != version:
        raise EditRefused(
            f"{display(path)}: this entry changed on disk since the panel showed it (another editor?); "
            "nothing written: reopen the segment to see the new text"
        )
    if po is None:
        from .sync import finish_header, po_date

        po = new_po()
        finish_header(po, None, "", po_date())
    if entry is None:
        entry = polib.POEntry(msgid=unit.msgid, msgctxt=unit.msgctxt, occurrences=list(unit.occurrences))
        entry.comment = unit.kind
        po.append(entry)
    entry.obsolete = False
    entry.msgstr = text
    entry.flags = [f for f in entry.flags if f != "fuzzy"]
    entry.previous_msgid = entry.previous_msgctxt = None
    entry.tcomment = without_draft_mark(without_suggestion_mark(entry.tcomment)) or ""
    rendered = render_po(po, width)
    if not unchanged(path, review_dir, seen):
        raise EditRefused(
            f"{display(path)}: changed on disk while saving (saved by an editor?); nothing written: save again"
        )
    return write_if_changed(path, rendered)
