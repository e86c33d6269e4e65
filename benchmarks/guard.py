"""Time the page guard on a real site's pages, as the plugin runs it (``pseudo`` translations).

Loads the site's config with its plugins' ``on_config`` (so the guard renders with the site's
own Markdown extensions, mkdocstrings stubbed, as in a build), segments every page, translates
it with the pseudo backend and runs the guard; prints per page the renders and milliseconds,
then the total. Point it at a site the corpus harness kept (``benchmarks/realsites.py --keep``)::

    python benchmarks/realsites.py copier --guard on --keep /tmp/rs
    python benchmarks/guard.py /tmp/rs/copier/src/copier-*/mkdocs.zh-realsites.yml
    python benchmarks/guard.py CONFIG --profile 25     # cProfile, top 25 by cumulative time
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    from mkdocs.config import load_config
    from mkdocs.utils import meta as meta_util

    from mkdocs_zh_translate.pipeline.ladder import translate_segments
    from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
    from mkdocs_zh_translate.segment import segment_markdown

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N functions")
    parser.add_argument("--repeat", type=int, default=1, help="run every page this many times (best time)")
    args = parser.parse_args(argv)
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    os.chdir(args.config.parent)
    sys.path.insert(0, os.getcwd())  # as `python -m mkdocs` has it: a site's own modules (tools.*)
    config = load_config(config_file=str(args.config))
    config = config.plugins.on_config(config)
    plugin = config.plugins["zh-translate"]
    guard = plugin._page_guard()
    docs = Path(config.docs_dir)
    jobs = []
    for path in sorted(docs.rglob("*.md")):
        body, _meta = meta_util.get_data(path.read_text(encoding="utf-8"))
        body, _error = plugin._snippets.expand(body)
        try:
            page = segment_markdown(body, slugify=plugin._slugify)
        except Exception:
            continue
        translations = [t.text for t in translate_segments([s.text for s in page.segments], PseudoTranslator())]
        jobs.append((path.relative_to(docs).as_posix(), body, page, translations))
    profiler = cProfile.Profile() if args.profile else None
    total, renders, reverted = 0.0, 0, 0
    for name, body, page, translations in jobs:
        best = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            result = guard.check(body, page, translations, label=name)
            if profiler:
                profiler.disable()
            best = min(best, time.perf_counter() - started)
        total += best
        renders += result.renders
        reverted += len(result.reverted)
        if result.reverted:
            print(f"{name:<50} {len(page.segments):>5} seg {result.renders:>3} renders {1000 * best:>8.1f} ms "
                  f"{len(result.reverted)} reverted{' (whole page)' if result.whole_page else ''}")
    per_page = 1000 * total / max(len(jobs), 1)
    print(f"{len(jobs)} pages, {renders} renders, {reverted} reverted, {per_page:.1f} ms per page")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
