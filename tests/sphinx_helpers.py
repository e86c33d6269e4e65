"""Helpers for the Sphinx gettext tests: run the real tool chain, read facts out of the HTML."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

SAMPLE = Path(__file__).parent / "data" / "sphinx_sample"
TAG_RE = re.compile(r"(<x\d+/>|</?g\d+>)")


def run(args: Sequence[str], cwd: Path, timeout: int = 180) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output when it fails."""
    proc = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def sphinx(project: Path, builder: str, out: str, *options: str) -> str:
    """``python -m sphinx`` on the project; returns its warnings (stderr)."""
    proc = run([sys.executable, "-m", "sphinx", "-q", "-b", builder, *options, ".", out], project)
    return "\n".join(
        line for line in proc.stderr.splitlines() if "WARNING" in line or "ERROR" in line or "CRITICAL" in line
    )


def prepare(tmp: Path) -> Path:
    """A copy of the sample project taken through ``gettext`` and ``sphinx-intl update``."""
    project = tmp / "project"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("_build", "locale", "__pycache__"))
    warnings = sphinx(project, "gettext", "_build/gettext")
    assert not warnings, warnings
    run([sys.executable, "-m", "sphinx_intl", "update", "-p", "_build/gettext", "-d", "locale", "-l", "zh_CN"], project)
    return project


@dataclass
class PageFacts:
    hrefs: Counter[str] = field(default_factory=Counter)
    ids: set[str] = field(default_factory=set)
    code: Counter[str] = field(default_factory=Counter)  # text of <code>, <kbd>, <pre>
    text: str = ""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.facts = PageFacts()
        self.stack: list[tuple[str, list[str]]] = []
        self.in_body = 0
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.facts.ids.add(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.facts.hrefs[str(a["href"])] += 1
        if tag in ("code", "kbd", "pre"):
            self.stack.append((tag, []))

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1][0] == tag:
            _tag, parts = self.stack.pop()
            text = "".join(parts)
            if self.stack:
                self.stack[-1][1].append(text)
            else:
                self.facts.code[text] += 1

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1][1].append(data)
        self.facts.text += data


def page_facts(html_file: Path) -> PageFacts:
    reader = _Reader()
    reader.feed(html_file.read_text(encoding="utf-8"))
    return reader.facts


CONTENT_PAGES = ("index.html", "install.html", "usage.html", "reference.html", "glossary.html")


def broken_links(site: Path, pages: Sequence[str] = CONTENT_PAGES) -> list[str]:
    """Internal links that point at a missing page or a missing id."""
    ids = {p.relative_to(site).as_posix(): page_facts(p).ids for p in site.rglob("*.html")}
    broken = []
    for page in pages:
        for href in page_facts(site / page).hrefs:
            if re.match(r"^[a-z]+:", href) or href.startswith("_"):
                continue
            target, _, anchor = href.partition("#")
            target = target or page
            if target not in ids and not (site / target).exists():
                broken.append(f"{page}: {href} (no page)")
            elif anchor and target in ids and anchor not in ids[target]:
                broken.append(f"{page}: {href} (no id {anchor})")
    return broken


