"""What an export will download, read and write, said in one line before anything is fetched.

A model of the M2M100 or NLLB families is gigabytes on the Hub, and its export about twice its
weights again (the encoder, the decoder and the aligner graph each hold a part of them): a user
should see that before the download starts, not find out from a full disk.
Everything here asks the Hub for metadata only (``model_info`` with file metadata: names,
sizes, the safetensors parameter count) or reads a local directory's file sizes and safetensors
headers; no weight is loaded.

The files listed are the ones :func:`~.source.resolve_source` fetches, picked by the same
patterns with huggingface_hub's own filter, so the line and the download cannot disagree.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..families import TextPart, detect_family
from .errors import ExportError
from .textpart import read_header, renamed, text_part_of

#: What ``export`` fetches of a Hub repository: config, tokenizer files, chat templates (decoder-only
#: models) and the weights (both formats where a repository has both; transformers reads the
#: safetensors one).
DOWNLOAD_PATTERNS = ("*.json", "*.spm", "*.model", "*.safetensors", "pytorch_model.bin", "*.txt", "*.jinja")

#: Bytes per weight of each ``--quantize`` choice in the encoder and decoder graphs, and in the
#: aligner graph (``markup: project``), which fp16 exports keep in float32 (it runs on the CPU).
WEIGHT_BYTES = {"int8": 1, "fp16": 2, "none": 4}
ALIGNER_BYTES = {"int8": 1, "fp16": 4, "none": 4}

#: How many times the graphs hold the model's parameters. The encoder and decoder graphs hold
#: every weight once plus the output projection beside the token embedding; the aligner holds
#: the decoder and the embedding again. Measured on a random-weight model of opus-mt-en-zh's
#: shape (77.5 million parameters): 1.44 and 0.73 (fp32 672 MB, fp16 449 MB, int8 171 MB);
#: by the shapes, M2M100-418M's are about 1.27 and 0.69, NLLB-200-600M's 1.42 and 0.75. Their
#: int8 exports at the real shapes measured 961 MB and 1.36 GB against estimates of 1.05 and
#: 1.38 GB: within 10% for the three families.
MAIN_COPIES = 1.42
ALIGNER_COPIES = 0.73

#: Bytes per element of the safetensors dtypes and of ``torch_dtype`` values in ``config.json``.
_DTYPE_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1,
                "BOOL": 1, "float32": 4, "float16": 2, "bfloat16": 2, "float64": 8}


@dataclass(frozen=True)
class ExportPlan:
    """The sizes an export of one model involves, as known before it runs."""

    #: What the user named (a Hub id or a directory).
    model: str
    #: (file name, bytes) of each file fetched from the Hub or read from the directory.
    files: tuple[tuple[str, int], ...]
    #: True: a local directory (read, nothing downloaded).
    local: bool
    #: Bytes of ``files`` already in the Hugging Face cache (not downloaded again).
    cached: int = 0
    #: The model's parameter count, or None when neither a safetensors header nor a weight file
    #: says it.
    parameters: int | None = None
    #: False: ``parameters`` is estimated from the weight file's size.
    exact: bool = True
    #: A decoder-only family's checkpoint (its export defaults to int4, whose size the line
    #: does not estimate).
    decoder_only: bool = False

    @property
    def total(self) -> int:
        return sum(size for _, size in self.files)

    def output_bytes(self, quantize: str) -> int | None:
        """About how many bytes the export writes with ``quantize``: the graphs' weights plus the
        tokenizer files it copies (the files that are not weights)."""
        if self.parameters is None:
            return None
        copied = sum(size for name, size in self.files if not _is_weights(name))
        per_parameter = MAIN_COPIES * WEIGHT_BYTES[quantize] + ALIGNER_COPIES * ALIGNER_BYTES[quantize]
        return int(self.parameters * per_parameter) + copied

    def line(self, quantize: str | None) -> str:
        """The one line ``export`` prints before it starts; ``quantize`` None: the export's default
        (int8 for seq2seq models, int4 for decoder-only ones). The output estimate is the seq2seq
        export's: for a quantisation it does not know (int4, decoder-only models) the line gives
        the source and the parameter count only."""
        quantize = quantize or ("int4" if self.decoder_only else "int8")
        if self.local:
            source = f"reads {_size(self.total)} ({_listing(self.files)})"
        else:
            fetch = self.total - self.cached
            source = f"downloads {_size(fetch)} ({_listing(self.files)})"
            if self.cached:
                source += f", {_size(self.cached)} of it already in the Hugging Face cache" if fetch else \
                    ", all of it already in the Hugging Face cache"
        parts = [f"{_shown(self.model)}: {source}"]
        if self.parameters is not None:
            about = "" if self.exact else "about "
            parts.append(f"{about}{_count(self.parameters)} parameters")
        if self.parameters is not None and quantize in WEIGHT_BYTES:
            names = {"int8": "int8", "fp16": "fp16", "none": "fp32"}
            chosen = f"writes about {_size(self.output_bytes(quantize) or 0)} as {names[quantize]}"
            others = ", ".join(f"{names[q]} {_size(self.output_bytes(q) or 0)}" for q in WEIGHT_BYTES if q != quantize)
            parts.append(f"{chosen} ({others})")
        return "; ".join(parts)


def plan_export(model: str) -> ExportPlan | None:
    """The plan for ``model`` as ``export`` will resolve it (a directory first, else a Hub id), or
    None when it cannot be known without the export's own error (no such directory, an unknown
    or unreachable id, no export extra): the export then says why in its own words."""
    try:
        import huggingface_hub  # noqa: F401 - the pattern filter and the Hub are its
    except ImportError:
        return None
    local = Path(model).expanduser()
    if local.is_dir():
        return local_plan(model, local) if (local / "config.json").is_file() else None
    if model.startswith((".", "/", "~")) or os.sep in model.strip("/").replace("/", "", 1):
        return None
    return hub_plan(model)


def local_plan(model: str, directory: Path) -> ExportPlan:
    """The files of ``directory`` the export reads (weights in the format transformers loads:
    safetensors where there are any) and the parameter count from their headers."""
    return replace(_local_plan(model, directory), decoder_only=_decoder_only(_config(directory)))


def _local_plan(model: str, directory: Path) -> ExportPlan:
    names = sorted(p.name for p in directory.iterdir() if p.is_file())
    wanted = _matching(names)
    if any(n.endswith(".safetensors") for n in wanted):
        wanted = [n for n in wanted if n != "pytorch_model.bin"]
    files = tuple((name, (directory / name).stat().st_size) for name in wanted)
    shards = [directory / n for n in wanted if n.endswith(".safetensors")]
    part = text_part_of(_config(directory))
    counts = [_safetensors_parameters(path, part) for path in shards]
    if shards and all(c is not None for c in counts):
        return ExportPlan(model, files, local=True, parameters=sum(c or 0 for c in counts))
    weights = sum(_tensor_bytes(directory / name, size) for name, size in files if _is_weights(name))
    width = _DTYPE_BYTES.get(str(_config(directory).get("torch_dtype") or "float32"), 4)
    return ExportPlan(model, files, local=True, parameters=weights // width if weights else None, exact=False)


def _tensor_bytes(path: Path, size: int) -> int:
    """The bytes of tensor data in a weight file: a ``torch.save`` zip archive's storage entries
    (``<archive>/data/<n>``, each storage once, the pickled structure left out; nothing is
    unpickled), else the file's size."""
    try:
        with zipfile.ZipFile(path) as archive:
            entries = [i for i in archive.infolist() if i.filename.split("/")[-2:-1] == ["data"]]
    except (OSError, zipfile.BadZipFile):
        return size
    return sum(i.file_size for i in entries if i.filename.rsplit("/", 1)[-1].isdigit()) or size


