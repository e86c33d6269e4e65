"""`review report`: a self-contained side-by-side page that escapes everything."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests.plugin_sites import build_in_process, write_site

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
PAGES = {
    "index.md": "# Home\n\nFirst sentence here.\n\nSecond sentence here.\n\nThird <b>sentence</b> here.\n",
}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.rows: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append(dict(attrs).get("class") or "")


def test_report_escapes_a_malicious_msgstr_and_highlights_states(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "index.md.po"
    po = polib.pofile(str(path))
    po.find("First sentence here.").msgstr = EVIL
    po.find("First sentence here.").flags = []
    po.find("Second sentence here.").msgstr = "第二句。"
    po.find("Second sentence here.").flags = []
    po.save(str(path))
    (tmp_path / "docs" / "index.md").write_text(PAGES["index.md"].replace("Second sentence", "Second changed sentence"))
    out = tmp_path / "report.html"
    assert cli_main(["review", "report", "-o", str(out), "-f", str(config)]) == 0
    text = out.read_text(encoding="utf-8")
    parser = Tags()
    parser.feed(text)
    assert "script" not in parser.tags and "img" not in parser.tags and "b" not in parser.tags
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    assert "Third &lt;b&gt;sentence&lt;/b&gt; here." in text  # the source is escaped too
    assert "was: Second sentence here." in text  # the stale entry shows what it was reviewed for
    assert {"rejected", "stale", "machine"} <= set(parser.rows)  # the evil entry is reviewed but rejected
    assert "rejected: adds a script the source does not have" in text
    assert "http" not in text.replace("http-equiv", "")  # self-contained: nothing loaded from elsewhere
