"""The typed ``zh-translate`` plugin configuration and its validation.

Every bad value must surface as MkDocs' usual ``Config value 'plugins': Plugin 'zh-translate'
option 'x': ...`` error, so all checks that need only the plugin's own options live here as
config options or in :meth:`PluginConfig.validate`; the checks that need the main config
(``cache_dir`` and ``review_dir`` outside ``docs_dir`` and ``site_dir``) are :func:`own_dirs`,
called from ``on_config`` and by the ``review`` commands alike.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from ..errors import ZhTranslateError
from ..families import SIMPLIFIED
from ..owned import PathError, check_dir_option, check_output
from ..pipeline.backends import ENGINE_OPTIONS, engine_options, needs_model
from ..pipeline.cache import DEFAULT_CACHE_DIRNAME as DEFAULT_CACHE_DIRNAME  # re-exported: the plugin's default
from ..pipeline.inputs import project_inputs
from ..pipeline.options import EngineOption
from ..pipeline.variants import VariantError, parse_variants
from ..review.memory import DEFAULT_THRESHOLD

REPORT_FILE = "report.json"  # the build's JSON report, in the cache directory unless `report` says

_LANGUAGE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


class AtLeast(c.Type[int]):
    """A whole-number option with a lower bound (``True``/``False`` are not numbers here), and
    the upper bound of its table option when it has one (``threads``: ONNX Runtime's)."""

    def __init__(self, minimum: int, default: int | None = None, option: EngineOption | None = None) -> None:
        super().__init__(int, default=default)
        self.minimum = minimum
        self.option = option
        self.expected = "a positive integer" if minimum == 1 else f"a whole number, {minimum} or more"

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool):
            raise base.ValidationError(f"Expected {self.expected}, got {value!r}")
        number = super().run_validation(value)
        if number < self.minimum:
            raise base.ValidationError(f"Expected {self.expected}, got {number}")
        if self.option is not None and (over := self.option.over_maximum(number)) is not None:
            raise base.ValidationError(over)
        return number


