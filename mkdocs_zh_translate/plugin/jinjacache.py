"""Theme templates compiled once per process, not once per build.

Every MkDocs build makes a new Jinja environment and compiles each theme template it renders
again: Material's ~80 templates take about a second, which a plain build pays once and the
plugin's two builds twice, and ``mkdocs serve`` on every reload. One in-memory bytecode cache,
kept by the plugin instance (which ``serve`` keeps across reloads) and handed to every build's
environment, lets the Chinese build, and each later reload, load the compiled code instead.

Jinja checks each stored entry against the template's source (a checksum), so an edited
template is compiled again. Compiled code also depends on the environment's syntax settings and
extensions (``jinja2.ext.i18n`` adds tags); entries are kept per such signature, so an
environment set up differently never loads another's code.
"""

from __future__ import annotations

from typing import Any

import jinja2


def _signature(env: jinja2.Environment) -> str:
    """What of ``env`` changes the code a template compiles to."""
    settings = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.autoescape if isinstance(env.autoescape, bool) else getattr(env.autoescape, "__qualname__", "callable"),
        env.is_async,
        tuple(sorted(env.extensions)),
    )
    return repr(settings)


class SharedBytecode:
    """Compiled templates in memory, shared by the environments it is installed in."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}
        self.loads = 0  # templates loaded from the store instead of compiled

    def install(self, env: Any) -> None:
        """Use this store in ``env`` (a Jinja environment without a bytecode cache of its own)."""
        if isinstance(env, jinja2.Environment) and env.bytecode_cache is None:
            env.bytecode_cache = _Bound(self, _signature(env))


class _Bound(jinja2.BytecodeCache):
    """The shared store as one environment sees it: keys prefixed with its signature."""

    def __init__(self, shared: SharedBytecode, signature: str) -> None:
        self.shared, self.signature = shared, signature

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.shared.store.get(self.signature + bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)  # a checksum mismatch (edited template) resets it
            if bucket.code is not None:
                self.shared.loads += 1

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.shared.store[self.signature + bucket.key] = bucket.bytecode_to_string()