def hub_plan(model: str) -> ExportPlan | None:
    """Ask the Hub what ``export`` would fetch of ``model`` (file metadata only); offline or
    unreachable, read the snapshot already in the Hugging Face cache, if any."""
    from huggingface_hub import HfApi
    from huggingface_hub import errors as hf_errors

    try:
        info = HfApi().model_info(model, files_metadata=True)
    except (hf_errors.HFValidationError, hf_errors.RepositoryNotFoundError, hf_errors.GatedRepoError):
        return None
    except (OSError, ValueError, hf_errors.OfflineModeIsEnabled):  # no network, offline mode, a bad answer
        return _cached_plan(model)
    siblings = {s.rfilename: int(s.size or 0) for s in (info.siblings or [])}
    files = tuple((name, siblings[name]) for name in _matching(sorted(siblings)))
    cached = sum(size for name, size in files if _in_cache(model, name, info.sha))
    config = getattr(info, "config", None)
    config = config if isinstance(config, dict) else {}
    return replace(_hub_plan(model, info, files, cached, config), decoder_only=_decoder_only(config))


def _hub_plan(model: str, info: Any, files: tuple[tuple[str, int], ...], cached: int,
              config: dict[str, Any]) -> ExportPlan:
    """The plan from ``model_info``'s answer: the parameters it counts, or the text part's."""
    safetensors = getattr(info, "safetensors", None)
    part = text_part_of(config)
    if part is not None:  # only the text decoder is exported: count it from the shards' headers
        text = _hub_text_parameters(model, part, info.sha)
        if text is not None:
            return ExportPlan(model, files, local=False, cached=cached, parameters=text)
    if safetensors is not None and getattr(safetensors, "total", None):
        return ExportPlan(model, files, local=False, cached=cached, parameters=int(safetensors.total))
    weights = sum(size for name, size in files if name.endswith(".bin"))
    return ExportPlan(model, files, local=False, cached=cached, parameters=weights // 4 if weights else None,
                      exact=False)


