"""Text from untrusted files never reaches a terminal raw.

A contributor's PO entry with ``#. confidence: -9.99`` and a msgstr starting
``\\x1b]0;pwned\\x07\\x1b[2J`` made ``review report --worst 5`` retitle the maintainer's terminal
and clear it; ``--json`` output left C1 controls (the one-byte CSI ``\\x9b``) and bidi controls
raw. Both failed on main.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.plaintext import for_terminal, json_text
from tests.plugin_sites import write_site

PAYLOAD = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\x08\x00"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_review_report_worst_escapes_a_po_files_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages={"index.md": "# Home\n\nRun the build command.\n"})
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "index.md.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        "#. paragraph\n#. confidence: -9.99\n#: docs/index.md:3\n#, fuzzy\n"
        f'msgid "Run the build command."\nmsgstr "{PAYLOAD}运行构建命令。"\n',
        encoding="utf-8",
    )
    assert cli_main(["review", "report", "--worst", "5", "-f", str(config)]) == 0
    out = capsys.readouterr().out
    rows = [line.split("\t") for line in out.splitlines()[2:]]
    assert rows and rows[0][0] == "-9.99"  # the contributor's entry is listed...
    assert RAW.search(out) is None  # ...with no control character raw
    assert rows[0][3].startswith("\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202eevil\\x08\\x00")


def test_eval_json_has_no_raw_control(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    refs = tmp_path / "refs.tsv"
    refs.write_text("Stop\x9b2J the \u202ebuild now.\t停止\x9b2J构建\u202e。\n", encoding="utf-8")
    assert cli_main(["eval", "--references", str(refs), "--backend", "pseudo", "--json", "--worst", "5"]) == 0
    out = capsys.readouterr().out
    assert RAW.search(out) is None
    report = json.loads(out)
    assert report["references"]["count"] == 1


def test_for_terminal_and_json_text_keep_the_text_readable() -> None:
    assert for_terminal("中文 text\tand\nmore") == "中文 text\\x09and\\x0amore"
    value = {"a": PAYLOAD + "中文", "b": ["\u2028", "\ufeff"]}
    text = json_text(value)
    assert RAW.search(text) is None and "中文" in text and json.loads(text) == value
