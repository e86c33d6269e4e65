"""What the model is sent, and English other extensions write: labels Sphinx has already put into
Chinese never reach the English->Chinese model, MyST front matter is no message, and the 404 page
of sphinx-notfound-page and sphinxcontrib-log-cabinet's "Changelog" label are translated."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sphinx.helpers import build, project

FUNCTION = """
.. py:function:: make(size)

   Make a widget.

   :param size: The size.
   :type size: int
   :returns: The widget.
   :rtype: Widget
"""


SPY = """
import json as _json, mkdocs_zh_translate.pipeline.lazy as _lazy
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator as _Pseudo
class _Spy(_Pseudo):
    def translate(self, texts):
        with open({seen!r}, "a", encoding="utf-8") as fh:
            fh.write(_json.dumps(texts) + "\\n")
        return super().translate(texts)
_lazy.load_translator = lambda *a, **k: _Spy()
"""


def test_labels_sphinx_wrote_in_chinese_never_reach_the_model(tmp_path: Path) -> None:
    """In a process of its own: Sphinx fixes its labels' language when its Python domain is
    first imported (an English build earlier in the process leaves them English)."""
    seen = tmp_path / "seen.jsonl"
    root = project(tmp_path, SPY.format(seen=str(seen)))
    with (root / "usage.rst").open("a", encoding="utf-8") as fh:
        fh.write(FUNCTION)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-D", "language=zh_CN", ".", "_build/zh"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    html = (root / "_build" / "zh" / "usage.html").read_text(encoding="utf-8")
    assert "参数" in html and "返回类型" in html  # Sphinx's own Chinese labels, as Sphinx wrote them
    assert "「参数」" not in html and "「返回类型」" not in html
    assert "「Make a widget.」" in html and "「The size.」" in html
    texts = [t for line in seen.read_text(encoding="utf-8").splitlines() for t in json.loads(line)]
    assert "The size." in texts
    assert [t for t in texts if not re.search(r"[A-Za-z]", re.sub(r"</?[gx]\d+/?>", "", t))] == []
    assert "0 kept in English" in proc.stdout


def test_myst_front_matter_is_no_message(tmp_path: Path) -> None:
    pytest.importorskip("myst_parser")
    root = project(tmp_path, 'extensions.append("myst_parser")\n')
    (root / "notes.md").write_text("---\norphan: true\n---\n# Notes\n\nSome notes.\n", encoding="utf-8")
    zh = build(root)
    assert "「Some notes.」" in zh.page("notes.html")
    assert "kept in English: Sphinx cannot splice" not in zh.status
    assert "0 kept in English" in zh.status and zh.warnings == ""


def test_notfound_page_and_log_cabinet_label_are_translated(tmp_path: Path) -> None:
    pytest.importorskip("notfound.extension")
    pytest.importorskip("sphinxcontrib.log_cabinet")
    extra = 'extensions += ["notfound.extension", "sphinxcontrib.log_cabinet"]\nversion = "2.0"\n'
    root = project(tmp_path, extra)
    with (root / "usage.rst").open("a", encoding="utf-8") as fh:
        fh.write("\n.. versionchanged:: 1.0\n\n   The window closes itself.\n")
    en = build(root, "en", language="en")
    zh = build(root)
    assert "<summary>Changelog</summary>" in en.page("usage.html")
    assert "<summary>「Changelog」</summary>" in zh.page("usage.html")
    assert "Page not found" in en.page("404.html")
    page = zh.page("404.html")
    assert "<h1>「Page not found」</h1>" in page and "<title>「Page not found」" in page
    assert "「Unfortunately we couldn&#x27;t find" in page or "「Unfortunately we couldn't find" in page
    assert re.sub(r"「[^」]*」", "", page).count("Page not found") == 0
    assert zh.warnings == en.warnings
