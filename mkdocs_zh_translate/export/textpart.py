"""The text decoder of a multimodal checkpoint, written out as a text-only checkpoint.

TranslateGemma ships as ``Gemma3ForConditionalGeneration`` (a SigLIP vision tower, a projector
and the Gemma 3 text decoder). For that class ONNX Runtime GenAI's builder writes a decoder that
takes ``inputs_embeds`` and no embedding model, which GenAI's ``Model`` then cannot load as a
text model. Translation needs the text decoder only, and the builder exports it fine as
``Gemma3ForCausalLM``: so ``export`` first writes that checkpoint (``families.TextPart`` says
which class, model type and tensor-name prefixes) into its scratch directory and builds it.

The weights are copied as raw bytes, tensor by tensor, from the safetensors shards into new
shards with renamed keys: no tensor is loaded (a 4B checkpoint is 8 GB in bfloat16, and the
builder loads the text part once more itself), and the vision tower is never read. The config
is the checkpoint's ``text_config`` with what the causal class reads from the top level (token
ids, dtype, tied embeddings) and the causal architecture; every other file (tokenizer, chat
template, generation config) is copied unchanged.
"""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path
from typing import Any

from ..families import TEXT_PARTS, TextPart
from .errors import ExportError

#: Top-level keys of a multimodal config that the text-only config takes when its
#: ``text_config`` lacks them.
_INHERITED = ("bos_token_id", "eos_token_id", "pad_token_id", "torch_dtype", "dtype", "tie_word_embeddings")
_HEADER_LIMIT = 64 * 1024 * 1024
_CHUNK = 16 * 1024 * 1024
_INDEX = "model.safetensors.index.json"


def text_part_of(config: dict[str, Any]) -> TextPart | None:
    """The text part to export for a checkpoint with this ``config.json``, or None."""
    architectures = config.get("architectures")
    if not isinstance(architectures, list):
        return None
    return next((part for part in TEXT_PARTS if part.architecture in architectures), None)


def renamed(part: TextPart, name: str) -> str | None:
    """The text-only name of tensor ``name``, or None for a tensor outside the text part."""
    for old, new in part.prefixes:
        if name.startswith(old):
            return new + name[len(old):]
    return None


def read_header(path: Path) -> tuple[dict[str, Any], int]:
    """A safetensors file's JSON header and the offset where its data starts."""
    try:
        with open(path, "rb") as handle:
            (length,) = struct.unpack("<Q", handle.read(8))
            if length > _HEADER_LIMIT:
                raise ExportError(f"{path}: safetensors header of {length} bytes; not a weight file")
            header = json.loads(handle.read(length))
    except (OSError, struct.error, ValueError) as exc:
        raise ExportError(f"{path}: unreadable safetensors file ({exc})") from None
    if not isinstance(header, dict):
        raise ExportError(f"{path}: safetensors header is not an object")
    return header, 8 + length


def write_text_part(src: Path, out: Path, part: TextPart) -> Path:
    """Write ``src``'s text decoder into ``out`` as a ``part.causal_architecture`` checkpoint."""
    shards = _shards(src)
    if not shards:
        raise ExportError(f"{src}: {part.architecture} export needs safetensors weights; none found")
    out.mkdir(parents=True, exist_ok=True)
    config = json.loads((src / "config.json").read_text(encoding="utf-8"))
    (out / "config.json").write_text(json.dumps(_text_config(src, config, part), indent=2) + "\n", encoding="utf-8")
    for item in src.iterdir():
        if item.is_file() and item.name != "config.json" and item.name != _INDEX and item.suffix != ".safetensors" \
                and not item.name.endswith(".bin"):
            shutil.copyfile(item, out / item.name)
    weight_map: dict[str, str] = {}
    for number, shard in enumerate(shards, 1):
        name = "model.safetensors" if len(shards) == 1 else f"model-{number:05d}-of-{len(shards):05d}.safetensors"
        for key in _copy_shard(shard, out / name, part):
            weight_map[key] = name
    if not weight_map:
        raise ExportError(f"{src}: no tensor of the text decoder found (expected names starting "
                          f"{part.prefixes[0][0]!r})")
    if len(shards) > 1:
        (out / _INDEX).write_text(json.dumps({"metadata": {}, "weight_map": weight_map}, indent=1) + "\n",
                                  encoding="utf-8")
    return out


def _shards(src: Path) -> list[Path]:
    """The weight files transformers would read: the index's shards, else the safetensors files."""
    index = src / _INDEX
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
            names = sorted({str(name) for name in weight_map.values()})
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ExportError(f"{index}: unreadable shard index ({exc})") from None
        if any("/" in name or "\\" in name or name.startswith(".") for name in names):
            raise ExportError(f"{index}: a shard name outside the checkpoint directory")
        return [src / name for name in names]
    return sorted(src.glob("*.safetensors"))


def _text_config(src: Path, config: dict[str, Any], part: TextPart) -> dict[str, Any]:
    text = config.get("text_config")
    if not isinstance(text, dict):
        raise ExportError(f"{src / 'config.json'}: {part.architecture} without a text_config")
    merged = dict(text)
    for key in _INHERITED:
        if key not in merged and key in config:
            merged[key] = config[key]
    merged["architectures"] = [part.causal_architecture]
    merged["model_type"] = part.model_type
    return merged


def _copy_shard(shard: Path, target: Path, part: TextPart) -> list[str]:
    """Copy the text tensors of ``shard`` into ``target``, renamed, byte for byte; their new names."""
    header, start = read_header(shard)
    kept: list[tuple[str, dict[str, Any], int, int]] = []
    offset = 0
    for name, entry in header.items():
        new = renamed(part, name) if name != "__metadata__" else None
        if new is None or not isinstance(entry, dict):
            continue
        begin, end = (int(x) for x in entry["data_offsets"])
        kept.append((new, entry, begin, end))
    kept.sort(key=lambda item: item[2])
    table: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    for new, entry, begin, end in kept:
        table[new] = {"dtype": entry["dtype"], "shape": entry["shape"], "data_offsets": [offset, offset + end - begin]}
        offset += end - begin
    if not kept:
        return []
    encoded = json.dumps(table, separators=(",", ":")).encode("utf-8")
    encoded += b" " * (-len(encoded) % 8)  # data aligned to 8 bytes, as safetensors writes it
    with open(shard, "rb") as source, open(target, "wb") as sink:
        sink.write(struct.pack("<Q", len(encoded)) + encoded)
        for _, _, begin, end in kept:
            source.seek(start + begin)
            left = end - begin
            while left:
                chunk = source.read(min(left, _CHUNK))
                if not chunk:
                    raise ExportError(f"{shard}: truncated safetensors file")
                sink.write(chunk)
                left -= len(chunk)
    return [new for new, _, _, _ in kept]
