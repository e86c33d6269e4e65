"""What the build says it did: the banner names a model only over a model's text."""

from __future__ import annotations

import html
import re
from pathlib import Path

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
