"""Options every command that loads a translator shares, and the shape of a command made of
actions (``po fill``, ``review sync``), defined once.

``md`` and ``po fill`` take the translator from the command line (each option's default is the
plugin's default); ``docs``, ``eval`` and ``prefill`` take it from mkdocs.yml, and an option
overrides the plugin's setting only when given. The backend names and their help come from the
registry (``pipeline.backends.BACKENDS``), read when the parser is built.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..pipeline.backends import BACKENDS, DEFAULT_BACKEND, backend_names
from ..pipeline.markup import DEFAULT_MARKUP, markup_choices

SHORTLIST_HELP = ("vocabulary shortlist: score about N frequent target pieces plus the batch's own instead of "
                  "all (faster, outputs can differ; 0: off, the default; needs an export made with it)")
PROVIDERS_HELP = "ONNX Runtime execution providers, comma-separated, e.g. cuda,cpu (default: cpu; GPU untested)"


def add_command_group(sub: Any, name: str, help: str) -> Any:
    """``mkdocs-zh-translate NAME ACTION``: register ``name`` on the console script's
    sub-command parser and return the parser its actions are added to (``args.NAME_command``
    names the action)."""
    group = sub.add_parser(name, help=help)
    return group.add_subparsers(dest=f"{name}_command", required=True, metavar="ACTION")


def add_translator_options(parser: argparse.ArgumentParser, *, overrides: str = "") -> None:
    """``--backend``, ``--model``, ``--beams``, ``--threads``, ``--providers`` and ``--markup``.

    ``overrides``: whose settings the options override (``"the plugin's"``) for a command that
    reads the translator from a config; each then defaults to ``None`` (not given)."""
    backends = "; ".join(f"{b.name}: {b.help}" for b in BACKENDS.values())
    with_model = ", ".join(b.name for b in BACKENDS.values() if b.needs_model)
    if overrides:
        parser.add_argument("--backend", choices=backend_names(), help=f"override {overrides} backend: {backends}")
        parser.add_argument("--model", metavar="DIR", help=f"override {overrides} model directory")
    else:
        parser.add_argument(
            "--backend", choices=backend_names(), default=DEFAULT_BACKEND,
            help=f"{backends} (default: {DEFAULT_BACKEND})",
        )
        parser.add_argument("--model", metavar="DIR", help=f"exported model directory ({with_model} backend)")
    parser.add_argument("--beams", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--shortlist", type=int, default=None, metavar="N", help=SHORTLIST_HELP)
    parser.add_argument("--providers", metavar="LIST", help=PROVIDERS_HELP)
    add_markup_option(parser, overrides_config=bool(overrides))


def providers_of(args: argparse.Namespace) -> tuple[str, ...] | None:
    """``--providers a,b`` as a tuple (``None`` when not given)."""
    return tuple(p for p in args.providers.split(",") if p) if args.providers else None


def add_markup_option(parser: argparse.ArgumentParser, *, overrides_config: bool = False) -> None:
    """``--markup NAME``: how links, code and emphasis get through the model (see the user guide)."""
    default = None if overrides_config else DEFAULT_MARKUP
    where = "the plugin's `markup` option, else auto" if overrides_config else DEFAULT_MARKUP
    parser.add_argument(
        "--markup",
        choices=markup_choices(),
        default=default,
        help="how links, code and emphasis get through the model: auto (project when the export has "
        "aligner.onnx, else tags), project (translate without them, place them by alignment), tags "
        f"(placeholders the model copies), constrained (default: {where}); part of the cache key",
    )
