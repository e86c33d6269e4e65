"""Export a decoder-only translation model (Hy-MT, TranslateGemma, Qwen) for the ``genai`` backend.

ONNX Runtime GenAI's model builder (``python -m onnxruntime_genai.models.builder``, the
``genai`` extra) writes the graph: int4 (MatMulNBits) or fp32 for the CPU, fp16 or int4 for
CUDA, with grouped-query attention over a shared KV cache, plus ``genai_config.json`` and the
tokenizer. int4 for the CPU is the builder's fp32 graph quantized afterwards with the builder's
own settings (``int4``: same weights, about 40% less peak memory). A multimodal checkpoint
(TranslateGemma) is built as its text decoder alone (``textpart``). The builder runs in a
child process: it holds the whole checkpoint in memory and sets global state (torch threads,
logging) a long-lived caller should not inherit.

Around it we write what the engine needs and must be able to trust: ``generation.json``
(``kind: decoder-only``; the family's prompt from ``families.PROMPT_FORMS`` with the target
language filled in and the chat framing rendered from the checkpoint's own chat template; the
ids that end an answer) and the manifest that hashes every file. The stop ids are also added
to ``genai_config.json``'s ``eos_token_id`` so that GenAI's search ends a hypothesis there.
Files are built in a scratch directory and moved in at the end, manifest last.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..families import DEFAULT_VARIANT, PROMPT_FORMS, Family, PromptForm, detect_family, supported_types
from ..model_format import DECODER_ONLY, FORMAT_VERSION, GENAI_CONFIG_FILE, GENERATION_FILE, MANIFEST_FILE
from ..owned import Owned, named, scratch_dir
from .errors import ExportError
from .int4 import quantize_int4
from .save import write_manifest
from .textpart import text_part_of, write_text_part

#: ``--quantize`` for decoder-only models -> the builder's precision.
PRECISIONS = {"int4": "int4", "none": "fp32", "fp32": "fp32", "fp16": "fp16"}
DEVICES = ("cpu", "cuda")
_SENTINEL = "\u2063SOURCE\u2063"  # invisible separators: no chat template writes them
_INSTALL_HINT = "install the genai extra: pip install 'mkdocs-zh-translate[genai]'"


def _config(src: Path) -> dict[str, Any]:
    try:
        config = json.loads((src / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ExportError(f"{src / 'config.json'}: unreadable ({exc})") from None
    return config if isinstance(config, dict) else {}


def family_of(src: Path) -> Family | None:
    """The family of the checkpoint in ``src`` (its ``config.json`` model type and tokenizer class)."""
    config = _config(src)
    tokenizer_class = None
    with contextlib.suppress(OSError, ValueError, AttributeError):
        tokenizer_class = json.loads((src / "tokenizer_config.json").read_text(encoding="utf-8")).get("tokenizer_class")
    model_type = str(config.get("model_type", ""))
    return detect_family(model_type, tokenizer_class if isinstance(tokenizer_class, str) else None)


def is_decoder_only(src: Path) -> bool:
    family = family_of(src)
    return family is not None and family.kind == DECODER_ONLY


def require_genai_deps() -> None:
    """Fail early, with the install command, when the builder cannot be imported."""
    missing = []
    for module in ("transformers", "onnxruntime_genai", "onnx_ir", "torch"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ExportError(f"exporting a decoder-only model needs {', '.join(missing)}: {_INSTALL_HINT}")


def export_decoder_model(model: str, src: Path, out: Path, quantize: str = "int4", device: str = "cpu",
                         variant: str = DEFAULT_VARIANT) -> Path:
    """Export the decoder-only checkpoint in ``src`` (``model`` as the user named it) into ``out``."""
    if quantize not in PRECISIONS:
        raise ExportError(f"unknown quantisation {quantize!r} for a decoder-only model; choose int4, none or fp16")
    if device not in DEVICES:
        raise ExportError(f"unknown device {device!r}; choose {', '.join(DEVICES)}")
    if PRECISIONS[quantize] == "fp16" and device == "cpu":
        raise ExportError("fp16 is for the CUDA provider: add --device cuda, or export int4 for the CPU")
    require_genai_deps()
    family = family_of(src)
    if family is None or family.kind != DECODER_ONLY:
        raise ExportError(f"{model}: not a decoder-only family the export knows; it supports {supported_types()}")
    form = PROMPT_FORMS[family.name]
    if variant not in form.target_names:
        raise ExportError(f"{model}: the {family.name} prompt names no {variant!r} target")
    out.mkdir(parents=True, exist_ok=True)
    with scratch_dir(".export-", out) as tmp:
        built = tmp / "genai"
        part = text_part_of(_config(src))
        if part is not None:  # a multimodal checkpoint: build its text decoder alone
            src = write_text_part(src, tmp / "text", part)
        if PRECISIONS[quantize] == "int4" and device == "cpu":  # the builder's int4 in two steps: less memory
            run_builder(src, tmp / "fp32", "fp32", device, tmp / "cache")
            quantize_int4(tmp / "fp32", built)
        else:
            run_builder(src, built, PRECISIONS[quantize], device, tmp / "cache")
        settings = _settings(src, built, family, form, variant, quantize, device)
        (built / GENERATION_FILE).write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
        Owned(out, named([MANIFEST_FILE]), "an export's files").remove(out / MANIFEST_FILE)
        for item in built.iterdir():
            if item.is_file():
                os.replace(item, out / item.name)
    write_manifest(out, source=model, quantize=quantize)
    return out


def run_builder(src: Path, out: Path, precision: str, device: str, cache: Path) -> None:
    """GenAI's model builder in a child process; its last line of output when it fails."""
    command = [sys.executable, "-m", "onnxruntime_genai.models.builder", "-i", str(src), "-o", str(out),
               "-p", precision, "-e", device, "-c", str(cache)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (out / GENAI_CONFIG_FILE).is_file():
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        last = lines[-1] if lines else f"exit status {done.returncode}"
        raise ExportError(f"{src}: ONNX Runtime GenAI's model builder failed: {last}")


def _frame(src: Path, form: PromptForm) -> tuple[str, str]:
    """The text around the user message: the family's, or the checkpoint's chat template
    rendered around a sentinel (thinking off, for the templates that know the switch)."""
    if form.frame is not None:
        return form.frame
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(src)
    try:
        rendered = tokenizer.apply_chat_template([{"role": "user", "content": _SENTINEL}], tokenize=False,
                                                 add_generation_prompt=True, enable_thinking=False)
    except (ValueError, TypeError, KeyError) as exc:
        raise ExportError(f"{src}: cannot render the tokenizer's chat template: {exc}".splitlines()[0]) from None
    if not isinstance(rendered, str) or rendered.count(_SENTINEL) != 1:
        raise ExportError(f"{src}: the chat template does not place one user message")
    before, after = rendered.split(_SENTINEL)
    return before, after


def _stop_ids(src: Path, built: Path, form: PromptForm) -> list[int]:
    """The ids that end an answer: the checkpoint's end-of-sequence ids and the family's stop
    tokens that are single tokens of this vocabulary; written into ``genai_config.json`` too."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(src)
    config_path = built / GENAI_CONFIG_FILE
    config = json.loads(config_path.read_text(encoding="utf-8"))
    eos = config["model"].get("eos_token_id")
    ids = [int(i) for i in (eos if isinstance(eos, list) else [eos] if eos is not None else [])]
    vocab = tokenizer.get_vocab()
    ids += [int(vocab[token]) for token in form.stop if token in vocab]
    ids = sorted(set(ids))
    if not ids:
        raise ExportError(f"{src}: the model names no end-of-sequence token")
    config["model"]["eos_token_id"] = ids
    config_path.write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")
    return ids


def _settings(src: Path, built: Path, family: Family, form: PromptForm, variant: str, quantize: str,
              device: str) -> dict[str, Any]:
    before, after = _frame(src, form)
    config = json.loads((built / GENAI_CONFIG_FILE).read_text(encoding="utf-8"))
    return {
        "format": FORMAT_VERSION,
        "kind": DECODER_ONLY,
        "family": family.name,
        "variant": variant,
        "quantize": quantize,
        "device": device,
        "context_length": int(config["model"].get("context_length") or 4096),
        "stop_ids": _stop_ids(src, built, form),
        "prompt": {
            "instruction": form.instruction,
            "with_terms": form.with_terms,
            "term_line": form.term_line,
            "context_block": form.context_block,
            "target": form.target_names[variant],
            "targets": dict(form.target_names),  # ``target`` (the engine option) picks one
            "frame": [before, after],
            "preambles": list(form.preambles),
        },
    }
