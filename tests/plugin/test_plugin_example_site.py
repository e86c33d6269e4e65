"""The example site (the project's own user guide) built with the pseudo backend.

Its Markdown-support page uses every construct the segmenter handles, so the twin checks here
cover admonitions, tabs, footnotes, tables, math, snippets and raw HTML in a real Material build.
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, check_twin, page_pairs
from tools import demo

SITE_URL = "https://example.com/mkdocs-zh-translate/"


def test_example_site_has_at_least_eight_pages_and_every_twin_checks_out(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(demo.REPO)  # snippets are found relative to the working directory
    site = demo.build_site(backend="pseudo", model=None, banner=True, site_dir=tmp_path / "site")
    pairs = page_pairs(site)
    assert len(pairs) >= 8
    problems = [p for en, zh in pairs for p in check_twin(en, zh, site, SITE_URL)]
    assert problems == []
    showcase = Html(site / "zh" / "reference" / "markdown" / "index.html")
    assert f"{PSEUDO_OPEN}An admonition with a quoted title." in showcase.text
    # pymdownx.snippets' included text is translated with the page that includes it (FAQ)
    assert f"{PSEUDO_OPEN}The snippet line comes from a shared file." in showcase.text
    changelog = Html(site / "zh" / "changelog" / "index.html")
    assert "本页未翻译" in changelog.text and f"{PSEUDO_OPEN}First release" not in changelog.text


def test_demo_command_builds_and_names_the_translator(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "tools.demo", "site", "--pseudo", "--site-dir", str(tmp_path / "out")],
        cwd=demo.REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "demo: built with the pseudo backend" in proc.stdout
    assert "zh-translate:" in proc.stderr and "segments" in proc.stderr
    assert (tmp_path / "out" / "zh" / "index.html").is_file()


def test_demo_command_reports_a_missing_model_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "tools.demo", "site", "--model", str(tmp_path / "nope")],
        cwd=demo.REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "mkdocs-zh-translate export" in proc.stderr


def test_demo_quality_line_says_the_numbers_are_on_the_synthetic_task(tmp_path: Path) -> None:
    report = {
        "seconds": 81.4, "steps": 1000, "threads": 2, "heldout_token_accuracy": 0.731,
        "heldout_exact_match_greedy": 0.29, "placeholder_exact_match_beam4": 0.17,
        "heldout_placeholders_kept_greedy": 0.57, "placeholder_kept_beam4": 0.53,
    }
    (tmp_path / "training.json").write_text(json.dumps(report), encoding="utf-8")
    line = demo._quality(tmp_path)
    assert "not real Chinese" in line and "1000 steps, 2 threads" in line
    assert "token accuracy 0.73" in line
    assert "29% (greedy, half of them with placeholders), 17% (beam 4, all with placeholders)" in line
    assert "placeholders kept 57% (greedy), 53% (beam 4)" in line
    assert demo._quality(tmp_path / "missing") == "trained (no training.json with its quality numbers)"


def test_the_configuration_page_documents_every_plugin_option() -> None:
    """The user guide's configuration reference (example_site/docs/reference/configuration.md)
    has a definition-list entry for every option the plugin accepts, and names no other."""
    from itertools import pairwise

    from mkdocs_zh_translate.plugin.config import PluginConfig

    page = (demo.EXAMPLE_SITE / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8")
    lines = page.splitlines()
    documented = {
        line.strip("`") for line, after in pairwise(lines) if line.startswith("`") and after.startswith(":   ")
    }
    assert documented == {name for name, _ in PluginConfig._schema}
