"""Site build benchmark: cold build, warm rebuild (all cached) and a plain MkDocs build, one run.

    python benchmarks/site.py [--copies 5] [--repeat 3] [--backend onnx|pseudo] [--model DIR]

The pages are example_site/docs copied ``--copies`` times (a bigger site gives steadier
timings). "plain" is the same project without the zh-translate plugin. Every build is a real
`python -m mkdocs build` subprocess, so start-up costs count as a user would see them. The goal
(issue 4): warm rebuild of both languages <= 2.3x the plain single-language build, with the
model never loaded. Timings are medians of ``--repeat`` runs, reported as ratios.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_site"
SUMMARY = re.compile(r"zh-translate: .*segments.*")


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml with its !!python/name tags kept as plain strings."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: f"!!python/name:{suffix}")


def make_project(root: Path, copies: int, plugin: dict | None) -> Path:
    """Write a copy of the example site with ``copies`` copies of its docs; return mkdocs.yml."""
    docs = root / "docs"
    for i in range(copies):
        shutil.copytree(EXAMPLE / "docs", docs if i == 0 else docs / f"copy{i}", dirs_exist_ok=True)
    shutil.copytree(EXAMPLE / "snippets", root / "snippets", dirs_exist_ok=True)
    text = (EXAMPLE / "mkdocs.yml").read_text(encoding="utf-8")
    config = yaml.load(text, Loader=_Loader)
    config.pop("nav", None)  # let MkDocs list every copy
    config["plugins"] = ["search"] + ([{"zh-translate": plugin}] if plugin is not None else [])
    dumped = yaml.safe_dump(config, allow_unicode=True, sort_keys=False)
    dumped = re.sub(r"'(!!python/name:[^']+)'", r"\1", dumped)
    path = root / "mkdocs.yml"
    path.write_text(dumped, encoding="utf-8")
    return path


def build(config: Path) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config)],
        cwd=config.parent,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"build of {config} failed:\n{proc.stderr[-3000:]}")
    summary = SUMMARY.search(proc.stderr)
    return seconds, summary.group(0) if summary else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backend", choices=("onnx", "pseudo"), default=None)
    parser.add_argument("--model", help="exported model directory (default: the demo model in .cache/)")
    args = parser.parse_args()

    model = Path(args.model).resolve() if args.model else REPO / ".cache" / "demo-model"
    backend = args.backend or ("onnx" if (model / "manifest.json").is_file() else "pseudo")
    plugin: dict = {"backend": backend}
    if backend == "onnx":
        plugin["model"] = str(model)

    with tempfile.TemporaryDirectory(prefix="zh-bench-") as tmp:
        tmp_path = Path(tmp)
        translated = make_project(tmp_path / "zh", args.copies, plugin)
        plain = make_project(tmp_path / "plain", args.copies, None)
        pages = len(list((tmp_path / "plain" / "docs").rglob("*.md")))

        cold, cold_summary = build(translated)
        warm_runs, plain_runs, warm_summaries = [], [], []
        for _ in range(args.repeat):
            seconds, summary = build(translated)
            warm_runs.append(seconds)
            warm_summaries.append(summary)
            plain_runs.append(build(plain)[0])

    warm, plain_s = statistics.median(warm_runs), statistics.median(plain_runs)
    never_loaded = all("model not loaded" in s and " 0 translated" in s for s in warm_summaries)
    print(f"site: {pages} pages ({args.copies} copies of example_site/docs), backend {backend}"
          + (f", model {model}" if backend == "onnx" else ""))
    print(f"cold build (both languages, empty cache): {cold:7.2f} s   [{cold_summary}]")
    print(f"warm rebuild (both languages, all cached): {warm:7.2f} s   median of {args.repeat}")
    print(f"plain MkDocs build (English only):         {plain_s:7.2f} s   median of {args.repeat}")
    print(f"ratio warm / plain: {warm / plain_s:.2f}  (goal <= 2.3; two sites => ideal 2.0)")
    print(f"model loaded on a warm rebuild: {'never' if never_loaded else 'YES'}   [{warm_summaries[-1]}]")
    return 0 if never_loaded else 1


if __name__ == "__main__":
    sys.exit(main())
