"""The translator options are one definition (the option table, ``pipeline/options.py``, made
into flags by ``cli.options.add_translator_options``): every command that loads a translator
takes all of them, spelled as in mkdocs.yml and parsed alike."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import _build_parser, main
from mkdocs_zh_translate.pipeline.translator import PSEUDO_CLOSE, PSEUDO_OPEN
from tests.plugin_sites import write_site

TRANSLATOR = ["--backend", "pseudo", "--model", "m", "--beams", "2", "--threads", "1", "--providers", "cuda,cpu",
              "--markup", "tags", "--max-batch-tokens", "64", "--shortlist", "300"]
EXPECTED = {"backend": "pseudo", "model": "m", "beams": 2, "threads": 1, "providers": ("cuda", "cpu"),
            "markup": "tags", "max_batch_tokens": 64, "shortlist": 300}

COMMANDS = [["md", "page.md"], ["po", "fill", "locale"], ["docs", "--out", "out"], ["eval"], ["prefill"],
            ["translate"]]
IDS = ["md", "po fill", "docs", "eval", "prefill", "translate"]


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_every_translator_command_takes_the_same_options(command: list[str]) -> None:
    args = _build_parser().parse_args([*command, *TRANSLATOR])
    assert {k: getattr(args, k) for k in EXPECTED} == EXPECTED


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_the_former_batch_tokens_spelling_still_works_unlisted(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``translate --batch-tokens`` was the one spelling that differed from mkdocs.yml's."""
    assert _build_parser().parse_args([*command, "--batch-tokens", "32"]).max_batch_tokens == 32
    with pytest.raises(SystemExit):
        _build_parser().parse_args([*command, "--help"])
    shown = capsys.readouterr().out
    assert "--max-batch-tokens" in shown and "--batch-tokens" not in shown.replace("--max-batch-tokens", "")


@pytest.mark.parametrize(("flag", "value"), [("--beams", "0"), ("--threads", "0"), ("--max-batch-tokens", "0"),
                                             ("--shortlist", "-1"), ("--beams", "many")])
@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_the_table_bounds_hold_on_every_command(
    command: list[str], flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        _build_parser().parse_args([*command, flag, value])
    assert exited.value.code == 2
    assert f"argument {flag}: expected" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "backend", "markup"), [
    (["md", "page.md"], "onnx", "auto"),  # the translator is the command line's: the plugin's defaults
    (["translate"], "onnx", "tags"),  # plain lines: the model's own output
    (["docs", "--out", "out"], None, None),  # the site's, overridden only by what is given
    (["eval"], None, None),
    (["prefill"], None, None),
])
def test_defaults_are_the_plugins_or_none_where_the_config_decides(
    command: list[str], backend: str | None, markup: str | None
) -> None:
    args = _build_parser().parse_args(command)
    assert (args.backend, args.model, args.beams, args.markup) == (backend, None, None, markup)


def test_prefill_takes_the_backend_and_model_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site names a model this machine lacks; ``--backend pseudo`` fills the cache all the same,
    and ``--model`` is read from the working directory, as every path a command takes."""
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "models/absent"},
                        pages={"index.md": "# Home\n\nOne paragraph.\n"})
    assert main(["prefill", "-f", str(config), "--no-progress"]) == 2  # the site's own translator
    assert "models/absent" in capsys.readouterr().err
    assert main(["prefill", "-f", str(config), "--no-progress", "--backend", "pseudo", "--markup", "tags"]) == 0
    assert "pseudo backend (no model)" in capsys.readouterr().out
    assert main(["prefill", "-f", str(config), "--no-progress", "--model", "elsewhere"]) == 2
    assert str(tmp_path / "elsewhere") in capsys.readouterr().err


def test_translate_takes_every_backend(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Open the file.\nSave it.\n")))
    assert main(["translate", "--backend", "pseudo"]) == 0
    assert capsys.readouterr().out == f"{PSEUDO_OPEN}Open the file.{PSEUDO_CLOSE}\n{PSEUDO_OPEN}Save it.{PSEUDO_CLOSE}\n"
    assert main(["translate"]) == 2  # onnx, the default, needs a model: one line
    assert capsys.readouterr().err.count("\n") == 1
