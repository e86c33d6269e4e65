"""The machine cache: every model output, asked before the model is.

Reviewed (PO) translations are not looked up here: they are per segment, not per text (the
same source can be reviewed on one page and not on another; ``review.layer``), and they win
over this cache. ("Translation memory" names the review suggestions only, ``review.memory``.)
The machine cache is a diskcache directory that stores every model output. The machine cache is keyed by a hash of the
segment text, the translator fingerprint and the decode options, so changing the model or the
beam width never serves stale output, and it is shared safely by concurrent builds (SQLite in
WAL mode under diskcache). A corrupt cache (its integrity check fails) is reported, its own
database files moved aside (never the directory: ``cache_dir`` may be the project root or hold
other things) and rebuilt; a valid cache that cannot be written is still read: losing cached work costs time,
a crashed build costs the user's trust.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import diskcache

from ..logs import log
from ..owned import Owned, PathError, named
from ..scored import finite_score
from .origin import Origin

# Bump when the stored value format changes incompatibly; old entries then simply miss. (Adding
# an optional field, as "s" the score was, needs no bump: _decode reads entries without it.)
_FORMAT = "v1"
_META_PREFIX = "meta:"
_VERDICT_PREFIX = "guard:"  # the page guard's verdicts (guard.VerdictStore), keyed by their own hash
DEFAULT_CACHE_DIRNAME = ".zh-translate-cache"  # the plugin's cache_dir when it sets none, beside mkdocs.yml
_DB_FILE = "cache.db"  # diskcache's database file
_DB_FILES = (_DB_FILE, _DB_FILE + "-wal", _DB_FILE + "-shm")  # with SQLite's companions
_BROKEN = ".broken"  # cache.db.broken (and -wal, -shm): the one corrupt copy kept


def _aside(name: str) -> str:
    return _DB_FILE + _BROKEN + name[len(_DB_FILE) :]


def cache_files(directory: Path) -> Owned:
    """What of ``directory`` is the cache's own to move or remove: its database files and the
    one set-aside copy, nothing else (diskcache's value files stay; the new database ignores them)."""
    return Owned(directory, named([*_DB_FILES, *map(_aside, _DB_FILES)]), "the translation cache's files")

# Errors that mean "this cache directory is unusable", as opposed to a bug in our code.
_CACHE_ERRORS = (sqlite3.Error, OSError, diskcache.Timeout)


@dataclass(frozen=True)
class Hit:
    """A stored translation and what it is worth: ``fallback`` names the fallback step the
    segmenter had to take (None when the model output was used as is), ``origin`` where the
    text came from (only the text, the fallback and the score are stored: a stored hit reads
    back as ``Origin.CACHE``). ``score``: the model's confidence in ``text``
    (``ladder.SegmentTranslation.score``), None when unknown: a backend without scores, or
    an entry stored before scores were kept. ``model``: the model that wrote a cached text
    when it is not the build's own but one the build's model succeeds (``lineage``); None for
    the build's model (not stored: the key already names the model)."""

    text: str
    fallback: str | None = None
    origin: Origin = Origin.CACHE
    score: float | None = None
    model: str | None = None


def cache_key(source: str, fingerprint: str) -> str:
    """Hash of everything that determines a machine translation of ``source``."""
    digest = hashlib.sha256()
    digest.update(_FORMAT.encode())
    digest.update(b"\x00")
    digest.update(fingerprint.encode("utf-8"))
    digest.update(b"\x00")
    digest.update(source.encode("utf-8"))
    return digest.hexdigest()


class _ReadOnlyCache:
    """Reads a diskcache directory it may not write (read-only mount, full disk, other owner).

    diskcache itself cannot open such a directory: it writes its settings and WAL files on
    open. Our values are short strings stored in the database row (``MODE_RAW``) or, past
    diskcache's file threshold, in a text file (``MODE_TEXT``); nothing else is read."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._db = _connect_read_only(directory / _DB_FILE)
        self._disk = diskcache.Disk(str(directory))

    def get(self, key: str) -> object:
        row = self._db.execute("SELECT mode, filename, value FROM Cache WHERE key = ? AND raw = 1", (key,)).fetchone()
        if row is None or row[0] not in (diskcache.core.MODE_RAW, diskcache.core.MODE_TEXT):
            return None
        try:
            return self._disk.fetch(row[0], row[1], row[2], False)
        except OSError:
            return None

    def close(self) -> None:
        self._db.close()


def _connect_read_only(db: Path) -> sqlite3.Connection:
    """A read-only connection; ``immutable`` when even SQLite's shared-memory file cannot be
    created beside the database (read-only directory)."""
    last: sqlite3.Error | None = None
    for flags in ("mode=ro", "mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(f"{db.resolve().as_uri()}?{flags}", uri=True, check_same_thread=False)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error as exc:
            last = exc
    assert last is not None
    raise last


def integrity(directory: Path) -> str:
    """``ok`` (a valid cache, whether or not it can be written), ``corrupt`` (the integrity
    check fails: only then is the cache moved aside), ``absent`` or ``unreadable``."""
    db = directory / _DB_FILE
    if not db.is_file():
        return "absent"
    try:
        conn = _connect_read_only(db)
    except sqlite3.OperationalError:
        return "unreadable"  # permission denied, I/O error: not evidence of corruption
    except sqlite3.DatabaseError:
        return "corrupt"
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
        conn.execute("SELECT count(*) FROM Cache").fetchone()
        return "ok" if rows == [("ok",)] else "corrupt"
    except sqlite3.OperationalError as exc:
        return "corrupt" if "no such table" in str(exc) else "unreadable"
    except sqlite3.DatabaseError:
        return "corrupt"
    finally:
        conn.close()


class MachineCache:
    """Model outputs on disk, robust to corruption, interruption, concurrent writers and
    directories that cannot be written.

    Two faults are told apart. A cache whose integrity check fails is *corrupt*: its database
    files are renamed to ``cache.db.broken`` in the same directory (one copy, replacing an
    older one) and a new one started; nothing else in the directory is touched. A cache
    that cannot be *written* (full disk, read-only directory, another user's files) is valid:
    it is read all the same, new translations live in memory for this build, and one warning
    says so. Nothing is ever created outside the cache directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.writable = True
        self._cache: diskcache.Cache | None = None
        self._reader: _ReadOnlyCache | None = None
        self._unsaved: dict[str, str] = {}  # what could not be written, still served this build
        self._verdicts: dict[str, str] = {}  # guard verdicts not yet saved (save_verdicts)
        self._warned = False
        self._open()

    # -- opening and recovery -------------------------------------------------------------

    def _open(self) -> None:
        try:
            cache = diskcache.Cache(str(self.directory), timeout=60)
            cache.get(_META_PREFIX + "probe")  # forces a read: a corrupt file fails here
            self._cache = cache
            return
        except _CACHE_ERRORS as exc:
            self._cache = None
            self._fault("opening", exc)

    def _fault(self, action: str, exc: BaseException) -> None:
        """Decide what a failure means from the cache's integrity, not from the error."""
        state = integrity(self.directory)
        if state == "corrupt":
            self._replace_corrupt(exc)
        elif state == "ok":
            self._read_only(f"cannot write to the translation cache {self.directory} ({_reason(exc)})")
        else:
            self._read_only(f"cannot use the translation cache {self.directory} while {action} ({_reason(exc)})")

    def _replace_corrupt(self, exc: BaseException) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        own = cache_files(self.directory)
        aside = self.directory / _aside(_DB_FILE)
        try:
            for name in _DB_FILES:  # the older copy first: only ever one
                own.remove(self.directory / _aside(name))
            for name in _DB_FILES:
                if (self.directory / name).exists():
                    own.move(self.directory / name, self.directory / _aside(name))
            log.warning(
                f"translation cache {self.directory} is unreadable (integrity check failed: "
                f"{_reason(exc)}); moved it to {aside} and started a new one"
            )
            cache = diskcache.Cache(str(self.directory), timeout=60)
            cache.get(_META_PREFIX + "probe")
            self._cache = cache
        except PathError as second:
            self._read_only(f"cannot replace the corrupt translation cache: {second}")
        except _CACHE_ERRORS as second:
            self._read_only(f"cannot replace the corrupt translation cache {self.directory} ({_reason(second)})")

    def _read_only(self, message: str) -> None:
        """Go on without writing: read the valid cache if there is one, keep new work in memory."""
        self.writable = False
        if self._cache is None and self._reader is None and integrity(self.directory) == "ok":
            try:
                self._reader = _ReadOnlyCache(self.directory)
            except sqlite3.Error:
                self._reader = None
        if not self._warned:
            self._warned = True
            reading = "reading it, " if self._cache is not None or self._reader is not None else ""
            log.warning(f"{message}; {reading}new translations are kept for this build only")

    def _get(self, key: str) -> object:
        if key in self._unsaved:
            return self._unsaved[key]
        source = self._cache if self._cache is not None else self._reader
        return source.get(key) if source is not None else None

    def _set(self, items: Mapping[str, str]) -> None:
        if not items:
            return
        if self._cache is not None and self.writable:
            try:
                with self._cache.transact():
                    for key, value in items.items():
                        self._cache.set(key, value)
                return
            except _CACHE_ERRORS as exc:
                self._unsaved.update(items)
                self._fault("writing", exc)
                return
        self._unsaved.update(items)

    # -- translations ---------------------------------------------------------------------

    def lookup(self, sources: Sequence[str], fingerprint: str) -> dict[str, Hit]:
        """Stored machine translations of ``sources`` under ``fingerprint``; misses are absent."""
        found: dict[str, Hit] = {}
        try:
            for source in sources:
                hit = _decode(self._get(cache_key(source, fingerprint)))
                if hit is not None:
                    found[source] = hit
        except _CACHE_ERRORS as exc:
            self._fault("reading", exc)
            return {s: h for s in sources if (h := _decode(self._unsaved.get(cache_key(s, fingerprint)))) is not None}
        return found

    def store(self, results: Mapping[str, Hit], fingerprint: str) -> None:
        """Commit one finished batch in a single transaction, so an interrupted build keeps
        every batch stored before the interruption and never half of one."""
        self._set({cache_key(source, fingerprint): _encode(hit) for source, hit in results.items()})

    # -- small metadata -------------------------------------------------------------------

    def get_meta(self, name: str) -> str | None:
        return self._read_str(_META_PREFIX + name)

    def set_meta(self, name: str, value: str) -> None:
        try:
            if self._get(_META_PREFIX + name) == value:
                return  # unchanged: no write (a read-only cache stays quiet)
        except _CACHE_ERRORS:
            pass
        self._set({_META_PREFIX + name: value})

    # -- page guard verdicts (guard.VerdictStore) ------------------------------------------

    def get_verdict(self, key: str) -> str | None:
        pending = self._verdicts.get(key)
        return pending if pending is not None else self._read_str(_VERDICT_PREFIX + key)

    def set_verdict(self, key: str, value: str) -> None:
        """Kept until :meth:`save_verdicts` (the end of a translation pass) or :meth:`close`:
        a site's verdicts are one transaction, not one per page (each costs a commit, 10 ms
        on a busy disk). A verdict lost to a crash is only computed again."""
        self._verdicts[key] = value

    def save_verdicts(self) -> None:
        """Write the verdicts set since the last save, in one transaction."""
        pending, self._verdicts = self._verdicts, {}
        self._set({_VERDICT_PREFIX + k: v for k, v in pending.items()})  # a fault is reported once

    def _read_str(self, key: str) -> str | None:
        """The string stored under ``key`` (prefix included), None when absent or unreadable."""
        try:
            value = self._get(key)
        except _CACHE_ERRORS as exc:
            self._fault("reading", exc)
            return None
        return value if isinstance(value, str) else None

    def close(self) -> None:
        self.save_verdicts()
        if self._cache is not None:
            self._cache.close()
        if self._reader is not None:
            self._reader.close()


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _encode(hit: Hit) -> str:
    """``{"t": text, "f": fallback}``, plus ``"s": score`` when the score is known (entries
    written before scores existed lack it and read back with ``score`` None)."""
    data: dict[str, object] = {"t": hit.text, "f": hit.fallback}
    if finite_score(hit.score) is not None:
        data["s"] = hit.score
    return json.dumps(data, ensure_ascii=False)


def _decode(raw: object) -> Hit | None:
    """A stored value, or None for anything malformed (treated as a miss, then overwritten)."""
    if not isinstance(raw, str):
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        return None
    fallback = data.get("f")
    return Hit(data["t"], fallback if isinstance(fallback, str) else None, Origin.CACHE, finite_score(data.get("s")))

