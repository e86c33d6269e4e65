"""Engine benchmark: our ONNX Runtime engine vs transformers generate() vs CTranslate2, one run.

Protocol (see BENCHMARKS.md): a random-weight MarianMT with opus-mt-en-zh's exact shape
(d_model 512, 6+6 layers, 8 heads, FFN 2048, vocab 65001), built offline and cached; every
engine is forced to emit 32 tokens per sentence (EOS banned below the minimum length, forced at
the maximum); 32 sentences of 15-70 source tokens, sorted by length, batch 16 and batch 1, beams
4 and 1. Rounds are interleaved and the best of 3 is reported, because the machine is shared.
Speed is reported as a ratio to transformers beam 4 batch 16 measured in the same run.
Cold start (process start to model ready) and peak RSS (load + the batch-16 workload) are
measured in fresh subprocesses, and so is the peak RSS of the ``translate`` CLI (the console
script's ``main``) on 64 lines of 15-69 source tokens at its default settings (beams, batch
budget and threads from the model and the engine; only the 32 forced new tokens are given).

The ``translate`` CLI as users run it (issue "Build overhead", engine part), in the same run and
on those 64 lines, interleaved with transformers and CTranslate2 on the same source ids (beam 4,
sorted batches of 16, the calls alone): ours int8 at the benchmark's configuration (batches of
16, no token budget), ours int8 in-process at default settings (``OnnxTranslator`` with only the
32 forced tokens given, ``translate(lines)``: the CLI's batch plan and threads without its
start-up), an experiment decoding the default batch plan two batches at a time on one-thread
sessions (``batch_streams``), and ``python -m mkdocs_zh_translate translate`` as a whole
process (wall time from launch to exit: start-up, load, batches and output), plus its start-up
alone (one empty line).
Wall time is the minimum over rounds; CPU seconds (all threads, the child's for the process)
show how much of a difference is the machine's noise.

    python3 benchmarks/engine.py [--rounds 3] [--quick]
    python3 benchmarks/engine.py --cli-only [--rounds 3]   # only the 64-line CLI comparison

Cache: $ZH_TRANSLATE_BENCH_CACHE (default <repo>/.cache/bench).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

VOCAB = 65001
PAD = 65000
NEW_TOKENS = 32


ENGINES = ("transformers", "ours-fp32", "ours-int8", "ct2-int8")
# Not in the default set: ``ours-int8-align`` (also ``ours-fp32-align``) decodes as ``ours-int8``
# and then runs the alignment pass (``OnnxTranslator.attention``) over the chosen hypotheses,
# what the ``project`` markup strategy costs: ``--engines ours-int8,ours-int8-align``.


def cache_dir() -> Path:
    return Path(os.environ.get("ZH_TRANSLATE_BENCH_CACHE", REPO / ".cache" / "bench"))


# --- model building (offline) -------------------------------------------------------------
def build_hf_model(out: Path) -> Path:
    """A random MarianMT with opus-mt-en-zh's shape and special ids, plus a matching tokenizer."""
    if (out / "model.safetensors").is_file():
        return out
    import random

    import sentencepiece as spm
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    out.mkdir(parents=True, exist_ok=True)
    rnd = random.Random(0)
    words = [f"w{i}" for i in range(400)]
    corpus = out / "corpus.txt"
    corpus.write_text("\n".join(" ".join(rnd.choice(words) for _ in range(12)) for _ in range(4000)))
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(out / "spm"), vocab_size=300,
                                   bos_id=-1, eos_id=-1, pad_id=-1, unk_id=0, unk_piece="<unk>",
                                   minloglevel=2)
    corpus.unlink()
    (out / "spm.model").rename(out / "source.spm")
    (out / "spm.vocab").unlink()
    (out / "target.spm").write_bytes((out / "source.spm").read_bytes())
    sp = spm.SentencePieceProcessor(model_file=str(out / "source.spm"))
    vocab = {"</s>": 0, "<unk>": 1}
    for i in range(sp.get_piece_size()):
        vocab.setdefault(sp.id_to_piece(i), len(vocab))
    while len(vocab) < PAD:
        vocab[f"\u2581x{len(vocab)}"] = len(vocab)
    vocab["<pad>"] = PAD
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    MarianTokenizer(str(out / "source.spm"), str(out / "target.spm"), str(out / "vocab.json"),
                    source_lang="en", target_lang="zh").save_pretrained(out)
    config = MarianConfig(
        vocab_size=VOCAB, d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
        decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, max_position_embeddings=512,
        activation_function="swish", scale_embedding=True, pad_token_id=PAD, eos_token_id=0,
        decoder_start_token_id=PAD, forced_eos_token_id=0, share_encoder_decoder_embeddings=True,
    )
    torch.manual_seed(0)
    model = MarianMTModel(config)
    model.generation_config.update(bad_words_ids=[[PAD]], num_beams=4, max_length=512)
    model.save_pretrained(out)
    return out


