"""``mkdocs-zh-translate translate``: stdin lines in, one translation per line out, same order.

The engine usable alone (scripts, benchmarks). All lines are read first so that length
buckets and deduplication see the whole input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..textfile import decode_utf8, split_bom


def run_translate(args: argparse.Namespace) -> int:
    """Translate stdin to stdout; failures are EngineErrors, which the console script prints as one line.

    (The engine does not import the console script: the dependency points one way.)
    """
    from ..engine.translator import OnnxTranslator

    translator = OnnxTranslator(
        Path(args.model),
        num_beams=args.beams,
        threads=args.threads,
        max_batch_tokens=args.batch_tokens,
        max_new_tokens=args.max_new_tokens,
        min_new_tokens=args.min_new_tokens,
        shortlist=getattr(args, "shortlist", None),
        providers=args.providers.split(",") if getattr(args, "providers", None) else None,
    )
    data = sys.stdin.buffer.read()
    text, _ = split_bom(decode_utf8(data, "<stdin>"))
    lines = text.splitlines()
    # A translation never contains a newline: one output line per input line, always.
    out = [t.replace("\r", " ").replace("\n", " ") for t in translator.translate(lines)]
    sys.stdout.write("".join(line + "\n" for line in out))
    sys.stdout.flush()
    return 0
