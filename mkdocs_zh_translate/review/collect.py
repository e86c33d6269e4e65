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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..segment import Segment, to_readable
from .store import ReviewError, display, page_po_path, site_po_path
from .units import Unit, merge_site_units, page_units, string_units


@dataclass
class Site:
    """What ``review`` commands need from one mkdocs.yml."""

    config_file: Path
    review_dir: Path
    pages: dict[Path, list[Unit]] = field(default_factory=dict)  # PO path -> units (page order)
    page_labels: dict[Path, str] = field(default_factory=dict)  # PO path -> docs page
    machine: dict[tuple[Path, tuple[str | None, str]], str] = field(default_factory=dict)


def _segment_of(unit: Unit) -> Segment:
    return unit.segment or Segment(unit.text, 0, 0, 1, "string")


def collect_site(config_file: Path) -> Site:
    """Run the English build of ``config_file`` in collect mode; ReviewError on any failure."""
    from mkdocs.config.defaults import MkDocsConfig

    if not config_file.is_file():
        raise ReviewError(f"{display(config_file)}: no such file (use -f to name mkdocs.yml)")
    # A fresh plugin instance, as a new `mkdocs build` would get (MkDocs caches instances that
    # define on_startup for the whole process).
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    quiet = logging.getLogger("mkdocs.commands.build")  # "Building documentation..." and timings
    level = quiet.level
    quiet.setLevel(logging.WARNING)
    try:
        with tempfile.TemporaryDirectory(prefix="zh-translate-review-") as tmp:
            return _collect(config_file, tmp)
    finally:
        quiet.setLevel(level)


def _collect(config_file: Path, site_dir: str) -> Site:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from ..pipeline.pages import translator_fingerprint

    found: list[Site] = []

    def collector(plugin: Any, state: Any, config: Any) -> None:
        found.append(_units(plugin, state, config_file, Path(config.docs_dir), translator_fingerprint))

    try:
        config = load_config(config_file=str(config_file), site_dir=site_dir)
    except MkDocsException as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None
    try:
        plugin = config.plugins["zh-translate"]
    except KeyError:
        raise ReviewError(f"{display(config_file)}: the zh-translate plugin is not in `plugins:`") from None
    plugin.collector = collector
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    except MkDocsException as exc:
        raise ReviewError(f"{display(config_file)}: the English build failed: {exc}") from None
    finally:
        config.plugins.on_shutdown()
        plugin.collector = None
    if not found:
        raise ReviewError(f"{display(config_file)}: the English build did not reach the zh-translate plugin")
    return found[0]


def _units(plugin: Any, state: Any, config_file: Path, docs_dir: Path, fingerprint_of: Any) -> Site:
    from ..segment import segment_markdown

    review_dir = plugin._review.review_dir
    memory = plugin._memory
    glossary = plugin._glossary
    root = config_file.resolve().parent
    site = Site(config_file, review_dir)
    site_groups: list[list[Unit]] = []
    strings: list[tuple[str, str]] = [(t, "mkdocs.yml") for t in state.nav_titles]
    if plugin.config.translate_nav:
        strings.append((state.site_name, "mkdocs.yml"))
    if state.site_description:
        strings.append((state.site_description, "mkdocs.yml"))
    for key, job in sorted(state.jobs.items()):
        location = os.path.relpath(docs_dir / key, root).replace(os.sep, "/")
        try:
            page = segment_markdown(job.markdown)
        except Exception as exc:  # reported by the build as well; the page has no entries
            logging.getLogger("mkdocs.plugins.zh_translate").warning(f"{location}: cannot segment: {exc}")
            continue
        units, site_units = page_units(page, location, job.line_offset)
        path = page_po_path(review_dir, key)
        site.pages[path] = units
        site.page_labels[path] = key
        site_groups.append(site_units)
        strings.extend((value, location) for value in state.metas.get(key, {}).values())
    site_path = site_po_path(review_dir)
    site_groups.append(string_units(strings))
    site.pages[site_path] = merge_site_units(site_groups)
    site.page_labels[site_path] = "(site-wide strings)"
    fingerprint = fingerprint_of(state.spec, memory)
    for path, units in site.pages.items():
        sources = {u.key: (glossary.cache_source(u.text) if glossary else u.text) for u in units}
        hits = memory.machine.lookup(list(dict.fromkeys(sources.values())), fingerprint)
        for unit in units:
            hit = hits.get(sources[unit.key])
            if hit is None:
                continue
            site.machine[(path, unit.key)] = to_readable(_segment_of(unit), hit.text)
    return site

