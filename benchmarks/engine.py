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
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import shapes  # noqa: E402 - the path above

NEW_TOKENS = 32
PAD = shapes.SHAPES["marian"]["vocab_size"] - 1  # opus-mt's pad id, the top of the random source ids


ENGINES = ("transformers", "ours-fp32", "ours-int8", "ct2-int8")
# Not in the default set: ``ours-int8-align`` (also ``ours-fp32-align``) decodes as ``ours-int8``
# and then runs the alignment pass (``OnnxTranslator.attention``) over the chosen hypotheses,
# what the ``project`` markup strategy costs: ``--engines ours-int8,ours-int8-align``.


def cache_dir() -> Path:
    return Path(os.environ.get("ZH_TRANSLATE_BENCH_CACHE", REPO / ".cache" / "bench"))


# --- model building (offline; the shapes are in shapes.py) ---------------------------------
def family_dir(family: str = "marian") -> Path:
    """Where one family's random-weight models live: ``<cache>/<family>/{hf,onnx-*,ct2-int8}``."""
    return cache_dir() / family


def build_hf_model(out: Path, family: str = "marian") -> Path:
    """A random-weight ``save_pretrained`` checkpoint of ``family``'s real shape (``shapes.py``)."""
    return shapes.build(family, out)


def onnx_model(quant: str, rebuild: bool = False, family: str = "marian") -> Path:
    """Our export ("fp32" or "int8") of the random model of ``family``'s shape (opus-mt-en-zh's
    by default), rebuilt when stale.

    The exporter's source is part of the key: a graph rewrite that keeps the format number
    (same engine contract, other nodes) must not be benchmarked on a stale export.
    """
    from mkdocs_zh_translate.export import export_model
    from mkdocs_zh_translate.model_format import FORMAT_VERSION
    from tests.models import exporter_key

    base = family_dir(family)
    build_hf_model(base / "hf", family)
    exporter = f"format {FORMAT_VERSION} exporter {exporter_key()}"
    out, stamp = base / f"onnx-{quant}", base / f"onnx-{quant}.exporter"
    if rebuild or not (out / "manifest.json").is_file() or not stamp.is_file() or stamp.read_text() != exporter:
        print(f"exporting {family} {quant} ...", file=sys.stderr, flush=True)
        with _graphs_over_2gb_as_external_data():
            export_model(str(base / "hf"), out, quantize="none" if quant == "fp32" else "int8")
        stamp.write_text(exporter)
    return out