class Percent(c.Type[float]):
    """A number from 0 to 100 (``True``/``False`` are not numbers here)."""

    def __init__(self, default: float) -> None:
        super().__init__((int, float), default=default)  # MkDocs takes a tuple of types

    def run_validation(self, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            raise base.ValidationError(f"Expected a percentage from 0 to 100, got {value!r}")
        return float(value)


class TableChoice(c.Choice[str]):
    """A ``choice`` option of the table (``backend``, ``markup``): its names are read when the
    config is validated, so a backend or strategy registered after import is a choice too; a
    wrong one is worded by the table where it words it (``markup``), else as MkDocs does."""

    def __init__(self, option: EngineOption) -> None:
        assert option.choices is not None, option.name
        super().__init__(option.choices(), default=option.default)
        self.option = option

    def run_validation(self, value: object) -> str:
        assert self.option.choices is not None
        self.choices = self.option.choices()
        if self.option.unknown is not None and value not in self.choices:
            raise base.ValidationError(self.option.unknown(value))
        return super().run_validation(value)


def config_option(option: EngineOption) -> base.BaseConfigOption[Any]:
    """The MkDocs config option of a table option (what its kind and bounds say)."""
    made: base.BaseConfigOption[Any]
    if option.kind == "choice":
        return TableChoice(option)
    if option.kind == "count":
        made = AtLeast(option.minimum, option.default, option)
    elif option.kind == "names":
        made = c.ListOfItems(c.Type(str), default=option.default)
    else:
        made = c.Type(str, default=option.default)
    return c.Optional(made) if option.default is None else made


def engine_schema() -> tuple[tuple[str, base.BaseConfigOption[Any]], ...]:
    """The table's options as MkDocs schema entries, in the table's order (read at each use:
    an option registered after import is an option of mkdocs.yml too)."""
    schema = []
    for option in engine_options():
        made = config_option(option)
        made.required = True  # type: ignore[attr-defined]  # what MkDocs' class-based configs set
        schema.append((option.name, made))
    return tuple(schema)


class UrlSegment(c.Type[str]):
    """A single URL path segment such as ``zh``: it becomes the directory ``site/<segment>``."""

    def __init__(self, default: str) -> None:
        super().__init__(str, default=default)

    def run_validation(self, value: object) -> str:
        text = super().run_validation(value)
        if not _LANGUAGE_RE.match(text):
            raise base.ValidationError(
                f"{text!r} is not a usable URL prefix: use letters, digits, '-' or '_' "
                "(for example 'zh' or 'zh-hans')"
            )
        return text


class Variants(c.Type[list]):  # type: ignore[type-arg]  # MkDocs' Type of a plain list
    """The ``variants`` option, read by :func:`~..pipeline.variants.parse_variants` (one line
    per bad entry, in MkDocs' own error format)."""

    def __init__(self) -> None:
        super().__init__(list, default=[SIMPLIFIED])

    def run_validation(self, value: object) -> list[Any]:
        checked: list[Any] = super().run_validation(value)
        try:
            parse_variants(checked)
        except VariantError as exc:
            raise base.ValidationError(str(exc)) from None
        return checked


class LanguageOverrides(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """Settings of the translated site only, as mkdocs-static-i18n's ``languages:`` entries have
    them. Each wins over the machine translation of the English value."""

    site_name = c.Optional(c.Type(str))
    site_description = c.Optional(c.Type(str))
    copyright = c.Optional(c.Type(str))
    theme = c.Optional(c.Type(dict))
    """Merged into ``theme`` (e.g. ``font: {text: Noto Sans SC}`` or a ``palette``)."""
    extra = c.Optional(c.Type(dict))
    """Merged into ``extra``."""
    markdown_extensions = c.Optional(c.Type((dict, list)))
    """Interface text of Markdown extensions (``toc: {title: 目录, permalink_title: 永久链接}``,
    ``footnotes: {BACKLINK_TITLE: …}``), as a mapping or in mkdocs.yml's list form. Options
    that change the page's structure are refused: both languages render the same page."""

    def validate(self) -> tuple[base.ConfigErrors, base.ConfigWarnings]:
        failed, warnings = super().validate()
        if not failed and self.markdown_extensions is not None:
            try:
                self.markdown_extensions = text_options(self.markdown_extensions)
            except base.ValidationError as exc:
                failed.append(("markdown_extensions", exc))
        known = sorted(self._schema_keys)
        for key in sorted(set(self.keys()) - set(known)):
            failed.append((key, base.ValidationError(f"not a per-language setting; use one of {', '.join(known)}")))
        return failed, [(k, w) for k, w in warnings if k not in self.keys() or k in known]

    def values(self) -> dict[str, object]:  # type: ignore[override]
        """The settings the user gave (unset ones left out)."""
        return {k: v for k, v in self.items() if v is not None and k in self._schema_keys}


def text_options(value: object) -> dict[str, dict[str, str]]:
    """``overrides.markdown_extensions`` as ``{extension: {option: text}}``; ValidationError
    for anything but the interface-text options of :data:`uistrings.TEXT_OPTIONS`."""
    from .overrides import EXTENSION_ALIASES
    from .uistrings import TEXT_OPTIONS

    items = list(value.items()) if isinstance(value, dict) else []
    if isinstance(value, list):
        for entry in value:
            if not (isinstance(entry, dict) and len(entry) == 1):
                raise base.ValidationError(f"{entry!r}: expected `name: {{option: text}}`")
            items.extend(entry.items())
    allowed = ", ".join(f"{name}.{option}" for name, options in TEXT_OPTIONS.items() for option in options)
    result: dict[str, dict[str, str]] = {}
    for name, options in items:
        short = next((k for k, v in EXTENSION_ALIASES.items() if v == name), name)
        if not isinstance(options, dict):
            raise base.ValidationError(f"{name}: expected a mapping of options to text")
        for option, text in options.items():
            if option not in TEXT_OPTIONS.get(short, ()):
                raise base.ValidationError(
                    f"{name}.{option} would change the page structure, not only its text; "
                    f"per language only {allowed} may differ"
                )
            if not isinstance(text, str):
                raise base.ValidationError(f"{name}.{option}: expected text, got {type(text).__name__}")
            result.setdefault(short, {})[option] = text
    return result


class PluginConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """Options of the ``zh-translate`` plugin, as written under ``plugins:`` in mkdocs.yml."""

    # The translator's options (backend, model, beams, ...) come first, from the option table
    # (``pipeline/options.py``): see :func:`engine_schema` and ``__init__``. The configuration
    # reference (example_site/docs/reference/configuration.md) says what each does.

    cache_dir = c.Optional(c.Type(str))
    """Translation cache directory, relative to mkdocs.yml. Default ``.zh-translate-cache``
    beside mkdocs.yml. Never inside ``docs_dir`` (that would make ``mkdocs serve`` rebuild
    forever)."""

    review_dir = c.Optional(c.Type(str))
    """Directory of the reviewed translations (PO files, ``glossary.yml``), relative to
    mkdocs.yml. Default ``translations/<language>`` beside mkdocs.yml; never inside docs_dir.
    Written only by ``mkdocs-zh-translate review sync``; the build only reads it."""

    po_width = c.Type(int, default=79)
    """Page width of the PO files ``review sync`` writes, wrapped exactly as GNU gettext
    (``msgcat``, Poedit) wraps them; 0 or less writes each string on one line
    (``msgcat --no-wrap``). ``review sync --width`` overrides it."""

    translation_memory = Percent(default=DEFAULT_THRESHOLD)
    """Similarity (%) of the English at which ``review sync`` offers a reviewed translation to
    an entry nobody translated, as a fuzzy suggestion; 0 offers none. ``review sync --memory``
    overrides it."""

    language = UrlSegment(default="zh")
    """URL prefix and directory of the translated site (``site/zh/``)."""

    variants = Variants()
    """The Chinese variants to build: ``[zh-Hans]`` (default) is the Simplified site alone;
    ``[zh-Hans, zh-TW]`` adds ``site/zh-TW/``, converted from the Simplified translation with
    OpenCC (the ``hant`` extra). An entry may name the table: ``{code: zh-HK, table: s2hk}``."""

    translate_nav = c.Type(bool, default=True)
    """Translate the titles written in ``nav`` and ``site_name``; page titles taken from the
    page itself are always translated with the page."""

    banner = c.Type((bool, str), default=True)
    """Show a notice at the top of each translated page saying that it was machine-translated
    and how much of it was reviewed. ``false`` hides it; a string replaces the first sentence."""

    exclude = c.ListOfItems(c.Type(str), default=[])
    """Page globs (matched against the path inside docs_dir, e.g. ``changelog.md`` or
    ``api/*``) that stay in English in the translated site."""

    guard = c.Type(bool, default=True)
    """Check each translated page against the English one (code blocks, links, anchors, inline
    code, math rendered with the site's Markdown extensions) and put the segments that change
    them back to English, with a warning naming the page (an error under ``strict``)."""

    overrides = c.SubConfig(LanguageOverrides)
    """Settings of the translated site: ``site_name``, ``site_description``, ``copyright``,
    ``theme`` (merged), ``extra`` (merged), ``markdown_extensions`` (interface text only).
    Unknown keys are refused."""

    allow_untranslated = c.Type(bool, default=False)
    """What a build does when segments have neither a reviewed nor a cached translation and the
    model cannot be loaded (no ``model`` directory on this machine). ``false`` (default): the build
    fails with one line saying how many segments on how many pages, so CI never ships English as
    Chinese. ``true``: a partial deploy, those segments stay English (one warning per page)."""

    report = c.Type((bool, str), default=True)
    """Where each build writes its JSON report (per page: segments, reviewed, from the cache,
    translated now, whole / in pieces / English, guard reverts, rejected and stale reviews;
    schema on the user guide's CI page), relative to mkdocs.yml. ``true`` (default): ``report.json`` in the
    cache directory; ``false``: no report."""

    speedups = c.Choice(("auto", "off"), default="auto")
    """``auto`` (default): the speed-ups that wrap other packages' internals (serve reloads
    reusing renders and page hooks, the English renders lent to the page guard, compiled theme
    templates shared) run where those packages are at a version they were tested with
    (``speedups.TESTED``); ``off``: plain builds and rebuilds. Outputs are the same either way."""

    strict = c.Type(bool, default=False)
    """Fail the build where English is left behind (a sentence no fallback could repair, a page
    that cannot be segmented, a page-guard revert) or a review is ignored; a fallback that still
    translated the whole sentence is a note, never an error (``pages.strict_failure``)."""

    def __init__(self, config_file_path: str | None = None) -> None:
        # The table's options as they are now, before the plugin's own: one registered after
        # this class was made is an option too (the class's schema has those of import time).
        self._schema = (*engine_schema(), *_OWN_SCHEMA)
        super().__init__(config_file_path)

    def __getattr__(self, name: str) -> Any:
        """``options.beams`` for the table's options, as for the options declared here (MkDocs
        reads those through class attributes; these are not any)."""
        if name in ENGINE_OPTIONS:
            return self[name]
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        """``options.backend = "pseudo"`` sets the option, as MkDocs' descriptors do (tools/demo.py)."""
        if name in ENGINE_OPTIONS:
            self[name] = value
        else:
            super().__setattr__(name, value)

    def validate(self) -> tuple[base.ConfigErrors, base.ConfigWarnings]:
        failed, warnings = super().validate()
        backend = self["backend"]
        if not failed and needs_model(backend) and not self["model"]:
            failed.append(
                (
                    "model",
                    base.ValidationError(
                        f"the {backend} backend needs a model directory; export one with "
                        "`mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR` "
                        "or set `backend: pseudo`"
                    ),
                )
            )
        return failed, warnings

    def spec_values(self, config_file_path: str | None) -> dict[str, Any]:
        """The translator options' values, ``model`` made absolute (read from mkdocs.yml's folder)."""
        values = {option.name: self[option.name] for option in engine_options()}
        values["model"] = resolve_model(values["model"], config_file_path)
        return values


_OWN_SCHEMA = PluginConfig._schema


def override(options: PluginConfig, given: Mapping[str, Any]) -> None:
    """Set the translator options a command line gives (``docs``, ``prefill``) over the
    plugin's, checked already by the table's kinds: a ``model`` is read from the working
    directory, as every path a command takes. ValidationError when the backend they leave
    needs a model and none is set."""
    for name, value in given.items():
        options[name] = list(value) if isinstance(value, tuple) else value  # YAML gives lists
    if given.get("model"):
        options["model"] = str(Path(str(given["model"])).expanduser().resolve())
    backend = options["backend"]
    if given and needs_model(backend) and not options["model"]:
        raise base.ValidationError(f"the {backend} backend needs --model DIR (or `backend: pseudo`)")
PluginConfig._schema = (*engine_schema(), *_OWN_SCHEMA)  # what the reference page documents


def config_dir(config_file_path: str | None) -> Path:
    """The directory relative paths in the plugin options are resolved against."""
    return Path(config_file_path).resolve().parent if config_file_path else Path.cwd()


def _outside_docs(path: Path, option: str, docs_dir: str, what: str) -> Path:
    """Refuse a directory of ours inside docs_dir: MkDocs would publish it, and every write to
    it would make `mkdocs serve` rebuild forever."""
    docs = Path(docs_dir).resolve()
    if path == docs or docs in path.parents:
        raise base.ValidationError(
            f"{option} {path} is inside docs_dir {docs}: MkDocs would publish {what} "
            "and `mkdocs serve` would rebuild forever; put it beside mkdocs.yml"
        )
    return path


def _dir_option(option: str, value: str, config_file_path: str | None) -> Path:
    """The directory an option names, by the one rule of :func:`~..owned.check_dir_option`
    (inside the project unless written as an absolute path; never a system directory)."""
    try:
        return check_dir_option(value, config_dir(config_file_path), option)
    except PathError as exc:
        raise base.ValidationError(str(exc).removeprefix(f"option '{option}': ")) from None


def resolve_cache_dir(option: str | None, config_file_path: str | None, docs_dir: str) -> Path:
    """Absolute cache directory; raise ``ValidationError`` if it would sit inside docs_dir."""
    cache = _dir_option("cache_dir", option or DEFAULT_CACHE_DIRNAME, config_file_path)
    return _outside_docs(cache, "cache_dir", docs_dir, "the cache")


def resolve_model(option: str | None, config_file_path: str | None) -> str | None:
    """The model directory as an absolute path (relative values are read from mkdocs.yml's
    directory, like every other path in mkdocs.yml)."""
    if option is None:
        return None
    return str((config_dir(config_file_path) / os.path.expanduser(option)).resolve())


def resolve_review_dir(option: str | None, language: str, config_file_path: str | None, docs_dir: str) -> Path:
    """Absolute review directory; raise ``ValidationError`` if it would sit inside docs_dir."""
    review = _dir_option("review_dir", option or f"translations/{language}", config_file_path)
    return _outside_docs(review, "review_dir", docs_dir, "the PO files")


def outside_site(path: Path, option: str, site_dir: str) -> Path:
    """Refuse a directory of ours inside site_dir: every build empties site_dir first."""
    site = Path(site_dir).resolve()
    if path == site or site in path.parents:
        raise base.ValidationError(
            f"{option} {path} is inside site_dir {site}, which every build wipes; put it beside mkdocs.yml"
        )
    return path


class DirOptionError(ZhTranslateError):
    """``option 'cache_dir': why``: a directory option the build and every command refuse."""


@dataclass(frozen=True)
class OwnDirs:
    """The directories the plugin writes besides site_dir, validated."""

    cache_dir: Path
    review_dir: Path


def own_dirs(options: PluginConfig, config_file_path: str | None, docs_dir: str, site_dir: str) -> OwnDirs:
    """``cache_dir`` and ``review_dir`` by the one validation the build, ``review`` and
    ``prefill`` share (``review sync`` builds into a scratch site_dir, so it must check the
    configured one here, not the one MkDocs runs with): inside the project unless absolute,
    no system directory, not inside docs_dir or site_dir. Raises :class:`DirOptionError`."""
    found: dict[str, Path] = {}
    for option in ("cache_dir", "review_dir"):
        try:
            if option == "cache_dir":
                path = resolve_cache_dir(options.cache_dir, config_file_path, docs_dir)
            else:
                path = resolve_review_dir(options.review_dir, options.language, config_file_path, docs_dir)
            found[option] = outside_site(path, option, site_dir)
        except base.ValidationError as exc:
            raise DirOptionError(f"option '{option}': {exc}") from None
    return OwnDirs(found["cache_dir"], found["review_dir"])


def language_collision(language: str, docs_dir: str, theme_dirs: list[str]) -> str | None:
    """What of the English site already lives at ``site/<language>/`` (the Chinese build
    would delete it), or None. Looks at docs_dir's top level (``guide/``, ``guide.md``) and the
    theme's (``assets/``, ``css/``), and at what the search plugin and MkDocs write."""
    wanted = language.casefold()
    if wanted in ("search", "sitemap.xml", "404.html"):
        return f"MkDocs writes site/{language}"
    for label, root in [("docs_dir", docs_dir), *(("the theme", d) for d in theme_dirs)]:
        try:
            entries = list(Path(root).iterdir())
        except OSError:
            continue
        for entry in entries:
            stem = entry.stem if entry.suffix.lower() in (".md", ".markdown") else entry.name
            if entry.name.casefold() == wanted or (label == "docs_dir" and stem.casefold() == wanted):
                return f"{label} has {entry.name}{'/' if entry.is_dir() else ''} ({entry})"
    return None


def report_path(
    option: object, config_file_path: str | None, docs_dir: str, cache_dir: Path, review_dir: Path | None = None
) -> Path | None:
    """Where the build's JSON report goes: None (``report: false``), the cache directory's
    ``report.json`` (``true``), or the path given, relative to mkdocs.yml and never the config
    file, inside docs_dir, a PO file, the glossary or the cache's database (raises
    :class:`~..owned.PathError` naming the option)."""
    if option is True:
        return cache_dir / REPORT_FILE
    if not isinstance(option, str) or not option:
        return None
    config = Path(config_file_path) if config_file_path else None
    path = config_dir(config_file_path) / os.path.expanduser(option)
    kept = project_inputs(review_dir, cache_dir)
    return check_output(path, "option 'report':", config=config, docs_dir=Path(docs_dir), kept=kept)
