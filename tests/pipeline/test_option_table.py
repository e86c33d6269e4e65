"""One option, declared once: registering it in the option table (``pipeline/options.py``) is all
it takes for it to be a mkdocs.yml option, a ``zh_translate_*`` conf.py value, a flag of every
translating command and a value of the translator spec, in the cache key exactly when the
table says so. This file is the only one an extra option touches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util.docutils import docutils_namespace, patch_docutils

from mkdocs_zh_translate.cli.app import _build_parser
from mkdocs_zh_translate.cli.options import given_options, translator_values
from mkdocs_zh_translate.pipeline import backends as table
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.options import EngineOption, KeyPart
from mkdocs_zh_translate.pipeline.spec import decode_options
from mkdocs_zh_translate.plugin.config import PluginConfig
from mkdocs_zh_translate.plugin.factory import SitePipeline, listed_options
from mkdocs_zh_translate.sphinx.config import settings_of
from tests.plugin_sites import write_site
from tests.sphinx.helpers import project

NAME = "length_bonus"
COMMANDS = [["md", "page.md"], ["po", "fill", "locale"], ["docs", "--out", "out"], ["eval"], ["prefill"],
            ["translate"]]


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Callable[[KeyPart], EngineOption]:
    """Registers ``length_bonus`` (a whole number, 2 by default) for one test, keyed as asked."""

    def add(cache_key: KeyPart) -> EngineOption:
        option = EngineOption(NAME, "count", "a made-up decoding knob", default=2, metavar="N", cache_key=cache_key)
        monkeypatch.setitem(table.ENGINE_OPTIONS, NAME, option)
        return option

    return add


@pytest.fixture
def fresh_plugins() -> Iterator[None]:
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]  # a new instance per load
    yield
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]


@pytest.mark.parametrize("cache_key", ["set", ""])
def test_an_option_in_the_table_is_one_in_mkdocs_yml(
    tmp_path: Path, register: Callable[[KeyPart], EngineOption], cache_key: KeyPart, fresh_plugins: None
) -> None:
    before = decode_options(TranslatorSpec("pseudo", None))
    register(cache_key)
    config = load_config(config_file=str(write_site(tmp_path, plugin={"backend": "pseudo", NAME: 5})))
    options = listed_options(config)
    assert options is not None and options[NAME] == 5 and getattr(options, NAME) == 5
    spec = SitePipeline().configure(options, config)  # the build's own spec
    assert spec.option(NAME) == 5
    assert (f"{NAME}=5;" in decode_options(spec)) == (cache_key == "set")
    assert decode_options(TranslatorSpec("pseudo", None)) == before  # at its default: the keys of before
    options.length_bonus = 6  # attributes read and set the options, as MkDocs' own do (tools/demo.py)
    options.backend = "pseudo"
    assert (options[NAME], options["backend"]) == (6, "pseudo")
    refused = PluginConfig()
    refused.load_dict({"backend": "pseudo", NAME: 0})
    assert [name for name, _ in refused.validate()[0]] == [NAME]


@pytest.mark.parametrize(("cache_key", "rebuild"), [("set", "env"), ("", "")])
def test_an_option_in_the_table_is_a_sphinx_config_value(
    tmp_path: Path, register: Callable[[KeyPart], EngineOption], cache_key: KeyPart, rebuild: str
) -> None:
    register(cache_key)
    root = project(tmp_path, f"zh_translate_{NAME} = 7\n")
    with patch_docutils(root), docutils_namespace():
        app = Sphinx(str(root), str(root), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
                     confoverrides={"language": "zh_CN"}, status=None, warning=None)
        assert app.config.values[f"zh_translate_{NAME}"].rebuild == rebuild
        assert settings_of(app.config, root).spec().option(NAME) == 7
        with pytest.raises(ConfigError, match=f"zh_translate_{NAME} must be a positive whole number or None, not 0"):
            Sphinx(str(root), str(root), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
                   confoverrides={"language": "zh_CN", f"zh_translate_{NAME}": 0}, status=None, warning=None)


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_an_option_in_the_table_is_a_flag_of_every_translating_command(
    command: list[str], register: Callable[[KeyPart], EngineOption], capsys: pytest.CaptureFixture[str]
) -> None:
    register("set")
    args = _build_parser().parse_args([*command, "--length-bonus", "9"])
    assert TranslatorSpec.of(translator_values(args)).option(NAME) == 9
    assert given_options(args)[NAME] == 9
    with pytest.raises(SystemExit):
        _build_parser().parse_args([*command, "--length-bonus", "0"])
    assert "argument --length-bonus: expected a positive integer, got 0" in capsys.readouterr().err


def test_the_spec_carries_it_and_the_key_follows_the_table(register: Callable[[KeyPart], EngineOption]) -> None:
    register("set")
    spec = TranslatorSpec("onnx", "m", beams=4)
    assert spec.option(NAME) == 2 and spec.with_options(length_bonus=3).option(NAME) == 3
    assert decode_options(spec.with_options(length_bonus=3)).startswith("beams=4;max_batch_tokens=None;")
    assert decode_options(spec.with_options(length_bonus=3)) != decode_options(spec)
    with pytest.raises(ValueError, match="registered already"):
        table.register_option(table.ENGINE_OPTIONS["beams"])
    with pytest.raises(TypeError, match="unknown translator option 'no_such'"):
        TranslatorSpec.of({"backend": "pseudo", "no_such": 1})
