"""Where the engine's time goes: Python-side timers plus ONNX Runtime's per-operator profile.

Runs one workload once (model from benchmarks/engine.py's cache) and prints (1) seconds in
the encoder, the decoder steps, cache gathers and the numpy bookkeeping left over, with the
process's CPU seconds beside the wall time (on a shared machine the wall time includes
waiting for a core), (2) the decoder's and the encoder's operators by total time, and the
decoder's costliest nodes with their input shapes.

Workloads: the benchmark protocol's batch-16 workload (32 sentences, batches of 16, no token
budget), or with ``--defaults`` the engine benchmark's 64 CLI lines through
``OnnxTranslator.translate`` at default settings (batch plan, threads; only the 32 forced
new tokens are given), what the ``translate`` CLI runs.

    python3 benchmarks/profile_engine.py [--defaults] [--quantize int8|fp32] [--beams 4] [--threads 2] [--shortlist N]
        [--family marian|m2m100|nllb] [--lines 64]

``--family`` profiles the random-weight model of another family's real shape (``shapes.py``);
with ``--defaults`` its beams are the model's default unless ``--beams`` is given.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))


def operator_table(session: Any, title: str, nodes: int = 0) -> None:
    """Print ``session``'s profile: operators by total kernel time, then its ``nodes`` costliest nodes."""
    events = json.loads(Path(session.end_profiling()).read_text())
    ops: collections.Counter[str] = collections.Counter()
    per_node: collections.Counter[tuple[str, str]] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    shapes: dict[str, str] = {}
    for ev in events:
        if ev.get("cat") == "Node" and ev["name"].endswith("_kernel_time"):
            node = ev["name"][: -len("_kernel_time")]
            ops[ev["args"]["op_name"]] += ev["dur"]
            per_node[(ev["args"]["op_name"], node)] += ev["dur"]
            calls[node] += 1
            shapes[node] = json.dumps([next(iter(s.values())) for s in ev["args"].get("input_type_shape", [])])
    inner = sum(v for k, v in ops.items() if k != "If") or 1
    print(f"{title} operators (If = the top-k head's branch, its nodes listed inside):")
    for op, us in ops.most_common(14):
        print(f"  {op:24s} {us / 1e6:6.2f} s  {us / inner:6.1%}")
    if nodes:
        print(f"{title}: costliest nodes (calls, ms per call, input shapes of the last call)")
        for (op, node), us in per_node.most_common(nodes):
            print(f"  {op:22s} {node[:44]:44s} {calls[node]:4d} {us / calls[node] / 1e3:7.2f}  {shapes[node][:70]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quantize", default="int8", choices=("int8", "fp32"))
    ap.add_argument("--beams", type=int, default=None, help="default: 4, or the model's with --defaults")
    ap.add_argument("--family", default="marian", help="marian, m2m100 or nllb (benchmarks/shapes.py)")
    ap.add_argument("--lines", type=int, default=64, help="--defaults: how many CLI lines")
    ap.add_argument("--threads", type=int, default=2, help="(batch-16 workload; --defaults uses the engine's)")
    ap.add_argument("--defaults", action="store_true", help="the 64 CLI lines at default settings")
    ap.add_argument("--shortlist", type=int, default=0, help="the engine's vocabulary shortlist (0: off)")
    args = ap.parse_args()

    import engine as bench

    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.engine import session as session_mod

    paths = bench.prepare(engines=(f"ours-{args.quantize}",), family=args.family)
    if args.beams is None:
        args.beams = bench.default_beams(paths) if args.defaults else 4
    made = {}
    original = session_mod.make_session

    def profiled(path, threads, providers, hint, initializers=(), profile=None):  # type: ignore[no-untyped-def]
        name = Path(path).name
        prefix = str(REPO / ".cache" / f"ort-profile-{name}") if name in ("decoder.onnx", "encoder.onnx") else None
        made[name] = sess = original(path, threads, providers, hint, initializers, profile=prefix)
        return sess

    session_mod.make_session = profiled
    (REPO / ".cache").mkdir(exist_ok=True)
    if args.defaults:
        lines = bench.cli_lines(paths, args.lines)
        tr = OnnxTranslator(paths[args.quantize], num_beams=args.beams, max_new_tokens=bench.NEW_TOKENS,
                            min_new_tokens=bench.NEW_TOKENS, shortlist=args.shortlist)
        label = f"{args.family} {args.quantize} beams {args.beams}, {args.lines} CLI lines at default settings"
    else:
        tr = OnnxTranslator(paths[args.quantize], num_beams=args.beams, threads=args.threads,
                            max_new_tokens=bench.NEW_TOKENS, min_new_tokens=bench.NEW_TOKENS,
                            max_batch_tokens=1 << 20, max_batch_sentences=1 << 20, shortlist=args.shortlist)
        label = f"{args.family} {args.quantize} beams {args.beams}, batch 16, {args.threads} threads"
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
    c0, t0 = time.process_time(), time.perf_counter()
    if args.defaults:
        count = len(tr.translate(lines))
    else:
        data = sorted(bench.sentences(paths=paths), key=len)
        tr.generate_ids(data[:16])
        tr.generate_ids(data[16:])
        count = len(data)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label}: {total:.2f} s wall, {cpu:.2f} s CPU for {count} sentences ({count / total:.2f} sent/s)")
    for name, sec in timers.most_common():
        print(f"  {name:32s} {sec:6.2f} s  {sec / total:6.1%}")
    rest = total - sum(timers.values())
    print(f"  {'beam bookkeeping etc. (numpy)':32s} {rest:6.2f} s  {rest / total:6.1%}")
    operator_table(made["decoder.onnx"], "decoder", nodes=12)
    operator_table(made["encoder.onnx"], "encoder")


if __name__ == "__main__":
    main()