def onnx_model(quant: str, rebuild: bool = False) -> Path:
    """Our export ("fp32" or "int8") of the random opus-mt-shaped model, rebuilt when stale.

    The exporter's source is part of the key: a graph rewrite that keeps the format number
    (same engine contract, other nodes) must not be benchmarked on a stale export.
    """
    from mkdocs_zh_translate.export import export_model
    from mkdocs_zh_translate.model_format import FORMAT_VERSION
    from tests.models import exporter_key

    base = cache_dir()
    build_hf_model(base / "hf")
    exporter = f"format {FORMAT_VERSION} exporter {exporter_key()}"
    out, stamp = base / f"onnx-{quant}", base / f"onnx-{quant}.exporter"
    if rebuild or not (out / "manifest.json").is_file() or not stamp.is_file() or stamp.read_text() != exporter:
        print(f"exporting {quant} ...", file=sys.stderr, flush=True)
        export_model(str(base / "hf"), out, quantize="none" if quant == "fp32" else "int8")
        stamp.write_text(exporter)
    return out


def prepare(rebuild: bool = False, engines: tuple[str, ...] = ENGINES) -> dict[str, Path]:
    """The models ``engines`` need (every one by default), built or exported when missing."""
    base = cache_dir()
    paths = {"hf": build_hf_model(base / "hf"), "ct2": base / "ct2-int8"}
    for quant in ("fp32", "int8"):
        if any(e.startswith(f"ours-{quant}") for e in engines):
            paths[quant] = onnx_model(quant, rebuild)
    if "ct2-int8" in engines and not (paths["ct2"] / "model.bin").is_file():
        import ctranslate2.converters

        print("converting for CTranslate2 ...", file=sys.stderr, flush=True)
        ctranslate2.converters.TransformersConverter(str(paths["hf"])).convert(
            str(paths["ct2"]), quantization="int8", force=True)
    return paths


def sentences(count: int = 32, seed: int = 1) -> list[list[int]]:
    """Source ids of 15-70 tokens (EOS included), random but fixed."""
    import random

    rnd = random.Random(seed)
    out = []
    for i in range(count):
        n = 15 + (i * 55) // (count - 1) if count > 1 else 40
        out.append([rnd.randrange(2, PAD) for _ in range(n - 1)] + [0])
    rnd.shuffle(out)
    return out


