"""Take a real Sphinx project through gettext -> sphinx-intl -> po fill -> zh_CN HTML and compare.

    python3 benchmarks/sphinx_project.py PATH/TO/docs [--translator han|pseudo] [-D name=value ...]

Works on a copy (under a temporary directory), never on PATH. Prints: messages filled and
failed validation, warnings of the English and the Chinese build (and those only the Chinese
build has), and, over every HTML page, whether links (hrefs), code/literal texts (whitespace
normalised: Sphinx msgids turn line breaks into spaces) and element ids are the same. ``han``
(default) writes Han characters next to markup like a real translation does; ``pseudo`` wraps
text in 「…」. Used on Sphinx's own documentation (6,770 messages) while building ``po fill``.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pofill import fill
from tests.fakes import HanTranslator
from tests.sphinx_helpers import broken_links, page_facts


def _sphinx(project: Path, builder: str, out: str, options: list[str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", builder, *options, ".", out],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0:
        raise SystemExit(f"sphinx-build -b {builder} failed:\n{proc.stderr[-3000:]}")
    return warnings(proc.stderr)


def warnings(stderr: str) -> list[str]:
    """The build's warnings without their locations: a translated message's warning is located at
    ``page.rst:LINE:<translated>:1`` where the English one names the docstring it came from."""
    lines = [line for line in stderr.splitlines() if "WARNING:" in line or "ERROR" in line]
    return sorted(line[line.index(" WARNING:") + 1 :] if " WARNING:" in line else line for line in lines)


def compare(en: Path, zh: Path) -> int:
    """Print whether links, code texts and ids of every content page are the same; the number of differences."""
    pages = sorted(
        p.relative_to(en).as_posix()
        for p in en.rglob("*.html")
        if not p.relative_to(en).as_posix().startswith(("_", "genindex", "search", "py-modindex"))
    )

    def norm(c: collections.Counter[str]) -> collections.Counter[str]:
        return collections.Counter({re.sub(r"\s+", " ", k): v for k, v in c.items()})

    links = code = 0
    differ: list[str] = []
    missing_ids = 0
    for page in pages:
        e, z = page_facts(en / page), page_facts(zh / page)
        links += sum(e.hrefs.values())
        code += sum(e.code.values())
        if e.hrefs != z.hrefs:
            differ.append(f"{page}: links {dict(e.hrefs - z.hrefs)} -> {dict(z.hrefs - e.hrefs)}")
        if norm(e.code) != norm(z.code):
            differ.append(f"{page}: code {dict(norm(e.code) - norm(z.code))} -> {dict(norm(z.code) - norm(e.code))}")
        missing_ids += len(e.ids - z.ids)
    broken_en, broken_zh = broken_links(en, pages), broken_links(zh, pages)
    print(
        f"{len(pages)} pages, {links} links, {code} code texts: {len(differ)} differences, "
        f"{missing_ids} English ids missing, broken internal links English {len(broken_en)} / Chinese {len(broken_zh)} "
        f"({len(set(broken_zh) - set(broken_en))} new)"
    )
    for line in differ[:30]:
        print("  ", line[:300])
    return len(differ) + missing_ids


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("project", type=Path)
    parser.add_argument("--translator", choices=("han", "pseudo"), default="han")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="zh-sphinx-"))
    project = work / "project"
    shutil.copytree(args.project, project, ignore=shutil.ignore_patterns("_build", "locale"))
    options = [x for d in args.defines for x in ("-D", d)]
    _sphinx(project, "gettext", "_build/gettext", [*options, "-D", "gettext_compact=0"])
    subprocess.run(
        [sys.executable, "-m", "sphinx_intl", "update", "-p", "_build/gettext", "-d", "locale", "-l", "zh_CN"],
        cwd=project,
        check=True,
        capture_output=True,
        timeout=600,
    )
    translator = HanTranslator() if args.translator == "han" else None
    lazy = LazyTranslator(lambda *a, **k: translator) if translator else None
    summary = fill([project / "locale"], TranslatorSpec("pseudo", None), cache_dir=work / "cache", lazy=lazy)
    print(summary.line())
    for problem in summary.failed:
        print("  failed:", problem)
    en_warn = _sphinx(project, "html", "_build/en", options)
    zh_warn = _sphinx(
        project,
        "html",
        "_build/zh",
        [*options, "-D", "language=zh_CN", "-D", "gettext_allow_fuzzy_translations=1", "-D", "locale_dirs=locale"],
    )
    only_zh = list((collections.Counter(zh_warn) - collections.Counter(en_warn)).elements())
    print(f"warnings: English {len(en_warn)}, Chinese {len(zh_warn)}, only in Chinese {len(only_zh)}")
    for line in only_zh[:30]:
        print("  ", line)
    compare(project / "_build/en", project / "_build/zh")
    print(f"(work directory: {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
