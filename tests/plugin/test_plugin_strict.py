"""``strict`` means "English left behind", with one wording in the build, ``docs`` and
``po fill``: a sentence kept in English fails a strict run; a fallback that still translated
the whole sentence (here: in pieces) does not."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.pipeline import lazy
from tests.fakes import Scripted
from tests.plugin_sites import build_in_process, write_site

PAGE = "# Title\n\nRun `mkdocs build` now.\n\nPlain text here.\n"
STRICT_LINE = re.compile(r"strict: (\d+) place\(s\) where English is left behind")


def _breaks_tags(fragments: str) -> Scripted:
    """A model that loses every placeholder; it translates the pieces between them
    (``fragments="upper"``) or has nothing for them (``fragments="empty"``)."""

    def rule(text: str) -> str:
        if "<x" in text or "<g" in text:
            return re.sub(r"</?[gx]\d+/?>", "", text).upper()
        if text.strip().lower() in ("run", "now."):
            return text.upper() if fragments == "upper" else ""
        return text.upper()

    return Scripted(rule)


def _site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fragments: str, **options: object) -> Path:
    (tmp_path / "model").mkdir(exist_ok=True)
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: _breaks_tags(fragments))
    monkeypatch.chdir(tmp_path)
    return write_site(
        tmp_path,
        plugin={"backend": "onnx", "model": str(tmp_path / "model"), **options},
        pages={"index.md": PAGE},
    )


def test_a_sentence_translated_in_pieces_passes_a_strict_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path, monkeypatch, "upper", strict=True)
    with caplog.at_level(logging.DEBUG, logger=LOGGER_NAME):
        plugin = build_in_process(config)
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "RUN" in html and "NOW." in html and "PLAIN TEXT HERE." in html
    assert plugin.stats.fallback_steps == ["runs"]
    assert any("fell back to 'runs'" in r.getMessage() for r in caplog.records)  # -v still lists it


def test_a_sentence_left_in_english_fails_a_strict_build_and_docs_strict_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _site(tmp_path, monkeypatch, "empty")
    build_in_process(config)  # without strict: built, the sentence in English
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "Run <code>mkdocs build</code> now." in html and "PLAIN TEXT HERE." in html

    strict = _site(tmp_path, monkeypatch, "empty", strict=True)
    caplog.clear()
    with pytest.raises(Abort):
        build_in_process(strict)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("index.md:3: kept in English" in m for m in errors), errors
    built = [m for m in errors if STRICT_LINE.search(m)]
    assert len(built) == 1 and STRICT_LINE.search(built[0]).group(1) == "1"  # type: ignore[union-attr]

    # `docs --strict`: the same line, exit code 2, no file written
    rc = cli_main(["docs", "-f", str(config), "--out", str(tmp_path / "out"), "--strict"])
    err = capsys.readouterr().err
    assert rc == 2 and "index.md:3: kept in English" in err
    match = STRICT_LINE.search(err)
    assert match and match.group(1) == "1", err
    assert not (tmp_path / "out" / "index.zh.md").exists()
    # and a pieces-only run (a new model: the cache's English answer is not its answer) passes
    shutil.rmtree(tmp_path / ".zh-translate-cache")
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: _breaks_tags("upper"))
    assert cli_main(["docs", "-f", str(config), "--out", str(tmp_path / "out2"), "--strict"]) == 0


def test_po_fill_strict_fails_on_entries_that_failed_validation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "model").mkdir()
    # a model that loses the code span, and has nothing for the pieces either
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: Scripted(lambda t: "" if "<x" not in t else "译文"))
    po = tmp_path / "index.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Run ``mkdocs build`` now."\nmsgstr ""\n',
        encoding="utf-8",
    )
    args = ["po", "fill", str(po), "--model", str(tmp_path / "model"), "--cache-dir", str(tmp_path / "c")]
    assert cli_main(args) == 0  # without --strict: a summary, exit 0
    capsys.readouterr()
    assert cli_main([*args, "--strict"]) == 1
    err = capsys.readouterr().err
    match = STRICT_LINE.search(err)
    assert "index.po:5: the translation lost" in err and match and match.group(1) == "1", err
