"""Speed cost of the ``project`` markup strategy's engine work, one run.

The random opus-mt-shaped model of ``benchmarks/engine.py`` (int8 by default), beam 4, batch
16, every sentence forced to 32 new tokens, as there; 32 text lines of 15-69 source tokens
(``engine.cli_lines``). ``plain``: ``OnnxTranslator.translate`` (what ``tags`` pays for a
sentence the model copies its placeholders through); ``project``: ``translate_aligned`` (the
same beam search, then the teacher-forced alignment pass and the per-token offsets; what the
default strategy pays per sentence with markup, the projection itself aside). ``--before DIR``
adds ``project`` on another export of the same model (one whose ``aligner.onnx`` runs the
encoder again, as exports made before it read the search's encoder states) to the same run.
Rounds rotate the order; the best of each is reported with its cost against ``plain``, the
time of the ``attention`` pass alone, and ``over_search_pct``: the median over rounds of the
time a ``project`` run spent beyond its own beam search, against that search (what the strategy
adds, measured inside one call, so the load of a shared machine cancels out; a total against
``plain`` can swing ±20% there). All give the same translations (checked).

    python benchmarks/project.py [--rounds 3] [--quant int8] [--threads 2] [--model DIR] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine as bench

from mkdocs_zh_translate.engine import OnnxTranslator


def translator(model: Path, threads: int, spent: dict[str, float]) -> OnnxTranslator:
    """The benchmark's translator on ``model``, its ``attention`` pass timed into ``spent``."""
    tr = OnnxTranslator(model, num_beams=4, threads=threads, max_new_tokens=bench.NEW_TOKENS,
                        min_new_tokens=bench.NEW_TOKENS, max_batch_tokens=1 << 20, max_batch_sentences=16)
    tr.load_aligner()
    real = tr.attention

    def timed(*args: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real(*args)
        finally:
            spent["attention"] += time.perf_counter() - t0

    tr.attention = timed  # type: ignore[method-assign]
    search = tr._generate

    def searched(*args: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return search(*args)
        finally:
            spent["search"] += time.perf_counter() - t0

    tr._generate = searched  # type: ignore[method-assign]
    return tr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quant", default="int8", choices=("int8", "fp32"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sentences", type=int, default=32)
    ap.add_argument("--model", type=Path, help="an exported model directory (default: the random one, "
                    "re-exported when the exporter changed)")
    ap.add_argument("--before", type=Path, help="another export of the same model, also timed under project")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    model = args.model or bench.onnx_model(args.quant)
    spent = {"attention": 0.0, "search": 0.0}
    tr = translator(model, args.threads, spent)
    old = translator(args.before, args.threads, spent) if args.before else None
    lines = bench.cli_lines({args.quant: model, "int8": model}, args.sentences)
    batches = [lines[i:i + 16] for i in range(0, len(lines), 16)]
    kinds = ["plain", "project"] + (["before"] if old else [])
    best = {k: float("inf") for k in kinds}
    attention = {k: float("inf") for k in kinds}
    seen: dict[str, list[str]] = {}
    extra: dict[str, list[float]] = {k: [] for k in kinds}  # per round: the time beyond the search, in %
    for r in range(args.rounds):
        for kind in kinds[r % len(kinds):] + kinds[: r % len(kinds)]:
            spent["attention"] = spent["search"] = 0.0
            t0 = time.perf_counter()
            outputs: list[str] = []
            for b in batches:
                if kind == "plain":
                    outputs += tr.translate(b)
                else:
                    use = tr if kind == "project" else old
                    assert use is not None
                    outputs += [a.text if a is not None else "" for a in use.translate_aligned(b)]
            took = time.perf_counter() - t0
            best[kind] = min(best[kind], took)
            extra[kind].append(100 * (took - spent["search"]) / spent["search"])
            attention[kind] = min(attention[kind], spent["attention"])
            seen.setdefault(kind, outputs)
    result: dict[str, Any] = {
        "model": f"random opus-mt-shaped {args.quant}", "beams": 4, "batch": 16, "sentences": len(lines),
        "new_tokens": bench.NEW_TOKENS, "plain_s": round(best["plain"], 3),
    }
    for kind in kinds[1:]:
        result[f"{kind}_s"] = round(best[kind], 3)
        result[f"{kind}_cost_pct"] = round(100 * (best[kind] / best["plain"] - 1), 1)
        result[f"{kind}_attention_s"] = round(attention[kind], 3)
        result[f"{kind}_over_search_pct"] = round(statistics.median(extra[kind]), 1)
    result["same_translations"] = all(seen[k] == seen["plain"] for k in kinds)
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
