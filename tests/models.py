"""Tiny test models, built on first use and cached between runs (and between processes).

Training takes minutes, so a model is built once per version of its builder and shared: the
cache key is a hash of the builder's source plus the preset, seed and library versions, so editing
``tools/export_tiny.py`` (or the package's ``export*.py`` for the ONNX copies) rebuilds automatically while stale
entries are simply never looked at again. Several pytest processes (xdist workers, helpers
sharing ``$ZH_TRANSLATE_TEST_CACHE``) may ask at once: a per-entry file lock makes one of them
build while the others wait, and the finished directory appears by an atomic rename, so nobody
ever sees half a model.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "mkdocs_zh_translate"
TRAINER = REPO / "tools" / "export_tiny.py"
DEFAULT_SEED = 0


def dev_cache() -> Path:
    """Where the suite keeps what it builds or fetches once (``test-models/``, the sdists): the
    folder holding ``$ZH_TRANSLATE_TEST_CACHE`` when that is set, else the user's cache
    directory of the project (``~/.cache/mkdocs-zh-translate``, private), else ``<repo>/.cache``.

    Per user, not per clone: the two trained models are about 9 minutes of CPU on a 2-core
    machine, and every clone and worktree of the same source asks for the same ones (the keys
    below say which). ``make clean`` leaves it; ``make clean-cache`` empties it.
    """
    from mkdocs_zh_translate.userdirs import user_cache_dir

    explicit = os.environ.get("ZH_TRANSLATE_TEST_CACHE")
    if explicit:
        return Path(explicit).resolve().parent
    return user_cache_dir() or REPO / ".cache"


def cache_root() -> Path:
    """``$ZH_TRANSLATE_TEST_CACHE``, else ``test-models`` in :func:`dev_cache`."""
    env = os.environ.get("ZH_TRANSLATE_TEST_CACHE")
    root = Path(env) if env else dev_cache() / "test-models"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _hash_files(paths: list[Path], *extra: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    for item in extra:
        digest.update(item.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    with open(lock_path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _cached_dir(name: str, build: Callable[[Path], None]) -> Path:
    """Return ``<cache>/<name>``, building it with ``build(tmp_dir)`` under a lock if missing.

    A directory only ever exists complete: it is built under a temporary name and renamed.
    """
    root = cache_root()
    final = root / name
    if final.is_dir():
        _used(final)
        return final
    with _locked(root / f"{name}.lock"):
        if final.is_dir():  # another process finished it while we waited
            return final
        prune(root)
        # Holding the lock, nobody else is building this entry: any leftover temporary
        # directory is from a killed build and can go.
        for stale in root.glob(f"{name}.tmp-*"):
            shutil.rmtree(stale, ignore_errors=True)
        tmp = root / f"{name}.tmp-{os.getpid()}"
        try:
            build(tmp)
            os.rename(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final


#: An entry no run has used for this long is deleted when a new one is built: the cache is
#: per user and outlives clones, and each edit of the trainer or exporter makes new entries.
UNUSED_DAYS = 30


def _used(entry: Path) -> None:
    """Mark ``entry`` used now (its mtime: atime is not kept on most mounts)."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def prune(root: Path, *, days: float = UNUSED_DAYS, now: float | None = None) -> list[str]:
    """Delete the entries of ``root`` unused for ``days``; return their names.

    An entry is deleted only while its lock can be taken at once (nobody is building it); the
    empty lock file stays, as a process may be waiting on it to build the entry again.
    """
    cutoff = (time.time() if now is None else now) - days * 86400
    gone = []
    for entry in sorted(root.iterdir()):
        if not entry.is_dir() or ".tmp-" in entry.name:
            continue
        try:
            if entry.stat().st_mtime >= cutoff:
                continue
            with open(root / f"{entry.name}.lock", "a+") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue
                shutil.rmtree(entry)
        except OSError:
            continue
        gone.append(entry.name)
    return gone


#: The libraries whose versions change what the same recipe trains (kernels, initialisation,
#: tokenizer training): part of the key, as the cache outlives a clone's virtual environment.
TRAINING_LIBRARIES = ("torch", "transformers", "sentencepiece", "tokenizers")

