"""Is an exported model directory what ``manifest.json`` says it is? And its fingerprint.

``export`` writes a sha256 and size per file. Small files (settings, vocabularies, tokenizer
models: what an edit like eos 0→7 in ``generation.json`` touches) are hashed at every load;
large ones (the ONNX graphs) once, the verification remembered by size and mtime in the
user's cache directory (never in the model directory, which may be read-only or shared). The
fingerprint, the machine cache's key, is computed from the verified hashes, so a changed file
can never be cached under the original model's fingerprint.

Import-free (hashlib/json/os): the plugin fingerprints a model for every build, fully cached
or not, without loading ONNX Runtime.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ZhTranslateError
from .model_format import MANIFEST_FILE, recreate_hint
from .owned import PathError, atomic_write
from .userdirs import user_cache_dir

#: Files up to this size are hashed at every load (a few milliseconds in all).
SMALL_FILE = 4 << 20
_RECORD = "verified-models.json"


class ModelIntegrityError(ZhTranslateError):
    """A model file differs from manifest.json; the message names the file and the fix."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fingerprint_of(files: Mapping[str, Mapping[str, Any]]) -> str:
    """The export's fingerprint formula over ``{name: {"sha256": …}}``."""
    joined = "\n".join(f"{name} {files[name]['sha256']}" for name in sorted(files))
    return hashlib.sha256(joined.encode()).hexdigest()[:32]


def _record_path() -> Path | None:
    base = user_cache_dir()
    return base / _RECORD if base is not None else None


def _load_record(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_record(path: Path | None, data: dict[str, Any]) -> None:
    """Best effort: without the record, large files are simply hashed again next time."""
    if path is None:
        return
    with contextlib.suppress(PathError):
        atomic_write(path, json.dumps(data).encode("utf-8"), mode=0o600)


@dataclass
class _Verified:
    """The user's record of the large files of one model directory already verified, by size,
    mtime and hash (``known``), and what this verification found (``found``): saved only when
    it differs, so a warm load writes nothing."""

    path: Path | None
    record: dict[str, Any]
    key: str
    known: dict[str, Any]
    found: dict[str, Any]

    @classmethod
    def load(cls, root: Path) -> _Verified:
        path = _record_path()
        record = _load_record(path)
        key = str(root)
        known: dict[str, Any] = record.get(key) if isinstance(record.get(key), dict) else {}  # type: ignore[assignment]
        return cls(path, record, key, known, {})

    def save(self) -> None:
        if self.found and self.found != {k: v for k, v in self.known.items() if k in self.found}:
            self.record[self.key] = self.found
            _save_record(self.path, self.record)


def verify_model(
    model_dir: Path,
    manifest: Mapping[str, Any],
    required: tuple[str, ...] = (),
    loaded: Mapping[str, bytes] | None = None,
) -> str:
    """The fingerprint of ``model_dir`` after checking every file against ``manifest``.

    ``required``: files that must be listed (a file the engine loads but the manifest does not
    cover could change unnoticed). ``loaded``: bytes the caller already read, hashed as read.
    Every listed file must be a regular file inside ``model_dir`` (after resolving links).
    Raises :class:`ModelIntegrityError` naming the first file that differs."""
    hint = recreate_hint(model_dir)
    files = _listed_files(model_dir, manifest, required, hint)
    root = model_dir.resolve()
    verified = _Verified.load(root)
    # In the engine's loading order (encoder before decoder), then by name: the first
    # problem reported is the one a sequential load would meet.
    order = sorted(files, key=lambda n: (required.index(n) if n in required else len(required), n))
    for name in order:
        path = model_dir / name
        want, size = _entry(model_dir, name, files[name], hint)
        st = _plain_file(path, root, size, hint)
        stamp = [st.st_size, st.st_mtime_ns, want]
        large = st.st_size > SMALL_FILE
        if loaded is not None and name in loaded:
            got = hashlib.sha256(loaded[name]).hexdigest()
        elif large and verified.known.get(name) == stamp:
            got = want  # verified before, unchanged since (same size and mtime)
        else:
            got = sha256_file(path)
        if got != want:
            raise ModelIntegrityError(f"{path}: changed since export (sha256 differs from manifest.json); {hint}")
        if large:
            verified.found[name] = stamp
    verified.save()
    return fingerprint_of(files)


def _listed_files(model_dir: Path, manifest: Mapping[str, Any], required: tuple[str, ...], hint: str) -> dict[str, Any]:
    """The manifest's ``files`` table, once it lists some and every ``required`` file."""
    files = manifest.get("files")
    if not isinstance(files, dict) or not files:
        raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: lists no file hashes; {hint}")
    unlisted = [name for name in required if name != MANIFEST_FILE and name not in files]
    if unlisted:
        raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: does not cover {', '.join(unlisted)}; {hint}")
    return files


def _entry(model_dir: Path, name: str, meta: object, hint: str) -> tuple[str, int]:
    """A manifest entry's sha256 and size, once both are well-formed and ``name`` is a plain
    file name of the directory (no path, no hidden file: the manifest may be hostile)."""
    want = meta.get("sha256") if isinstance(meta, dict) else None
    size = meta.get("size") if isinstance(meta, dict) else None
    if not isinstance(want, str) or len(want) != 64 or not isinstance(size, int) or isinstance(size, bool) \
            or size < 0 or not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
        raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: malformed entry for {name!r}; {hint}")
    return want, size


def _plain_file(path: Path, root: Path, size: int, hint: str) -> os.stat_result:
    """``path``'s stat, once it is a regular file inside ``root`` of the manifest's size.

    What is verified is what the engine opens: a plain file of this directory, never a
    device, a pipe, or a symbolic link to a file elsewhere (an outside copy could change)."""
    try:
        st = path.stat()
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise ModelIntegrityError(f"{path}: missing (listed in manifest.json); {hint}") from None
    if not real.is_relative_to(root):
        raise ModelIntegrityError(f"{path}: a symbolic link to outside the model directory; {hint}")
    if not stat.S_ISREG(st.st_mode):
        raise ModelIntegrityError(f"{path}: not a regular file; {hint}")
    if st.st_size != size:
        raise ModelIntegrityError(f"{path}: changed since export (size differs from manifest.json); {hint}")
    return st
