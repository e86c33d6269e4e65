"""What the build says it did: the banner names a model only over a model's text."""

from __future__ import annotations

import html
import logging
import re
import shutil
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from tests.plugin_sites import build_in_process, write_site

REVIEW_PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "You need Python and a cache directory."
msgstr "你需要 Python 和一个缓存目录。"
'''


def _banner(page: Path) -> str:
    found = re.search(r'<div class="admonition note zh-translate-banner">.*?</div>', page.read_text(encoding="utf-8"), re.S)
    assert found, page
    return html.unescape(found.group(0))


def test_the_banner_names_no_model_when_none_translated_the_page(tmp_path: Path) -> None:
    """No model could be loaded (``allow_untranslated``): a page of reviews and English says so,
    without naming the model directory of mkdocs.yml."""
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "models/opus-mt-en-zh", "allow_untranslated": True})
    review = tmp_path / "translations" / "zh" / "guide"
    review.mkdir(parents=True)
    (review / "install.md.po").write_text(REVIEW_PO, encoding="utf-8")
    build_in_process(config)
    banner = _banner(tmp_path / "site" / "zh" / "guide" / "install" / "index.html")
    assert "opus-mt-en-zh" not in banner and "机器翻译" not in banner, banner
    assert "个经人工审校，其余显示英文原文" in banner, banner
    assert "你需要 Python 和一个缓存目录。" in (tmp_path / "site" / "zh" / "guide" / "install" / "index.html").read_text(
        encoding="utf-8"
    )


def test_the_banner_names_the_model_over_machine_text(tmp_path: Path) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo"})
    build_in_process(config)
    banner = _banner(tmp_path / "site" / "zh" / "guide" / "install" / "index.html")
    assert "本页由机器翻译（pseudo 后端）。" in banner, banner


@pytest.mark.slow  # the tiny model (trained once, cached)
def test_a_damaged_model_with_a_warm_cache_reports_only_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A model directory edited after export cannot be loaded; the cache its export filled
    still answers, so the failure counts only the one segment that is really missing, and a
    site with nothing missing still builds."""
    from tests.models import tiny_onnx_model

    source = tiny_onnx_model(quantize="none")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # the verification record
    model = tmp_path / "model"
    shutil.copytree(source, model)
    config = write_site(tmp_path / "site-root", plugin={"backend": "onnx", "model": str(model)})
    first = build_in_process(config)
    assert first.stats.translated == first.stats.unique > 5
    generation = model / "generation.json"
    text = generation.read_text(encoding="utf-8")
    damaged = re.sub(r'"eos_token_id": (\d)\b', lambda m: f'"eos_token_id": {(int(m.group(1)) + 7) % 10}', text, count=1)
    assert damaged != text and len(damaged) == len(text)
    generation.write_text(damaged, encoding="utf-8")

    warm = build_in_process(config)  # nothing missing: the damaged model is not needed
    assert warm.stats.translated == 0 and warm.stats.cached == warm.stats.unique and warm.lazy.loads == 0

    usage = tmp_path / "site-root" / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8").replace("Run the build command;", "Run it twice;"),
                     encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build_in_process(config)
    refusals = [r.getMessage() for r in caplog.records if "no reviewed or cached translation" in r.getMessage()]
    assert len(refusals) == 1, [r.getMessage() for r in caplog.records]
    assert "1 segment on 1 page has no reviewed or cached translation" in refusals[0], refusals[0]
    assert "generation.json: changed since export" in refusals[0]
