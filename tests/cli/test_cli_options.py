"""The translator options are one definition (``cli.options.add_translator_options``): every
command that loads a translator takes all of them, spelled and parsed alike."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.cli.app import _build_parser

TRANSLATOR = ["--backend", "pseudo", "--model", "m", "--beams", "2", "--threads", "1", "--providers", "cuda,cpu",
              "--markup", "tags"]


@pytest.mark.parametrize(
    "command",
    [["md", "page.md"], ["po", "fill", "locale"], ["docs", "--out", "out"], ["eval"]],
    ids=["md", "po fill", "docs", "eval"],
)
def test_every_translator_command_takes_the_same_options(command: list[str]) -> None:
    args = _build_parser().parse_args([*command, *TRANSLATOR])
    got = {k: getattr(args, k) for k in ("backend", "model", "beams", "threads", "providers", "markup")}
    assert got == {"backend": "pseudo", "model": "m", "beams": 2, "threads": 1, "providers": "cuda,cpu",
                   "markup": "tags"}


@pytest.mark.parametrize(("command", "backend", "markup"), [
    (["md", "page.md"], "onnx", "auto"),  # the translator is the command line's: the plugin's defaults
    (["docs", "--out", "out"], None, None),  # the site's, overridden only by what is given
    (["eval"], None, None),
])
def test_defaults_are_the_plugins_or_none_where_the_config_decides(
    command: list[str], backend: str | None, markup: str | None
) -> None:
    args = _build_parser().parse_args(command)
    assert (args.backend, args.model, args.beams, args.markup) == (backend, None, None, markup)
