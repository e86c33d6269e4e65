"""Warm rebuild with a Traditional variant against one without, one run, as a ratio.

    python benchmarks/variants.py [--copies 3] [--repeat 3]

The site is example_site/docs copied ``--copies`` times (benchmarks/site.py's project). Two
projects are built from it: ``variants: [zh-Hans]`` (English + Simplified) and
``variants: [zh-Hans, zh-TW]`` (English + Simplified + Taiwan). The "model" writes Simplified
Chinese words for common English ones (so OpenCC has Chinese to convert); it is counted: a warm
rebuild must load it zero times. Each project is built cold once, then rebuilt warm
``--repeat`` times, alternating the two so that machine noise falls on both; the builds run in
this process (MkDocs' own build function) and are timed in CPU seconds of this process (on
shared cores the wall clock times the neighbours as well), the medians are compared. Goal: a warm rebuild with
two variants <= 1.3x one with Simplified alone.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.site import make_project  # noqa: E402

WORDS = {
    "translation": "翻译", "translate": "翻译", "software": "软件", "default": "默认", "program": "程序",
    "cache": "缓存", "model": "模型", "page": "页面", "site": "站点", "build": "构建", "file": "文件",
    "review": "审校", "install": "安装", "package": "软件包", "network": "网络", "support": "支持",
    "information": "信息", "server": "服务器", "database": "数据库", "search": "搜索",
}
_PATTERN = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)


class WordModel:
    """English words to Simplified Chinese words, the rest (placeholders too) as it is."""

    fingerprint = "variants-benchmark"
    loads = 0

    def __init__(self) -> None:
        WordModel.loads += 1

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [_PATTERN.sub(lambda m: WORDS[m.group(1).lower()], t) for t in texts]


def build(config: Path) -> float:
    """One ``mkdocs build`` of ``config`` in this process; the CPU seconds it took (this process's:
    on shared cores the wall clock measures the neighbours too)."""
    import logging

    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    started = time.process_time()
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]  # a fresh plugin, as a new process
    loaded = load_config(config_file=str(config))
    loaded.plugins.on_startup(command="build", dirty=False)
    try:
        mkdocs_build(loaded)
    finally:
        loaded.plugins.on_shutdown()
    return time.process_time() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    from mkdocs_zh_translate.pipeline import lazy

    lazy.load_translator = lambda *a, **k: WordModel()  # type: ignore[assignment]  # the counted fake
    with tempfile.TemporaryDirectory(prefix="zh-variants-bench-") as tmp:
        configs = {}
        for name, variants in (("one", ["zh-Hans"]), ("two", ["zh-Hans", "zh-TW"])):
            root = Path(tmp) / name
            (root / "model").mkdir(parents=True)
            plugin = {"backend": "onnx", "model": "model", "variants": variants,
                      "exclude": ["changelog.md", "contributing/*"]}
            configs[name] = make_project(root, args.copies, plugin)
        import os

        os.chdir(REPO)  # the example site's snippets are found from the repository root
        cold = {name: build(config) for name, config in configs.items()}
        WordModel.loads = 0
        warm: dict[str, list[float]] = {name: [] for name in configs}
        for _ in range(args.repeat):
            for name, config in configs.items():
                warm[name].append(build(config))
        pages = len(list((Path(tmp) / "two" / "site" / "zh-TW").rglob("index.html")))
    one, two = statistics.median(warm["one"]), statistics.median(warm["two"])
    print(f"example site x{args.copies} ({pages} pages per language), medians of {args.repeat} warm rebuilds:")
    print(f"  cold: Simplified only {cold['one']:.2f} CPU s, Simplified + zh-TW {cold['two']:.2f} CPU s")
    print(f"  warm: Simplified only {one:.2f} CPU s, Simplified + zh-TW {two:.2f} CPU s")
    print(f"  ratio two variants / one: {two / one:.2f}x (goal <= 1.3x)")
    print(f"  model loads in the warm rebuilds: {WordModel.loads}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
