"""The current English site as PO units, with the machine cache's text for each.

The pages are collected by running the real English build with the plugin in *collect* mode,
so the Markdown is exactly what the build translates (after macros, snippets and any other
plugin), and the segments, hence the PO keys, are the build's own. Nothing is translated and no
model is loaded: machine text comes from the cache only.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from mkdocs.config.base import ValidationError
from mkdocs.plugins import get_plugin_logger

from ..logs import PLUGIN_NAME
from ..owned import path_kind
from ..pipeline.pages import PageJob, SiteTranslator
from ..review.memory import DEFAULT_THRESHOLD
from ..review.powrap import DEFAULT_WIDTH
from ..review.site import Site as Site  # re-exported: the CLI's review commands name it from here
from ..review.store import ReviewError, display, page_po_path, site_po_path
from ..review.units import Unit, merge_site_units, page_units, string_units
from ..segment import Segment, SegmentedPage, segment_markdown, soft_breaks_as_spaces, to_readable
from .config import DirOptionError, OwnDirs, PluginConfig, override, own_dirs
from .factory import PLUGIN_KEY

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

log = get_plugin_logger(PLUGIN_NAME)


@dataclass(frozen=True)
class EnglishBuild:
    """What the plugin's English build hands to ``review sync`` (its collect mode): the pages
    as the build would translate them, the site's strings, and the build's pipeline, whose
    machine cache answers for them (no model is loaded)."""

    docs_dir: Path
    review_dir: Path
    jobs: Mapping[str, PageJob]  # src_uri -> page
    site_strings: Sequence[str]  # nav titles, site name (when translated), site description
    metas: Mapping[str, Mapping[str, str]]  # src_uri -> front-matter values to translate
    translator: SiteTranslator
    site_name: str = ""  # the PO files' Project-Id-Version
    po_width: int = DEFAULT_WIDTH  # the plugin option `po_width`
    translation_memory: float = DEFAULT_THRESHOLD  # the plugin option `translation_memory`
    # the extra Chinese variants: code, OpenCC table, the build's conversion (pipeline/variants.py)
    variants: Sequence[tuple[str, str, Callable[[str], str]]] = ()


T = TypeVar("T")

Collector = Callable[[EnglishBuild], None]
"""Set as the plugin's ``collector``: called with the English build instead of translating."""


@runtime_checkable
class Collecting(Protocol):
    """What collecting needs of the plugin instance MkDocs loaded (``plugin.py`` imports this
    module, not the other way round): its options and its ``collector`` slot."""

    config: PluginConfig
    collector: Collector | None


def _segment_of(unit: Unit) -> Segment:
    return unit.segment or Segment(unit.text, 0, 0, 1, "string")


def collect_site(config_file: Path) -> Site:
    """Run the English build of ``config_file`` in collect mode; ReviewError on any failure."""
    return with_site(config_file, lambda site: site)


def with_site(config_file: Path, use: Callable[[Site], T]) -> T:
    """``use(site)`` for the collected site, called while the English build's cache is open:
    ``site.former`` (the machine text of English that left the site) works only then."""

    def collected(english: EnglishBuild) -> T:
        site = _units(english, config_file)
        site.former = lambda texts: _former(english, texts)
        try:
            return use(site)
        finally:
            site.former = None  # the cache closes with the build

    return with_english_build(config_file, collected)


def _former(build: EnglishBuild, texts: Sequence[str]) -> dict[str, str]:
    """The cached machine text of each English (a PO entry's msgid that left its page), read as
    ``review sync`` wrote it: the text segmented on its own as the build segments a page, when
    that gives back exactly one segment of the same readable text (else it is not looked up)."""
    found: dict[str, tuple[SegmentedPage, Segment]] = {}
    for text in texts:
        try:
            page = segment_markdown(text, syntax=build.translator.syntax, front_matter=False)
        except Exception:  # the segmenter's own errors: such a text is simply not found
            continue
        if len(page.segments) == 1 and soft_breaks_as_spaces(to_readable(page.segments[0])) == text:
            found[text] = (page, page.segments[0])
    hits = build.translator.cached([page for page, _segment in found.values()], [])
    return {
        text: soft_breaks_as_spaces(to_readable(segment, hits[segment.text].text))
        for text, (_page, segment) in found.items()
        if segment.text in hits
    }


def with_english_build(
    config_file: Path, use: Callable[[EnglishBuild], T], options: Mapping[str, Any] | None = None
) -> T:
    """Run the English build of ``config_file`` in collect mode and return ``use(build)``,
    called while the build's pipeline (and its cache) is open: ``review sync`` reads the
    cache through it, ``prefill`` fills it. ``options``: translator options that override the
    plugin's (``prefill``'s flags). ReviewError on any failure of the build."""
    from mkdocs.config.defaults import MkDocsConfig

    _check_config_file(config_file)
    # A fresh plugin instance, as a new `mkdocs build` would get (MkDocs caches instances that
    # define on_startup for the whole process).
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    quiet = logging.getLogger("mkdocs.commands.build")  # "Building documentation..." and timings
    level = quiet.level
    quiet.setLevel(logging.WARNING)
    held = _HeldErrors()
    quiet.addFilter(held)
    try:
        with tempfile.TemporaryDirectory(prefix="zh-translate-review-") as tmp:
            return _collect(config_file, tmp, use, held, options or {})
    finally:
        quiet.removeFilter(held)
        quiet.setLevel(level)
        for record in held.records:  # the build went on after them: show them as they were
            quiet.handle(record)


