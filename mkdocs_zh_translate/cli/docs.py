"""``mkdocs-zh-translate docs``: argument parsing and printing; the work is in ``docs``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..docs import LAYOUTS, default_snippet_path, summary, write_docs
from ..logs import PREFIX
from ..owned import check_output
from ..pipeline.pages import Stats, plain_fallbacks
from ..plugin.configfile import CONFIG_HELP
from .options import add_translator_options, given_options


def add_parser(sub: Any) -> None:
    """Register ``docs`` on the console script's sub-command parser."""
    docs = sub.add_parser(
        "docs",
        help="write the translated docs tree (page.zh.md files) for mkdocs-static-i18n / zensical-i18n",
        description=(
            "Write a copy of docs_dir plus every page's translation (page.zh.md beside page.md, or "
            "en/ + zh/ folders) through the plugin's pipeline (cache, reviewed PO files, glossary, "
            "excludes), and the Chinese language's settings as a YAML snippet for the i18n plugins."
        ),
    )
    docs.add_argument("-f", "--config-file", metavar="CONFIG", help=CONFIG_HELP)
    docs.add_argument("--out", required=True, metavar="DIR", help="output docs directory")
    docs.add_argument("--layout", choices=LAYOUTS, default="suffix", help="page.zh.md (suffix) or zh/page.md")
    docs.add_argument("--variant", metavar="CODE",
                      help="the Chinese variant to write: zh-Hans (default), zh-TW, zh-HK or zh-Hant (page.zh-TW.md, "
                      "converted from the Simplified translation with OpenCC: the `hant` extra)")
    docs.add_argument("--snippet", metavar="FILE", help="where the i18n settings go (default: DIR.i18n.yml)")
    docs.add_argument(
        "--config-out",
        metavar="FILE",
        help="also write a config that builds the tree (INHERIT: your config, docs_dir: DIR, the i18n plugin, "
        "no zh-translate): `mkdocs build -f FILE` or `zensical-i18n build -f FILE`; DIR must be inside FILE's folder",
    )
    add_translator_options(docs, overrides="the plugin's")
    docs.add_argument(
        "--strict",
        action="store_true",
        help="fail when English is left behind: a page or sentence kept in English, a page-guard revert, "
        "a rejected review (fallbacks that still translated everything do not count)",
    )
    docs.add_argument("-v", "--verbose", action="store_true", help="list every fallback and where it happened")
    docs.add_argument("--json", action="store_true", help="print the run's report as JSON on stdout (see the guide)")
    docs.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..plugin.configfile import find_config
    from ..plugin.docs_source import docs_source

    options = {k: list(v) if isinstance(v, tuple) else v for k, v in given_options(args).items()}  # YAML's lists
    out = check_output(Path(args.out), "--out")  # the rest of the checks once the config is read
    snippet_path = Path(args.snippet) if args.snippet else default_snippet_path(out)
    config_out = Path(args.config_out) if args.config_out else None

    def warn(message: str) -> None:
        print(f"{PREFIX}{message}", file=sys.stderr)

    config_file = find_config(args.config_file)
    with docs_source(config_file, options, variant=args.variant) as source:
        report = write_docs(
            source,
            out,
            layout=args.layout,
            snippet_path=snippet_path,
            config_out=config_out,
            strict=args.strict,
            log=warn,
        )
    for message in report.warnings:
        warn(f"warning: {message}")
    if args.verbose:
        for message in report.english + report.fallbacks:
            warn(message)
    if report.stats is not None and report.stats.fallback_steps:
        warn(f"{plain_fallbacks(report.stats.fallback_steps)}{'' if args.verbose else ' (-v lists where)'}")
    for line in summary(report, out, snippet_path, config_out):
        print(line, file=sys.stderr)
    if args.json:
        files = {"written": len(report.written), "unchanged": report.unchanged, "removed": len(report.removed)}
        print_report("docs", report.stats, files=files, translated_pages=report.translated_pages)
    return 0


def print_report(command: str, stats: Stats | None, **run: object) -> None:
    """The JSON report of a run that went through the page pipeline (``docs``, ``prefill``)."""
    from ..pipeline.report import dumps, run_report

    numbers: dict[str, object] = dict(stats.run_json()) if stats is not None else {}
    numbers.update(run)
    sys.stdout.write(dumps(run_report(command, stats.pages if stats is not None else {}, numbers)))
