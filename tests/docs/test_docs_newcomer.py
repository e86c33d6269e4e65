"""The install lines, quick start and option reference a newcomer reads work as written today:
the package is not on the package index yet, so nothing tells them to install it from there
(except as what a release will allow), the wheel the docs name is the one pip builds, the
export extra takes PyTorch's CPU build, the quick start counts its own steps, and ``strict``
is documented as the code applies it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from mkdocs_zh_translate import __version__

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "example_site" / "docs"
README = REPO / "README.md"
WORKFLOW = REPO / "example_site" / "snippets" / "ci" / "docs.yml"
CPU_INDEX = "--extra-index-url https://download.pytorch.org/whl/cpu"
# `pip install ... mkdocs-zh-translate` naming the project, not a path: a look-up in the index
_FROM_INDEX = re.compile(r"""pip install\b[^\n#]*?(?:^|[\s"'])mkdocs-zh-translate(?:\[[^\]]*\])?(?:==\S*)?["']?(?:\s|$)""")
_FENCE = re.compile(r"^(\s*)(```|~~~)[^\n]*\n(.*?)^\1\2\s*$", re.M | re.S)


def _code_lines(path: Path) -> list[str]:
    """The lines a reader copies: fenced code blocks of a page, the commands of the workflow."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".yml":
        return [line.split(" #")[0] for line in text.splitlines() if not line.lstrip().startswith("#")]
    return [line for block in _FENCE.finditer(text) for line in block.group(3).splitlines()]


def _pages() -> list[Path]:
    return [README, WORKFLOW, *sorted(GUIDE.rglob("*.md"))]


def test_no_install_line_needs_the_package_index_before_the_first_release() -> None:
    found = [f"{p.relative_to(REPO)}: {line.strip()}" for p in _pages() for line in _code_lines(p)
             if _FROM_INDEX.search(line)]
    assert found == []


def test_the_wheel_the_docs_name_is_the_one_pip_builds(tmp_path: Path) -> None:
    source = tmp_path / "checkout"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "mkdocs_zh_translate", source / "mkdocs_zh_translate",
                    ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"),
         str(source)], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    (wheel,) = [p.name for p in (tmp_path / "dist").iterdir()]
    assert wheel == f"mkdocs_zh_translate-{__version__}-py3-none-any.whl"
    install = (GUIDE / "guide" / "install.md").read_text(encoding="utf-8")
    assert f"pip install dist/{wheel}" in install
    workflow = WORKFLOW.read_text(encoding="utf-8")
    assert f'ZH_TRANSLATE: "{__version__}"' in workflow
    assert '"$ZH_WHEELS/mkdocs_zh_translate-$ZH_TRANSLATE-py3-none-any.whl"' in workflow


def test_every_export_install_takes_pytorch_from_its_cpu_index() -> None:
    """On Linux the package index's torch is the CUDA build (gigabytes of CUDA libraries)."""
    lines = [(p, line) for p in _pages() for line in _code_lines(p) if "pip install" in line and "[export]" in line]
    assert lines
    for path, line in lines:
        if path == WORKFLOW:  # the workflow installs the pinned CPU torch on the line before
            assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in path.read_text()
        else:
            assert CPU_INDEX in line, f"{path.relative_to(REPO)}: {line.strip()}"


_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}


def test_the_quick_start_has_the_steps_it_promises_and_starts_without_a_model() -> None:
    page = (GUIDE / "guide" / "quickstart.md").read_text(encoding="utf-8")
    promised = re.search(r"\bin (\w+) steps\b", page)
    assert promised is not None
    steps = re.findall(r"^## (\d+)\. ", page, re.M)
    assert [int(s) for s in steps] == list(range(1, _NUMBERS[promised.group(1)] + 1))
    first = page[page.index("## 1. "):page.index("## 2. ")]
    assert "backend: pseudo" in first
    readme = README.read_text(encoding="utf-8")
    quick = readme[readme.index("## Quick start"):readme.index("## The user guide")]
    assert "three steps" in quick and "backend: pseudo" in quick


def test_strict_is_documented_as_the_build_applies_it() -> None:
    """A repaired placeholder is a note under ``strict`` (``pages.strict_failure``;
    tests/plugin/test_plugin_strict.py): the reference does not call it an error."""
    page = (GUIDE / "reference" / "configuration.md").read_text(encoding="utf-8")
    entry = page[page.index("`strict`\n:"):]
    entry = entry[: entry.index("\n\n")]
    assert "a repaired placeholder," not in entry
    assert "repaired" in entry and "never an error" in entry
