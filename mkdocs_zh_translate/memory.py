"""Translation memory: where a segment's Chinese comes from before the model is asked.

Two kinds of source answer a lookup, in order: zero or more read-only *layers* (issue 5 puts
the reviewed PO translations here, so human text always wins) and the *machine cache*, a
diskcache directory that stores every model output. The machine cache is keyed by a hash of the
segment text, the translator fingerprint and the decode options, so changing the model or the
beam width never serves stale output, and it is shared safely by concurrent builds (SQLite in
WAL mode under diskcache). A cache that cannot be opened or read is reported, moved aside and
rebuilt: losing cached work costs time, a crashed build costs the user's trust.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import diskcache

from .pipeline.origin import Origin

log = logging.getLogger("mkdocs.plugins.zh_translate")

# Bump when the stored value format changes; old entries then simply miss.
_FORMAT = "v1"
_META_PREFIX = "meta:"
# Errors that mean "this cache directory is unusable", as opposed to a bug in our code.
_CACHE_ERRORS = (sqlite3.Error, OSError, diskcache.Timeout)


@dataclass(frozen=True)
class Hit:
    """A stored translation and what it is worth: ``fallback`` names the fallback step the
    segmenter had to take (None when the model output was used as is), ``origin`` where the
    text came from (only the text and the fallback are stored: a stored hit reads back as
    ``Origin.CACHE``)."""

    text: str
    fallback: str | None = None
    origin: Origin = Origin.CACHE


def cache_key(source: str, fingerprint: str) -> str:
    """Hash of everything that determines a machine translation of ``source``."""
    digest = hashlib.sha256()
    digest.update(_FORMAT.encode())
    digest.update(b"\x00")
    digest.update(fingerprint.encode("utf-8"))
    digest.update(b"\x00")
    digest.update(source.encode("utf-8"))
    return digest.hexdigest()


class MachineCache:
    """Model outputs on disk, robust to corruption, interruption and concurrent writers."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._cache = self._open()

    # -- opening and recovery -------------------------------------------------------------

    def _open(self) -> diskcache.Cache:
        try:
            cache = diskcache.Cache(str(self.directory), timeout=60)
            cache.get(_META_PREFIX + "probe")  # forces a read: a corrupt file fails here
            return cache
        except _CACHE_ERRORS as exc:
            return self._recover(exc)

    def _recover(self, exc: BaseException) -> diskcache.Cache:
        """Move an unusable cache aside and start a fresh one (or a temporary one if even
        that fails); the build continues either way."""
        aside = self.directory.with_name(f"{self.directory.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            if self.directory.exists():
                shutil.move(str(self.directory), str(aside))
                log.warning(
                    f"zh-translate: translation cache {self.directory} is unreadable ({exc}); "
                    f"moved it to {aside} and started a new one"
                )
            else:
                log.warning(f"zh-translate: translation cache {self.directory} is unusable ({exc})")
            cache = diskcache.Cache(str(self.directory), timeout=60)
            cache.get(_META_PREFIX + "probe")
            return cache
        except _CACHE_ERRORS as second:
            temporary = Path(tempfile.mkdtemp(prefix="zh-translate-cache-"))
            log.warning(
                f"zh-translate: cannot use cache directory {self.directory} ({second}); "
                f"using the temporary cache {temporary} for this build"
            )
            self.directory = temporary
            return diskcache.Cache(str(temporary), timeout=60)

    def _guard(self, action: str, exc: BaseException) -> None:
        log.warning(f"zh-translate: translation cache failed while {action}: {exc}")
        self._cache.close()
        self._cache = self._recover(exc)

    # -- translations ---------------------------------------------------------------------

    def lookup(self, sources: Sequence[str], fingerprint: str) -> dict[str, Hit]:
        """Stored machine translations of ``sources`` under ``fingerprint``; misses are absent."""
        found: dict[str, Hit] = {}
        try:
            for source in sources:
                raw = self._cache.get(cache_key(source, fingerprint))
                hit = _decode(raw)
                if hit is not None:
                    found[source] = hit
        except _CACHE_ERRORS as exc:
            self._guard("reading", exc)
            return {}
        return found

    def store(self, results: Mapping[str, Hit], fingerprint: str) -> None:
        """Commit one finished batch in a single transaction, so an interrupted build keeps
        every batch stored before the interruption and never half of one."""
        if not results:
            return
        try:
            with self._cache.transact():
                for source, hit in results.items():
                    self._cache.set(cache_key(source, fingerprint), _encode(hit))
        except _CACHE_ERRORS as exc:
            self._guard("writing", exc)

    # -- small metadata -------------------------------------------------------------------

    def get_meta(self, name: str) -> str | None:
        try:
            value = self._cache.get(_META_PREFIX + name)
        except _CACHE_ERRORS as exc:
            self._guard("reading", exc)
            return None
        return value if isinstance(value, str) else None

    def set_meta(self, name: str, value: str) -> None:
        try:
            self._cache.set(_META_PREFIX + name, value)
        except _CACHE_ERRORS as exc:
            self._guard("writing", exc)

    def close(self) -> None:
        self._cache.close()


def _encode(hit: Hit) -> str:
    return json.dumps({"t": hit.text, "f": hit.fallback}, ensure_ascii=False)


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
    return Hit(data["t"], fallback if isinstance(fallback, str) else None, Origin.CACHE)


class TranslationMemory:
    """The machine cache as the batcher sees it.

    Reviewed (PO) translations are not a layer here: they are looked up per segment, because
    the same source text can be reviewed on one page and not on another (``review.layer``).
    """

    def __init__(self, machine: MachineCache) -> None:
        self.machine = machine

    def lookup(self, sources: Sequence[str], fingerprint: str) -> dict[str, Hit]:
        return self.machine.lookup(sources, fingerprint)

    def store(self, results: Mapping[str, Hit], fingerprint: str) -> None:
        self.machine.store(results, fingerprint)
