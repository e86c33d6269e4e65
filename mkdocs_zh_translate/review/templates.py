"""Gettext templates (``.pot``) of the PO files, for translation platforms.

Weblate and Crowdin build a *component* from a template plus one file per language: the
template holds the source strings (``msgid``, ``msgctxt``, references) with empty
translations, and the platform creates and updates the language files from it. ``review sync
--templates`` writes one template per PO file, under ``templates/`` beside ``review_dir``
(``translations/templates/guide/install.md.pot`` for ``translations/zh/guide/install.md.po``),
with the same entries ``review sync`` writes, so a platform and the build agree on every key.

A template whose entries did not change keeps its bytes (and its ``POT-Creation-Date``);
templates of pages that are gone are removed, and only files this command wrote (``.pot``
files whose header names us as their generator) are ever removed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polib

from ..owned import Owned
from .store import PAGE_SUFFIX, ReviewError, existing_text, render_po
from .units import Key, Unit, entry_key

TEMPLATES_DIR = "templates"
POT_SUFFIX = ".pot"
GENERATOR = "mkdocs-zh-translate review sync --templates"

_HEADER = {
    "Project-Id-Version": "",
    "Report-Msgid-Bugs-To": "",
    "POT-Creation-Date": "",
    "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
    "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
    "Language-Team": "LANGUAGE <LL@li.org>",
    "Language": "",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "X-Generator": GENERATOR,
}
_COMMENT = "Source strings of the English pages (mkdocs-zh-translate). Do not translate this file."


def templates_dir(review_dir: Path) -> Path:
    """Where the templates of ``review_dir``'s PO files go: ``templates/`` beside it."""
    return review_dir.parent / TEMPLATES_DIR


def template_path(review_dir: Path, po_path: Path) -> Path:
    """The template of one PO file: the same path below :func:`templates_dir`, ``.pot``."""
    rel = po_path.relative_to(review_dir)
    return templates_dir(review_dir) / rel.parent / (rel.name.removesuffix(PAGE_SUFFIX) + POT_SUFFIX)


def template_of(
    units: Sequence[Unit], project: str, now: str, comments: Mapping[Key, str] | None = None
) -> polib.POFile:
    """A template with one entry per unit, in page order, and the usual xgettext header.
    ``comments``: each entry's extracted comment as its PO file has it (kind and confidence,
    :mod:`.confidence`): ``msgmerge`` takes extracted comments from the template, so a
    confidence line missing here would be dropped from every entry, and ``review sync`` can
    restore it only where the cache still holds the machine text (not for reviewed entries)."""
    pot = polib.POFile()
    pot.header = _COMMENT
    pot.metadata = dict(_HEADER)
    pot.metadata.update({"Project-Id-Version": project, "POT-Creation-Date": now})
    pot.metadata_is_fuzzy = True  # as xgettext writes it: the header is not a translation
    for unit in units:
        pot.append(
            polib.POEntry(
                msgid=unit.msgid,
                msgctxt=unit.msgctxt,
                msgstr="",
                occurrences=[(path, line) for path, line in unit.occurrences],
                comment=(comments or {}).get(unit.key, unit.kind),
            )
        )
    return pot


def po_comments(po: polib.POFile) -> dict[Key, str]:
    """The extracted comments of ``po``'s active entries by key (for :func:`plan_templates`)."""
    return {entry_key(e): e.comment for e in po if not e.obsolete and e.comment}


def _ours(text: str | None) -> bool:
    return text is not None and f"X-Generator: {GENERATOR}\\n" in text


def plan_templates(
    review_dir: Path,
    pages: dict[Path, list[Unit]],
    project: str,
    now: str,
    width: int,
    comments: Mapping[Path, Mapping[Key, str]] | None = None,
) -> list[tuple[Path, str | None]]:
    """``(path, text)`` for every template (text None: remove a template of a page that is
    gone). A template whose entries are unchanged keeps its text, date included. ``comments``:
    per PO file, its entries' extracted comments (see :func:`template_of`)."""
    root = templates_dir(review_dir)
    planned: list[tuple[Path, str | None]] = []
    wanted: set[Path] = set()
    for po_path, units in pages.items():
        if not units:
            continue
        path = template_path(review_dir, po_path)
        wanted.add(path)
        old = existing_text(path, root)
        notes = (comments or {}).get(po_path)
        text = render_po(template_of(units, project, now, notes), width)
        if old is not None:
            kept = render_po(template_of(units, project, _creation_date(old) or now, notes), width)
            text = old if kept == old else text
        planned.append((path, text))
    if root.is_dir():
        for path in sorted(root.rglob("*" + POT_SUFFIX)):
            if path not in wanted and _ours(existing_text(path, root)):
                planned.append((path, None))
    return planned


def _creation_date(text: str) -> str | None:
    marker = '"POT-Creation-Date: '
    start = text.find(marker)
    if start < 0:
        return None
    end = text.find("\\n", start)
    return text[start + len(marker) : end] if end > start else None


def apply_templates(review_dir: Path, planned: Sequence[tuple[Path, str | None]]) -> list[Path]:
    """Write or remove the planned templates; the paths that changed on disk."""
    from .store import check_no_links, write_if_changed

    root = templates_dir(review_dir)
    for path, _text in planned:
        try:
            check_no_links(root, path)
        except ReviewError as exc:
            raise ReviewError(str(exc).replace("review directory", "templates directory")) from None
    ours = Owned(root, lambda rel: rel.suffix == POT_SUFFIX, "the .pot templates")
    changed: list[Path] = []
    for path, text in planned:
        if text is None:
            if ours.remove(path):
                changed.append(path)
        elif write_if_changed(path, text):
            changed.append(path)
    return changed
