"""The extension's ``conf.py`` values, checked once at ``config-inited``.

Each bad value stops the build with one line naming the option (Sphinx prints a
:class:`~sphinx.errors.ConfigError` without a traceback). :func:`settings_of` turns a checked
config into a hashable :class:`Settings`, which is what each process keys its translation
runtime by (the transform re-derives it from the config in worker processes too).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sphinx.config import Config
from sphinx.errors import ConfigError

from ..errors import ZhTranslateError
from ..owned import check_output
from ..pipeline.backends import DEFAULT_BACKEND, backend_names, needs_model
from ..pipeline.markup import DEFAULT_MARKUP, markup_choices, unknown_markup
from ..pipeline.spec import TranslatorSpec

PREFIX = "zh_translate_"

# name -> (default, what Sphinx must redo when it changes): every value that changes a
# translation re-reads all documents ("env"); the notice only changes the written pages.
OPTIONS: dict[str, tuple[object, str]] = {
    "zh_translate_backend": (DEFAULT_BACKEND, "env"),
    "zh_translate_model": (None, "env"),
    "zh_translate_cache_dir": (None, "env"),
    "zh_translate_glossary": (None, "env"),
    "zh_translate_allow_untranslated": (False, "env"),
    "zh_translate_strict": (False, ""),
    "zh_translate_banner": (True, "html"),
    "zh_translate_beams": (None, "env"),
    "zh_translate_markup": (DEFAULT_MARKUP, "env"),
    "zh_translate_max_batch_tokens": (None, "env"),
    "zh_translate_shortlist": (None, "env"),
    "zh_translate_threads": (None, ""),
    "zh_translate_providers": (None, ""),
    "zh_translate_batch": (None, ""),
}


@dataclass(frozen=True)
class Settings:
    """The checked options, with paths made absolute (relative ones are read from conf.py's folder)."""

    backend: str
    model: str | None
    cache_dir: Path
    glossary: Path | None
    allow_untranslated: bool
    strict: bool
    banner: bool | str
    beams: int | None
    threads: int | None
    batch: bool = True  # translate the misses of all documents to read in one batch (a pre-read)
    # The engine options the MkDocs plugin has under the same names (its configuration
    # reference says what each does); the spec decides which are part of the cache key.
    markup: str = DEFAULT_MARKUP
    max_batch_tokens: int | None = None
    shortlist: int | None = None
    providers: tuple[str, ...] | None = None

    def spec(self) -> TranslatorSpec:
        """The translator these settings ask for: what the build and the catalog sync load."""
        return TranslatorSpec(
            self.backend,
            self.model,
            beams=self.beams,
            threads=self.threads,
            max_batch_tokens=self.max_batch_tokens,
            shortlist=self.shortlist,  # 0 is off, as in the plugin (the cache key leaves it out)
            providers=self.providers,
            markup=self.markup,
        )


def is_chinese(language: object) -> bool:
    """Whether a Sphinx ``language`` asks for Simplified Chinese (``zh_CN``, ``zh-Hans``, ``zh``)."""
    if not isinstance(language, str):
        return False
    tag = language.replace("-", "_").lower()
    return tag == "zh" or tag.startswith(("zh_cn", "zh_hans", "zh_sg"))


def _path(value: object, name: str, base: Path) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, (str, Path)) or not str(value).strip():
        raise ConfigError(f"{name} must be a path (a string), not {value!r}")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _flag(config: Config, name: str) -> bool:
    value = config[name]
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, not {value!r}")
    return value


def _count(config: Config, name: str, *, minimum: int = 1) -> int | None:
    value = config[name]
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < minimum):
        what = "a positive whole number" if minimum == 1 else f"a whole number, {minimum} or more,"
        raise ConfigError(f"{name} must be {what} or None, not {value!r}")
    return value


def _markup(config: Config) -> str:
    value = config.zh_translate_markup
    if not isinstance(value, str) or value not in markup_choices():
        raise ConfigError(f"zh_translate_markup: {unknown_markup(value)}")
    return value


def _providers(config: Config) -> tuple[str, ...] | None:
    value = config.zh_translate_providers
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"zh_translate_providers must be a list of provider names or None, not {value!r}")
    return tuple(value)


def settings_of(config: Config, srcdir: Path) -> Settings:
    """The checked settings; ConfigError (one line naming the option) on a bad value."""
    base = Path(config.confdir) if getattr(config, "confdir", None) else srcdir
    backend = config.zh_translate_backend
    names = backend_names()  # a tuple: conf.py may hold an unhashable value
    if backend not in names:
        raise ConfigError(f"zh_translate_backend must be one of {', '.join(map(repr, names))}, not {backend!r}")
    model = _path(config.zh_translate_model, "zh_translate_model", base)
    with_model = needs_model(backend)
    if with_model and model is None:
        raise ConfigError(
            f"zh_translate_model is not set: the {backend} backend needs an exported model directory "
            "(`mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR`), "
            "or set zh_translate_backend = 'pseudo'"
        )
    cache = _path(config.zh_translate_cache_dir, "zh_translate_cache_dir", base)
    try:
        if cache is None:
            from ..pofill.fill import default_cache_dir

            cache = default_cache_dir([srcdir])
        cache = check_output(cache, "zh_translate_cache_dir", config=base / "conf.py")
    except ZhTranslateError as exc:
        raise ConfigError(str(exc)) from None
    glossary = _path(config.zh_translate_glossary, "zh_translate_glossary", base)
    if glossary is not None:
        if not glossary.is_file():
            raise ConfigError(f"zh_translate_glossary {config.zh_translate_glossary}: no such file")
        from ..pipeline.glossary import load_glossary

        try:
            load_glossary(glossary)
        except ZhTranslateError as exc:
            raise ConfigError(f"zh_translate_glossary: {exc}") from None
    batch = config.zh_translate_batch
    if batch is not None and not isinstance(batch, bool):
        raise ConfigError(f"zh_translate_batch must be True, False or None, not {batch!r}")
    banner = config.zh_translate_banner
    if not isinstance(banner, (bool, str)):
        raise ConfigError(f"zh_translate_banner must be True, False or a string, not {banner!r}")
    return Settings(
        backend=backend,
        model=str(model) if model is not None else None,
        cache_dir=cache,
        glossary=glossary,
        allow_untranslated=_flag(config, "zh_translate_allow_untranslated"),
        strict=_flag(config, "zh_translate_strict"),
        banner=banner,
        beams=_count(config, "zh_translate_beams"),
        threads=_count(config, "zh_translate_threads"),
        batch=batch if batch is not None else with_model,  # no model, nothing to batch for
        markup=_markup(config),
        max_batch_tokens=_count(config, "zh_translate_max_batch_tokens"),
        shortlist=_count(config, "zh_translate_shortlist", minimum=0),
        providers=_providers(config),
    )


def check_config(app: Any, config: Config) -> None:
    """``config-inited``: refuse a bad value before anything is read."""
    settings_of(config, Path(app.srcdir))
