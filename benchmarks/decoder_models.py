"""Decoder-only translators at real shapes: ONNX Runtime GenAI vs transformers vs llama.cpp vs our seq2seq engine.

Protocol: random weights (nothing can be downloaded here) at the real shapes of Qwen3-0.6B,
Hy-MT2-1.8B (HunYuan dense, as HY-MT1.5-1.8B's config.json) and TranslateGemma-4B's text
decoder (Gemma 3 4B), built offline with a small byte-level BPE tokenizer (the benchmark feeds
token ids), exported by our ``export`` (GenAI's model builder: int4 for the CPU, fp32 for the
like-for-like row against transformers). Every engine must emit exactly ``NEW_TOKENS`` tokens per
sentence (random weights do not stop; min length = max length). Workload: 32 prompts of 45-100
tokens (a translation prompt's frame and instruction plus a 15-70 token sentence), sorted by
length, greedy, batch 16 (llama.cpp: one prompt at a time, see ``llama_cpp_rows``; ``--every N``
times every Nth prompt only, for every row alike); 2 intra-op threads. Each row runs in a fresh
subprocess: cold start (launch to model ready), then the workload ``--repeats`` times (the best is
reported), then peak RSS (VmHWM). Prompt processing is inside the timed run.
The seq2seq row is our ONNX engine on opus-mt-en-zh's shape (int8, from ``benchmarks/engine.py``'s
cache) on 32 sentences of 15-70 source tokens with the same 32 new tokens.
Memory: Hy-MT2-1.8B's int4 is made from its fp32 export (``quantized_via_fp32``: the builder's
one-step int4 needs ~15 GB); TranslateGemma-4B (16 GB of fp32 weights) is measured at 2 and 6 of
its 34 layers and extrapolated (``gemma_extrapolated``).

    PYTHONPATH=$PWD python3 benchmarks/decoder_models.py [--rows qwen3-int4,hy-int4,...] [--every 4]

llama.cpp rows need llama-cpp-python (built from its sdist) and ``ZH_LLAMA_CPP_CONVERT`` (see
``benchmarks/llama_cpp_rows.py``); without llama_cpp they are skipped with one line.
Cache: $ZH_TRANSLATE_BENCH_CACHE/decoder (default ~/.cache/mkdocs-zh-translate/bench/decoder).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NEW_TOKENS = 32
SENTENCES = 32
BATCH = 16
THREADS = 2

#: Real shapes (config.json of the public checkpoints).
SHAPES: dict[str, dict[str, Any]] = {
    "qwen3-0.6b": {"arch": "qwen3", "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,
                   "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
                   "tie_word_embeddings": True},
    "hy-mt2-1.8b": {"arch": "hunyuan", "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 32,
                    "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 128, "vocab_size": 120818,
                    "tie_word_embeddings": True},
}
#: TranslateGemma-4B's text decoder (Gemma 3 4B: 34 layers). Its fp32 weights (16 GB) cannot be
#: built beside other work on a 24 GiB machine, so it is measured at 2 and 6 of its layers, full
#: width and vocabulary, and the time per token is extrapolated linearly in the layer count
#: (``gemma_extrapolated``). Built as Gemma3ForCausalLM, text only: see ``exported``.
GEMMA_LAYERS = 34
for _layers in (2, 6):
    SHAPES[f"translategemma-4b-l{_layers}"] = {
        "arch": "gemma3", "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": _layers,
        "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "vocab_size": 262208,
        "sliding_window": 1024, "tie_word_embeddings": True}
#: row -> (shape, kind). Kinds: ``int4``/``none`` are our ``export`` (GenAI's builder, int4 or fp32);
#: ``int4-via-fp32`` is the builder's fp32 graph quantized afterwards with the same MatMulNBits
#: settings (see ``quantized_via_fp32``); ``transformers`` is its ``generate()`` in fp32;
#: ``llama-q4_0``/``llama-f32`` are llama.cpp on the GGUF of the same checkpoint.
ROWS = {
    "seq2seq-int8": ("marian", "int8"),
    "qwen3-int4": ("qwen3-0.6b", "int4"),
    "qwen3-int4-via-fp32": ("qwen3-0.6b", "int4-via-fp32"),
    "qwen3-int4-b1": ("qwen3-0.6b", "int4"),
    "qwen3-fp32": ("qwen3-0.6b", "none"),
    "qwen3-transformers": ("qwen3-0.6b", "transformers"),
    "qwen3-llama-q4_0": ("qwen3-0.6b", "llama-q4_0"),
    "qwen3-llama-f32": ("qwen3-0.6b", "llama-f32"),
    "hy-int4": ("hy-mt2-1.8b", "int4-via-fp32"),
    "hy-llama-q4_0": ("hy-mt2-1.8b", "llama-q4_0"),
    "gemma-l2-int4": ("translategemma-4b-l2", "int4-via-fp32"),
    "gemma-l6-int4": ("translategemma-4b-l6", "int4-via-fp32"),
}
#: Rows that run one prompt at a time (llama-cpp-python's API does; ``-b1`` is GenAI alike).
SEQUENTIAL = {"qwen3-int4-b1"}


def cache() -> Path:
    base = os.environ.get("ZH_TRANSLATE_BENCH_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "mkdocs-zh-translate" / "bench") / "decoder"


def build_hf(name: str) -> Path:
    """A random checkpoint of ``name``'s shape (bf16 on disk), with the tiny models' tokenizer."""
    out = cache() / f"hf-{name}"
    if (out / "config.json").is_file():
        return out
    import torch

    shape = dict(SHAPES[name])
    arch = shape.pop("arch")
    torch.manual_seed(0)
    if arch == "qwen3":
        from transformers import Qwen3Config, Qwen3ForCausalLM

        config: Any = Qwen3Config(**shape, max_position_embeddings=4096, eos_token_id=2, pad_token_id=0,
                                  bos_token_id=None)
        model: Any = Qwen3ForCausalLM(config)
    elif arch == "gemma3":
        from transformers import Gemma3ForCausalLM, Gemma3TextConfig

        config = Gemma3TextConfig(**shape, max_position_embeddings=4096, eos_token_id=2, pad_token_id=0,
                                  bos_token_id=1, query_pre_attn_scalar=256, rope_theta=1_000_000.0)
        model = Gemma3ForCausalLM(config)
    else:
        from transformers import HunYuanDenseV1Config, HunYuanDenseV1ForCausalLM

        config = HunYuanDenseV1Config(**shape, max_position_embeddings=4096, eos_token_id=2, pad_token_id=0,
                                      bos_token_id=1)
        model = HunYuanDenseV1ForCausalLM(config)
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.to(torch.bfloat16).save_pretrained(tmp)
    del model
    import random

    from tests.genai_models import _tokenizer, prompt_form, training_example

    rng = random.Random(0)  # the builder saves a tokenizer; the benchmark feeds ids
    _tokenizer(["".join(training_example(rng, prompt_form())) for _ in range(2000)], tmp)
    os.replace(tmp, out)
    return out


def exported(name: str, quantize: str) -> Path:
    if quantize == "int4-via-fp32":
        return quantized_via_fp32(name)
    out = cache() / f"genai-{name}-{quantize}"
    if SHAPES[name]["arch"] == "gemma3":
        return built_directly(name, quantize)
    if not (out / "manifest.json").is_file():
        from mkdocs_zh_translate.export import export_any

        print(f"exporting {name} {quantize} ...", file=sys.stderr, flush=True)
        export_any(str(build_hf(name)), out, quantize=quantize)
    return out


def built_directly(name: str, quantize: str) -> Path:
    """GenAI's builder on a text-only Gemma 3 checkpoint (``gemma3_text``), without our export.

    TranslateGemma ships as Gemma3ForConditionalGeneration (``gemma3``, with a vision tower), for
    which the builder writes a decoder that takes embeddings instead of token ids; the text-only
    class gives the same decoder layers with their embedding inside, which the benchmark can feed
    token ids. Our export recognises ``gemma3`` only, so this calls the builder itself.
    """
    out = cache() / f"genai-{name}-{quantize}"
    if not (out / "genai_config.json").is_file():
        from mkdocs_zh_translate.export.genai import PRECISIONS, run_builder

        print(f"building {name} {quantize} ...", file=sys.stderr, flush=True)
        tmp = out.with_name(out.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        run_builder(build_hf(name), tmp, PRECISIONS[quantize], "cpu", cache() / "builder-cache")
        os.replace(tmp, out)
    return out


def quantized_via_fp32(name: str) -> Path:
    """int4 from the builder's fp32 export, with the settings the builder's int4 CPU path uses.

    The builder's one-step int4 holds the checkpoint and a whole fp32 copy of the graph at once
    (about 15 GB for a 1.8B model, more than this shared machine can spare); its fp32 export
    streams to disk instead. ONNX Runtime's MatMulNBits quantizer then writes what the builder's
    int4 path writes (4-bit, blocks of 32, symmetric, accuracy level 4, embeddings quantized too),
    so the speed is the same; the row ``qwen3-int4-via-fp32`` checks that against ``qwen3-int4``.
    The fp32 graph reads the tied embeddings through a Transpose of the fp32 output matrix; that is
    replaced by the builder's own form (a gather from the quantized output matrix), or the model
    would keep a 1 GB fp32 copy that the builder's int4 model has not.
    """
    out = cache() / f"genai-{name}-int4-via-fp32"
    if (out / "model.onnx").is_file():
        return out
    src = exported(name, "none")
    from mkdocs_zh_translate.export.int4 import quantize_int4

    print(f"quantizing {name}'s fp32 export to int4 ...", file=sys.stderr, flush=True)
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    quantize_int4(src, tmp)  # export's own two-step int4 (the stale fp32 manifest is dropped below)
    (tmp / "manifest.json").unlink(missing_ok=True)
    os.replace(tmp, out)
    return out


def llama_gguf(name: str, kind: str) -> Path:
    from benchmarks.llama_cpp_rows import gguf

    return gguf(build_hf(name), cache(), name, SHAPES[name]["arch"], kind.removeprefix("llama-"))


def prompts(seed: int = 1) -> list[list[int]]:
    """32 prompts of 45-100 token ids (ids 300-30000: ordinary pieces), fixed."""
    import random

    rnd = random.Random(seed)
    out = [[rnd.randrange(300, 30000) for _ in range(45 + (i * 55) // (SENTENCES - 1))] for i in range(SENTENCES)]
    return sorted(out, key=len)


def _genai_runner(path: Path) -> Any:
    import numpy as np
    import onnxruntime_genai as og

    config = og.Config(str(path))
    config.overlay(json.dumps({"model": {"decoder": {"session_options": {"intra_op_num_threads": THREADS}}}}))
    model = og.Model(config)

    def run(batch: list[list[int]]) -> int:
        width = max(map(len, batch))
        ids = np.zeros((len(batch), width), dtype=np.int32)
        for row, p in enumerate(batch):
            ids[row, : len(p)] = p
        params = og.GeneratorParams(model)
        params.set_search_options(max_length=width + NEW_TOKENS, min_length=width + NEW_TOKENS, batch_size=len(batch),
                                  do_sample=False, num_beams=1)
        generator = og.Generator(model, params)
        generator.append_tokens(ids)
        while not generator.is_done():
            generator.generate_next_token()
        got = [len(generator.get_sequence(r)) - width for r in range(len(batch))]
        assert got == [NEW_TOKENS] * len(batch), got
        return sum(got)
    return run


def _transformers_runner(path: Path) -> Any:
    import torch
    from transformers import AutoModelForCausalLM

    torch.set_num_threads(THREADS)
    model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.float32).eval()

    def run(batch: list[list[int]]) -> int:
        width = max(map(len, batch))
        ids = torch.zeros((len(batch), width), dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, p in enumerate(batch):  # left padding, as generate() wants for decoder-only models
            ids[row, width - len(p):] = torch.tensor(p)
            mask[row, width - len(p):] = 1
        with torch.inference_mode():
            out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=NEW_TOKENS,
                                 min_new_tokens=NEW_TOKENS, do_sample=False, num_beams=1, pad_token_id=0)
        assert out.shape[1] == width + NEW_TOKENS
        return NEW_TOKENS * len(batch)
    return run


def _seq2seq_runner() -> tuple[Any, list[list[int]]]:
    from benchmarks.engine import sentences
    from mkdocs_zh_translate.engine import OnnxTranslator

    path = Path(os.environ.get("ZH_SEQ2SEQ_MODEL", str(cache().parent / "marian" / "onnx-int8")))
    tr = OnnxTranslator(path, num_beams=1, threads=THREADS, max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS,
                        max_batch_tokens=1 << 20, max_batch_sentences=1 << 20)

    def run(batch: list[list[int]]) -> int:
        res = tr.generate_ids(batch)
        assert all(len(h[0].ids) == NEW_TOKENS for h in res)
        return NEW_TOKENS * len(batch)
    return run, sorted(sentences(SENTENCES), key=len)


def child(row: str, launched: float, every: int, repeats: int) -> None:
    """One row in this (fresh) process: ready time, best workload time of ``repeats``, peak RSS."""
    name, kind = ROWS[row]
    data = prompts()
    batch = 1 if row in SEQUENTIAL or kind.startswith("llama-") else BATCH
    if name == "marian":
        run, data = _seq2seq_runner()
    elif kind == "transformers":
        run = _transformers_runner(build_hf(name))
        # The slowest row, on a shared 2-core machine: every 4th prompt (the same spread of
        # lengths), in one batch; tokens/s is still comparable, sentences/s per sentence too.
        quick = every == 1 and os.environ.get("ZH_BENCH_QUICK_TRANSFORMERS") != "0"
        data = data[::4] if quick else data
    elif kind.startswith("llama-"):
        from benchmarks.llama_cpp_rows import runner

        run = runner(llama_gguf(name, kind), THREADS, NEW_TOKENS)
    else:
        run = _genai_runner(exported(name, kind))
    data = data[::every]
    ready = time.time() - launched
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        tokens = sum(run(data[i: i + batch]) for i in range(0, len(data), batch))
        best = min(best, time.perf_counter() - started)
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmHWM:"))
    print(json.dumps({"row": row, "ready_s": ready, "seconds": best, "sentences_s": len(data) / best,
                      "tokens_s": tokens / best, "peak_rss_mb": peak, "sentences": len(data), "batch": batch}))


def runnable(rows: list[str]) -> list[str]:
    """``rows`` less the llama.cpp ones, with one line saying why, when llama_cpp does not import."""
    from benchmarks.llama_cpp_rows import unavailable

    why = unavailable() if any(ROWS[r][1].startswith("llama-") for r in rows) else None
    if why:
        print(why, file=sys.stderr, flush=True)
        return [r for r in rows if not ROWS[r][1].startswith("llama-")]
    return rows


def prepare(row: str) -> None:
    """Build, export or convert what ``row`` needs, outside the timed children."""
    name, kind = ROWS[row]
    if name == "marian":
        return
    if kind == "transformers":
        build_hf(name)
    elif kind.startswith("llama-"):
        llama_gguf(name, kind)
    else:
        exported(name, kind)


def ratio(r: dict[str, Any], base: dict[str, Any] | None) -> str:
    return f"{r['tokens_s'] / base['tokens_s']:.2f}" if base else "-"


def table(results: list[dict[str, Any]], every: int) -> None:
    gemma_extrapolated(results)
    by_row = {r["row"]: r for r in results}
    base, hf = by_row.get("seq2seq-int8"), by_row.get("qwen3-transformers")
    print(f"\n{NEW_TOKENS} new tokens a sentence, greedy, {THREADS} threads, every {every}th of {SENTENCES} "
          f"prompts; batch {BATCH} (1 for llama.cpp and -b1 rows)\n")
    print("| row | sentences | sentences/s | tokens/s | × seq2seq | × transformers (Qwen3 fp32) "
          "| × llama.cpp Q4_0 (same shape) | cold start s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        name = ROWS[r["row"]][0]
        llama = next((x for x in results if ROWS[x["row"]] == (name, "llama-q4_0")), None)
        print(f"| {r['row']} | {r['sentences']} | {r['sentences_s']:.2f} | {r['tokens_s']:.1f} | {ratio(r, base)} | "
              f"{ratio(r, hf)} | {ratio(r, llama)} | {r['ready_s']:.2f} | {r['peak_rss_mb']:.0f} |")


def gemma_extrapolated(results: list[dict[str, Any]]) -> None:
    """TranslateGemma-4B's 34 layers from its 2- and 6-layer rows, linear in the layer count.

    Seconds per token, peak RSS and cold start each grow by one layer's share per layer; the rest
    (the 262k-entry embedding and output matrix, the runtime) is the part common to both rows.
    Appended as a row marked ``extrapolated``.
    """
    rows = {r["row"]: r for r in results}
    small, large = rows.get("gemma-l2-int4"), rows.get("gemma-l6-int4")
    if not small or not large:
        return

    def at(key: str, invert: bool = False) -> float:
        a, b = (1 / small[key], 1 / large[key]) if invert else (small[key], large[key])
        value = a + (b - a) * (GEMMA_LAYERS - 2) / 4
        return 1 / value if invert else value

    tokens_s = at("tokens_s", invert=True)
    results.append({"row": "gemma-l34-int4 (extrapolated)", "ready_s": at("ready_s"), "seconds": 0.0,
                    "sentences_s": tokens_s / NEW_TOKENS, "tokens_s": tokens_s, "peak_rss_mb": at("peak_rss_mb"),
                    "sentences": small["sentences"], "batch": small["batch"]})
    ROWS["gemma-l34-int4 (extrapolated)"] = ("translategemma-4b", "int4")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--every", type=int, default=1, help="time every Nth prompt only (every row alike)")
    parser.add_argument("--repeats", type=int, default=2, help="workload runs per row; the best is reported")
    parser.add_argument("--child")
    parser.add_argument("--launched", type=float)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.launched, args.every, args.repeats)
        return
    unknown = [r for r in args.rows.split(",") if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows: {', '.join(unknown)} (known: {', '.join(ROWS)})")
    rows = runnable(args.rows.split(","))
    for row in rows:
        prepare(row)
    results = []
    env = {**os.environ, "OMP_NUM_THREADS": str(THREADS), "PYTHONPATH": str(REPO)}
    for row in rows:
        command = [sys.executable, __file__, "--child", row, "--launched", repr(time.time()),
                   "--every", str(args.every), "--repeats", str(args.repeats)]
        # llama.cpp's OpenMP threads spin while they wait; on a machine shared with other work
        # that made one prompt 3-25x slower than with passive waiting (ONNX Runtime: its defaults).
        wait = {"OMP_WAIT_POLICY": "passive"} if ROWS[row][1].startswith("llama-") else {}
        done = subprocess.run(command, capture_output=True, text=True, env={**wait, **env}, check=False)
        line = [x for x in done.stdout.splitlines() if x.startswith("{")]
        if done.returncode or not line:
            print(f"{row}: failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}", file=sys.stderr)
            continue
        results.append(json.loads(line[-1]))
        print(line[-1], file=sys.stderr, flush=True)
    table(results, args.every)


if __name__ == "__main__":
    main()
