"""``sphinx sync SRCDIR``: the reviewable catalogs, written from what the Chinese build uses.

The Sphinx counterpart of ``review sync``. It runs Sphinx's gettext builder on the project (into
a scratch directory: the project is only read), brings ``<locale_dirs[0]>/zh_CN/LC_MESSAGES/
<domain>.po`` up to date with the messages (Babel's merge, as ``sphinx-intl update`` does: new
messages added, changed ones keep their old translation as a fuzzy draft, removed ones become
obsolete ``#~`` entries), then fills every open or machine entry with ``po fill``'s writer from the
build's own cache (``zh_translate_cache_dir``; the same protection, so a built project syncs
without the model; each message in the format the build protects it in, see :mod:`.sources`).
Machine text is written ``#, fuzzy`` under the ``# zh-translate: machine``
marker; a translation a person wrote or accepted is never changed. A catalog whose messages did
not change is edited in place, line by line.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from sphinx.application import Sphinx
from sphinx.errors import SphinxError
from sphinx.util.docutils import docutils_namespace, patch_docutils
from sphinx.util.i18n import docname_to_domain

from ..errors import ZhTranslateError
from ..pipeline.glossary import load_glossary
from ..pofill.fill import Summary, fill
from ..review.pocheck import PoSyntaxError, check_po
from ..review.store import display, write_if_changed
from ..untrusted import read_untrusted_text
from .catalogs import CatalogLinkError, catalog_root, check_locale_dirs
from .config import settings_of
from .sources import Sources


class SyncError(ZhTranslateError):
    """A project the sync cannot read or catalogs it cannot write (one line)."""


def _keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def update_catalog(pot: Path, po: Path, language: str, root: Path | None = None) -> bool:
    """``po`` brought up to date with the template ``pot`` (created when absent); True if written.
    Untouched when it already holds exactly the template's messages. Source locations are
    written relative to the catalog's folder (the template's are relative to a scratch folder).
    ``po`` is read as every contributor file is, inside ``root`` (default: its folder)."""
    with pot.open("rb") as fh:
        template = read_po(fh, locale=language)
    for message in template:
        message.locations = [
            (os.path.relpath(pot.parent / name, po.parent).replace(os.sep, "/"), line)
            for name, line in message.locations
        ]
    catalog = _read_catalog(po, language, root or po.parent)
    if catalog is not None:
        if _keys(catalog) == _keys(template):
            return False
        catalog.update(template)
    else:
        catalog = template
        catalog.fuzzy = False
    out = io.BytesIO()
    write_po(out, catalog, width=76)
    po.parent.mkdir(parents=True, exist_ok=True)
    return write_if_changed(po, out.getvalue().decode("utf-8"))


def _read_catalog(po: Path, language: str, root: Path) -> Catalog | None:
    """The catalog ``po`` (None when absent), through the untrusted-file reader: no link, no
    device, UTF-8, msgfmt's syntax. Errors name the file and line, never quote it (Babel's own
    warnings print the lines they cannot read: a linked file of secrets would be echoed)."""
    try:
        text = read_untrusted_text(po, root, hint="; only UTF-8 catalogs are supported")
        if text is None:
            return None
        check_po(text)
    except PoSyntaxError as exc:
        raise SyncError(f"{display(po)}:{exc.line}: malformed PO file: {exc.message}") from None
    except ZhTranslateError as exc:  # a link, a device, too big, not UTF-8: one line naming it
        raise SyncError(str(exc)) from None
    try:
        return read_po(io.StringIO(text), locale=language, abort_invalid=True)
    except Exception as exc:  # Babel's errors have no common base; its PoFileError has the line
        line = getattr(exc, "lineno", None)
        where = f"{display(po)}:{line + 1}" if isinstance(line, int) else display(po)
        raise SyncError(f"{where}: cannot read this PO file ({type(exc).__name__})") from None


def _check_locale_dirs(app: Sphinx, srcdir: Path, language: str) -> None:
    """A project with no locale directory, or with a link below one, is refused (one line)."""
    if not app.config.locale_dirs:
        raise SyncError(f"{display(srcdir / 'conf.py')}: locale_dirs is empty: set locale_dirs = ['locale/']")
    try:
        check_locale_dirs(srcdir, list(app.config.locale_dirs), language)
    except CatalogLinkError as exc:
        raise SyncError(str(exc)) from None


def sync(srcdir: Path, language: str = "zh_CN", *, quiet: bool = True) -> tuple[Summary, Path]:
    """Update the catalogs of the project at ``srcdir``; the ``po fill`` summary and the catalog folder."""
    if not (srcdir / "conf.py").is_file():
        raise SyncError(f"{display(srcdir)}: no conf.py (pass the Sphinx source directory)")
    with tempfile.TemporaryDirectory(prefix="zh-translate-sync-") as tmp:
        try:
            # as sphinx-build does: the directives and roles the project registers live in a
            # docutils namespace that ends with the build (a later build in the process, a
            # test's, would otherwise warn that each one is registered already)
            with patch_docutils(srcdir), docutils_namespace():
                app = Sphinx(
                    str(srcdir),
                    str(srcdir),
                    str(Path(tmp) / "gettext"),
                    str(Path(tmp) / "doctrees"),
                    "gettext",
                    status=None if quiet else sys.stderr,
                    warning=sys.stderr,
                    freshenv=True,
                )
                _check_locale_dirs(app, srcdir, language)  # before anything reads a catalog
                app.build()
        except SphinxError as exc:
            raise SyncError(f"{display(srcdir)}: sphinx-build -b gettext failed: {exc}") from None
        settings = settings_of(app.config, srcdir)
        locale_dir = srcdir / app.config.locale_dirs[0]
        target = catalog_root(srcdir, app.config.locale_dirs[0], language)
        pots = sorted((Path(tmp) / "gettext").rglob("*.pot"))
        formats: Formats = {}
        for pot in pots:
            domain = pot.relative_to(Path(tmp) / "gettext").with_suffix("").as_posix()
            formats.update(message_formats(app, pot, Path(tmp) / "gettext", (target / f"{domain}.po").resolve()))
            update_catalog(pot, target / f"{domain}.po", language, locale_dir)
    glossary = load_glossary(settings.glossary) if settings.glossary else None
    spec = settings.spec()
    if not pots:
        return Summary(), target
    summary = fill(
        [target],
        spec,
        fmt=lambda po, msgid: formats.get((po.resolve(), msgid), ("rst", {})),
        default_role=app.config.default_role or "",
        refresh=True,
        cache_dir=settings.cache_dir,
        glossary=glossary,
    )
    return summary, target


Formats = dict[tuple[Path, str], tuple[str, dict[str, str]]]  # (po, msgid) -> format, references


def message_formats(app: Sphinx, pot: Path, outdir: Path, po: Path) -> Formats:
    """(``po``, msgid) -> the format the build protects that message in (its domain's documents
    say whether it is MyST, its first location, relative to the gettext ``outdir``, whether it is
    reST inside MyST) and, for MyST, the link reference definitions of that location's file."""
    domain = pot.relative_to(outdir).with_suffix("").as_posix()
    sources = Sources(app.config, app.registry)
    documents = [
        sources.document(str(app.env.doc2path(d)))
        for d in app.env.found_docs
        if docname_to_domain(d, app.config.gettext_compact) == domain
    ]
    doc_format = "myst" if "myst" in documents else documents[0] if documents else "rst"
    with pot.open("rb") as fh:
        template = read_po(fh)
    found: Formats = {}
    for message in template:
        if not message.id or not isinstance(message.id, str):
            continue
        name, line = message.locations[0] if message.locations else ("", None)
        source = str((outdir / name).resolve()) if name else ""
        fmt = sources.message(doc_format, source, line) if source else doc_format
        found[po, message.id] = fmt, sources.references(source, line) if fmt == "myst" and source else {}
    return found