@contextlib.contextmanager
def _graphs_over_2gb_as_external_data():
    """Two workarounds for the export at NLLB-200's real shape. The export saves its
    intermediate float32 graphs in one protobuf: NLLB-200-600M's decoder (a 256,206 x 1024
    embedding and output projection) is over protobuf's 2 GB limit, and ``onnx.save`` fails
    with "Failed to serialize proto". Here such a graph is saved with its weights in an
    external data file beside it, which every later step (the quantiser, ONNX Runtime) reads.
    Graphs under the limit are saved as before."""
    import onnx

    original = onnx.save_model

    def save(model, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        weights = sum(len(t.raw_data) for t in model.graph.initializer)  # ByteSize() overflows past 2 GB
        if not kwargs.get("save_as_external_data") and not args and weights > (1 << 31) - (1 << 26):
            kwargs.update(save_as_external_data=True, all_tensors_to_one_file=True,
                          location=Path(path).name + ".data", size_threshold=1024)
        return original(model, path, *args, **kwargs)

    # The second workaround: NLLB-200's model has 2 ids past its tokenizer (256,206 against
    # 256,204, as on the Hub); the export asks the slow tokenizer for their tokens, and
    # SentencePiece raises. Such ids get CTranslate2's names for them (``madeupword<n>``).
    from transformers import NllbTokenizer

    piece = NllbTokenizer._convert_id_to_token

    def token(self, index):  # type: ignore[no-untyped-def]
        try:
            return piece(self, index)
        except IndexError:
            return f"madeupword{index - len(self)}"

    onnx.save = onnx.save_model = save
    NllbTokenizer._convert_id_to_token = token
    try:
        yield
    finally:
        onnx.save = onnx.save_model = original
        NllbTokenizer._convert_id_to_token = piece


def prepare(rebuild: bool = False, engines: tuple[str, ...] = ENGINES, family: str = "marian") -> dict[str, Path]:
    """The models ``engines`` need (every one by default) for ``family``, built, exported or
    converted when missing. ``paths["family"]`` names the family for subprocesses."""
    base = family_dir(family)
    paths = {"hf": build_hf_model(base / "hf", family), "ct2": base / "ct2-int8", "family": Path(family)}
    for quant in ("fp32", "int8"):
        if any(e.startswith(f"ours-{quant}") for e in engines):
            paths[quant] = onnx_model(quant, rebuild, family)
    if "ct2-int8" in engines and not (paths["ct2"] / "model.bin").is_file():
        print(f"converting {family} for CTranslate2 ...", file=sys.stderr, flush=True)
        shapes.convert_ct2(paths["hf"], paths["ct2"])
    return paths


def family_of(paths: dict[str, Path]) -> str:
    return str(paths.get("family", "marian"))


def hf_tokenizer(paths: dict[str, Path]):
    """transformers' tokenizer of the checkpoint, set to English → Simplified Chinese (the
    sources' ids, CTranslate2's tokens and the forced target token come from it)."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(paths["hf"])
    family = family_of(paths)
    if family == "m2m100":
        tok.src_lang, tok.tgt_lang = "en", "zh"
    elif family == "nllb":
        tok.src_lang, tok.tgt_lang = "eng_Latn", "zho_Hans"
    return tok


def target_token(paths: dict[str, Path]) -> str | None:
    """The token forced first in the target (M2M100 ``__zh__``, NLLB ``zho_Hans``), or None."""
    return {"m2m100": "__zh__", "nllb": "zho_Hans"}.get(family_of(paths))


def default_beams(paths: dict[str, Path]) -> int:
    """The beams ours uses by default for this model (its export's generation settings)."""
    gen = paths.get("int8", paths["hf"]) / ("generation.json" if "int8" in paths else "generation_config.json")
    return int(json.loads(gen.read_text()).get("num_beams") or 1)


def sentences(count: int = 32, seed: int = 1, paths: dict[str, Path] | None = None) -> list[list[int]]:
    """Source ids of 15-70 tokens (EOS included), random but fixed: random opus-mt ids, or for
    another family the ids of made-up lines (language token first, as its tokenizer writes them)."""
    import random

    if paths is not None and family_of(paths) != "marian":
        tok = hf_tokenizer(paths)
        lines = cli_lines(paths, count, seed, low=15, high=70)
        return [list(tok(line).input_ids) for line in lines]

    rnd = random.Random(seed)
    out = []
    for i in range(count):
        n = 15 + (i * 55) // (count - 1) if count > 1 else 40
        out.append([rnd.randrange(2, PAD) for _ in range(n - 1)] + [0])
    rnd.shuffle(out)
    return out


# --- engines: each returns a callable run(batch_of_ids) -> None -----------------------------
def load_engine(kind: str, paths: dict[str, Path], beams: int, threads: int):
    if kind == "ours-int8-defaults":  # as the CLI loads it: every setting from the model and the engine
        from mkdocs_zh_translate.engine import OnnxTranslator

        tr = OnnxTranslator(paths["int8"], max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS)
        return lambda batch: tr.generate_ids(batch)
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
        from transformers import AutoModelForSeq2SeqLM

        torch.set_num_threads(threads)
        model = AutoModelForSeq2SeqLM.from_pretrained(paths["hf"]).eval()
        pad = int(model.config.pad_token_id)
        forced = target_token(paths)
        extra = {"forced_bos_token_id": hf_tokenizer(paths).convert_tokens_to_ids(forced)} if forced else {}

        def run(batch):
            width = max(map(len, batch))
            ids = torch.full((len(batch), width), pad, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for r, s in enumerate(batch):
                ids[r, : len(s)] = torch.tensor(s)
                mask[r, : len(s)] = 1
            with torch.inference_mode():
                out = model.generate(input_ids=ids, attention_mask=mask, num_beams=beams,
                                     max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS, **extra)
            assert out.shape[1] == NEW_TOKENS + 1
        return run
    if kind == "ct2-int8":
        import ctranslate2

        trans = ctranslate2.Translator(str(paths["ct2"]), device="cpu", compute_type="int8",
                                       intra_threads=threads, inter_threads=1)
        # CTranslate2's own vocabulary lists the checkpoint's tokens by id (its converter built it
        # from the tokenizer), so the ids map to tokens without importing transformers here.
        vocab = json.loads((paths["ct2"] / "shared_vocabulary.json").read_text(encoding="utf-8"))
        forced = target_token(paths)

        def run(batch):
            toks = [[vocab[i] for i in s] for s in batch]
            prefix = {"target_prefix": [[forced]] * len(batch)} if forced else {}
            # beam_size must be explicit (CTranslate2 defaults to 2); lengths fixed like the others
            # (a target prefix counts toward them, as the forced token does in transformers).
            res = trans.translate_batch(toks, beam_size=beams, max_decoding_length=NEW_TOKENS,
                                        min_decoding_length=NEW_TOKENS, max_batch_size=len(batch), **prefix)
            assert len(res) == len(batch) and len(res[0].hypotheses[0]) == NEW_TOKENS
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
        given = os.environ.get("ZH_BENCH_IDS")
        if given:  # the family comparison's source ids (tokenised by the parent: no transformers here)
            data = sorted(json.loads(Path(given).read_text()), key=len)
        else:
            data = sorted(sentences(paths=paths), key=len)
        for i in range(0, len(data), 16):
            run(data[i: i + 16])
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across fork+exec, so a child of this big
    # benchmark process would report the parent's peak.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                peak_mb = int(line.split()[1]) / 1024
    print(json.dumps({"ready_s": ready, "peak_rss_mb": peak_mb}))


def cli_lines(paths: dict[str, Path], count: int = 64, seed: int = 3, low: int = 15, high: int = 69) -> list[str]:
    """``count`` text lines whose source encodings (transformers' tokenizer of the checkpoint,
    which ours matches id for id) have ``low``-``high`` tokens, EOS and language token included."""
    import random

    tok = hf_tokenizer(paths)

    def length(words: list[str]) -> int:
        return len(tok(" ".join(words)).input_ids)

    rnd = random.Random(seed)
    lines = []
    for i in range(count):
        want = low + (i * (high - low)) // (count - 1) if count > 1 else (low + high) // 2
        words: list[str] = []
        while length(words) < want:
            words.append(f"w{rnd.randrange(shapes.WORDS)}")
        while length(words) > want and len(words) > 1:
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


def cli_rss(paths: dict[str, Path], quant: str = "int8", lines: list[str] | None = None) -> float:
    """Peak RSS (MB) of ``mkdocs-zh-translate translate`` on ``lines`` (default: the 64
    :func:`cli_lines`), defaults otherwise."""
    lines = cli_lines(paths) if lines is None else lines
    text = "".join(line + "\n" for line in lines)
    args = ["translate", "--model", str(paths[quant]), "--min-new-tokens", str(NEW_TOKENS),
            "--max-new-tokens", str(NEW_TOKENS)]
    proc = subprocess.run([sys.executable, __file__, "--cli-child", *args], input=text, capture_output=True,
                          text=True, timeout=900)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    if proc.returncode != 0 or report["rc"] != 0 or len(proc.stdout.splitlines()) != len(lines):
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


FAMILY_JOBS = ("ct2", "ours", "cli")
FAMILY_LABELS = {"ct2": "CTranslate2 int8 (call alone, sorted batches of 16)",
                 "ours": "ours int8, default settings, in-process",
                 "cli": "`translate` CLI int8, whole process (defaults)"}


def family_comparison(families: list[str], rounds: int, threads: int, count: int,
                      runs: tuple[str, ...] = FAMILY_JOBS) -> list[str]:
    """Every family in ONE interleaved run (round by round: each family, each engine): the
    ``translate`` CLI as a process at its default settings, ours in-process at the same settings,
    and CTranslate2 int8 at the same beams (the model's default: opus-mt 4, M2M100 5, NLLB 1) on
    the same source ids; then cold start and peak RSS in fresh processes. Each engine is loaded
    before its timed call and dropped after it, so one model at a time is in memory; loading is
    not timed (cold start is)."""
    import gc

    from mkdocs_zh_translate.engine import OnnxTranslator

    setups = {}
    for family in families:
        paths = prepare(engines=("ours-int8", "ct2-int8") if {"ours", "cli"} & set(runs) else ("ct2-int8",),
                        family=family)
        lines = cli_lines(paths, count)
        tok = hf_tokenizer(paths)
        ids = sorted((list(tok(line).input_ids) for line in lines), key=len)
        setups[family] = (paths, lines, [ids[i: i + 16] for i in range(0, len(ids), 16)], default_beams(paths))

    def job(family: str, name: str) -> tuple[float, float]:
        paths, lines, batches, beams = setups[family]
        if name == "cli":
            return cli_process(paths, lines)
        if name == "ct2":
            run = load_engine("ct2-int8", paths, beams, threads)
            run(batches[0][:2])  # warm-up
            c0, t0 = time.process_time(), time.perf_counter()
            for batch in batches:
                run(batch)
        else:
            tr = OnnxTranslator(paths["int8"], max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS)
            tr.translate(lines[:2])  # warm-up
            c0, t0 = time.process_time(), time.perf_counter()
            assert len(tr.translate(lines)) == len(lines)
        return time.perf_counter() - t0, time.process_time() - c0

    wall: dict[tuple[str, str], float] = {}
    cpu: dict[tuple[str, str], float] = {}
    for r in range(rounds):
        for family in families:
            for name in runs:
                w, c = job(family, name)
                gc.collect()
                if w < wall.get((family, name), float("inf")):
                    wall[(family, name)], cpu[(family, name)] = w, c
                print(f"round {r + 1}: {family}: {FAMILY_LABELS[name]}: {w:.2f} s wall, {c:.2f} s CPU",
                      file=sys.stderr, flush=True)
    out = [f"{count} lines of 15-69 source tokens per family, {NEW_TOKENS} forced new tokens (the forced target "
           f"token included), each model's default beams; {threads} threads for CTranslate2, the engine's default "
           f"for ours; best of {rounds} interleaved rounds (ratios of wall time; in brackets of CPU time)",
           "| model (random weights, real shape) | run | beams | wall s | CPU s | sentences/s | x CTranslate2 int8 "
           "| cold start s | peak RSS MB |",
           "|---|---|---|---|---|---|---|---|---|"]
    for family in families:
        paths, lines, batches, beams = setups[family]
        ct2_cold = min(in_subprocess("ct2-int8", beams, threads, False, paths)["ready_s"] for _ in range(2))
        ids_file = family_dir(family) / f"ids-{count}.json"
        ids_file.write_text(json.dumps([s for batch in batches for s in batch]))
        ct2_rss = in_subprocess("ct2-int8", beams, threads, True, paths, ids=ids_file)["peak_rss_mb"]
        extra: dict[str, tuple[float | None, float | None]] = {"ct2": (ct2_cold, ct2_rss)}
        if "ours" in runs:
            extra["ours"] = (min(in_subprocess("ours-int8-defaults", beams, threads, False, paths)["ready_s"]
                                 for _ in range(2)), None)
        if "cli" in runs:
            extra["cli"] = (None, cli_rss(paths, lines=lines))
        base_w, base_c = wall[(family, "ct2")], cpu[(family, "ct2")]
        for name in runs:
            w, c = wall[(family, name)], cpu[(family, name)]
            cold, rss = extra[name]
            out.append(f"| {shapes.HUB_NAMES[family]} | {FAMILY_LABELS[name]} | {beams} | {w:.2f} | {c:.2f} | "
                       f"{len(lines) / w:.2f} | {base_w / w:.2f} ({base_c / c:.2f}) | "
                       f"{'' if cold is None else f'{cold:.2f}'} | {'' if rss is None else f'{rss:.0f}'} |")
    return out


def in_subprocess(kind: str, beams: int, threads: int, workload: bool, paths: dict[str, Path],
                  ids: Path | None = None) -> dict:
    env = dict(os.environ, ZH_BENCH_PATHS=json.dumps({k: str(v) for k, v in paths.items()}),
               ZH_BENCH_IDS=str(ids or ""))
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
    ap.add_argument("--families", help="compare model families in one run (e.g. marian,m2m100,nllb): the "
                    "translate CLI and ours in-process at default settings against CTranslate2 int8")
    ap.add_argument("--lines", type=int, default=64, help="lines per family for --families (default 64)")
    ap.add_argument("--family-runs", default=",".join(FAMILY_JOBS),
                    help="what --families runs: ct2 (always the base), ours (in-process), cli (the process)")
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

    if args.families:
        families = args.families.split(",")
        unknown = set(families) - set(shapes.FAMILIES)
        if unknown:
            sys.exit(f"unknown families {sorted(unknown)}; choose from {', '.join(shapes.FAMILIES)}")
        runs = tuple(dict.fromkeys(["ct2", *args.family_runs.split(",")]))
        print("\n".join(family_comparison(families, args.rounds, args.threads, args.lines, runs)))
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
