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
from ..review.store import display, write_if_changed
from .config import settings_of
from .sources import Sources


class SyncError(ZhTranslateError):
    """A project the sync cannot read or catalogs it cannot write (one line)."""


def _keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def update_catalog(pot: Path, po: Path, language: str) -> bool:
    """``po`` brought up to date with the template ``pot`` (created when absent); True if written.
    Untouched when it already holds exactly the template's messages. Source locations are
    written relative to the catalog's folder (the template's are relative to a scratch folder)."""
    with pot.open("rb") as fh:
        template = read_po(fh, locale=language)
    for message in template:
        message.locations = [
            (os.path.relpath(pot.parent / name, po.parent).replace(os.sep, "/"), line)
            for name, line in message.locations
        ]
    if po.is_file():
        try:
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=language)
        except Exception as exc:  # Babel's parse errors have no common base
            raise SyncError(f"{display(po)}: cannot read: {exc}") from None
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
                app.build()
        except SphinxError as exc:
            raise SyncError(f"{display(srcdir)}: sphinx-build -b gettext failed: {exc}") from None
        settings = settings_of(app.config, srcdir)
        if not app.config.locale_dirs:
            raise SyncError(f"{display(srcdir / 'conf.py')}: locale_dirs is empty: set locale_dirs = ['locale/']")
        target = srcdir / app.config.locale_dirs[0] / language / "LC_MESSAGES"
        pots = sorted((Path(tmp) / "gettext").rglob("*.pot"))
        formats: Formats = {}
        for pot in pots:
            domain = pot.relative_to(Path(tmp) / "gettext").with_suffix("").as_posix()
            formats.update(message_formats(app, pot, Path(tmp) / "gettext", (target / f"{domain}.po").resolve()))
            update_catalog(pot, target / f"{domain}.po", language)
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
