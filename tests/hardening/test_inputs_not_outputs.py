"""No output path names the project's inputs: the reviewed PO files, the glossary, the cache.

``-o mkdocs.yml`` was refused, but ``report: translations/zh/site.po``, ``review report -o
translations/zh/site.po``, ``md docs/index.md -o translations/zh/index.md.po``, ``docs --snippet
translations/zh/site.po`` and ``report: .zh-translate-cache/cache.db`` each replaced reviewed work
or the cache. Each refusal below failed on main; the files are byte for byte what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests.plugin_sites import build_in_process, run_mkdocs, write_site

PAGES = {"index.md": "# Home\n\nRun the build command.\n", "guide.md": "# Guide\n\nRead the guide.\n"}


@pytest.fixture
def reviewed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site built, synced, with a glossary: the inputs to protect exist."""
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "glossary.yml").write_text("keep: [MkDocs]\n", encoding="utf-8")
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    assert (review / "site.po").is_file() and (tmp_path / ".zh-translate-cache" / "cache.db").is_file()
    return config


def _snapshot(root: Path) -> dict[str, bytes]:
    """The review files' bytes, and the cache database's header (reading the cache may touch
    its pages; an output written over it would not be SQLite any more)."""
    found = {str(p.relative_to(root)): p.read_bytes() for p in (root / "translations").rglob("*") if p.is_file()}
    found["cache.db"] = (root / ".zh-translate-cache" / "cache.db").read_bytes()[:16]
    assert found["cache.db"] == b"SQLite format 3\x00"
    return found


INPUTS = ["translations/zh/site.po", "translations/zh/index.md.po", "translations/zh/glossary.yml",
          "translations/zh/new/page.md.po", ".zh-translate-cache/cache.db"]


@pytest.mark.parametrize("target", INPUTS)
def test_review_report_output_is_never_an_input(reviewed: Path, target: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(reviewed.parent)
    capsys.readouterr()
    assert cli_main(["review", "report", "-o", target, "-f", str(reviewed)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "which the project reads" in err, err
    assert _snapshot(reviewed.parent) == before and not (reviewed.parent / "translations/zh/new").exists()
    assert cli_main(["review", "report", "-o", "review.html", "-f", str(reviewed)]) == 0  # elsewhere: fine


@pytest.mark.parametrize("target", INPUTS)
def test_md_output_is_never_an_input(reviewed: Path, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(reviewed.parent)
    capsys.readouterr()
    assert cli_main(["md", "docs/index.md", "--backend", "pseudo", "-o", target]) == 2
    err = capsys.readouterr().err
    assert "which the project reads" in err and "Traceback" not in err, err
    assert _snapshot(reviewed.parent) == before


def test_docs_snippet_and_config_out_are_never_an_input(reviewed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(reviewed.parent)
    for option in ("--snippet", "--config-out"):
        for target in ("translations/zh/site.po", ".zh-translate-cache/cache.db"):
            capsys.readouterr()
            assert cli_main(["docs", "-f", str(reviewed), "--out", "i18n", option, target]) == 2
            assert "which the project reads" in capsys.readouterr().err
    assert _snapshot(reviewed.parent) == before


@pytest.mark.parametrize("target", ["translations/zh/site.po", ".zh-translate-cache/cache.db",
                                    "translations/zh/glossary.yml"])
def test_report_option_is_never_an_input(reviewed: Path, target: str) -> None:
    text = reviewed.read_text(encoding="utf-8").replace("backend: pseudo", f"backend: pseudo\n    report: {target}")
    assert f"report: {target}" in text
    reviewed.write_text(text, encoding="utf-8")
    before = _snapshot(reviewed.parent)
    proc = run_mkdocs(reviewed.parent)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "option 'report':" in proc.stderr and "which the project reads" in proc.stderr, proc.stderr[-1500:]
    assert _snapshot(reviewed.parent) == before
