"""The reviewed catalogs of a Sphinx project as files: which ones there are, and where an entry is.

Catalogs come from contributors, like the MkDocs build's PO files, and the same rule holds for
them (:mod:`mkdocs_zh_translate.untrusted`): nothing below a locale directory may be a symbolic
link or anything but a directory or a regular file. A pull request could otherwise make
``LC_MESSAGES/usage.po`` a link to a file of secrets (Babel's parse warnings, which Sphinx and
``sphinx sync`` print, quote the lines they cannot read) or ``LC_MESSAGES`` a link to a folder
outside the project (``sphinx sync`` would write its catalogs there, Sphinx its ``.mo`` files).
:func:`unsafe_entry` finds the first such entry; the build refuses to start and the sync to
read when there is one. A locale directory itself may be a link: ``conf.py`` is the user's.
"""

from __future__ import annotations

import gettext
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.errors import SphinxError

from ..errors import ZhTranslateError
from ..pofill.catalog import CatalogError, parse_catalog
from ..untrusted import UntrustedFileError, display, read_untrusted_text
from .config import is_chinese


class CatalogLinkError(SphinxError, ZhTranslateError):
    """A link or special file below a locale directory: one line naming it (Sphinx prints a
    SphinxError without a traceback)."""

    category = "zh-translate error"


def catalog_root(srcdir: Path, locale_dir: str, language: str) -> Path:
    """``<locale_dir>/<language>/LC_MESSAGES``: where Sphinx reads (and compiles) the catalogs."""
    return srcdir / locale_dir / language / "LC_MESSAGES"


def unsafe_entry(locale_dir: Path, language: str) -> tuple[Path, str] | None:
    """The first path below ``locale_dir`` on the way to, or inside, ``<language>/LC_MESSAGES``
    that is a symbolic link or not a directory / regular file, with what it is; None when there
    is none. Nothing is followed: the walk lists each directory as it is."""
    current = locale_dir
    for part in (language, "LC_MESSAGES"):
        current = current / part
        kind = _kind(current)
        if kind == "missing":
            return None
        if kind != "directory":
            return current, kind
    pending = [current]
    while pending:
        folder = pending.pop()
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = folder / name
            kind = _kind(path)
            if kind == "directory":
                pending.append(path)
            elif kind not in ("file", "missing"):
                return path, kind
    return None


def _kind(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISREG(mode):
        return "file"
    return "not a regular file (a device, pipe or socket)"


def check_locale_dirs(srcdir: Path, locale_dirs: list[str], language: str) -> None:
    """Raise :class:`CatalogLinkError` for the first link or special file below the locale
    directories' ``<language>`` trees (see the module); also the bare language's (``zh`` for
    ``zh_CN``), which gettext consults after the full name."""
    languages = dict.fromkeys([language, language.replace("-", "_").split("_")[0]])
    for directory, name in ((d, n) for d in locale_dirs for n in languages if n):
        found = unsafe_entry(srcdir / directory, name)
        if found is not None:
            path, kind = found
            raise CatalogLinkError(
                f"{display(path)}: is {kind} inside the locale directory {display(srcdir / directory)}; "
                "refusing to read catalogs through it (replace it with a real directory or file)"
            )


def refuse_links(app: Any, config: Any) -> None:
    """``config-inited`` of a Chinese build: refuse a link below the locale directories before
    Sphinx compiles the catalogs (it reads each ``.po`` through plain ``open()`` and writes the
    ``.mo`` beside it). Sphinx has compiled ``sphinx.po`` by then (see the threat model)."""
    if is_chinese(config.language):
        check_locale_dirs(Path(app.srcdir), list(config.locale_dirs), str(config.language))


@dataclass(frozen=True)
class Source:
    """One locale directory's compiled catalog of a domain, and the PO file it comes from."""

    locale_dir: Path
    mo: Path

    @property
    def po(self) -> Path:
        return self.mo.with_suffix(".po")


def reviewed_sources(
    srcdir: Path, locale_dirs: list[str], language: str, domain: str
) -> list[tuple[Source, dict[str, str]]]:
    """Each locale directory's translations of ``domain`` as Sphinx reads them (its compiled
    ``.mo``: non-fuzzy entries unless ``gettext_allow_fuzzy_translations``), in the order Sphinx
    consults them (the first one holding a message wins)."""
    found: list[tuple[Source, dict[str, str]]] = []
    for directory in locale_dirs:
        localedir = srcdir / directory
        mo = gettext.find(domain, localedir=str(localedir), languages=[language])
        if mo is None:
            continue
        try:
            with open(mo, "rb") as fh:
                catalog = gettext.GNUTranslations(fh)
        except (OSError, ValueError, UnicodeDecodeError):
            continue  # Sphinx's own reading reports it
        entries = getattr(catalog, "_catalog", {})
        kept = {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, str) and k and v}
        found.append((Source(localedir, Path(mo)), kept))
    return found


def merged(sources: list[tuple[Source, dict[str, str]]]) -> dict[str, str]:
    """The reviewed translations Sphinx will use: :func:`reviewed_sources`, the first winning."""
    found: dict[str, str] = {}
    for _source, catalog in reversed(sources):
        found.update(catalog)
    return found


def entry_line(source: Source, msgid: str) -> str:
    """``file:line`` of ``msgid``'s entry in the PO file the ``.mo`` was compiled from (read as
    every contributor file is); the ``.mo`` alone when the PO file is gone or unreadable."""
    try:
        text = read_untrusted_text(source.po, source.locale_dir)
        catalog = parse_catalog(text, display(source.po)) if text is not None else None
    except (UntrustedFileError, CatalogError, ZhTranslateError):
        catalog = None
    if catalog is not None:
        for entry in catalog.entries:
            if entry.msgid == msgid and not entry.obsolete:
                return f"{display(source.po)}:{entry.msgid_line + 1}"
    return display(source.mo)
