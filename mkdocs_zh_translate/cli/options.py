"""Options every command that loads a translator shares, defined once.

``md`` and ``po fill`` take the translator from the command line (the option's default is the
plugin's default); ``docs`` and ``prefill`` take it from mkdocs.yml, and the option overrides
the plugin's setting only when given.
"""

from __future__ import annotations

import argparse

from ..pipeline.markup import DEFAULT_MARKUP, markup_choices


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
