"""Decoder-only translators at real shapes: ONNX Runtime GenAI vs transformers vs our seq2seq engine.

Protocol: random weights (nothing can be downloaded here) at the real shapes of Qwen3-0.6B
and Hy-MT2-1.8B (HunYuan dense, as HY-MT1.5-1.8B's config.json), built offline with a small
byte-level BPE tokenizer (the builder saves one; the benchmark feeds token ids), exported by our
``export`` (GenAI's model builder: int4 for the CPU, fp32 for the like-for-like row against
transformers). Every engine must emit exactly ``NEW_TOKENS`` tokens per sentence (random weights
do not stop; min length = max length). Workload: 32 prompts of 45-100 tokens (a translation
prompt's frame and instruction plus a 15-70 token sentence), sorted by length, greedy, batch 16;
2 intra-op threads. Each row runs in a fresh subprocess: cold start (launch to model ready),
then the workload twice (the best is reported), then peak RSS (VmHWM).
The seq2seq row is our ONNX engine on opus-mt-en-zh's shape (int8, from ``benchmarks/engine.py``'s
cache) on 32 sentences of 15-70 source tokens with the same 32 new tokens. TranslateGemma-4B
(fp32 random weights: 16 GB to build) does not fit beside the other work of a shared 24 GiB
machine and is left out.

    PYTHONPATH=$PWD python3 benchmarks/decoder_models.py [--rows qwen3-int4,hy-int4,...]

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
ROWS = {
    "seq2seq-int8": ("marian", "int8"),
    "qwen3-int4": ("qwen3-0.6b", "int4"),
    "qwen3-fp32": ("qwen3-0.6b", "none"),
    "qwen3-transformers": ("qwen3-0.6b", "transformers"),
    "hy-int4": ("hy-mt2-1.8b", "int4"),
}


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
    out = cache() / f"genai-{name}-{quantize}"
    if not (out / "manifest.json").is_file():
        from mkdocs_zh_translate.export import export_any

        print(f"exporting {name} {quantize} ...", file=sys.stderr, flush=True)
        export_any(str(build_hf(name)), out, quantize=quantize)
    return out


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


def child(row: str, launched: float) -> None:
    """One row in this (fresh) process: ready time, best workload time of two, peak RSS."""
    name, kind = ROWS[row]
    data = prompts()
    if name == "marian":
        run, data = _seq2seq_runner()
    elif kind == "transformers":
        run = _transformers_runner(build_hf(name))
        # The slowest row, on a shared 2-core machine: every 4th prompt (the same spread of
        # lengths), in one batch; tokens/s is still comparable, sentences/s per sentence too.
        data = data[::4] if os.environ.get("ZH_BENCH_QUICK_TRANSFORMERS") != "0" else data
    else:
        run = _genai_runner(exported(name, kind))
    ready = time.time() - launched
    best = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        tokens = sum(run(data[i: i + BATCH]) for i in range(0, len(data), BATCH))
        best = min(best, time.perf_counter() - started)
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmHWM:"))
    print(json.dumps({"row": row, "ready_s": ready, "seconds": best, "sentences_s": len(data) / best,
                      "tokens_s": tokens / best, "peak_rss_mb": peak}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--child")
    parser.add_argument("--launched", type=float)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.launched)
        return
    rows = args.rows.split(",")
    for row in rows:  # build and export first, outside the timed children
        name, kind = ROWS[row]
        if name != "marian":
            build_hf(name) if kind == "transformers" else exported(name, kind)
    results = []
    env = {**os.environ, "OMP_NUM_THREADS": str(THREADS), "PYTHONPATH": str(REPO)}
    for row in rows:
        done = subprocess.run([sys.executable, __file__, "--child", row, "--launched", repr(time.time())],
                              capture_output=True, text=True, env=env, check=False)
        line = [x for x in done.stdout.splitlines() if x.startswith("{")]
        if done.returncode or not line:
            print(f"{row}: failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}", file=sys.stderr)
            continue
        results.append(json.loads(line[-1]))
        print(line[-1], file=sys.stderr, flush=True)
    base = next((r for r in results if r["row"] == "seq2seq-int8"), None)
    hf = next((r for r in results if r["row"] == "qwen3-transformers"), None)
    print(f"\n{NEW_TOKENS} new tokens x {SENTENCES} sentences, greedy, batch {BATCH}, {THREADS} threads\n")
    print("| row | sentences/s | tokens/s | × seq2seq | × transformers (Qwen3 fp32) | cold start s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        vs_base = f"{r['tokens_s'] / base['tokens_s']:.2f}" if base else "-"
        vs_hf = f"{r['tokens_s'] / hf['tokens_s']:.2f}" if hf else "-"
        print(f"| {r['row']} | {r['sentences_s']:.2f} | {r['tokens_s']:.1f} | {vs_base} | {vs_hf} | "
              f"{r['ready_s']:.2f} | {r['peak_rss_mb']:.0f} |")


if __name__ == "__main__":
    main()
