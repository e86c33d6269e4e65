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
from ..pipeline.backends import TranslatorSpec, engine_options, needs_model
from ..pipeline.options import EngineOption

PREFIX = "zh_translate_"

# name -> (default, what Sphinx must redo when it changes), for the values that are not the
# translator's (those come from the option table, see :func:`config_values`): the notice only
# changes the written pages.
OWN_OPTIONS: dict[str, tuple[object, str]] = {
    "zh_translate_cache_dir": (None, "env"),
    "zh_translate_glossary": (None, "env"),
    "zh_translate_allow_untranslated": (False, "env"),
    "zh_translate_strict": (False, ""),
    "zh_translate_banner": (True, "html"),
    "zh_translate_batch": (None, ""),
}


def config_values() -> dict[str, tuple[object, str]]:
    """Every ``zh_translate_*`` value with its default and rebuild: the translator's from the
    option table (a value that can change a translation re-reads all documents, "env"), read
    at ``setup`` so an option registered after import is a conf.py value too, then ours."""
    table = {PREFIX + o.name: (o.default, "env" if o.in_cache_key else "") for o in engine_options()}
    return {**table, **OWN_OPTIONS}


@dataclass(frozen=True)
class Settings:
    """The checked options, with paths made absolute (relative ones are read from conf.py's folder)."""

    translator: TranslatorSpec
    """The translator these settings ask for: what the build and the catalog sync load."""
    cache_dir: Path
    glossary: Path | None
    allow_untranslated: bool
    strict: bool
    banner: bool | str
    batch: bool = True  # translate the misses of all documents to read in one batch (a pre-read)

    @property
    def backend(self) -> str:
        return self.translator.backend

    @property
    def model(self) -> str | None:
        return self.translator.model

    def spec(self) -> TranslatorSpec:
        """The translator these settings ask for (the build's runtime and the catalog sync)."""
        return self.translator


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


def _checked(option: EngineOption, config: Config, base: Path) -> Any:
    """The value of a table option in conf.py, checked by its kind (ConfigError naming it)."""
    name = PREFIX + option.name
    value = config[name]
    if option.kind == "path":
        path = _path(value, name, base)
        return str(path) if path is not None else None
    if option.kind == "choice":
        assert option.choices is not None
        names = option.choices()  # a tuple: conf.py may hold an unhashable value
        if value not in names:
            if option.unknown is not None:
                raise ConfigError(f"{name}: {option.unknown(value)}")
            raise ConfigError(f"{name} must be one of {', '.join(map(repr, names))}, not {value!r}")
        return value
    if option.kind == "names":
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, str) and v for v in value):
            raise ConfigError(f"{name} must be a list of {option.name.removesuffix('s')} names or None, not {value!r}")
        return tuple(value)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < option.minimum):
        what = "a positive whole number" if option.minimum == 1 else f"a whole number, {option.minimum} or more,"
        raise ConfigError(f"{name} must be {what} or None, not {value!r}")
    if value is not None and (over := option.over_maximum(value)) is not None:
        raise ConfigError(f"{name}: {over}")
    return value


def translator_of(config: Config, base: Path) -> TranslatorSpec:
    """The translator conf.py asks for: every table option checked, in the table's order."""
    values = {option.name: _checked(option, config, base) for option in engine_options()}
    backend = values["backend"]
    if needs_model(backend) and values["model"] is None:
        raise ConfigError(
            f"zh_translate_model is not set: the {backend} backend needs an exported model directory "
            "(`mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR`), "
            "or set zh_translate_backend = 'pseudo'"
        )
    return TranslatorSpec.of(values)


def settings_of(config: Config, srcdir: Path) -> Settings:
    """The checked settings; ConfigError (one line naming the option) on a bad value."""
    base = Path(config.confdir) if getattr(config, "confdir", None) else srcdir
    translator = translator_of(config, base)
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
        translator=translator,
        cache_dir=cache,
        glossary=glossary,
        allow_untranslated=_flag(config, "zh_translate_allow_untranslated"),
        strict=_flag(config, "zh_translate_strict"),
        banner=banner,
        batch=batch if batch is not None else needs_model(translator.backend),  # no model, nothing to batch for
    )


def check_config(app: Any, config: Config) -> None:
    """``config-inited``: refuse a bad value before anything is read."""
    settings_of(config, Path(app.srcdir))
