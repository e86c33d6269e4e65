"""The ``mkdocs-zh-translate sphinx sync`` sub-command (the extension itself is ``mkdocs_zh_translate.sphinx``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .options import add_command_group


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    actions = add_command_group(sub, "sphinx", "Sphinx projects built with the mkdocs_zh_translate.sphinx extension")
    sync = actions.add_parser(
        "sync",
        help="write or update the reviewable catalogs (<locale_dirs[0]>/zh_CN/LC_MESSAGES/*.po) from the build's "
        "messages and cache: machine entries #, fuzzy, reviewed ones kept",
    )
    sync.add_argument("srcdir", metavar="SRCDIR", help="the Sphinx source directory (where conf.py is)")
    sync.add_argument("--language", default="zh_CN", help="catalog language folder (default zh_CN)")
    sync.add_argument("-v", "--verbose", action="store_true", help="show Sphinx's progress and the cache directory")
    sync.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..sphinx.sync import sync

    summary, target = sync(Path(args.srcdir), args.language, quiet=not args.verbose)
    for problem in summary.failed:
        print(f"failed validation: {problem}", file=sys.stderr)
    if args.verbose and summary.cache_dir is not None:
        print(f"cache: {summary.cache_dir}", file=sys.stderr)
    print(f"{target}: {summary.line().replace('po fill:', 'sphinx sync:', 1)}")
    return 0
