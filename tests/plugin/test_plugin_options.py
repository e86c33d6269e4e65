"""Plugin options, CLI flags and faults, through real `mkdocs build` runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate import segment
from mkdocs_zh_translate.pipeline import pages
from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, build_in_process, run_mkdocs, write_site


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "pseudo", "beams": 0}, "option 'beams'"),
        ({"backend": "pseudo", "threads": "many"}, "option 'threads'"),
        ({"backend": "marian"}, "option 'backend'"),
        ({"backend": "onnx"}, "option 'model'"),
        ({"backend": "pseudo", "language": "zh/cn"}, "option 'language'"),
        ({"backend": "pseudo", "exclude": "*.md"}, "option 'exclude'"),
        ({"backend": "pseudo", "no_such_option": 1}, "no_such_option"),
        ({"backend": "pseudo", "cache_dir": "docs/cache"}, "inside docs_dir"),
    ],
)
def test_bad_options_get_a_one_line_mkdocs_error(tmp_path: Path, options: dict, message: str) -> None:
    write_site(tmp_path, plugin=options)
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "docs" / "cache").exists()


def test_missing_model_directory_is_a_clear_error(tmp_path: Path) -> None:
    write_site(tmp_path, plugin={"backend": "onnx", "model": "no-such-model"})
    proc = run_mkdocs(tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "no-such-model" in proc.stderr


def test_excluded_pages_stay_english_in_the_chinese_site(tmp_path: Path) -> None:
    write_site(tmp_path, plugin={"backend": "pseudo", "exclude": ["guide/us*"]})
    assert run_mkdocs(tmp_path).returncode == 0
    usage = Html(tmp_path / "site" / "zh" / "guide" / "usage" / "index.html")
    assert "Run the build command" in usage.text and f"{PSEUDO_OPEN}Run the build" not in usage.text
    assert "本页未翻译" in usage.text
    install = Html(tmp_path / "site" / "zh" / "guide" / "install" / "index.html")
    assert f"{PSEUDO_OPEN}Install the package" in install.text


def test_site_dir_flag_is_respected(tmp_path: Path) -> None:
    write_site(tmp_path)
    proc = run_mkdocs(tmp_path, "-d", "out")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "zh" / "guide" / "install" / "index.html").is_file()
    assert not (tmp_path / "site").exists()


def test_language_option_sets_the_url_prefix(tmp_path: Path) -> None:
    write_site(tmp_path, plugin={"backend": "pseudo", "language": "zh-hans"})
    assert run_mkdocs(tmp_path).returncode == 0
    page = tmp_path / "site" / "zh-hans" / "guide" / "install" / "index.html"
    assert Html(page).lang.startswith("zh")


def test_dirty_rebuild_updates_the_changed_chinese_page(tmp_path: Path) -> None:
    write_site(tmp_path)
    assert run_mkdocs(tmp_path).returncode == 0
    usage = tmp_path / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text() + "\nA brand new paragraph.\n")
    proc = run_mkdocs(tmp_path, "--dirty")
    assert proc.returncode == 0, proc.stderr
    zh = Html(tmp_path / "site" / "zh" / "guide" / "usage" / "index.html")
    assert f"{PSEUDO_OPEN}A brand new paragraph." in zh.text


def test_nothing_is_written_into_docs_dir(tmp_path: Path) -> None:
    write_site(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "docs").rglob("*"))
    assert run_mkdocs(tmp_path).returncode == 0
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "docs").rglob("*")) == before


class _Unsegmentable(Exception):
    line = 3


@pytest.fixture
def fragile_segmenter(monkeypatch: pytest.MonkeyPatch) -> None:
    """A segmenter that fails on pages containing 'BROKEN', like a real one on bad input."""
    real = segment.segment_markdown

    def segment_markdown(text: str, **options):  # type: ignore[no-untyped-def]
        if "BROKEN" in text:
            raise _Unsegmentable("unclosed construct")
        return real(text, **options)

    monkeypatch.setattr(pages, "segment_markdown", segment_markdown)  # where the site pipeline looks it up


PAGES_WITH_BROKEN = {
    "index.md": "# Home\n\nA fine page.\n",
    "broken.md": "---\ntitle: Broken\n---\n# Broken\n\nBROKEN text here.\n",
}


def test_unsegmentable_page_is_kept_in_english_with_a_warning(
    tmp_path: Path, fragile_segmenter: None, caplog: pytest.LogCaptureFixture
) -> None:
    config = write_site(tmp_path, pages=PAGES_WITH_BROKEN)
    build_in_process(config)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    # line 3 of the Markdown body is line 6 of the file (3 lines of front matter)
    assert any("broken.md:6: cannot segment" in w for w in warnings), warnings
    zh = Html(tmp_path / "site" / "zh" / "broken" / "index.html")
    assert "BROKEN text here." in zh.text and "本页未翻译" in zh.text
    assert f"{PSEUDO_OPEN}A fine page." in Html(tmp_path / "site" / "zh" / "index.html").text


def test_unsegmentable_page_is_an_error_under_strict(tmp_path: Path, fragile_segmenter: None) -> None:
    from mkdocs.exceptions import Abort

    config = write_site(tmp_path, pages=PAGES_WITH_BROKEN, plugin={"backend": "pseudo", "strict": True})
    with pytest.raises(Abort):
        build_in_process(config)
    assert not (tmp_path / "site" / "zh" / "index.html").exists()


def test_file_urls_without_directory_urls_still_link_both_languages(tmp_path: Path) -> None:
    from tests.plugin_sites import check_twin, page_pairs

    write_site(tmp_path, extra_config={"use_directory_urls": False, "site_url": None})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    pairs = page_pairs(site)
    assert (site / "zh" / "guide" / "install.html").is_file() and len(pairs) == 3
    assert [p for en, zh in pairs for p in check_twin(en, zh, site)] == []
