"""The record a tuned model keeps of itself (``tune.json``, listed in its manifest).

It says what the model was tuned on (how many entries, their hash, which were held out: the
English's hash, so ``eval --held-out`` scores the same ones after a PO file is edited), from
which base (its manifest fingerprint and the original checkpoint), with which settings, and the
guard's scores. ``lineage`` lists the models it succeeds, nearest first: a build with the tuned
model keeps serving the translations they left in the machine cache (``pipeline.lineage``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..model_format import MANIFEST_FILE, TUNE_FILE
from .errors import TuneError

RECORD_FORMAT = 1


def read_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from ``path``, or a TuneError naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TuneError(f"{path}: no {what}") from None
    except (OSError, ValueError) as exc:
        raise TuneError(f"{path}: cannot read the {what}: {exc}".splitlines()[0]) from None
    if not isinstance(data, dict):
        raise TuneError(f"{path}: the {what} is not a JSON object")
    return data


def base_of(model_dir: Path) -> dict[str, Any]:
    """What a run tuning ``model_dir`` starts from: its fingerprint and name, the original
    checkpoint (a tuned model's own base: every run starts from the original weights, so rounds
    of tuning never compound), and the lineage a new model inherits (this model, then its own)."""
    manifest = read_json(model_dir / MANIFEST_FILE, "export manifest (give the directory `export` wrote)")
    fingerprint = manifest.get("fingerprint")
    if not isinstance(fingerprint, str):
        raise TuneError(f"{model_dir / MANIFEST_FILE}: no fingerprint")
    source = manifest.get("source")
    lineage: list[dict[str, str]] = [{"fingerprint": fingerprint, "model": model_dir.name}]
    record_path = model_dir / TUNE_FILE
    if record_path.is_file():
        record = read_json(record_path, "tuning record")
        source = record.get("base", {}).get("source", source)
        lineage += [item for item in record.get("lineage", []) if isinstance(item, dict)]
    return {"fingerprint": fingerprint, "model": model_dir.name, "source": source, "lineage": lineage}


def write_record(out: Path, record: dict[str, Any]) -> None:
    """``tune.json`` in ``out`` (before its manifest is written, which then lists it)."""
    (out / TUNE_FILE).write_text(json.dumps({"format": RECORD_FORMAT, **record}, indent=2, ensure_ascii=False) + "\n",
                                 encoding="utf-8")


def held_out_of(model_dir: Path) -> set[str]:
    """The hashes of the English a tuned model was validated on (``eval --held-out``)."""
    record = read_json(model_dir / TUNE_FILE, "tuning record (a directory `tune` wrote)")
    held = record.get("entries", {}).get("held_out_sources", [])
    return {h for h in held if isinstance(h, str)}
