"""``export``: one command for every family, routed by what the checkpoint is.

A seq2seq checkpoint (MarianMT) takes our own export (``convert.export_model``: optimum, graph
rewrites, int8 by default); a decoder-only one (Hy-MT, TranslateGemma, Qwen) takes ONNX Runtime
GenAI's builder (``genai.export_decoder_model``: int4 for the CPU by default). The family is
read from the checkpoint's ``config.json`` and ``tokenizer_config.json`` (``families``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .convert import export_model
from .errors import ExportError
from .genai import export_decoder_model, is_decoder_only
from .plan import plan_export
from .source import resolve_source


def export_any(model: str, out: Path, quantize: str | None = None, device: str = "cpu") -> Path:
    """Export ``model`` (Hub id or local directory) into ``out`` with the exporter its family
    takes; ``quantize`` None: int8 for seq2seq models, int4 for decoder-only ones."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a directory")
    plan = plan_export(model)
    if plan is not None:  # before anything is downloaded: a 7B checkpoint is 15 GB
        print(f"mkdocs-zh-translate: export: {plan.line(quantize)}", file=sys.stderr, flush=True)
    src = resolve_source(model)
    if is_decoder_only(src):
        return export_decoder_model(model, src, out, quantize or "int4", device)
    if device != "cpu" or quantize == "int4":
        raise ExportError(f"{model}: --device and int4 are for decoder-only models; "
                          "a seq2seq export runs on every provider (fp16 for CUDA)")
    return export_model(model, out, quantize or "int8")
