"""The ``mkdocs-zh-translate po fill`` sub-command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..owned import check_output
from .errors import CliError
from .options import add_command_group, add_translator_options, translator_values

if TYPE_CHECKING:
    from ..pofill.fill import Summary


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    fill = add_command_group(sub, "po", "machine-translate gettext catalogs (Sphinx, mdpo)").add_parser(
        "fill",
        help="translate the untranslated entries of every .po file under PATH (new text is #, fuzzy "
        "unless --translated)",
    )
    fill.add_argument("paths", nargs="+", metavar="PATH", help="a .po file or a directory searched recursively")
    add_translator_options(fill)
    fill.add_argument("--format", dest="fmt", choices=("rst", "md", "myst"), default="rst",
                      help="markup of the msgids: rst (Sphinx, default), md (mdpo, mkdocs-mdpo-plugin), "
                      "myst (Sphinx MyST pages)")
    fill.add_argument("--translated", action="store_true",
                      help="write machine text as translated, not #, fuzzy (msgfmt, Weblate and Sphinx then use "
                      "it), marked '# zh-translate: machine translated <hash>' so --refresh still knows it; "
                      "edit the text or delete that comment to keep an entry as reviewed")
    fill.add_argument("--refresh", action="store_true",
                      help="also re-translate entries this command wrote and nobody edited since (and move them "
                      "to the state asked for: fuzzy, or translated with --translated)")
    fill.add_argument("--cache-dir", metavar="DIR",
                      help="machine translation cache (default: .zh-translate-cache beside the first PATH; for "
                      "catalogs in a Sphinx project beside its source directory or in the user cache, never "
                      "inside it; -v prints it)")
    fill.add_argument("--variant", metavar="CODE",
                      help="the Chinese variant of every catalog: zh-Hans, zh-TW, zh-HK or zh-Hant (default: each "
                      "catalog's Language header or zh_TW/zh_HK folder; Traditional is converted from the Simplified "
                      "translation with OpenCC: the `hant` extra)")
    fill.add_argument("--glossary", metavar="FILE", help="glossary.yml with keep: and terms: (as for review)")
    fill.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when English is left behind: entries that failed validation, could not be filled, "
        "or were filled partly in English",
    )
    fill.add_argument("-v", "--verbose", action="store_true",
                      help="list the entries filled partly in English and print the cache directory")
    fill.add_argument(
        "--json", action="store_true",
        help="print the run's report as JSON on stdout, one entry per PO file (the summary goes to stderr)",
    )
    fill.set_defaults(func=_run)


def _print_report(summary: Summary) -> None:
    from ..pipeline.report import dumps, run_report

    run = {
        "files": summary.files,
        "files_changed": summary.files_changed,
        "entries": summary.entries,
        "filled": summary.filled,
        "refreshed": summary.refreshed,
        "reviewed_kept": summary.reviewed,
        "fuzzy_kept": summary.fuzzy_kept + summary.already,
        "skipped": len(summary.skipped),
        "failed_validation": len(summary.failed),
        "partly_english": len(summary.english),
    }
    sys.stdout.write(dumps(run_report("po fill", summary.pages, run)))


def _run(args: argparse.Namespace) -> int:
    from ..pipeline.backends import TranslatorSpec, needs_model
    from ..pofill.fill import fill

    if needs_model(args.backend) and not args.model:
        raise CliError(
            f"the {args.backend} backend needs a model directory: pass --model DIR (or use --backend pseudo)"
        )
    glossary = None
    if args.glossary:
        from ..pipeline.glossary import load_glossary

        path = Path(args.glossary)
        if not path.is_file():
            raise CliError(f"{args.glossary}: no such glossary file")
        glossary = load_glossary(path)
    spec = TranslatorSpec.of(translator_values(args))
    summary = fill(
        [Path(p) for p in args.paths],
        spec,
        fmt=args.fmt,
        refresh=args.refresh,
        translated=args.translated,
        cache_dir=check_output(Path(args.cache_dir), "--cache-dir") if args.cache_dir else None,
        glossary=glossary,
        variant=args.variant,
    )
    for problem in summary.skipped:
        print(f"skipped: {problem}", file=sys.stderr)
    for problem in summary.failed:
        print(f"failed validation: {problem}", file=sys.stderr)
    if args.verbose and summary.cache_dir is not None:
        print(f"cache: {summary.cache_dir}", file=sys.stderr)
    if args.verbose or args.strict:
        for problem in summary.english:
            print(f"english: {problem}", file=sys.stderr)
    print(summary.line(), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        _print_report(summary)
    left = len(summary.failed) + len(summary.skipped) + len(summary.english)
    if args.strict and left:
        from ..pipeline.pages import strict_failure

        print(f"error: {strict_failure(left)}", file=sys.stderr)
        return 1
    return 0
