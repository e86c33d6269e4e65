"""The opt-in vocabulary shortlist (issue 21): its speed against CTranslate2 and its agreement
with the full vocabulary, in one run.

Speed: the `translate` CLI's 64-line workload of ``benchmarks/engine.py`` (15-69 source tokens,
32 forced new tokens, beam 4) through ``OnnxTranslator.translate`` at default settings, int8,
with the shortlist off and at each size, against CTranslate2 int8's call alone (sorted batches
of 16), interleaved rounds, best wall time per row and its CPU time (all threads). With
``--old DIR``, also the same workload on an export made before the shortlist (its If must not
slow the default path).

Agreement, with against without the shortlist at each size (share of identical outputs, chrF
of one against the other, sacrebleu's defaults):

* (a) the trained tiny test model (``tests/models.py``, int8; its vocabulary has 2,334 ids, so
  small sizes) on held-out sentences of ``tools/export_tiny.py``'s generator, at its
  generation config's beam; the chrF of each against the references too;
* (b) the random-weight opus-mt-shaped model on the 64 lines: a mechanics check only (random
  weights have no preferred pieces, so a shortlist of frequent pieces is no better than any).
  Its SentencePiece models have 300 pieces, so its shortlists are filled up to each size with
  other ids drawn at random (fixed seed): what a real model's frequent pieces would cost.

    export PYTHONPATH=$PWD ZH_TRANSLATE_BENCH_CACHE=/tmp/eb-sl
    python benchmarks/shortlist.py --rounds 2 --sizes 1000,2000,4000 --old /tmp/eb-old/onnx-int8
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "benchmarks")]

import engine  # noqa: E402  (benchmarks/engine.py: the models, the 64 lines, the CTranslate2 row)


def chrf(candidates: Sequence[str], references: Sequence[str]) -> float:
    from mkdocs_zh_translate.quality.metrics import corpus_scores

    return corpus_scores(candidates, references).chrf


def agreement(name: str, base: list[str], outs: dict[int, list[str]], refs: list[str] | None) -> list[str]:
    rows = [f"| {name}, full vocabulary | | | {'' if refs is None else f'{chrf(base, refs):.1f}'} |"]
    for size, got in outs.items():
        same = sum(a == b for a, b in zip(base, got)) / len(base)
        ref = "" if refs is None else f"{chrf(got, refs):.1f}"
        rows.append(f"| {name}, shortlist {size} | {100 * same:.1f}% | {chrf(got, base):.1f} | {ref} |")
    return rows


def tiny_agreement(sizes: list[int], count: int, threads: int) -> list[str]:
    from mkdocs_zh_translate.engine import OnnxTranslator
    from tests.models import tiny_onnx_model
    from tools.export_tiny import heldout_pairs

    pairs = heldout_pairs(count, placeholders=False)
    sources, refs = [s for s, _ in pairs], [t for _, t in pairs]
    model = tiny_onnx_model("int8")
    base = OnnxTranslator(model, threads=threads).translate(sources)
    outs = {n: OnnxTranslator(model, threads=threads, shortlist=n).translate(sources) for n in sizes}
    return agreement(f"(a) tiny model, {count} held-out sentences", base, outs, refs)


def speed(paths: dict[str, Path], sizes: list[int], rounds: int, threads: int,
          old: Path | None) -> tuple[list[str], dict[int, list[str]], list[str]]:
    from mkdocs_zh_translate.engine import OnnxTranslator

    lines = engine.cli_lines(paths)
    forced = {"max_new_tokens": engine.NEW_TOKENS, "min_new_tokens": engine.NEW_TOKENS}
    ours = {n: OnnxTranslator(paths["int8"], shortlist=n, **forced) for n in [0, *sizes]}
    rng = np.random.default_rng(0)
    for n in sizes:  # the random model's SentencePiece has 300 pieces: the rest, any other ids
        lister = ours[n].shortlister
        assert lister is not None
        others = rng.choice(np.setdiff1d(np.arange(engine.PAD + 1), lister.base), max(0, n - lister.base.size),
                            replace=False)
        lister.base = np.union1d(lister.base, others)
    ids = sorted((ours[0].tokenizer.encode(line) for line in lines), key=len)
    batches = [ids[i: i + 16] for i in range(0, len(ids), 16)]
    ct2 = engine.load_engine("ct2-int8", paths, 4, threads)
    outputs: dict[int, list[str]] = {}

    def ours_job(n: int, tr: OnnxTranslator) -> Callable[[], None]:
        def run() -> None:
            outputs[n] = tr.translate(lines)
        return run

    def ct2_job() -> None:
        for batch in batches:
            ct2(batch)

    jobs: dict[str, Callable[[], None]] = {"CTranslate2 int8 beam 4, batches of 16 (call alone)": ct2_job}
    if old is not None:
        jobs["ours int8, defaults, export before the shortlist"] = ours_job(-1, OnnxTranslator(old, **forced))
    for n, tr in ours.items():
        jobs["ours int8, defaults, " + (f"shortlist {n}" if n else "no shortlist")] = ours_job(n, tr)
    for job in jobs.values():  # warm-up
        job()
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for r in range(rounds):
        for name, job in jobs.items():
            c0, t0 = time.process_time(), time.perf_counter()
            job()
            w, c = time.perf_counter() - t0, time.process_time() - c0
            if w < wall.get(name, float("inf")):
                wall[name], cpu[name] = w, c
            print(f"round {r + 1}: {name}: {w:.2f} s wall, {c:.2f} s CPU", file=sys.stderr, flush=True)
    ref = next(iter(jobs))
    sizes_seen = [len(b) for b in (ours[sizes[0]].shortlister.for_batch(ids[i: i + 16])  # type: ignore[union-attr]
                                   for i in range(0, len(ids), 16))] if sizes else []
    rows = [f"64 lines, {engine.NEW_TOKENS} forced new tokens, beam 4, {threads} threads for CTranslate2, "
            f"our defaults otherwise; best of {rounds} interleaved rounds (CPU s: all threads)",
            "| run | wall s | CPU s | x CTranslate2 int8 (wall) | (CPU) |", "|---|---|---|---|---|"]
    for name in jobs:
        rows.append(f"| {name} | {wall[name]:.2f} | {cpu[name]:.2f} | {wall[ref] / wall[name]:.2f} | "
                    f"{cpu[ref] / cpu[name]:.2f} |")
    if sizes_seen:
        rows.append(f"\nshortlist {sizes[0]}: {min(sizes_seen)}-{max(sizes_seen)} ids per batch of 16 lines")
    base = outputs.pop(0)
    outputs.pop(-1, None)
    return rows, outputs, base


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sizes", default="1000,2000,4000", help="shortlist sizes on the opus-mt-shaped model")
    ap.add_argument("--tiny-sizes", default="100,200,300", help="shortlist sizes on the tiny model")
    ap.add_argument("--tiny-lines", type=int, default=300)
    ap.add_argument("--old", type=Path, help="an int8 export made before the shortlist (same model)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    paths = engine.prepare(engines=("ct2-int8", "ours-int8"))
    rows, outputs, base = speed(paths, sizes, args.rounds, args.threads, args.old)
    print("\n".join(rows))
    print("\n| agreement with the full vocabulary | identical outputs | chrF vs full | chrF vs reference |")
    print("|---|---|---|---|")
    print("\n".join(tiny_agreement([int(s) for s in args.tiny_sizes.split(",") if s], args.tiny_lines,
                                   args.threads)))
    print("\n".join(agreement("(b) random opus-mt-shaped model, 64 lines (mechanics only)", base, outputs, None)))


if __name__ == "__main__":
    main()
