"""The footer's ``copyright`` written as HTML and the controls a terminal animation's script
writes (termynal's "fast →" / "restart ↻") are Chinese in the Chinese site, or named."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin.chrome import html_copyright, translated_script, zh_copyright
from tests.plugin_sites import Html, build_in_process, write_site

COPYRIGHT = 'Copyright &copy; 2026 <a href="https://acme.example/">Acme Docs Team</a>. All rights reserved.'
TERMYNAL = """class Termynal {
    generateRestart() {
        const restart = document.createElement('a')
        restart.innerHTML = "restart ↻"
        return restart
    }
    generateFinish() {
        const finish = document.createElement('a')
        finish.innerHTML = 'fast →'
        return finish
    }
}
"""


def test_html_copyright_text_is_translated_and_escaped() -> None:
    template = html_copyright(COPYRIGHT)
    assert template is not None
    assert [p.text for p in template.pieces] == ["Copyright © 2026", "Acme Docs Team", ". All rights reserved."]
    assert html_copyright("Copyright 2026 Acme") is None  # plain text: one site string, as before
    out = zh_copyright(
        template, {"Acme Docs Team": '<img src=x onerror=alert(1)>"{{ x }}', "Copyright © 2026": "版权所有 © 2026"}
    )
    assert out is not None and out.startswith('版权所有 © 2026 <a href="https://acme.example/">')
    assert "<img" not in out and "{{" not in out and out.endswith("</a>. All rights reserved.")


def test_only_the_known_literals_of_a_termynal_script_change() -> None:
    out = translated_script(TERMYNAL)
    assert '"重新播放 ↻"' in out and "'快进 →'" in out and "restart ↻" not in out and "fast →" not in out
    other = 'el.innerHTML = "fast →"\n'  # not a termynal script: left alone
    assert translated_script(other) == other


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("chrome")
    (root / "docs" / "js").mkdir(parents=True)
    (root / "docs" / "js" / "termynal.js").write_text(TERMYNAL, encoding="utf-8")
    (root / "docs" / "vendor").mkdir()  # a copy a template loads, not listed in extra_javascript
    (root / "docs" / "vendor" / "term.js").write_text(TERMYNAL, encoding="utf-8")
    config = write_site(
        root,
        pages={"index.md": "# Home\n\nHello there, reader.\n"},
        extra_config={
            "copyright": COPYRIGHT,
            "extra_javascript": ["js/termynal.js", "https://cdn.example.org/termynal/termynal.js"],
        },
    )
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    handler = Keep(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build_in_process(config)
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    return root, records


def test_the_copyright_is_chinese_in_the_chinese_footer(site: tuple[Path, list[str]]) -> None:
    root, _ = site
    zh, en = Html(root / "site" / "zh" / "index.html"), Html(root / "site" / "index.html")
    assert "Acme Docs Team" in en.text and PSEUDO_OPEN + "Acme Docs Team" not in en.text
    assert f"{PSEUDO_OPEN}Copyright © 2026" in zh.text and f"{PSEUDO_OPEN}Acme Docs Team" in zh.text
    assert "https://acme.example/" in zh.attr("a", "href")


def test_termynal_controls_are_chinese_and_a_remote_copy_is_named(site: tuple[Path, list[str]]) -> None:
    root, records = site
    zh = (root / "site" / "zh" / "js" / "termynal.js").read_text(encoding="utf-8")
    assert "重新播放 ↻" in zh and "快进 →" in zh and "fast →" not in zh
    assert (root / "site" / "js" / "termynal.js").read_text(encoding="utf-8") == TERMYNAL
    assert "快进 →" in (root / "site" / "zh" / "vendor" / "term.js").read_text(encoding="utf-8")
    assert (root / "docs" / "js" / "termynal.js").read_text(encoding="utf-8") == TERMYNAL
    named = [m for m in records if "cdn.example.org" in m]
    assert len(named) == 1 and "fast →" in named[0] and "stay English" in named[0]
