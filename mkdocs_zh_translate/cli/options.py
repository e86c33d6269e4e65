"""Options every command that loads a translator shares, and the shape of a command made of
actions (``po fill``, ``review sync``), defined once.

The translator's flags are the option table's (``pipeline/options.py``), spelled as in mkdocs.yml
with dashes (``max_batch_tokens``: ``--max-batch-tokens``) and checked by the table's kinds and
bounds, on every command that translates: ``md``, ``po fill`` and ``translate`` take the
translator from the command line (each flag's default is the plugin's default); ``docs``,
``eval`` and ``prefill`` take it from mkdocs.yml, and a flag overrides the plugin's setting only
when given. Choices (backends, markup strategies) are read from their registries when the
parser is built.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from ..pipeline.backends import engine_options
from ..pipeline.options import EngineOption


def add_command_group(sub: Any, name: str, help: str) -> Any:
    """``mkdocs-zh-translate NAME ACTION``: register ``name`` on the console script's
    sub-command parser and return the parser its actions are added to (``args.NAME_command``
    names the action)."""
    group = sub.add_parser(name, help=help)
    return group.add_subparsers(dest=f"{name}_command", required=True, metavar="ACTION")


def _count(option: EngineOption) -> Any:
    """The argparse type of a ``count``: a whole number within the table's bounds."""
    expected = "a positive integer" if option.minimum == 1 else f"a whole number, {option.minimum} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if value < option.minimum:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
        if (over := option.over_maximum(value)) is not None:
            raise argparse.ArgumentTypeError(over)
        return value

    return parse


def _names(text: str) -> tuple[str, ...] | None:
    """``a,b``: a ``names`` option (``--providers cuda,cpu``); empty: not given."""
    return tuple(p for p in text.split(",") if p) or None


def _help(option: EngineOption, default: object, overrides: str, note: str) -> str:
    text = option.help
    if option.describe is not None:
        text += f" ({option.describe()})"
    if note:
        text += f"; {note}"
    shown = option.unset if default is None else str(default)
    if overrides:
        text += f"; default: {overrides} `{option.name}` option" + (f", else {option.unset}" if option.unset else "")
    elif shown:
        text += f"; default: {shown}"
    if option.cache_key in ("always", "set"):
        text += "; part of the cache key"
    return text.replace("%", "%%")  # argparse formats help with %


def add_translator_options(
    parser: argparse.ArgumentParser,
    *,
    overrides: str = "",
    notes: Mapping[str, str] | None = None,
    defaults: Mapping[str, object] | None = None,
) -> None:
    """Every option of the table as a flag (``--backend``, ``--model``, ``--beams``,
    ``--max-batch-tokens``, ``--shortlist``, ``--markup``, ``--threads``, ``--providers``, and
    any registered later), plus each option's former spellings, hidden (``--batch-tokens``).

    ``overrides``: whose settings the flags override (``"the plugin's"``) for a command that
    reads the translator from a config; each then defaults to ``None`` (not given). ``notes``:
    what a flag means on this command besides (``prefill``'s threads are per worker);
    ``defaults``: a command's own default where it differs from the table's."""
    for option in engine_options():
        default = None if overrides else (defaults or {}).get(option.name, option.default)
        kwargs: dict[str, Any] = {"dest": option.name, "metavar": option.metavar}
        if option.kind == "choice":
            assert option.choices is not None
            kwargs["choices"] = option.choices()
        elif option.kind == "count":
            kwargs["type"] = _count(option)
        elif option.kind == "names":
            kwargs["type"] = _names
        help = _help(option, default, overrides, (notes or {}).get(option.name, ""))
        parser.add_argument(option.flag, default=default, help=help, **kwargs)
        for alias in option.aliases:
            parser.add_argument(alias, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs)


def translator_values(args: argparse.Namespace) -> dict[str, Any]:
    """Every table option's value as parsed (for a command that takes the translator from
    the command line: ``TranslatorSpec.of(translator_values(args))``)."""
    return {option.name: getattr(args, option.name) for option in engine_options()}


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    """The table options given on the command line (for a command that overrides a config's)."""
    return {name: value for name, value in translator_values(args).items() if value is not None}
