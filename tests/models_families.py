"""Tiny M2M100 and NLLB-200 test models (``tests/tiny_families.py`` trains them), built on first
use and cached like the Marian ones (``tests/models.py``: same cache, same per-entry lock, keyed
on the trainer's and the task's source, the seed and the libraries' versions), and their exports
through the real ``export`` command."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.models import TRAINING_LIBRARIES, _cached_dir, _hash_files, _versions, exporter_key
from tests.tiny_families import DEFAULT_SEED, FAMILY_NAMES, build_tiny_family

TRAINERS = [Path(__file__).resolve().parent / "tiny_families.py",
            Path(__file__).resolve().parents[1] / "tools" / "export_tiny.py"]


def family_hf_key(family: str, seed: int = DEFAULT_SEED) -> str:
    """Cache key of a family's trained model: this builder's and the task's source, the seed and
    the training libraries' versions."""
    return _hash_files(TRAINERS, family, str(seed), _versions(TRAINING_LIBRARIES))


def family_hf_model(family: str, seed: int = DEFAULT_SEED) -> Path:
    """A trained tiny ``family`` model (``save_pretrained`` directory), built once and cached."""
    name = f"{family}-test-s{seed}-{family_hf_key(family, seed)}"
    return _cached_dir(name, lambda tmp: build_tiny_family(family, tmp, seed=seed))


def family_onnx_model(family: str, quantize: str = "none", seed: int = DEFAULT_SEED) -> Path:
    """The tiny ``family`` model exported by the real ``export`` command."""
    from mkdocs_zh_translate.export import export_model

    hf_dir = family_hf_model(family, seed)
    name = f"onnx-{quantize}-{family}-s{seed}-{exporter_key(hf_dir.name, quantize)}"
    return _cached_dir(name, lambda tmp: export_model(str(hf_dir), tmp, quantize=quantize))


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.models_families FAMILY...``: build those models and their fp32/int8 exports."""
    families = sys.argv[1:] if argv is None else argv
    if not families or any(f not in FAMILY_NAMES for f in families):
        print(f"usage: python -m tests.models_families {{{','.join(FAMILY_NAMES)}}}...", file=sys.stderr)
        return 2
    for family in families:
        family_hf_model(family)
        for quantize in ("none", "int8"):
            family_onnx_model(family, quantize)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
