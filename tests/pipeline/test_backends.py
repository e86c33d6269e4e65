"""The backend registry: adding a backend is one entry in ``pipeline.backends.BACKENDS``.

The ``upper`` backend below is registered from the test alone (no file of the package names
it) and then works through the ``md`` command, the plugin's option checks and a whole in-process
build, with its own cache key and page notice; an unknown name lists whatever is registered.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import MkDocsException

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.pipeline.backends import (
    BACKENDS,
    Backend,
    BackendError,
    TranslatorSpec,
    get_backend,
    load_translator,
)
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.spec import bind_cache
from mkdocs_zh_translate.pipeline.translator import bare
from tests.plugin_sites import Html, build_in_process, write_site

_TAG = re.compile(r"(<[^<>]*>)")  # placeholders stay as they are: the ladder checks them


class Upper:
    """Upper-cases each sentence's words, keeps its placeholders."""

    def translate(self, texts: Sequence[str]) -> list[str]:
        return ["".join(p if p.startswith("<") else p.upper() for p in _TAG.split(t)) for t in texts]


@pytest.fixture
def upper(monkeypatch: pytest.MonkeyPatch) -> Backend:
    """The one line a new backend takes: its entry in the registry."""
    entry = Backend("upper", lambda spec: Upper(), "upper-cases every sentence", fingerprint="upper-v1")
    monkeypatch.setitem(BACKENDS, "upper", entry)
    return entry


PAGE = "# Install\n\nRun `pip install x` to **install** it.\n"


def test_md_command_runs_a_registered_backend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], upper: Backend
) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(src), "--backend", "upper"]) == 0
    assert capsys.readouterr().out == "# INSTALL { #install }\n\nRUN `pip install x` TO **INSTALL** IT.\n"


def test_md_command_refuses_the_name_when_not_registered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fixture's entry is what makes ``upper`` work (and the choices are read per run)."""
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        main(["md", str(src), "--backend", "upper"])
    assert refused.value.code == 2
    said = capsys.readouterr().err.replace("'", "")  # Python 3.12 stopped quoting the choices
    assert "invalid choice: upper (choose from onnx, pseudo, genai)" in said


def test_plugin_accepts_a_registered_backend_and_builds_with_it(tmp_path: Path, upper: Backend) -> None:
    config = write_site(tmp_path, plugin={"backend": "upper"})  # no model: upper needs none
    build_in_process(config)
    install = Html(tmp_path / "site" / "zh" / "guide" / "install" / "index.html")
    assert "INSTALL THE PACKAGE" in install.text
    assert "本页由机器翻译（upper 后端）" in install.text  # the notice names a model-free backend


def test_a_registered_backend_has_its_own_cache_key(tmp_path: Path, upper: Backend) -> None:
    machine = MachineCache(tmp_path / "cache")
    assert bind_cache(TranslatorSpec("upper", None), machine).fingerprint.startswith("upper-v1|")
    assert bind_cache(TranslatorSpec("pseudo", None), machine).fingerprint.startswith("pseudo-v1|")
    assert isinstance(bare(load_translator("upper")), Upper)


def _refused(config: Path, caplog: pytest.LogCaptureFixture) -> str:
    """What MkDocs logs when it refuses ``config`` (it raises a bare "Aborted")."""
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]  # a fresh plugin
    with caplog.at_level(logging.ERROR), pytest.raises(MkDocsException):
        load_config(config_file=str(config), strict=True)
    return " ".join(r.getMessage() for r in caplog.records)


def test_a_backend_that_needs_a_model_is_refused_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(BACKENDS, "shout", Backend("shout", lambda spec: Upper(), "", needs_model=True))
    said = _refused(write_site(tmp_path, plugin={"backend": "shout"}), caplog)
    assert "option 'model': the shout backend needs a model directory" in said


def test_unknown_backend_lists_the_registered_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, upper: Backend
) -> None:
    with pytest.raises(BackendError, match=r"^unknown backend 'nope'; choose one of onnx, pseudo, genai, upper$"):
        get_backend("nope")
    said = _refused(write_site(tmp_path, plugin={"backend": "nope"}), caplog)
    assert "Expected one of: ('onnx', 'pseudo', 'genai', 'upper') but received: 'nope'" in said
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["md", str(src), "--backend", "nope"])
    assert "(choose from onnx, pseudo, genai, upper)" in capsys.readouterr().err.replace("'", "")
