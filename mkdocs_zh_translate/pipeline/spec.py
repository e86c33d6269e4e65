"""What identifies a machine translation: the translator spec, its fingerprint, the format.

A cached translation is valid exactly as long as everything that produced it is unchanged: the
model's content, the decoding options, and the pipeline's own validation and fallback ladder.
The last is the explicit :data:`PIPELINE_FORMAT` number, not the package version, so a release
that changes neither validation nor the ladder keeps every cached translation.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

from .backends import TranslatorSpec, engine_options, get_backend, needs_model, resolve_markup
from .cache import MachineCache
from .markup import AUTO, announce

# Bump only when placeholder validation or the fallback ladder (pipeline/ladder.py) change
# what a translation of the same text can be, and say so in CHANGELOG.md: every cached
# translation is then redone once.
#   1: the first release's; the emphasis pairs a segment may drop are part of the key, and
#      every front end passes them.
PIPELINE_FORMAT = 1


def decode_options(spec: TranslatorSpec) -> str:
    """What besides the model can change a stored result: the options the table
    (:data:`.backends.ENGINE_OPTIONS`) keys by ``always`` or ``set``, in its order (``auto``
    named as the strategy it resolved to; threads cannot change a result), then the pipeline
    format."""
    parts = []
    for option in engine_options():
        value = option.key_value(spec) if option.key_value else spec.option(option.name)
        if option.in_key(value):
            parts.append(f"{option.name}={value};")
    return "".join(parts) + f"pipeline={PIPELINE_FORMAT}"


@dataclass(frozen=True)
class CacheBinding:
    """A machine cache and the fingerprints its entries for one translator are stored under."""

    machine: MachineCache
    fingerprint: str
    # A model directory that differs from its manifest (a damaged export) cannot be loaded; its
    # fingerprint is its content, which nothing was cached under. The fingerprint of the model
    # it was exported as: what a build that cannot load it reads, as it reads the cache's last
    # model when the directory is gone (nothing is ever stored under it by the damaged model).
    damaged: str | None = None
    # The models the build's model succeeds (a tuned model's base, ``lineage``), nearest first:
    # (fingerprint with the same decode options, model name). A miss is looked up under each.
    earlier: tuple[tuple[str, str], ...] = ()


def model_fingerprint(model_dir: Path) -> str:
    """A content fingerprint of an exported model directory, in milliseconds.

    ``mkdocs-zh-translate export`` writes a manifest with a hash of every file, checked here
    (large files once, see ``model_integrity``); without one, or when a file differs from it,
    hash names and sizes of all files, whole small files (configs, vocabularies) and the first
    and last MiB of large ones, rather than read 300 MB of weights on every build."""
    from ..model_integrity import ModelIntegrityError, verify_model

    try:
        manifest = json.loads((model_dir / "manifest.json").read_text(encoding="utf-8"))
        if isinstance(manifest, dict) and isinstance(manifest.get("files"), dict):
            # From the verified files, not the manifest's word: an edited file gets another key.
            return "manifest:" + verify_model(model_dir, manifest)
    except (OSError, ValueError, ModelIntegrityError):
        pass  # no usable manifest, or a changed file: the content hash below tells it apart
    digest = hashlib.sha256()
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file()):
        size = path.stat().st_size
        digest.update(f"{path.relative_to(model_dir).as_posix()}\x00{size}\x00".encode())
        with path.open("rb") as fh:
            if size <= 4 << 20:
                digest.update(fh.read())
            else:
                digest.update(fh.read(1 << 20))
                fh.seek(-(1 << 20), 2)
                digest.update(fh.read())
    return digest.hexdigest()[:24]


def _model_content(spec: TranslatorSpec, machine: MachineCache) -> str:
    """The model part of the fingerprint, computed without loading the model.

    When the model directory is absent (deleted, or never exported on this machine: a CI run
    that restores the cache a laptop filled, under another checkout path), the fingerprint last
    computed for that path is taken from the cache's metadata, else the one of the model this
    cache was last filled with: a fully cached site rebuilds without the model wherever the
    checkout lives. Without the model nobody can tell whether it changed, so the cache's own
    last model is the only fingerprint that finds anything."""
    if not needs_model(spec.backend):
        return get_backend(spec.backend).fingerprint
    # No model named is a missing model, never ``Path("")``: that is the working directory,
    # and fingerprinting it read every file under it (a checkout with its .venv: minutes).
    model_dir = Path(spec.model) if spec.model else None
    by_path, last = f"model:{model_dir or ''}", f"model-last:{spec.backend}"
    if model_dir is not None and model_dir.is_dir():
        content = model_fingerprint(model_dir)
        machine.set_meta(by_path, content)
        machine.set_meta(last, content)
    else:
        content = machine.get_meta(by_path) or machine.get_meta(last) or f"missing:{model_dir or ''}"
    return f"{spec.backend}:{content}"


def _resolved(spec: TranslatorSpec, machine: MachineCache, content: str) -> TranslatorSpec:
    """``spec`` with ``auto`` replaced by the strategy it stands for with this model.

    Read from the model directory's manifest when it is there (and remembered for the model's
    content); when it is not (a CI run restoring the cache a laptop filled), the strategy last
    resolved for the same content, so a fully cached site rebuilds under the key it was filled
    with. Without either, ``backends.resolve_markup``'s answer (``tags``): nothing can load."""
    if spec.markup != AUTO:
        return spec
    choice = resolve_markup(spec.markup, spec.backend, spec.model)
    if needs_model(spec.backend):
        if not (spec.model and Path(spec.model).is_dir()):  # no line: this build loads no model
            return replace(spec, markup=machine.get_meta(f"markup:{content}") or choice.name)
        machine.set_meta(f"markup:{content}", choice.name)
    announce(choice)
    return replace(spec, markup=choice.name)


def _declared_content(spec: TranslatorSpec, content: str) -> str | None:
    """The model part of the fingerprint as the model directory's manifest declares it, when
    that is not what the directory holds (``content``); None for an intact or unlisted model."""
    if not needs_model(spec.backend) or not spec.model:
        return None
    from ..model_integrity import fingerprint_of

    try:
        manifest = json.loads((Path(spec.model) / "manifest.json").read_text(encoding="utf-8"))
        declared = f"{spec.backend}:manifest:" + fingerprint_of(manifest["files"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return declared if declared != content else None


def bind_cache(spec: TranslatorSpec, machine: MachineCache) -> CacheBinding:
    """``machine`` with the fingerprint of ``spec`` (``auto`` resolved: the key names the
    strategy that produces the text), and the declared model's when the model directory is
    damaged."""
    content = _model_content(spec, machine)
    spec = _resolved(spec, machine, content)
    declared = _declared_content(spec, content)
    return CacheBinding(
        machine,
        f"{content}|{decode_options(spec)}",
        damaged=f"{declared}|{decode_options(spec)}" if declared else None,
        earlier=_earlier(spec, content),
    )


def _earlier(spec: TranslatorSpec, content: str) -> tuple[tuple[str, str], ...]:
    """The fingerprints of the models an intact tuned model succeeds (``lineage``), with this
    spec's decode options: their cached texts stay the site's until it re-translates them."""
    if not needs_model(spec.backend) or not spec.model or not content.startswith(f"{spec.backend}:manifest:"):
        return ()
    from .lineage import predecessors

    options = decode_options(spec)
    return tuple((f"{spec.backend}:manifest:{fingerprint}|{options}", name)
                 for fingerprint, name in predecessors(Path(spec.model)))
