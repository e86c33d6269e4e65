"""PO files on disk: where each page's file lives, reading them safely, writing them atomically.

The PO files are the reviewers' work, committed with the docs; losing or corrupting one loses
people's time. They also come from outside contributors, so they are read only through
:mod:`..untrusted` (no symbolic link inside ``review_dir``, regular files of bounded size), a
malformed file is reported as ``file:line`` without quoting it (never a traceback), and parsing
is linear (the strict checker finds duplicates; polib's own check scans every earlier entry).
Writing goes to a temporary file in the same directory that replaces the old one in one rename,
only when the text really changed (an unchanged file keeps its mtime: no ``mkdocs serve`` reload
loop, no noise in ``git status``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polib

from .. import owned
from ..errors import ReviewError as ReviewError  # re-exported: review's modules and the CLI raise it from here
from ..textfile import NotUtf8Error, decode_utf8
from ..untrusted import UntrustedFileError, read_untrusted, read_untrusted_text
from ..untrusted import display as display  # re-exported: every review module names files with it
from .pocheck import PoSyntaxError, check_po, polib_error
from .poformat import format_po
from .poparse import parse_po
from .powrap import DEFAULT_WIDTH
from .units import Key, entry_key, loose_key

SITE_PO = "site.po"  # site-wide strings: nav titles, site name, default admonition titles
PAGE_SUFFIX = ".po"  # a page's file is <review_dir>/<src_uri>.po, e.g. guide/install.md.po

# Every field msgfmt -c wants, in gettext's order; a value a team set in its file is kept.
_HEADER = {
    "Project-Id-Version": "mkdocs-zh-translate",  # the site's name when known
    "Report-Msgid-Bugs-To": "",
    "POT-Creation-Date": "",  # when the English entries last changed
    "PO-Revision-Date": "",  # when a translation or flag last changed
    "Last-Translator": "mkdocs-zh-translate (machine translation)",
    "Language-Team": "Chinese (Simplified)",
    "Language": "zh_CN",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "Plural-Forms": "nplurals=1; plural=0;",
    "X-Generator": "mkdocs-zh-translate review sync",
}
_COMMENT = (
    "Reviewed Chinese translations (mkdocs-zh-translate). Edit msgstr; delete the\n"
    "'#, fuzzy' line of an entry to mark it reviewed. `mkdocs-zh-translate review sync`\n"
    "keeps this file in step with the English pages."
)


def page_po_path(review_dir: Path, src_uri: str) -> Path:
    return review_dir / (src_uri + PAGE_SUFFIX)


def site_po_path(review_dir: Path) -> Path:
    return review_dir / SITE_PO


def check_no_links(review_dir: Path, path: Path) -> None:
    """Refuse a path that reaches through a symbolic link inside ``review_dir``: PO files
    come from contributors, and a linked directory would make `review sync` write outside
    the project (review_dir itself may be a link: that is the user's own mkdocs.yml choice)."""
    try:
        parts = path.relative_to(review_dir).parts
    except ValueError:
        raise ReviewError(f"{display(path)}: outside the review directory {display(review_dir)}") from None
    current = review_dir
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise ReviewError(
                f"{display(current)}: is a symbolic link inside {display(review_dir)}; refusing to write "
                "through it (replace it with a real directory or file)"
            )


def read_po(path: Path, review_dir: Path | None = None) -> polib.POFile | None:
    """The parsed PO file, None when it does not exist; ReviewError naming file and line when
    it cannot be read. ``review_dir``: the directory it must lie in without a symbolic link on
    the way (default: the file's own directory)."""
    return load_po(path, review_dir)[0]


def load_po(path: Path, review_dir: Path | None = None) -> tuple[polib.POFile | None, bytes | None]:
    """:func:`read_po`, with the bytes it parsed (None: no file): what a writer later compares
    the file with (:func:`unchanged`), so a reviewer's save in between is never overwritten."""
    try:
        data = read_untrusted(path, review_dir)
        text = None if data is None else decode_utf8(data, display(path))
    except (UntrustedFileError, NotUtf8Error) as exc:
        raise ReviewError(str(exc)) from None
    if text is None:
        return None, None
    try:
        check_po(text)  # msgfmt's rules first: polib would quietly accept a broken string
    except PoSyntaxError as exc:
        raise ReviewError(f"{display(path)}:{exc.line}: malformed PO file: {exc.message}") from None
    try:  # duplicates were refused above: polib's own check would be quadratic
        po = parse_po(text, DEFAULT_WIDTH)  # lines cut at \n only, as gettext and render_po write them
    except (OSError, ValueError) as exc:
        line, reason = polib_error(exc)
        raise ReviewError(f"{display(path)}:{line}: malformed PO file: {reason}") from None
    return po, data


def unchanged(path: Path, root: Path, seen: bytes | None) -> bool:
    """Whether ``path`` still holds exactly ``seen`` (None: still absent). A file that cannot be
    read now (it became a link, a directory) has changed."""
    try:
        return read_untrusted(path, root) == seen
    except (UntrustedFileError, OSError):
        return False


def new_po(old: polib.POFile | None = None, defaults: dict[str, str] | None = None) -> polib.POFile:
    """An empty PO file with our header: every field msgfmt -c wants, ``defaults`` filling
    empty ones (the site's name, dates); an existing file's header values and comment are kept."""
    po = polib.POFile(wrapwidth=DEFAULT_WIDTH)
    metadata = dict(_HEADER)
    metadata.update(defaults or {})
    po.header = _COMMENT
    if old is not None:
        metadata.update({k: v for k, v in old.metadata.items() if v or k not in metadata})
        po.header = old.header or _COMMENT
    po.metadata = metadata
    return po


def render_po(po: polib.POFile, width: int = DEFAULT_WIDTH) -> str:
    """The file's text as GNU gettext (``msgcat``, Poedit) writes it, wrapped at ``width``
    (0 or less: no wrapping, like ``msgcat --no-wrap``)."""
    return format_po(po, width)


def existing_text(path: Path, root: Path) -> str | None:
    """A file's text as it is on disk, read like every contributor file (no links, no devices),
    or None when it is absent or cannot be read: for keeping bytes that did not change."""
    try:
        return read_untrusted_text(path, root)
    except (UntrustedFileError, NotUtf8Error):
        return None


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` atomically unless the file already holds exactly that; True if written.
    A failure (full disk) is one line naming the file (:func:`~..owned.write_if_changed`)."""
    return owned.write_if_changed(path, text.encode("utf-8"))


def active_index(po: polib.POFile | None) -> dict[Key, polib.POEntry]:
    """The non-obsolete entries of ``po`` by :func:`~.units.entry_key` (msgids read without
    soft line breaks, as units make them)."""
    if po is None:
        return {}
    return {entry_key(e): e for e in po if not e.obsolete}


@dataclass
class CachedPo:
    stamp: tuple[int, int]
    po: polib.POFile | None
    index: dict[Key, polib.POEntry]
    loose: dict[Key, Key] | None = None  # index keys by :func:`~.units.loose_key`, made when asked


class PoReader:
    """Reads the PO files of ``review_dir`` once per content change (``mkdocs serve`` rebuilds
    reuse the parse), and indexes each once: every page looks site.po up, so re-indexing it per
    page would cost pages x entries."""

    def __init__(self, review_dir: Path | None = None) -> None:
        self.review_dir = review_dir
        self._cache: dict[Path, CachedPo] = {}

    def _load(self, path: Path) -> CachedPo | None:
        try:
            st = path.lstat()  # a link has its own stamp: read_po refuses it
            stamp = (st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            self._cache.pop(path, None)
            return None
        except OSError:
            stamp = (-1, -1)
        cached = self._cache.get(path)
        if cached is None or cached.stamp != stamp:
            po = read_po(path, self.review_dir)
            cached = self._cache[path] = CachedPo(stamp, po, active_index(po))
        return cached

    def get(self, path: Path) -> polib.POFile | None:
        cached = self._load(path)
        return cached.po if cached is not None else None

    def index(self, path: Path) -> dict[Key, polib.POEntry]:
        """:func:`active_index` of the file at ``path`` (empty when it does not exist)."""
        cached = self._load(path)
        return cached.index if cached is not None else {}

    def loose(self, path: Path) -> dict[Key, Key]:
        """The active keys of the file at ``path`` by :func:`~.units.loose_key` (the first of
        equals), made once per content like the index."""
        cached = self._load(path)
        if cached is None:
            return {}
        if cached.loose is None:
            cached.loose = {}
            for key in cached.index:
                cached.loose.setdefault(loose_key(key), key)
        return cached.loose


def has_po_files(review_dir: Path) -> bool:
    return review_dir.is_dir() and any(review_dir.rglob("*" + PAGE_SUFFIX))


# The translator-comment line ``review sync`` writes on a translation-memory suggestion (see
# :mod:`.memory`). A translator comment, not an extracted one (``#.``): msgmerge takes extracted
# comments from the template and would drop it; msgcat, msgmerge, Poedit and Lokalize keep and
# show translator comments. Read by this prefix, so a team's own comment lines stay theirs.
SUGGESTION_MARK = "zh-translate: suggestion from translation memory"


def suggestion_mark(score: float) -> str:
    """The marker line for a suggestion whose English is ``score`` % similar: ``… (93% match)``."""
    return f"{SUGGESTION_MARK} ({int(score)}% match)"


def has_suggestion_mark(entry: polib.POEntry) -> bool:
    return any(line.startswith(SUGGESTION_MARK) for line in (entry.tcomment or "").split("\n"))


def without_suggestion_mark(tcomment: str | None) -> str:
    """``tcomment`` without the marker line (every other line as it was)."""
    return "\n".join(line for line in (tcomment or "").split("\n") if not line.startswith(SUGGESTION_MARK))


def entry_state(entry: polib.POEntry) -> str:
    """``reviewed``, ``suggested`` (a fuzzy translation-memory suggestion, marked), ``stale``
    (source changed since review), ``machine`` or ``missing``. A suggestion is not stale: no
    review of this entry went out of date, and ``review sync`` cannot resolve it, only a person
    accepting it (deleting ``#, fuzzy``: reviewed) or editing it (still suggested while fuzzy)."""
    if not entry.msgstr:
        return "missing"
    if "fuzzy" in entry.flags:
        if has_suggestion_mark(entry):
            return "suggested"
        return "stale" if entry.previous_msgid is not None else "machine"
    return "reviewed"