class _HeldErrors(logging.Filter):
    """Holds back MkDocs' error lines during the English build: when the build fails, they
    become the one ``ReviewError`` line (naming the file), not log lines before a vague
    "Aborted with a BuildError!"."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        self.records.append(record)
        return False

    def take(self) -> str:
        """The held messages as one line (and nothing is shown later)."""
        lines = [r.getMessage() for r in self.records]
        self.records.clear()
        return " ".join(lines)


def _collect(
    config_file: Path, site_dir: str, use: Callable[[EnglishBuild], T], held: _HeldErrors, options: Mapping[str, Any]
) -> T:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    found: list[T] = []

    def collector(english: EnglishBuild) -> None:
        found.append(use(english))

    try:
        config = load_config(config_file=str(config_file))
    except MkDocsException as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None
    plugin = config.plugins.get(PLUGIN_KEY)
    if not isinstance(plugin, Collecting) or not isinstance(plugin.config, PluginConfig):
        raise ReviewError(f"{display(config_file)}: the zh-translate plugin is not in `plugins:`")
    _own_dirs(config_file, plugin.config, config)  # against the configured site_dir, as the build
    try:
        override(plugin.config, options)
    except ValidationError as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None
    config["site_dir"] = site_dir  # the English build goes to a scratch directory
    plugin.collector = collector
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    except MkDocsException as exc:
        reason = held.take() or str(exc)
        raise ReviewError(f"{display(config_file)}: the English build failed: {reason}") from None
    finally:
        config.plugins.on_shutdown()
        plugin.collector = None
    if not found:
        raise ReviewError(f"{display(config_file)}: the English build did not reach the zh-translate plugin")
    return found[0]


def _units(build: EnglishBuild, config_file: Path) -> Site:
    root = config_file.resolve().parent
    site = Site(config_file, build.review_dir, build.docs_dir, site_name=build.site_name, po_width=build.po_width,
                spec=build.translator.spec, glossary=build.translator.pipeline.glossary)
    site.translation_memory = build.translation_memory
    site.variants = list(build.variants)
    machine = build.translator.pipeline.machine
    site.cache_dir = machine.directory if machine is not None else None
    site_groups: list[list[Unit]] = []
    strings: list[tuple[str, str]] = [(t, "mkdocs.yml") for t in build.site_strings]
    pages: list[SegmentedPage] = []
    for key, job in sorted(build.jobs.items()):
        location = os.path.relpath(build.docs_dir / key, root).replace(os.sep, "/")
        try:
            # as the build segments: the body MkDocs renders, front matter split off
            page = segment_markdown(job.markdown, syntax=build.translator.syntax, front_matter=False)
        except Exception as exc:  # reported by the build as well; the page has no entries
            log.warning(f"{location}: cannot segment: {exc}")
            continue
        pages.append(page)
        units, site_units = page_units(page, location, job.line_offset)
        path = page_po_path(build.review_dir, key)
        site.pages[path] = units
        site.page_labels[path] = key
        site_groups.append(site_units)
        strings.extend((value, location) for value in build.metas.get(key, {}).values())
    site_path = site_po_path(build.review_dir)
    site_groups.append(string_units(strings))
    site.pages[site_path] = merge_site_units(site_groups)
    site.page_labels[site_path] = "(site-wide strings)"
    hits = build.translator.cached(pages, [text for text, _where in strings])
    spec = build.translator.spec
    own = Path(spec.model).name if spec.model else spec.backend
    for path, units in site.pages.items():
        for unit in units:
            hit = hits.get(unit.text)
            if hit is not None:
                # no soft line breaks, as in the msgid (gettext tools compare their newlines)
                site.machine[(path, unit.key)] = soft_breaks_as_spaces(to_readable(_segment_of(unit), hit.text))
                site.scores[(path, unit.key)] = hit.score
                if build.variants:
                    site.machine_source[(path, unit.key)] = hit.text
                site.models[(path, unit.key)] = hit.model or own
    return site


def _own_dirs(config_file: Path, options: PluginConfig, config: MkDocsConfig) -> OwnDirs:
    """The build's own validation of ``cache_dir`` / ``review_dir`` (:func:`.config.own_dirs`)."""
    try:
        return own_dirs(options, config.config_file_path, config.docs_dir, config.site_dir)
    except DirOptionError as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None


def review_dir_of(config_file: Path) -> Path:
    """The plugin's review directory for ``config_file`` without building anything (``review prune``).

    It reads MkDocs' config, so it lives here: only ``plugin/`` imports mkdocs."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    _check_config_file(config_file)
    try:
        config = load_config(config_file=str(config_file))
        plugin = config.plugins["zh-translate"]
    except MkDocsException as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None
    except KeyError:
        raise ReviewError(f"{display(config_file)}: the zh-translate plugin is not in `plugins:`") from None
    return _own_dirs(config_file, plugin.config, config).review_dir


def _check_config_file(config_file: Path) -> None:
    problem = path_kind(config_file)
    if problem == "no such file":
        raise ReviewError(f"{display(config_file)}: no such file (use -f to name mkdocs.yml)")
    if problem is not None:
        raise ReviewError(f"{display(config_file)}: {problem}, not a config file (use -f to name mkdocs.yml)")