# --- engines: each returns a callable run(batch_of_ids) -> None -----------------------------
def load_engine(kind: str, paths: dict[str, Path], beams: int, threads: int):
    if kind.startswith("ours"):
        from mkdocs_zh_translate.engine import OnnxTranslator

        tr = OnnxTranslator(paths["int8" if kind.startswith("ours-int8") else "fp32"], num_beams=beams, threads=threads,
                            max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS, max_batch_tokens=1 << 20,
                            max_batch_sentences=1 << 20)

        def run(batch):
            res = tr.generate_ids(batch)
            assert all(len(h[0].ids) == NEW_TOKENS for h in res), [len(h[0].ids) for h in res]
            if kind.endswith("-align"):  # the ``project`` markup strategy's extra teacher-forced pass
                tr.attention(batch, [h[0].ids for h in res])
        return run
    if kind == "transformers":
        import torch
        from transformers import MarianMTModel

        torch.set_num_threads(threads)
        model = MarianMTModel.from_pretrained(paths["hf"]).eval()

        def run(batch):
            width = max(map(len, batch))
            ids = torch.full((len(batch), width), PAD, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for r, s in enumerate(batch):
                ids[r, : len(s)] = torch.tensor(s)
                mask[r, : len(s)] = 1
            with torch.inference_mode():
                out = model.generate(input_ids=ids, attention_mask=mask, num_beams=beams,
                                     max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS)
            assert out.shape[1] == NEW_TOKENS + 1
        return run
    if kind == "ct2-int8":
        import ctranslate2

        trans = ctranslate2.Translator(str(paths["ct2"]), device="cpu", compute_type="int8",
                                       intra_threads=threads, inter_threads=1)
        vocab = json.loads((paths["hf"] / "vocab.json").read_text())
        inv = {v: k for k, v in vocab.items()}

        def run(batch):
            toks = [[inv[i] for i in s[:-1]] + ["</s>"] for s in batch]
            # beam_size must be explicit (CTranslate2 defaults to 2); lengths fixed like the others.
            res = trans.translate_batch(toks, beam_size=beams, max_decoding_length=NEW_TOKENS,
                                        min_decoding_length=NEW_TOKENS, max_batch_size=len(batch))
            assert len(res) == len(batch)
        return run
    raise ValueError(kind)


def timed(run, batches) -> float:
    t0 = time.perf_counter()
    for b in batches:
        run(b)
    return time.perf_counter() - t0


def child(kind: str, beams: int, threads: int, workload: bool, t_launch: float) -> None:
    """Subprocess entry: report time to model ready (from launch) and peak RSS after a workload."""
    import resource

    paths = {k: Path(v) for k, v in json.loads(os.environ["ZH_BENCH_PATHS"]).items()}
    run = load_engine(kind, paths, beams, threads)
    ready = time.time() - t_launch
    if workload:
        data = sorted(sentences(), key=len)
        run(data[:16])
        run(data[16:])
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across fork+exec, so a child of this big
    # benchmark process would report the parent's peak.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                peak_mb = int(line.split()[1]) / 1024
    print(json.dumps({"ready_s": ready, "peak_rss_mb": peak_mb}))


def cli_lines(paths: dict[str, Path], count: int = 64, seed: int = 3) -> list[str]:
    """``count`` text lines whose source encodings have 15-69 tokens (EOS included), fixed."""
    import random

    from mkdocs_zh_translate.engine.tokenizer import MarianSpmTokenizer

    settings = json.loads((paths["int8"] / "generation.json").read_text())["tokenizer"]
    tok = MarianSpmTokenizer(paths["int8"], settings)
    rnd = random.Random(seed)
    lines = []
    for i in range(count):
        want = 15 + (i * 54) // (count - 1)
        words: list[str] = []
        while len(tok.encode(" ".join(words))) < want:
            words.append(f"w{rnd.randrange(400)}")
        while len(tok.encode(" ".join(words))) > want and len(words) > 1:
            words.pop()
        lines.append(" ".join(words))
    return lines


def cli_child(argv: list[str]) -> None:
    """Subprocess entry: run the console script's ``main`` on stdin, then print its peak RSS."""
    from mkdocs_zh_translate.cli import main as cli_main

    rc = cli_main(argv)
    with open("/proc/self/status") as fh:
        peak_mb = next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmHWM:"))
    print(json.dumps({"rc": rc, "peak_rss_mb": peak_mb}), file=sys.stderr)


def cli_rss(paths: dict[str, Path], quant: str = "int8") -> float:
    """Peak RSS (MB) of ``mkdocs-zh-translate translate`` on :func:`cli_lines`, defaults otherwise."""
    text = "".join(line + "\n" for line in cli_lines(paths))
    args = ["translate", "--model", str(paths[quant]), "--min-new-tokens", str(NEW_TOKENS),
            "--max-new-tokens", str(NEW_TOKENS)]
    proc = subprocess.run([sys.executable, __file__, "--cli-child", *args], input=text, capture_output=True,
                          text=True, timeout=900)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    if proc.returncode != 0 or report["rc"] != 0 or len(proc.stdout.splitlines()) != 64:
        raise RuntimeError(f"translate CLI failed: {proc.stderr[-2000:]}")
    return float(report["peak_rss_mb"])


def cli_process(paths: dict[str, Path], lines: list[str], quant: str = "int8") -> tuple[float, float]:
    """(wall s, CPU s) of ``python -m mkdocs_zh_translate translate`` on ``lines``, as users run it."""
    import resource

    text = "".join(line + "\n" for line in lines)
    args = [sys.executable, "-m", "mkdocs_zh_translate", "translate", "--model", str(paths[quant]),
            "--min-new-tokens", str(NEW_TOKENS), "--max-new-tokens", str(NEW_TOKENS)]
    env = dict(os.environ, PYTHONPATH=str(REPO))  # this tree's package, whatever is installed
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(args, input=text, capture_output=True, text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or len(proc.stdout.splitlines()) != len(lines):
        raise RuntimeError(f"translate CLI failed: {proc.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def batch_streams(paths: dict[str, Path], ids: list[list[int]], streams: int):
    """An experiment, not the engine's behaviour: the default batch plan of ``ids`` decoded by
    ``streams`` Python threads at once, each taking the next batch and running it on a
    one-thread ONNX Runtime session (no intra-op hand-overs; CTranslate2's ``inter_threads``).
    See BENCHMARKS.md (issue 21, second round) for why it is not the default. Returns a job."""
    import threading

    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.engine.batching import plan_batches

    single = OnnxTranslator(paths["int8"], threads=1, max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS)
    plan = plan_batches([len(s) for s in ids], single.max_batch_tokens, single.max_batch_sentences)
    single.generate_ids(ids[:2])  # warm-up

    def job() -> float:
        queue = list(plan)
        lock = threading.Lock()

        def work() -> None:
            while True:
                with lock:
                    if not queue:
                        return
                    batch = queue.pop(0)
                single.generate_ids([ids[i] for i in batch])

        t0 = time.perf_counter()
        workers = [threading.Thread(target=work) for _ in range(streams)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return time.perf_counter() - t0
    return job


def cli_comparison(paths: dict[str, Path], rounds: int, threads: int) -> list[str]:
    """The 64-line workload: transformers and CTranslate2 calls alone, ours at the benchmark's
    configuration and at default settings in-process, and the CLI as a whole process; rows of a
    Markdown table with ratios to transformers beam 4 and to CTranslate2 int8 (wall time)."""
    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.engine.session import default_threads

    lines = cli_lines(paths)
    default = OnnxTranslator(paths["int8"], max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS)
    ids = sorted((default.tokenizer.encode(line) for line in lines), key=len)
    batches = [ids[i: i + 16] for i in range(0, len(ids), 16)]
    loaded = {e: load_engine(e, paths, 4, threads) for e in ("transformers", "ct2-int8", "ours-int8")}

    def translate_default() -> None:
        out = default.translate(lines)
        assert len(out) == len(lines)

    streams = batch_streams(paths, ids, threads)

    jobs = {
        "transformers beam 4, batches of 16 (call alone)": lambda: timed(loaded["transformers"], batches),
        "CTranslate2 int8 beam 4, batches of 16 (call alone)": lambda: timed(loaded["ct2-int8"], batches),
        "ours int8, benchmark configuration (batches of 16)": lambda: timed(loaded["ours-int8"], batches),
        "ours int8, default settings, in-process": lambda: timed(lambda _: translate_default(), [None]),
        f"ours int8, default batch plan, {threads} batches at once x 1 thread (experiment)": streams,
        "translate CLI int8, whole process (defaults)": lambda: cli_process(paths, lines),
        "translate CLI start-up (one empty line)": lambda: cli_process(paths, [""]),
    }
    for run in loaded.values():
        run(batches[0][:2])  # warm-up
    default.translate(lines[:2])
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for r in range(rounds):
        for name, job in jobs.items():
            c0 = time.process_time()
            got = job()
            w, c = got if isinstance(got, tuple) else (got, time.process_time() - c0)
            if w < wall.get(name, float("inf")):
                wall[name], cpu[name] = w, c
            print(f"round {r + 1}: {name}: {w:.2f} s wall, {c:.2f} s CPU", file=sys.stderr, flush=True)
    names = list(jobs)
    hf, ct2 = names[0], names[1]
    out = [f"64 lines of 15-69 source tokens, {NEW_TOKENS} forced new tokens, beam 4; in-process engines "
           f"{threads} threads, defaults {default_threads()} threads; best of {rounds} interleaved rounds "
           "(ratios of wall time; in brackets of CPU time, steadier on a shared machine)",
           "| run | wall s | CPU s | lines/s | x transformers beam 4 | x CTranslate2 int8 |",
           "|---|---|---|---|---|---|"]
    for name in names[:-1]:
        out.append(f"| {name} | {wall[name]:.2f} | {cpu[name]:.2f} | {len(lines) / wall[name]:.2f} | "
                   f"{wall[hf] / wall[name]:.2f} ({cpu[hf] / cpu[name]:.2f}) | "
                   f"{wall[ct2] / wall[name]:.2f} ({cpu[ct2] / cpu[name]:.2f}) |")
    out.append(f"| {names[-1]} | {wall[names[-1]]:.2f} | {cpu[names[-1]]:.2f} | | | |")
    return out


def in_subprocess(kind: str, beams: int, threads: int, workload: bool, paths: dict[str, Path]) -> dict:
    env = dict(os.environ, ZH_BENCH_PATHS=json.dumps({k: str(v) for k, v in paths.items()}))
    t0 = time.time()
    proc = subprocess.run([sys.executable, __file__, "--child", kind, "--beams", str(beams), "--threads",
                           str(threads), "--t-launch", repr(t0)] + (["--workload"] if workload else []),
                          capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"{kind} child failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one round (a smoke test while developing)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch1-sentences", type=int, default=8)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--no-subprocess", action="store_true", help="skip cold start / RSS")
    ap.add_argument("--subprocess-only", action="store_true", help="only cold start / RSS")
    ap.add_argument("--child")
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--t-launch", type=float)
    ap.add_argument("--workload", action="store_true")
    ap.add_argument("--cli-rss", action="store_true", help="only the translate CLI's peak RSS")
    ap.add_argument("--cli-only", action="store_true", help="only the 64-line CLI comparison (and its peak RSS)")
    args = ap.parse_args()
    if args.quick:
        args.rounds = 1
    return args


def subprocess_table(engines: list[str], paths: dict[str, Path], threads: int) -> None:
    print("| engine | beams | batch | cold start s (best of 3) | peak RSS MB (load + batch-16 workload) |")
    print("|---|---|---|---|---|")
    for e in engines:
        cold = min(in_subprocess(e, 4, threads, False, paths)["ready_s"] for _ in range(3))
        rss = in_subprocess(e, 4, threads, True, paths)["peak_rss_mb"]
        print(f"| {e} | 4 | 16 | {cold:.2f} | {rss:.0f} |", flush=True)


def measure_configs(engines: list[str], paths: dict[str, Path], rounds: int, threads: int,
                    batch1_sentences: int) -> tuple[list[tuple], dict[tuple, float], list[list[int]]]:
    """Sentences per second (best of interleaved rounds) of every engine at beams 4 and 1,
    batches of 16 and of 1."""
    data = sorted(sentences(), key=len)
    batch16 = [data[:16], data[16:]]
    one = sorted(sentences(batch1_sentences, seed=2), key=len)
    batch1 = [[s] for s in one]
    configs = [(e, b, bs) for bs in (16, 1) for b in (4, 1) for e in engines]
    loaded = {}
    for e in engines:
        for b in (4, 1):
            loaded[(e, b)] = load_engine(e, paths, b, threads)
            loaded[(e, b)](data[:2])  # warm-up
    best: dict[tuple, float] = {}
    for r in range(rounds):
        for cfg in configs:
            e, b, bs = cfg
            batches, n = (batch16, len(data)) if bs == 16 else (batch1, len(one))
            sps = n / timed(loaded[(e, b)], batches)
            best[cfg] = max(best.get(cfg, 0.0), sps)
            print(f"round {r + 1}: {e} beams {b} batch {bs}: {sps:.2f} sent/s", file=sys.stderr, flush=True)
    return configs, best, one


def print_engine_table(engines: list[str], configs: list[tuple], best: dict[tuple, float],
                       extra: dict[str, tuple[float, float]], *, rounds: int, threads: int, batch1: int) -> None:
    base = best[("transformers", 4, 16)] if "transformers" in engines else None
    print(f"\nthreads {threads}, best of {rounds} interleaved rounds, {NEW_TOKENS} forced new tokens; "
          f"batch 16: 32 sentences, batch 1: {batch1} sentences")
    print("| engine | beams | batch | sent/s | x transformers beam 4 batch 16 | cold start s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for cfg in configs:
        e, b, bs = cfg
        ratio = f"{best[cfg] / base:.2f}" if base else "-"
        cold, rss = extra.get(e, (None, None)) if (b == 4 and bs == 16) else (None, None)
        cold_s = f"{cold:.2f}" if cold is not None else ""
        rss_s = f"{rss:.0f}" if rss is not None else ""
        print(f"| {e} | {b} | {bs} | {best[cfg]:.2f} | {ratio} | {cold_s} | {rss_s} |")
    if "ct2-int8" in engines and "ours-int8" in engines:
        print(f"\nours int8 / CTranslate2 int8, beams 4 batch 16: "
              f"{best[('ours-int8', 4, 16)] / best[('ct2-int8', 4, 16)]:.2f}x")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--cli-child":
        cli_child(sys.argv[2:])
        return
    args = parse_args()
    if args.child:
        child(args.child, args.beams, args.threads, args.workload, args.t_launch)
        return

    engines = args.engines.split(",")
    paths = prepare(engines=tuple(engines))
    if args.cli_rss:
        print(f"translate CLI, 64 lines, defaults: peak RSS {cli_rss(paths):.0f} MB")
        return
    if args.cli_only:
        print("\n".join(cli_comparison(paths, args.rounds, args.threads)))
        print(f"translate CLI (int8, 64 lines, default settings): peak RSS {cli_rss(paths):.0f} MB")
        return
    if args.subprocess_only:
        subprocess_table(engines, paths, args.threads)
        return
    configs, best, one = measure_configs(engines, paths, args.rounds, args.threads, args.batch1_sentences)
    extra = {}
    if not args.no_subprocess:
        for e in engines:
            cold = min(in_subprocess(e, 4, args.threads, False, paths)["ready_s"] for _ in range(2))
            rss = in_subprocess(e, 4, args.threads, True, paths)["peak_rss_mb"]
            extra[e] = (cold, rss)
    cli_table = cli_comparison(paths, args.rounds, args.threads) \
        if {"transformers", "ct2-int8", "ours-int8"} <= set(engines) else []
    cli_mb = None if args.no_subprocess else cli_rss(paths)
    print_engine_table(engines, configs, best, extra, rounds=args.rounds, threads=args.threads, batch1=len(one))
    if cli_table:
        print("\n" + "\n".join(cli_table))
    if cli_mb is not None:
        print(f"translate CLI (int8, 64 lines of 15-69 tokens, default settings): peak RSS {cli_mb:.0f} MB")


if __name__ == "__main__":
    main()
