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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import ZhTranslateError
from .model_format import EXPORT_HINT, MANIFEST_FILE
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


def verify_model(
    model_dir: Path,
    manifest: Mapping[str, Any],
    required: tuple[str, ...] = (),
    loaded: Mapping[str, bytes] | None = None,
) -> str:
    """The fingerprint of ``model_dir`` after checking every file against ``manifest``.

    ``required``: files that must be listed (a file the engine loads but the manifest does not
    cover could change unnoticed). ``loaded``: bytes the caller already read, hashed as read.
    Raises :class:`ModelIntegrityError` naming the first file that differs."""
    files = manifest.get("files")
    hint = f"re-create {model_dir} with `{EXPORT_HINT.replace('DIR', str(model_dir))}`"
    if not isinstance(files, dict) or not files:
        raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: lists no file hashes; {hint}")
    unlisted = [name for name in required if name != MANIFEST_FILE and name not in files]
    if unlisted:
        raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: does not cover {', '.join(unlisted)}; {hint}")
    record_path = _record_path()
    record = _load_record(record_path)
    key = str(model_dir.resolve())
    known: dict[str, Any] = record.get(key) if isinstance(record.get(key), dict) else {}  # type: ignore[assignment]
    remembered: dict[str, Any] = {}
    # In the engine's loading order (encoder before decoder), then by name: the first
    # problem reported is the one a sequential load would meet.
    order = sorted(files, key=lambda n: (required.index(n) if n in required else len(required), n))
    for name in order:
        meta = files[name]
        path = model_dir / name
        want = meta.get("sha256") if isinstance(meta, dict) else None
        if not isinstance(want, str) or "/" in name or "\\" in name or name.startswith("."):
            raise ModelIntegrityError(f"{model_dir / MANIFEST_FILE}: malformed entry for {name!r}; {hint}")
        try:
            st = path.stat()
        except OSError:
            raise ModelIntegrityError(f"{path}: missing (listed in manifest.json); {hint}") from None
        if st.st_size != meta.get("size"):
            raise ModelIntegrityError(f"{path}: changed since export (size differs from manifest.json); {hint}")
        stamp = [st.st_size, st.st_mtime_ns, want]
        if loaded is not None and name in loaded:
            got = hashlib.sha256(loaded[name]).hexdigest()
        elif st.st_size > SMALL_FILE and known.get(name) == stamp:
            got = want  # verified before, unchanged since (same size and mtime)
        else:
            got = sha256_file(path)
        if got != want:
            raise ModelIntegrityError(f"{path}: changed since export (sha256 differs from manifest.json); {hint}")
        if st.st_size > SMALL_FILE:
            remembered[name] = stamp
    if remembered and remembered != {k: v for k, v in known.items() if k in remembered}:
        record[key] = remembered
        _save_record(record_path, record)
    return fingerprint_of(files)
