"""What a translator option is: name, kind, bounds, default, help, cache key.

The table of them, :data:`.backends.ENGINE_OPTIONS`, lives beside the backend registry (its
``backend`` option's choices are the registry's names). Every front end reads that table
instead of declaring the options itself: the plugin's ``PluginConfig`` (``plugin/config.py``),
the Sphinx extension's ``zh_translate_*`` values (``sphinx/config.py``), the console script's
flags (``cli/options.py``) and the :class:`~.backends.TranslatorSpec` (its typed fields are
checked against the table when ``backends`` is imported, and an option registered later
travels in its ``more``). The cache key (``spec.decode_options``), the loader's keywords and
the engine's come from it too, so an option added there reaches mkdocs.yml, conf.py, every
translating command and the key at once, spelled alike everywhere (``max_batch_tokens`` in
YAML and conf.py, ``--max-batch-tokens``). Registering one is :func:`.backends.register_option`.

Only what differs per front end stays there: how a bad value is worded (MkDocs' and Sphinx'
own styles, kept), what a relative ``model`` path is relative to, and whether a command's flag
overrides a config file's setting or is the setting itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

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
    maximum: int | None = None
    """The greatest value of a ``count`` (None: no bound); every front end refuses more with
    :meth:`over_maximum`'s line, at config time (not when the engine loads)."""
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
    unset: str = ""
    """What a value of None means, for ``--help`` (``the model's``)."""
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

    def over_maximum(self, value: int) -> str | None:
        """The one line every front end gives for a ``count`` above :attr:`maximum` (prefixed
        by where it was set), the engine's own words; None when within."""
        if self.maximum is None or value <= self.maximum:
            return None
        return f"{self.name} must be from {self.minimum} to {self.maximum}, got {value}"

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
