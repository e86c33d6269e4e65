"""One rule per option bound: the option table's ``maximum`` (``threads``: ONNX Runtime's 1024)
is what every front end checks, at config time, with the same line as the engine's own check,
instead of a build that runs until the model loads and only then stops."""

from __future__ import annotations

from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util.docutils import docutils_namespace, patch_docutils

from mkdocs_zh_translate.cli.app import _build_parser
from mkdocs_zh_translate.cli.errors import CliError
from mkdocs_zh_translate.cli.eval import parse_settings
from mkdocs_zh_translate.limits import MAX_THREADS
from mkdocs_zh_translate.pipeline.backends import ENGINE_OPTIONS, TranslatorSpec
from mkdocs_zh_translate.plugin.config import PluginConfig
from tests.sphinx.helpers import project

MESSAGE = f"threads must be from 1 to {MAX_THREADS}, got 5000"
COMMANDS = [["md", "page.md"], ["po", "fill", "locale"], ["docs", "--out", "out"], ["eval"], ["prefill"],
            ["translate"]]


def test_the_table_holds_the_bound() -> None:
    option = ENGINE_OPTIONS["threads"]
    assert option.maximum == MAX_THREADS
    assert option.over_maximum(MAX_THREADS) is None
    assert option.over_maximum(5000) == MESSAGE


def test_mkdocs_yml_refuses_threads_over_the_maximum() -> None:
    refused = PluginConfig()
    refused.load_dict({"backend": "pseudo", "threads": 5000})
    errors = refused.validate()[0]
    assert [(name, str(error)) for name, error in errors] == [("threads", MESSAGE)]
    taken = PluginConfig()
    taken.load_dict({"backend": "pseudo", "threads": MAX_THREADS})
    assert taken.validate()[0] == [] and taken["threads"] == MAX_THREADS


def test_conf_py_refuses_threads_over_the_maximum(tmp_path: Path) -> None:
    root = project(tmp_path, "")
    with patch_docutils(root), docutils_namespace(), pytest.raises(ConfigError) as refused:
        Sphinx(str(root), str(root), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
               confoverrides={"language": "zh_CN", "zh_translate_threads": 5000}, status=None, warning=None)
    assert str(refused.value) == f"zh_translate_threads: {MESSAGE}"


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_every_translating_command_refuses_threads_over_the_maximum(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        _build_parser().parse_args([*command, "--threads", "5000"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"argument --threads: {MESSAGE}")
    assert _build_parser().parse_args([*command, "--threads", str(MAX_THREADS)]).threads == MAX_THREADS


def test_eval_compare_refuses_threads_over_the_maximum() -> None:
    base = TranslatorSpec("pseudo", None)
    with pytest.raises(CliError) as refused:
        parse_settings("threads=5000", base)
    assert str(refused.value) == f"--compare threads=5000: {MESSAGE}"
    assert parse_settings(f"threads={MAX_THREADS}", base).threads == MAX_THREADS
