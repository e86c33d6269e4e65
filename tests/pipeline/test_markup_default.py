"""The default markup strategy is ``auto``: ``project`` wherever the model can align, else ``tags``.

issue 24 item 1: ``project`` wins on the model that never saw a placeholder, so it is what a
user gets without choosing; an export made before aligners (no ``aligner.onnx``) and a backend
that cannot align keep ``tags``, with one info line saying why. The cache key names the
strategy that produced the text, so a ``project`` translation is never served as a ``tags`` one
(nor the reverse) and caches filled under ``tags`` stay valid for it. Users choose with the
plugin's ``markup:`` option or ``--markup``; summaries count sentences whole / in pieces / English.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import _build_parser, main
from mkdocs_zh_translate.model_format import ALIGNER_FILE, MANIFEST_FILE
from mkdocs_zh_translate.pipeline import lazy, markup
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec, load_translator
from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache
from mkdocs_zh_translate.pipeline.spec import bind_cache
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator, bare
from tests.plugin_sites import build_in_process, write_site

TAGGED = "Run <x1/> to build the <g2>site</g2>."


@pytest.fixture(autouse=True)
def fresh_announcements(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test hears the once-per-process info line afresh."""
    monkeypatch.setattr(markup, "_ANNOUNCED", set())


def _export(root: Path, *, aligner: bool) -> Path:
    """A stand-in export directory: the manifest (and files) the resolution reads."""
    root.mkdir(parents=True)
    names = ["encoder.onnx", "decoder.onnx"] + ([ALIGNER_FILE] if aligner else [])
    for name in names:
        (root / name).write_bytes(name.encode())
    (root / MANIFEST_FILE).write_text(json.dumps({"files": dict.fromkeys(names, "0" * 64)}), encoding="utf-8")
    return root


def _key(spec: TranslatorSpec, machine: MachineCache) -> str:
    return bind_cache(spec, machine).fingerprint


