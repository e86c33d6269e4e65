"""Speed cost of placeholder-constrained decoding (``engine/tags.py``), one run.

The random opus-mt-shaped model of ``benchmarks/engine.py`` (vocab 65,001, int8 by default),
beam 4, batch 16, every sentence forced to 32 new tokens, as there. Its vocabulary has no
piece that spells a tag, and a random model would never pick one; so that the constraint does
real work, the target ids the model emits most often (measured by one unconstrained pass;
the random model emits only about four, its favourite becomes ``<``; other ids fill up) are
given the surfaces ``<``, ``x``, ``g``, ``1``, ``2``, ``/``, ``>`` and ``/>``: every
sentence carries three tags (``<x1/>``, ``<g1>``…``</g1>``, ``<x2/>``), so rows start tags,
spend steps in the middle of one (the ``[rows, vocab]`` bias path) and have tags banned. Rounds
alternate unconstrained / constrained; the best of each is reported, with the share of steps
that needed the bias. The order alternates between rounds (which one runs first matters on a
shared machine).

    python benchmarks/constrained.py [--rounds 3] [--quant int8] [--threads 2]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine as bench

from mkdocs_zh_translate.engine import OnnxTranslator, beam
from mkdocs_zh_translate.engine.tags import TagVocab

TAG_PIECES = ("<", "x", "g", "1", "2", "/", ">", "/>")
SOURCE_TAGS = "a <x1/> b <g1>c</g1> d <x2/>"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quant", default="int8", choices=("int8", "fp32"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sentences", type=int, default=32)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    model = bench.onnx_model(args.quant)
    tr = OnnxTranslator(model, num_beams=4, threads=args.threads, max_new_tokens=bench.NEW_TOKENS,
                        min_new_tokens=bench.NEW_TOKENS, max_batch_tokens=1 << 20, max_batch_sentences=16)
    sents = sorted(bench.sentences(args.sentences), key=len)
    batches = [sents[i:i + 16] for i in range(0, len(sents), 16)]

    # Give the model's favourite outputs the surfaces of tag pieces.
    counts: collections.Counter[int] = collections.Counter()
    for b in batches:
        for h in tr.generate_ids(b):
            counts.update(h[0].ids[:-1])
    favourite = [t for t, _ in counts.most_common(len(TAG_PIECES))]
    # (the random model emits only a handful of distinct ids: any others spell the rest)
    spare = [t for t in range(1000, 1000 + len(TAG_PIECES)) if t not in favourite]
    favourite += spare[: len(TAG_PIECES) - len(favourite)]
    pieces = [tr.tokenizer.decoder.get(i, "<unk>") for i in range(tr.settings["vocab_size"])]
    for tid, piece in zip(favourite, TAG_PIECES):
        pieces[tid] = piece
    tr._tag_vocab = TagVocab.build(pieces, int(tr.settings["eos_token_id"]),
                                   [i for i in range(len(pieces)) if i in tr.tokenizer.special_ids])
    tags = [SOURCE_TAGS] * len(sents)

    steps = {"bias": 0, "all": 0}
    real_step = tr.sessions.step

    def counting_step(tokens, state, bias, k):  # type: ignore[no-untyped-def]
        steps["all"] += 1
        steps["bias"] += bias is not None and bias.shape[0] > 1
        return real_step(tokens, state, bias, k)

    tr.sessions.step = counting_step  # type: ignore[method-assign]
    best = {"plain": float("inf"), "constrained": float("inf")}
    emitted = 0
    for r in range(args.rounds):
        for kind in ("plain", "constrained") if r % 2 == 0 else ("constrained", "plain"):
            t0 = time.perf_counter()
            for i, b in enumerate(batches):
                res = tr.generate_ids(b, tag_sources=tags[i * 16:(i + 1) * 16] if kind == "constrained" else None)
                if kind == "constrained" and r == 0:
                    emitted += sum(sum(1 for t in h[0].ids if t in favourite) for h in res)
            best[kind] = min(best[kind], time.perf_counter() - t0)
            if r == 0 and kind == "constrained":
                bias_share = steps["bias"] / max(1, steps["all"])
            steps["bias"] = steps["all"] = 0
    result = {
        "model": f"random opus-mt-shaped {args.quant}", "beams": 4, "batch": 16, "sentences": len(sents),
        "new_tokens": bench.NEW_TOKENS, "plain_s": round(best["plain"], 3),
        "constrained_s": round(best["constrained"], 3),
        "cost_pct": round(100 * (best["constrained"] / best["plain"] - 1), 1),
        "bias_step_share": round(bias_share, 2), "tag_pieces_emitted": emitted,
        "max_filtered_bans": beam.MAX_FILTERED_BANS,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>20}: {v}")


if __name__ == "__main__":
    main()
