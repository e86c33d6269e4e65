"""The ``mkdocs-zh-translate`` console script.

MkDocs has no plugin sub-commands, so everything a user does outside ``mkdocs build`` lives
here. Each sub-command imports its machinery only when it runs: ``md --backend pseudo`` must
start without the model runtime.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import ZhTranslateError
from ..owned import atomic_write, check_output
from ..textfile import decode_utf8, read_bytes, split_bom
from .errors import EXIT_USAGE, CliError
from .options import add_translator_options, translator_values


def _read_text(path: Path) -> tuple[str, str]:
    """(text, its byte-order mark or "") of a UTF-8 file, or a CliError that names it. The BOM
    is handed back so the output keeps it: the file goes back where it came from."""
    data = read_bytes(path, str(path), "Markdown file", CliError)
    if b"\x00" in data:
        raise CliError(f"{path}: looks like a binary file, not Markdown")
    return split_bom(decode_utf8(data, str(path)))


def _cmd_md(args: argparse.Namespace) -> int:
    from ..pipeline.backends import TranslatorSpec
    from ..pipeline.build import SiteInputs, build_pipeline
    from ..pipeline.guard import PageGuard, python_markdown_renderer
    from ..pipeline.markdown import translate_text
    from ..pipeline.progress import progress_for
    from ..pipeline.report import PageCounts
    from ..plugin.mdconfig import markdown_setup
    from ..segment import SegmentError

    source, bom = _read_text(Path(args.input))
    # The site the file belongs to: its extensions render the guard's pages and shape segments.
    setup = markdown_setup(Path(args.input), Path(args.config_file) if args.config_file else None)
    out = None
    if args.output:  # never the page itself, nor the site's PO files, glossary or cache
        from ..pipeline.inputs import project_inputs

        kept = project_inputs(setup.review_dir, setup.cache_dir)
        out = check_output(Path(args.output), "-o", inputs=[Path(args.input)], kept=kept)
    for line in setup.warnings:
        print(f"mkdocs-zh-translate: warning: {line}", file=sys.stderr)
    spec = TranslatorSpec.of(translator_values(args))
    counts = PageCounts()
    try:
        # An extension the site has and this guard lacks costs a segment of English, never a
        # broken page.
        guard = None if args.no_guard else PageGuard(python_markdown_renderer(setup.extensions, setup.configs))
        # the model is loaded only if some segment needs it, with the build's messages
        pipeline = build_pipeline(
            spec, SiteInputs(glossary=setup.glossary, guard=guard), progress=progress_for(None)
        )
        result = bom + translate_text(
            pipeline,
            source,
            slugify=setup.slugify,
            syntax=setup.syntax,
            label=args.input,
            warn=lambda line: print(f"mkdocs-zh-translate: warning: {line}", file=sys.stderr),
            counts=counts,
        )
    except SegmentError as exc:  # the segmenter knows the line, not the file
        raise CliError(f"{args.input}:{exc.line}: {exc}") from None
    if out is not None:
        atomic_write(out, result.encode("utf-8"), parents=False)  # a mistyped directory is an error
    else:
        sys.stdout.write(result)
    if counts.pieces or counts.english:  # quiet when every sentence reached the model whole
        print(f"mkdocs-zh-translate: {args.input}: {counts.sentences()}", file=sys.stderr)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from ..export import export_model
    from ..export.plan import plan_export

    out = check_output(Path(args.out), "--out")
    plan = plan_export(args.model)  # before anything is downloaded: the user sees what it will cost
    if plan is not None:
        print(f"mkdocs-zh-translate: export: {plan.line(args.quantize)}", file=sys.stderr, flush=True)
    export_model(args.model, out, quantize=args.quantize)
    return 0


def _cmd_translate(args: argparse.Namespace) -> int:
    from .translate import run_translate

    return run_translate(args)


#: Sub-commands defined in this module; the others' modules are imported to register theirs.
OWN_COMMANDS = ("md", "export", "translate")


def _build_parser(own_only: bool = False) -> argparse.ArgumentParser:
    """The console script's parser; ``own_only``: without the sub-commands other modules define.

    The own commands run with ``own_only``: registering ``review`` and ``docs`` imports the review
    store and the segmenter, 0.17 of the 0.2 s CPU the parser took: start-up of ``translate``,
    which uses neither. A sub-command's help and errors are the same either way (its own parser
    prints them).
    """
    parser = argparse.ArgumentParser(
        prog="mkdocs-zh-translate",
        description="Translate MkDocs Markdown into Simplified Chinese with a local model.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    md = sub.add_parser("md", help="translate one Markdown file")
    md.add_argument("input", metavar="INPUT.md")
    md.add_argument("-o", "--output", metavar="OUT.md", help="write here instead of stdout")
    md.add_argument(
        "-f",
        "--config-file",
        metavar="FILE",
        help="the site's mkdocs.yml (default: the nearest mkdocs.yml or properdocs.yml above INPUT.md; "
        "without one, the common Material extensions)",
    )
    add_translator_options(md)
    md.add_argument(
        "--no-guard",
        action="store_true",
        help="skip the page guard (rendered structure check against the English page)",
    )
    md.set_defaults(func=_cmd_md)

    ex = sub.add_parser("export", help="export a MarianMT model to ONNX for the engine")
    ex.add_argument("model", metavar="MODEL", help="Hugging Face id or save_pretrained directory")
    ex.add_argument("--out", required=True, metavar="DIR")
    ex.add_argument("--quantize", choices=("int8", "none", "fp16"), default="int8",
                    help="int8: CPU (default); none: float32; fp16: float16 weights, for the CUDA provider")
    ex.set_defaults(func=_cmd_export)

    tr = sub.add_parser("translate", help="translate plain-text lines from stdin")
    # Lines are plain text: by default the model's own output, placeholders as it wrote them.
    add_translator_options(tr, defaults={"markup": "tags"})
    tr.add_argument("--max-new-tokens", type=int, default=None)
    tr.add_argument("--min-new-tokens", type=int, default=None)
    tr.set_defaults(func=_cmd_translate)
    if own_only:
        return parser

    from .review import add_parser as add_review_parser

    add_review_parser(sub)

    from .po import add_parser as add_po_parser

    add_po_parser(sub)

    from .docs import add_parser as add_docs_parser

    add_docs_parser(sub)

    from .prefill import add_parser as add_prefill_parser

    add_prefill_parser(sub)

    from .sphinx import add_parser as add_sphinx_parser

    add_sphinx_parser(sub)

    from .eval import add_parser as add_eval_parser

    add_eval_parser(sub)
    return parser


class _ClosedStdout(io.TextIOBase):
    """Stands in for a stdout the process was started without (``>&-``): writing to it is a
    broken pipe, as writing to a pipe whose reader left is, so one handler says both."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "stdout is closed")


def _stdout_gone() -> int:
    """stdout was closed (``… | head`` read what it wanted, or ``>&-``): point it at /dev/null
    so the interpreter's last flush cannot raise again, and say so in one line."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        if isinstance(sys.stdout, _ClosedStdout):
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
        else:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print("mkdocs-zh-translate: error: stdout was closed before the output was written", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser(own_only=bool(words) and words[0] in OWN_COMMANDS)
    args = parser.parse_args(words)
    if sys.stdout is None:  # started with stdout closed: a print would raise AttributeError
        sys.stdout = _ClosedStdout()
    try:
        return int(args.func(args))
    except ZhTranslateError as exc:  # CliError and every other error of the package: one line, no traceback
        print(f"mkdocs-zh-translate: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader of stdout went away (`md page.md | head`)
        return _stdout_gone()
    except KeyboardInterrupt:
        print("mkdocs-zh-translate: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