def test_auto_keys_the_strategy_it_resolves_to(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")
    aligns = str(_export(tmp_path / "new", aligner=True))
    older = str(_export(tmp_path / "old", aligner=False))
    auto = _key(TranslatorSpec("onnx", aligns), machine)
    assert auto == _key(TranslatorSpec("onnx", aligns, markup="project"), machine)
    assert auto != _key(TranslatorSpec("onnx", aligns, markup="tags"), machine)
    # an export without aligner.onnx (and the pseudo backend) keep today's key: `tags` names none
    assert _key(TranslatorSpec("onnx", older), machine) == _key(TranslatorSpec("onnx", older, markup="tags"), machine)
    assert "markup" not in _key(TranslatorSpec("onnx", older), machine)
    assert _key(TranslatorSpec("pseudo", None), machine) == _key(TranslatorSpec("pseudo", None, markup="tags"), machine)


def test_a_project_translation_is_never_served_as_a_tags_one(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")
    model = str(_export(tmp_path / "m", aligner=True))
    tags_key = _key(TranslatorSpec("onnx", model, markup="tags"), machine)
    project_key = _key(TranslatorSpec("onnx", model, markup="project"), machine)
    machine.store({TAGGED: Hit("运行 <x1/> 构建<g2>站点</g2>。", "runs")}, tags_key)
    machine.store({"Other.": Hit("其他。")}, project_key)
    auto_key = _key(TranslatorSpec("onnx", model), machine)
    assert machine.lookup([TAGGED], auto_key) == {}  # filled under tags: not the default's text
    assert machine.lookup(["Other."], auto_key) == {"Other.": Hit("其他。")}
    assert machine.lookup(["Other."], tags_key) == {}


def test_a_cached_site_keeps_its_strategy_when_the_model_is_gone(tmp_path: Path) -> None:
    """CI restores the cache a laptop filled, without the model: the key is the one the
    laptop's ``auto`` resolved to (read from the cache's metadata), not ``tags``."""
    machine = MachineCache(tmp_path / "cache")
    model = _export(tmp_path / "m", aligner=True)
    filled = _key(TranslatorSpec("onnx", str(model)), machine)
    assert "markup=project" in filled
    shutil.rmtree(model)
    assert _key(TranslatorSpec("onnx", str(model)), machine) == filled


def test_a_backend_that_cannot_align_keeps_tags_and_says_why_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        assert isinstance(bare(load_translator("pseudo")), PseudoTranslator)
        load_translator("pseudo")
    said = [r.getMessage() for r in caplog.records if "markup" in r.getMessage()]
    assert said == ["zh-translate: markup: tags (the pseudo backend cannot align translations)"]


@pytest.mark.slow
def test_auto_projects_on_a_model_with_an_aligner_and_keeps_tags_without(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.pipeline.ladder import translate_segments
    from mkdocs_zh_translate.segment import validate
    from tests.models import tagfree_onnx_model

    model = tagfree_onnx_model("none")
    default = load_translator("onnx", model, threads=1)
    assert isinstance(default, markup.ProjectingTranslator)
    [result] = translate_segments([TAGGED], default)  # the model that never saw a tag: whole
    assert result.fallback is None and validate(TAGGED, result.text) == []

    older = tmp_path / "older"
    shutil.copytree(model, older)
    manifest = json.loads((older / MANIFEST_FILE).read_text())
    del manifest["files"][ALIGNER_FILE]
    (older / MANIFEST_FILE).write_text(json.dumps(manifest))
    (older / ALIGNER_FILE).unlink()
    with caplog.at_level(logging.INFO):
        assert type(bare(load_translator("onnx", older, threads=1))) is OnnxTranslator
        load_translator("onnx", older, threads=1)
    said = [r.getMessage() for r in caplog.records if "markup" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(f"zh-translate: markup: tags ({older} has no {ALIGNER_FILE}")


@pytest.mark.parametrize("command", [["md", "p.md"], ["po", "fill", "x.po"], ["docs", "--out", "o"], ["prefill"]])
def test_every_command_that_loads_a_translator_takes_markup(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    parser = _build_parser()
    assert parser.parse_args([*command, "--markup", "project"]).markup == "project"
    with pytest.raises(SystemExit) as refused:
        parser.parse_args([*command, "--markup", "nope"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and all(name in err for name in ("auto", "tags", "project", "constrained"))


def test_md_markup_reaches_the_translator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.md"
    page.write_text("See `code` here.\n", encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo", "--markup", "project", "--no-guard"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "markup strategy 'project' needs the onnx backend" in err[0]


def test_the_plugin_refuses_an_unknown_markup_name_listing_the_valid_ones(tmp_path: Path) -> None:
    from mkdocs_zh_translate.plugin.plugin import ZhTranslatePlugin

    errors, _warnings = ZhTranslatePlugin().load_config({"backend": "pseudo", "markup": "nope"})
    assert [(name, str(error)) for name, error in errors] == [
        ("markup", "unknown markup strategy 'nope'; choose one of auto, tags, project, constrained")
    ]
    errors, _warnings = ZhTranslatePlugin().load_config({"backend": "pseudo", "markup": "tags"})
    assert errors == []


class DropsPlaceholders:
    """A model that loses every placeholder: the ladder translates such a sentence in pieces."""

    name = "fake"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [f"「{markup_free}」" for markup_free in (t.replace("<x1/>", "") for t in texts)]


def test_md_says_how_many_sentences_came_out_in_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: DropsPlaceholders())
    page = tmp_path / "p.md"
    page.write_text("# Title\n\nSee `code` here.\n", encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo", "--no-guard"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"mkdocs-zh-translate: {page}: sentences: 1 whole / 1 in pieces / 0 left English"]


def test_the_build_and_docs_summaries_count_sentences(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path / "site")
    with caplog.at_level(logging.INFO):
        plugin = build_in_process(config)
    whole = sum(counts.whole for counts in plugin.stats.pages.values())
    assert whole > 0
    summary = [r.getMessage() for r in caplog.records if "segments (" in r.getMessage()]
    assert len(summary) == 1 and f"sentences: {whole} whole / 0 in pieces / 0 left English" in summary[0]
    assert main(["docs", "-f", str(config), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert f"sentences: {whole} whole / 0 in pieces / 0 left English" in err
