"""Where the engine's time goes: Python-side timers plus ONNX Runtime's per-operator profile.

Runs the benchmark protocol's batch-16 workload once (model from benchmarks/engine.py's
cache) and prints (1) seconds in encoder, first decoder step, later decoder steps, cache
gathers and the numpy bookkeeping left over, (2) the decoder graph's operators by total time.

    python3 benchmarks/profile_engine.py [--quantize int8|fp32] [--beams 4]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quantize", default="int8", choices=("int8", "fp32"))
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import engine as bench

    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.engine import session as session_mod

    paths = bench.prepare()
    made = {}
    original = session_mod.make_session

    def profiled(path, threads, providers, hint, initializers=(), profile=None):  # type: ignore[no-untyped-def]
        prefix = str(REPO / ".cache" / "ort-profile") if Path(path).name == "decoder.onnx" else None
        made[Path(path).name] = sess = original(path, threads, providers, hint, initializers, profile=prefix)
        return sess

    session_mod.make_session = profiled
    tr = OnnxTranslator(paths[args.quantize], num_beams=args.beams, threads=args.threads,
                        max_new_tokens=bench.NEW_TOKENS, min_new_tokens=bench.NEW_TOKENS,
                        max_batch_tokens=1 << 20, max_batch_sentences=1 << 20)
    timers: collections.Counter[str] = collections.Counter()

    def timed(obj, name, label):  # type: ignore[no-untyped-def]
        fn = getattr(obj, name)

        def wrapper(*a, **k):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                timers[label] += time.perf_counter() - t
        setattr(obj, name, wrapper)

    timed(tr.sessions, "encode", "encoder run")
    timed(tr.sessions, "step", "decoder steps (session.run)")
    timed(session_mod.DecoderState, "take", "cache gathers (numpy)")
    data = sorted(bench.sentences(), key=len)
    t0 = time.perf_counter()
    tr.generate_ids(data[:16])
    tr.generate_ids(data[16:])
    total = time.perf_counter() - t0
    print(f"{args.quantize} beams {args.beams} batch 16: {total:.2f} s for 32 sentences ({32 / total:.2f} sent/s)")
    for label, sec in timers.most_common():
        print(f"  {label:32s} {sec:6.2f} s  {sec / total:6.1%}")
    rest = total - sum(timers.values())
    print(f"  {'beam bookkeeping etc. (numpy)':32s} {rest:6.2f} s  {rest / total:6.1%}")

    decoder = made["decoder.onnx"]
    events = json.loads(Path(decoder.end_profiling()).read_text())
    ops: collections.Counter[str] = collections.Counter()
    for ev in events:
        if ev.get("cat") == "Node" and ev["name"].endswith("_kernel_time"):
            ops[ev["args"]["op_name"]] += ev["dur"]
    inner = sum(v for k, v in ops.items() if k != "If")
    print("decoder operators (If = the top-k head's branch, its TopK listed inside):")
    for op, us in ops.most_common(14):
        print(f"  {op:24s} {us / 1e6:6.2f} s  {us / inner:6.1%}")


if __name__ == "__main__":
    main()
