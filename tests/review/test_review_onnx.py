"""The review loop with the real engine and the project's tiny MarianMT model (slow)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests import models
from tests.plugin_sites import build_in_process, write_site

PAGES = {"index.md": "# Home\n\nThe cache keeps every translation.\n\nRun `mkdocs build` again.\n"}


@pytest.mark.slow
def test_sync_takes_engine_output_and_a_build_without_the_model_uses_the_po_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(models.tiny_onnx_model(), tmp_path / "model")
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "onnx", "model": "model"})
    plugin = build_in_process(config)
    assert plugin.lazy.loads == 1
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "index.md.po"
    po = polib.pofile(str(path))
    entry = po.find("Run `mkdocs build` again.")
    assert entry.fuzzy and entry.msgstr  # the engine's text, readable, code span intact
    assert "`mkdocs build`" in entry.msgstr
    entry.msgstr, entry.flags = "再次运行 `mkdocs build`。", []
    po.save(str(path))
    shutil.rmtree(tmp_path / "model")
    shutil.rmtree(tmp_path / ".zh-translate-cache")
    # a partial deploy, asked for: the reviewed entry, the rest English
    config = write_site(
        tmp_path, pages=PAGES, plugin={"backend": "onnx", "model": "model", "allow_untranslated": True}
    )
    plugin = build_in_process(config)
    assert plugin.lazy.loads == 0
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "再次运行 <code>mkdocs build</code>。" in html
    assert "The cache keeps every translation." in html  # no model, no cache: English
