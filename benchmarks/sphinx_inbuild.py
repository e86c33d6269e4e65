"""The Sphinx extension on a real project: English build vs Chinese build with the extension.

    python3 benchmarks/sphinx_inbuild.py PATH/TO/docs [--translator han|pseudo] [-j N] [-D name=value ...]
        [--with-parent]   # an unpacked sdist's docs/ whose conf.py reads ../src

Works on a copy. Appends ``mkdocs_zh_translate.sphinx`` to the copy's extensions, then times a
plain English build, the first Chinese build (empty cache) and a cached Chinese rebuild (fresh
environment, full cache), and prints messages reviewed/translated/English, warnings only the
Chinese build has, and the links/code/ids comparison of ``sphinx_project.py``.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.sphinx_project import _sphinx, compare, warnings

CONF = """
extensions = list(globals().get("extensions", [])) + ["mkdocs_zh_translate.sphinx"]
zh_translate_backend = "pseudo"
zh_translate_cache_dir = {cache!r}
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("project", type=Path)
    parser.add_argument("--translator", choices=("han", "pseudo"), default="han")
    parser.add_argument("-j", dest="jobs", default="1")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--with-parent", action="store_true", help="copy the folder above too (a conf.py reading ../src)"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="zh-inbuild-"))
    source = args.project.resolve()
    if args.with_parent:
        shutil.copytree(source.parent, work / "tree", ignore=shutil.ignore_patterns("_build", "locale", ".tox"))
        project = work / "tree" / source.name
    else:
        project = work / "project"
        shutil.copytree(source, project, ignore=shutil.ignore_patterns("_build", "locale"))
    with (project / "conf.py").open("a", encoding="utf-8") as fh:
        fh.write(CONF.format(cache=str(work / "cache")))
        if args.translator == "han":  # Han text next to markup, as a real model writes (tests/fakes.py)
            fh.write(
                "import mkdocs_zh_translate.pipeline.lazy as _l, tests.fakes as _h\n"
                "_l.load_translator = lambda *a, **k: _h.HanTranslator()\n"
            )
    options = [x for d in args.defines for x in ("-D", d)] + ["-j", args.jobs]
    zh_opts = [*options, "-D", "language=zh_CN"]
    times = {}
    started = time.perf_counter()
    en_warn = _sphinx(project, "html", "_build/en", options)
    times["English"] = time.perf_counter() - started
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", *zh_opts, ".", "_build/zh"],
        cwd=project, capture_output=True, text=True, timeout=3600,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the Chinese build failed:\n{proc.stderr[-3000:]}")
    zh_warn = warnings(proc.stderr)
    summary = [line for line in proc.stdout.splitlines() if line.startswith("zh-translate:")]
    times["Chinese, first"] = time.perf_counter() - started
    started = time.perf_counter()
    _sphinx(project, "html", "_build/zh2", [*zh_opts, "-E"])
    times["Chinese, cached (fresh env)"] = time.perf_counter() - started
    only_zh = list((collections.Counter(zh_warn) - collections.Counter(en_warn)).elements())
    print("times: " + ", ".join(f"{k} {v:.1f}s" for k, v in times.items()))
    print(f"warnings: English {len(en_warn)}, Chinese {len(zh_warn)}, only in Chinese {len(only_zh)}")
    for line in only_zh[:30]:
        print("  ", line[:300])
    for line in summary:
        print(line)
    compare(project / "_build/en", project / "_build/zh")
    print(f"(work directory: {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
