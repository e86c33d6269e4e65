"""Turn a Hugging Face translation model (MarianMT, M2M100, NLLB-200) into the directory our ONNX Runtime engine runs.

This package is the only place that touches torch / transformers / optimum (the ``export``
extra); the engine itself needs onnxruntime, sentencepiece and numpy only, so everything the
engine must know about the model (special ids, generation defaults, tokenizer quirks) is
written to ``generation.json`` here, once.

``export_model`` runs the steps in order, each in its own module: load (``source``: resolve
the model, run optimum's exporter), rewrite (``rewrites``: reshape the graphs for the engine),
quantise (``quantise``), save (``save``: pre-optimised graphs, external data, manifest), plus
the ``aligner`` graph and ``settings`` (``generation.json``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from ..model_format import ALIGNER_FILE, DECODER_FILE, ENCODER_FILE, GENERATION_FILE, MANIFEST_FILE
from ..owned import Owned, named, scratch_dir
from .aligner import export_aligner
from .errors import ExportError
from .quantise import QUANTIZATIONS, quantize_int8, to_fp16
from .rewrites import (
    add_cross_cache_to_encoder,
    add_shortlist_head,
    add_topk_head,
    flatten_logits_bias,
    fuse_cross_attention,
    self_attention_in_place,
)
from .save import external_entries, optimize_offline, save_graph, save_pair_external, write_manifest
from .settings import generation_settings
from .source import load_model, require_export_deps, resolve_source, run_optimum

__all__ = ["QUANTIZATIONS", "ExportError", "export_model"]


def export_model(model: str, out: Path, quantize: str = "int8") -> Path:
    """Export ``model`` (Hub id or local directory) into ``out``; return ``out``.

    Files are built in a temporary directory and moved in at the end, manifest last, so an
    interrupted export never leaves a directory the engine would accept.
    """
    if quantize not in QUANTIZATIONS:
        raise ExportError(f"unknown quantisation {quantize!r}; choose {', '.join(QUANTIZATIONS)}")
    require_export_deps()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a directory")
    src = resolve_source(model)
    config, tokenizer, family = load_model(model, src)
    settings = generation_settings(src, config, tokenizer, family)

    out.mkdir(parents=True, exist_ok=True)
    with scratch_dir(".export-", out) as tmp:
        raw = tmp / "raw"
        run_optimum(src, raw)
        final = tmp / "final"
        final.mkdir()
        encoder_fp32, decoder_fp32 = tmp / "encoder_fp32.onnx", tmp / "decoder_fp32.onnx"
        settings["max_topk"] = _rewrite(src, raw, settings, quantize, encoder_fp32, decoder_fp32)
        shutil.rmtree(raw)
        encoder_src, decoder_src = _quantise(tmp, encoder_fp32, decoder_fp32, quantize)
        decoder_src, shortlist = _shortlist_head(tmp, decoder_src, quantize)
        settings["shared_initializers"] = save_pair_external(encoder_src, decoder_src, final, settings["vocab_size"])
        if shortlist:
            # The engine maps the projection's weights from here to gather a batch's shortlist;
            # an export without this entry (older, fp16) cannot take one.
            settings["shortlist"] = external_entries(final / DECODER_FILE, shortlist)
        export_aligner(src, tmp, final / ALIGNER_FILE, quantize)

        for name in ("source.spm", "target.spm", "vocab.json", "target_vocab.json", "tokenizer_config.json"):
            if (src / name).is_file():
                shutil.copyfile(src / name, final / name)
        if family.spm_file:
            _one_vocabulary(src / family.spm_file, tokenizer, int(settings["vocab_size"]), final)
        settings["quantize"] = quantize
        (final / GENERATION_FILE).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")

        Owned(out, named([MANIFEST_FILE]), "an export's files").remove(out / MANIFEST_FILE)  # stale until rewritten
        for item in final.iterdir():
            os.replace(item, out / item.name)
    write_manifest(out, source=model, quantize=quantize)
    return out


def _one_vocabulary(spm: Path, tokenizer: Any, vocab_size: int, final: Path) -> None:
    """The engine's tokenizer files for a family with one SentencePiece model for both sides:
    that model as ``source.spm`` and ``target.spm``, and ``vocab.json`` the tokenizer's own
    piece -> id map (``get_vocab()``: NLLB's fairseq offset, M2M100's language tokens after
    its vocabulary), plus the token of any model id it leaves out, so the engine maps pieces
    through one table whatever the family."""
    if not spm.is_file():
        raise ExportError(f"{spm}: missing; the tokenizer's SentencePiece model is needed")
    for name in ("source.spm", "target.spm"):
        shutil.copyfile(spm, final / name)
    vocab = {str(piece): int(i) for piece, i in tokenizer.get_vocab().items() if 0 <= int(i) < vocab_size}
    known = set(vocab.values())
    for i in range(vocab_size):
        if i not in known:
            piece = _token_of(tokenizer, i)
            if piece not in vocab:
                vocab[piece] = i
    (final / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False) + "\n", encoding="utf-8")


def _token_of(tokenizer: Any, i: int) -> str:
    """The tokenizer's token for model id ``i``, or a made-up one where the model has ids its
    tokenizer never produces (NLLB-200's embedding has two rows past its tokenizer, and
    SentencePiece raises for them): the engine never emits such an id into text (special)."""
    try:
        return str(tokenizer.convert_ids_to_tokens(i))
    except (IndexError, ValueError, RuntimeError, KeyError):
        return f"<model-id-{i}>"


def _rewrite(src: Path, raw: Path, settings: dict[str, Any], quantize: str, encoder_fp32: Path,
             decoder_fp32: Path) -> int:
    """Reshape optimum's graphs in ``raw`` for the engine (see ``rewrites``), converting them to
    float16 before the top-k head for ``fp16``, and save them as ``encoder_fp32``/``decoder_fp32``
    (float32 unless fp16). Returns the largest top-k the decoder accepts."""
    import onnx

    heads, head_dim, layers = settings["decoder_attention_heads"], settings["head_dim"], settings["decoder_layers"]
    encoder = onnx.load(raw / "encoder_model.onnx")
    first_decoder = onnx.load(raw / "decoder_model.onnx")
    add_cross_cache_to_encoder(encoder, first_decoder, layers, heads, head_dim)
    del first_decoder
    decoder = onnx.load(raw / "decoder_with_past_model.onnx")
    if self_attention_in_place(decoder, layers, heads) != layers:
        raise ExportError(f"{src}: not every self-attention block could be rewritten; "
                          "unsupported transformers/optimum version")
    flatten_logits_bias(decoder)
    rewritten = fuse_cross_attention(decoder, heads, head_dim)
    if rewritten != layers:
        raise ExportError(f"{src}: found {rewritten} cross-attention blocks to rewrite, expected "
                          f"{layers}; unsupported transformers/optimum version")
    if quantize == "fp16":
        encoder = to_fp16(encoder, "encoder")
        decoder = to_fp16(decoder, "decoder")
    max_topk = add_topk_head(decoder, settings["vocab_size"])
    save_graph(encoder, encoder_fp32)
    save_graph(decoder, decoder_fp32)
    return max_topk


def _shortlist_head(tmp: Path, decoder_src: Path, quantize: str) -> tuple[Path, dict[str, str] | None]:
    """The decoder with the optional vocabulary shortlist (``rewrites.shortlist_head``) and the
    names of the projection's initializers; unchanged for fp16 (not pre-optimised: its
    projection sits between casts). Any other projection shape fails the export rather than
    leaving a model that cannot take a shortlist."""
    import onnx

    if quantize == "fp16":
        return decoder_src, None
    decoder = onnx.load(decoder_src)
    roles = add_shortlist_head(decoder)
    if roles is None:  # every float32 and int8 projection optimum and ONNX Runtime make has a known shape
        raise ExportError("the decoder's output projection has an unexpected shape (no shortlist head "
                          "could be added); unsupported optimum or onnxruntime version")
    (tmp / "shortlist").mkdir()
    out = tmp / "shortlist" / DECODER_FILE
    onnx.save_model(decoder, out, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=DECODER_FILE + ".data", size_threshold=1024)
    return out, roles


def _quantise(tmp: Path, encoder_fp32: Path, decoder_fp32: Path, quantize: str) -> tuple[Path, Path]:
    """The encoder and decoder files to save: int8-quantised for ``int8``, and pre-optimised by
    ONNX Runtime unless ``fp16`` (the offline pass runs on the CPU, which lacks many fp16 kernels)."""
    if quantize == "int8":
        quantize_int8(encoder_fp32, tmp / "encoder_int8.onnx")
        quantize_int8(decoder_fp32, tmp / "decoder_int8.onnx")
        encoder_src, decoder_src = tmp / "encoder_int8.onnx", tmp / "decoder_int8.onnx"
    else:
        encoder_src, decoder_src = encoder_fp32, decoder_fp32
    if quantize != "fp16":
        (tmp / "optimized").mkdir()
        encoder_src = optimize_offline(encoder_src, tmp / "optimized" / ENCODER_FILE)
        decoder_src = optimize_offline(decoder_src, tmp / "optimized" / DECODER_FILE)
    return encoder_src, decoder_src