def _hub_text_parameters(model: str, part: TextPart, revision: str | None) -> int | None:
    """The parameters of ``part`` in the Hub's safetensors headers (read by range requests, no
    weight downloaded), or None when the Hub does not give them."""
    from huggingface_hub import HfApi

    try:
        metadata = HfApi().get_safetensors_metadata(model, revision=revision)
    except Exception:  # no headers, in whatever way huggingface_hub says so: the total is shown
        return None
    return sum(int(info.parameter_count) for shard in metadata.files_metadata.values()
               for name, info in shard.tensors.items() if renamed(part, name) is not None)


def _cached_plan(model: str) -> ExportPlan | None:
    """The plan from the snapshot in the Hugging Face cache (all of it cached), or None."""
    from huggingface_hub import snapshot_download

    try:
        path = Path(snapshot_download(model, allow_patterns=list(DOWNLOAD_PATTERNS), local_files_only=True))
    except Exception:  # not cached, in whatever way huggingface_hub says so: no line
        return None
    plan = local_plan(model, path)
    return replace(plan, local=False, cached=plan.total)


def _in_cache(model: str, name: str, revision: str | None) -> bool:
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(model, name, revision=revision), str)
    except (OSError, ValueError):
        return False


def _matching(names: Iterable[str]) -> list[str]:
    """``names`` that :data:`DOWNLOAD_PATTERNS` select, by huggingface_hub's own filter (the one
    ``snapshot_download`` applies)."""
    from huggingface_hub.utils import filter_repo_objects  # type: ignore[attr-defined]  # public, re-exported lazily

    return list(filter_repo_objects(list(names), allow_patterns=list(DOWNLOAD_PATTERNS)))


def _is_weights(name: str) -> bool:
    return name.endswith((".safetensors", ".bin"))


def _safetensors_parameters(path: Path, part: TextPart | None = None) -> int | None:
    """The number of elements in the tensors of a safetensors file, from its JSON header; with
    ``part``, in the tensors of that text part only (what the export builds)."""
    try:
        header, _start = read_header(path)
    except ExportError:  # not a weight file we can read: the size estimate stands in
        return None
    total = 0
    for name, entry in header.items():
        if name == "__metadata__" or not isinstance(entry, dict):
            continue
        if part is not None and renamed(part, name) is None:
            continue
        total += math.prod(int(d) for d in entry.get("shape", []))
    return total


def _decoder_only(config: dict[str, Any]) -> bool:
    family = detect_family(str(config.get("model_type", "")), None)
    return family is not None and family.kind == "decoder-only"


def _config(directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _listing(files: tuple[tuple[str, int], ...]) -> str:
    """The weight files by name and size, the rest counted: ``pytorch_model.bin 312.1 MB, 6
    small files 0.8 MB``."""
    big = [(name, size) for name, size in files if _is_weights(name)]
    rest = [size for name, size in files if not _is_weights(name)]
    shown = [f"{_shown(name)} {_size(size)}" for name, size in big]
    if rest:
        shown.append(f"{len(rest)} other file{'s' if len(rest) != 1 else ''} {_size(sum(rest))}")
    return ", ".join(shown) if shown else "no files"


def _shown(text: str) -> str:
    """A name from the Hub or the command line, escaped when it holds controls or invisible
    characters (a repository's file names are untrusted)."""
    return text if text.isprintable() else repr(text)


def _size(n: int) -> str:
    """Bytes in decimal units (what the Hub and ``du --si`` show)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _count(n: int) -> str:
    if n >= 10**9:
        return f"{n / 1e9:.2f} billion"
    return f"{n / 1e6:.1f} million" if n >= 10**6 else f"{n:,}"