#: The libraries the export runs through (tracing, graph rewrites, quantisation).
EXPORT_LIBRARIES = ("torch", "transformers", "optimum", "optimum-onnx", "onnx", "onnxruntime")


def _versions(names: tuple[str, ...]) -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in names:
        try:
            found.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} absent")
    return ",".join(found)


def tiny_hf_key(preset: str = "test", seed: int = DEFAULT_SEED) -> str:
    """Cache key of the Hugging Face model: the builder's source, preset, seed and the training
    libraries' versions."""
    return _hash_files([TRAINER], preset, str(seed), _versions(TRAINING_LIBRARIES))


def tiny_hf_model(preset: str = "test", seed: int = DEFAULT_SEED) -> Path:
    """A trained tiny MarianMT ``save_pretrained`` directory (model, tokenizer, generation config)."""
    from tools.export_tiny import build_tiny_marian

    name = f"marian-{preset}-s{seed}-{tiny_hf_key(preset, seed)}"
    return _cached_dir(name, lambda tmp: build_tiny_marian(tmp, preset=preset, seed=seed))


def exporter_key(*extra: str) -> str:
    """Hash of the exporter's source (and ``extra``): an export keyed on it is rebuilt whenever
    the export code changes, even when the format number does not (also used by benchmarks/)."""
    exporters = sorted(PACKAGE.glob("export*.py")) + sorted(PACKAGE.glob("export/**/*.py"))  # rewrites/ too
    return _hash_files(exporters, *extra, _versions(EXPORT_LIBRARIES))


#: ``ZH_TRANSLATE_TEST_FAMILY=m2m100`` (or ``nllb``): the tests that take the tiny test model
#: through :func:`tiny_onnx_model` get that family's tiny model instead (``tests/models_families.py``),
#: so a CI job per family runs the pipeline and plugin tests on it.
FAMILY_ENV = "ZH_TRANSLATE_TEST_FAMILY"


def tiny_onnx_model(quantize: str = "none", preset: str = "test", seed: int = DEFAULT_SEED) -> Path:
    """The tiny model exported by our real ``export`` command (``quantize`` is "none", "int8" or "fp16")."""
    from mkdocs_zh_translate.export import export_model

    family = os.environ.get(FAMILY_ENV, "marian")
    if family != "marian" and preset == "test":
        from tests.models_families import family_onnx_model

        return family_onnx_model(family, quantize, seed)

    hf_dir = tiny_hf_model(preset, seed)
    key = exporter_key(hf_dir.name, quantize)
    name = f"onnx-{quantize}-{preset}-s{seed}-{key}"
    return _cached_dir(name, lambda tmp: export_model(str(hf_dir), tmp, quantize=quantize))


#: The preset of the model that never saw a placeholder (no tags in its data, none as pieces).
TAGFREE = "tagfree"


def tagfree_onnx_model(quantize: str = "none", seed: int = DEFAULT_SEED) -> Path:
    """The tag-free tiny model (``tools/export_tiny.py`` preset ``tagfree``), exported like the
    test model: what the markup strategies are measured on, as the real opus-mt-en-zh never saw
    ``<x1/>`` either (issue 24)."""
    return tiny_onnx_model(quantize, preset=TAGFREE, seed=seed)


#: What ``make test`` builds ahead, one process per preset, while the gates run: each preset's
#: trained model and the exports of it that the suite always asks for.
AHEAD: dict[str, tuple[str, ...]] = {"test": ("none", "int8"), TAGFREE: ("none",)}


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.models PRESET``: build that preset's model and exports into the cache.

    ``make test`` starts one per preset in the background as soon as the venv exists, so the
    minutes of training overlap the gates instead of following them; the suite then finds the
    models cached, or waits on an entry's lock for the build still running (never builds twice).
    """
    import sys

    presets = sys.argv[1:] if argv is None else argv
    unknown = [p for p in presets if p not in AHEAD]
    if not presets or unknown:
        print(f"usage: python -m tests.models {{{','.join(AHEAD)}}}...", file=sys.stderr)
        return 2
    for preset in presets:
        tiny_hf_model(preset)
        for quantize in AHEAD[preset]:
            tiny_onnx_model(quantize, preset=preset)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
