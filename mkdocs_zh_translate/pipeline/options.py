"""The translator's options, declared once: name, kind, bounds, default, help, cache key.

Every front end reads this table instead of declaring the options itself: the plugin's
``PluginConfig`` (``plugin/config.py``), the Sphinx extension's ``zh_translate_*`` values
(``sphinx/config.py``), the console script's flags (``cli/options.py``) and the
:class:`~.backends.TranslatorSpec` (its typed fields are checked against the table when
``backends`` is imported, and an option registered later travels in its ``more``). The cache
key (``spec.decode_options``), the loader's keywords and the engine's come from it too, so an
option added here reaches mkdocs.yml, conf.py, every translating command and the key at once,
spelled alike everywhere (``max_batch_tokens`` in YAML and conf.py, ``--max-batch-tokens``).

Only what differs per front end stays there: how a bad value is worded (MkDocs' and Sphinx'
own styles, kept), what a relative ``model`` path is relative to, and whether a command's flag
overrides a config file's setting or is the setting itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .markup import DEFAULT_MARKUP, UNNAMED_MARKUP, markup_choices, unknown_markup

Kind = Literal["choice", "path", "count", "names"]
"""``choice``: one of ``choices()``; ``path``: a directory; ``count``: a whole number of at
least ``minimum`` or None; ``names``: a list of names (``a,b`` on the command line) or None."""

KeyPart = Literal["", "translator", "always", "set"]
"""How an option enters the cache key: ``""`` not at all (it cannot change a translation);
``translator``: through the key's translator part (the backend's name, the model's content);
``always``: ``name=value;`` even unset (the key of 0.1.0 had them); ``set``: ``name=value;``
only when not at its default nor off, so the caches filled before the option existed keep
their keys. The key lists them in the table's order."""

DEFAULT_BACKEND = "onnx"

IDENTITY = ("backend", "model")
"""The two options every loader takes by position: which translator, which model."""


def _backend_names() -> tuple[str, ...]:
    from .backends import backend_names  # the registry imports this table

    return backend_names()


def _backends_help() -> str:
    from .backends import BACKENDS

    return "; ".join(f"{b.name}: {b.help}" for b in BACKENDS.values())


@dataclass(frozen=True)
class EngineOption:
    """One option of the translator, as every front end offers it."""

    name: str
    """The key in mkdocs.yml, the field of the spec; ``zh_translate_<name>`` in conf.py and
    ``--<name with dashes>`` on the command line."""
    kind: Kind
    help: str
    """One line for ``--help`` (the user guide's configuration page says more)."""
    default: Any = None
    minimum: int = 1
    """The least value of a ``count``."""
    choices: Callable[[], tuple[str, ...]] | None = None
    """A ``choice``'s names, read when a value is checked: a backend or strategy registered
    after import is a choice too."""
    unknown: Callable[[object], str] | None = None
    """The one line for a value that is no choice, where the package words it itself."""
    describe: Callable[[], str] | None = None
    """What each choice does, for ``--help`` (read from its registry)."""
    cache_key: KeyPart = ""
    key_value: Callable[[Any], object] | None = None
    """What the key names, from the spec (default: the option's value)."""
    key_omits: tuple[object, ...] = ()
    """Values a ``set`` option is left out of the key at, besides its default and ``off``."""
    off: tuple[object, ...] = ()
    """Values besides None that mean "not set": the loader and the engine are not given them."""
    engine: str = ""
    """The engine's keyword (``OnnxTranslator``) the value goes to; "" when it goes to none."""
    metavar: str | None = None
    aliases: tuple[str, ...] = ()
    """Former command-line spellings, still accepted and not shown in ``--help``."""

    @property
    def flag(self) -> str:
        """The command-line spelling: mkdocs.yml's, with dashes."""
        return "--" + self.name.replace("_", "-")

    @property
    def in_cache_key(self) -> bool:
        """Whether a change of it can change a translation (Sphinx then re-reads every document)."""
        return bool(self.cache_key)

    def is_off(self, value: object) -> bool:
        """Whether ``value`` means "not set" (None, or one of :attr:`off`)."""
        return value is None or any(value == off and type(value) is type(off) for off in self.off)

    def in_key(self, value: object) -> bool:
        """Whether the key names this option at ``value`` (its :attr:`key_value`)."""
        if self.cache_key == "always":
            return True
        if self.cache_key != "set":
            return False
        return not (self.is_off(value) or value == self.default or value in self.key_omits)


#: Every option by name, in the order the cache key, mkdocs.yml's schema and ``--help`` list them.
ENGINE_OPTIONS: dict[str, EngineOption] = {
    option.name: option
    for option in (
        EngineOption(
            "backend", "choice", "the translator", default=DEFAULT_BACKEND, choices=_backend_names,
            describe=_backends_help, cache_key="translator",
        ),
        EngineOption("model", "path", "exported model directory (the onnx backend)", metavar="DIR",
                     cache_key="translator"),
        EngineOption("beams", "count", "beam width (default: the model's)", metavar="N", cache_key="always",
                     engine="num_beams"),
        EngineOption(
            "max_batch_tokens", "count", "most source tokens per engine batch (memory against speed; "
            "default 1024)", metavar="N", cache_key="always", engine="max_batch_tokens", aliases=("--batch-tokens",),
        ),
        EngineOption(
            "shortlist", "count", "vocabulary shortlist: score about N frequent target pieces plus the batch's own "
            "instead of all (faster, outputs can differ; 0: off, the default; needs an export made with it)",
            minimum=0, metavar="N", cache_key="set", off=(0,), engine="shortlist",
        ),
        EngineOption(
            "markup", "choice", "how links, code and emphasis get through the model: auto (project when the "
            "export has aligner.onnx, else tags), project (translate without them, place them by alignment), "
            "tags (placeholders the model copies), constrained",
            default=DEFAULT_MARKUP, choices=markup_choices, unknown=unknown_markup, cache_key="set",
            key_value=lambda spec: spec.resolved_markup, key_omits=(UNNAMED_MARKUP,),
        ),
        EngineOption("threads", "count", "ONNX Runtime intra-op threads (default: the engine chooses)",
                     metavar="N", engine="threads"),
        EngineOption(
            "providers", "names", "ONNX Runtime execution providers, comma-separated, e.g. cuda,cpu "
            "(default: cpu; GPU untested)", metavar="LIST", off=((),), engine="providers",
        ),
    )
}


def engine_options() -> tuple[EngineOption, ...]:
    """The options registered now, in order (read at use: one registered later counts)."""
    return tuple(ENGINE_OPTIONS.values())


def register_option(option: EngineOption) -> None:
    """Add an option to every front end (mkdocs.yml, conf.py, the flags, the spec and its key)."""
    if option.name in ENGINE_OPTIONS:
        raise ValueError(f"option {option.name!r} is registered already")
    ENGINE_OPTIONS[option.name] = option
