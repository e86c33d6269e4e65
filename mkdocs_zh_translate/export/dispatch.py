"""``export``: one command for every family, routed by what the checkpoint is.

A seq2seq checkpoint (MarianMT) takes our own export (``convert.export_model``: optimum, graph
rewrites, int8 by default); a decoder-only one (Hy-MT, TranslateGemma, Qwen) takes ONNX Runtime
GenAI's builder (``genai.export_decoder_model``: int4 for the CPU by default). The family is
read from the checkpoint's ``config.json`` and ``tokenizer_config.json`` (``families``).
"""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

from .convert import export_model
from .errors import ExportError
from .genai import export_decoder_model, is_decoder_only
from .source import DOWNLOAD_PATTERNS, resolve_source


def download_size(model: str) -> tuple[int, int] | None:
    """(bytes, files) that exporting the Hub id ``model`` would download, from the Hub's file
    list; None for a local directory, or when the Hub cannot be asked (offline: the download
    then says why)."""
    if Path(model).expanduser().is_dir():
        return None
    try:
        from huggingface_hub import HfApi

        info = HfApi().model_info(model, files_metadata=True)
    except Exception:  # any failure here is the download's to report, in its own words
        return None
    sizes = [s.size or 0 for s in info.siblings or ()
             if any(fnmatch.fnmatch(s.rfilename, pattern) for pattern in DOWNLOAD_PATTERNS)]
    return sum(sizes), len(sizes)


def export_any(model: str, out: Path, quantize: str | None = None, device: str = "cpu") -> Path:
    """Export ``model`` (Hub id or local directory) into ``out`` with the exporter its family
    takes; ``quantize`` None: int8 for seq2seq models, int4 for decoder-only ones."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a directory")
    size = download_size(model)
    if size is not None:  # before the download starts: a 7B checkpoint is 15 GB
        print(f"export: {model}: {size[0] / 1e9:.2f} GB in {size[1]} files to download (unless cached)",
              file=sys.stderr, flush=True)
    src = resolve_source(model)
    if is_decoder_only(src):
        return export_decoder_model(model, src, out, quantize or "int4", device)
    if device != "cpu" or quantize == "int4":
        raise ExportError(f"{model}: --device and int4 are for decoder-only models; "
                          "a seq2seq export runs on every provider (fp16 for CUDA)")
    return export_model(model, out, quantize or "int8")
