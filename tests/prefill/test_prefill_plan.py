"""``prefill --plan``: whether the next build needs the model, from what the build reads
(snippets outside ``docs/`` included), never from a guess at which files matter."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from tests.plugin_sites import build_in_process, write_site

REVIEW_PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "You need Python and a cache directory."
msgstr "你需要 Python 和一个缓存目录。"
'''


def _site(root: Path) -> Path:
    snippets = {"pymdownx.snippets": {"base_path": [str(root / "snippets")], "check_paths": True}}
    config = write_site(root, extra_config={"markdown_extensions": [snippets]})
    usage = root / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + '\n--8<-- "note.md"\n', encoding="utf-8")
    (root / "snippets").mkdir()
    (root / "snippets" / "note.md").write_text("A snippet sentence.\n\n```text\ncode stays\n```\n", encoding="utf-8")
    return config


def _plan(config: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["prefill", "-f", str(config), "--plan"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("zh-translate: plan: ") and len(captured.err.splitlines()) == 1
    return dict(line.split("=", 1) for line in captured.out.splitlines())


def test_the_plan_counts_what_the_build_would_translate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _site(tmp_path)
    cold = _plan(config, capsys)
    assert set(cold) == {"missing", "fingerprint"} and int(cold["missing"]) > 0
    plugin = build_in_process(config)
    assert plugin.stats.translated == int(cold["missing"])  # exactly what the build translated
    warm = _plan(config, capsys)
    assert warm["missing"] == "0"

    # a snippet outside docs/ changed: the build reads it, so the plan does
    note = tmp_path / "snippets" / "note.md"
    note.write_text(note.read_text(encoding="utf-8").replace("A snippet", "One snippet"), encoding="utf-8")
    edited = _plan(config, capsys)
    assert edited["missing"] == "1" and edited["fingerprint"] != warm["fingerprint"]
    # code the build does not translate changes no fingerprint
    note.write_text(note.read_text(encoding="utf-8").replace("code stays", "other code"), encoding="utf-8")
    assert _plan(config, capsys) == edited


def test_a_review_takes_a_text_off_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _site(tmp_path)
    before = _plan(config, capsys)
    review = tmp_path / "translations" / "zh" / "guide"
    review.mkdir(parents=True)
    (review / "install.md.po").write_text(REVIEW_PO, encoding="utf-8")
    after = _plan(config, capsys)
    assert int(after["missing"]) == int(before["missing"]) - 1 and after["fingerprint"] != before["fingerprint"]


def test_the_plan_takes_no_runner_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path)
    assert main(["prefill", "-f", str(config), "--plan", "--workers", "2"]) == 2
    assert "--plan translates nothing" in capsys.readouterr().err
