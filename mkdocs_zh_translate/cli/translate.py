"""``mkdocs-zh-translate translate``: stdin lines in, one translation per line out, same order.

The engine usable alone (scripts, benchmarks). All lines are read first so that length
buckets and deduplication see the whole input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..textfile import decode_utf8, split_bom
from .errors import CliError
from .options import translator_values


def run_translate(args: argparse.Namespace) -> int:
    """Translate stdin to stdout; failures are EngineErrors, which the console script prints as one line.

    The translator is the table's options as given (``--markup`` defaults to ``tags`` here: the
    model's own output); ``--max-new-tokens``/``--min-new-tokens`` are the ONNX engine's.
    (The engine does not import the console script: the dependency points one way.)
    """
    from ..pipeline.backends import TranslatorSpec, engine_keywords, get_backend, needs_model, resolve_markup
    from ..pipeline.markup import MARKUP_STRATEGIES, announce
    from ..pipeline.translator import BareTranslator, as_translator

    spec = TranslatorSpec.of(translator_values(args))
    lengths = {"max_new_tokens": args.max_new_tokens, "min_new_tokens": args.min_new_tokens}
    if needs_model(spec.backend) and not spec.model:
        raise CliError(f"the {spec.backend} backend needs a model directory: pass --model DIR "
                       "(or use --backend pseudo)")
    bare: BareTranslator
    if spec.backend == "onnx":
        from ..engine.translator import OnnxTranslator

        bare = OnnxTranslator(Path(str(spec.model)), **engine_keywords(spec), **lengths)
    elif any(v is not None for v in lengths.values()):
        raise CliError(f"--max-new-tokens and --min-new-tokens are the onnx engine's, not the {spec.backend} backend's")
    else:
        bare = get_backend(spec.backend).factory(spec)
    choice = resolve_markup(spec.markup, spec.backend, spec.model)
    announce(choice)
    translator = MARKUP_STRATEGIES[choice.name](as_translator(bare))
    data = sys.stdin.buffer.read()
    text, _ = split_bom(decode_utf8(data, "<stdin>"))
    lines = text.splitlines()
    # A translation never contains a newline: one output line per input line, always.
    out = [t.text.replace("\r", " ").replace("\n", " ") for t in translator.translate(lines)]
    sys.stdout.write("".join(line + "\n" for line in out))
    sys.stdout.flush()
    return 0
