"""Plugin options, CLI flags and faults.

Option validation runs directly (``load_config`` and the plugins' ``on_config``, as
``mkdocs build`` does before building: milliseconds); the builds run in-process. One test
still runs a real ``mkdocs build`` subprocess, for what only the CLI shows: a bad option is
one error line and no traceback.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, MkDocsException

from mkdocs_zh_translate import segment
from mkdocs_zh_translate.pipeline import pages
from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, build_in_process, run_mkdocs, write_site


def _configure(config_file: Path) -> None:
    """What ``mkdocs build --strict`` does before it builds: load and validate mkdocs.yml, then
    run every plugin's ``on_config`` (where the checks that need the whole config live)."""
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]  # a fresh plugin, like a new build
    config = load_config(config_file=str(config_file), strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        config.plugins.on_config(config)
    finally:
        config.plugins.on_shutdown()


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
def test_bad_options_are_refused_before_the_build(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, options: dict, message: str
) -> None:
    write_site(tmp_path, plugin=options)
    # MkDocsException is a ClickException: the CLI prints it as one "Error: ..." line, no traceback.
    with caplog.at_level(logging.WARNING), pytest.raises(MkDocsException) as refused:
        _configure(tmp_path / "mkdocs.yml")
    said = [r.getMessage() for r in caplog.records] + [str(refused.value)]
    assert sum(message in line for line in said) == 1, said
    assert not (tmp_path / "docs" / "cache").exists()


def test_good_options_pass_the_same_checks(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The check above fails for the right reason: the same site with valid options configures."""
    write_site(tmp_path, plugin={"backend": "pseudo", "beams": 2, "threads": 1, "exclude": ["*.md"]})
    with caplog.at_level(logging.WARNING):
        _configure(tmp_path / "mkdocs.yml")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_bad_option_is_one_error_line_from_mkdocs_build(tmp_path: Path) -> None:
    """The one real ``mkdocs build``: what the user sees is one line naming the option."""
    write_site(tmp_path, plugin={"backend": "pseudo", "beams": 0})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    named = [line for line in proc.stderr.splitlines() if "option 'beams'" in line]
    assert len(named) == 1 and "Expected a positive integer, got 0" in named[0], proc.stderr


def test_missing_model_directory_is_a_clear_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "no-such-model"})
    # Abort is what `mkdocs build` turns into one "Aborted ..." line after logging the error.
    with pytest.raises(Abort):
        build_in_process(config)
    assert any("no-such-model" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)


def test_excluded_pages_stay_english_in_the_chinese_site(tmp_path: Path) -> None:
    build_in_process(write_site(tmp_path, plugin={"backend": "pseudo", "exclude": ["guide/us*"]}))
    usage = Html(tmp_path / "site" / "zh" / "guide" / "usage" / "index.html")
    assert "Run the build command" in usage.text and f"{PSEUDO_OPEN}Run the build" not in usage.text
    assert "本页未翻译" in usage.text
    install = Html(tmp_path / "site" / "zh" / "guide" / "install" / "index.html")
    assert f"{PSEUDO_OPEN}Install the package" in install.text


def test_site_dir_override_is_respected(tmp_path: Path) -> None:
    """``mkdocs build -d out`` passes ``site_dir`` to ``load_config``, as here."""
    build_in_process(write_site(tmp_path), site_dir=str(tmp_path / "out"))
    assert (tmp_path / "out" / "zh" / "guide" / "install" / "index.html").is_file()
    assert not (tmp_path / "site").exists()


def test_language_option_sets_the_url_prefix(tmp_path: Path) -> None:
    build_in_process(write_site(tmp_path, plugin={"backend": "pseudo", "language": "zh-hans"}))
    page = tmp_path / "site" / "zh-hans" / "guide" / "install" / "index.html"
    assert Html(page).lang.startswith("zh")


def test_dirty_rebuild_updates_the_changed_chinese_page(tmp_path: Path) -> None:
    config = write_site(tmp_path)
    build_in_process(config)
    usage = tmp_path / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text() + "\nA brand new paragraph.\n")
    build_in_process(config, dirty=True)
    zh = Html(tmp_path / "site" / "zh" / "guide" / "usage" / "index.html")
    assert f"{PSEUDO_OPEN}A brand new paragraph." in zh.text


def test_nothing_is_written_into_docs_dir(tmp_path: Path) -> None:
    config = write_site(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "docs").rglob("*"))
    build_in_process(config)
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

    config = write_site(tmp_path, extra_config={"use_directory_urls": False, "site_url": None})
    build_in_process(config, strict=True)
    site = tmp_path / "site"
    pairs = page_pairs(site)
    assert (site / "zh" / "guide" / "install.html").is_file() and len(pairs) == 3
    assert [p for en, zh in pairs for p in check_twin(en, zh, site)] == []
