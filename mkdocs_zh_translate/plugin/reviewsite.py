"""The site behind ``review serve``: the real build in review mode, and one page rebuilt per save.

The site is built once, as ``mkdocs build`` builds it (English, then the nested Chinese build,
the theme, every plugin), into a scratch directory, with the Chinese pages' segments marked
(:mod:`.reviewcapture`). After a reviewer's save only that page is built again: its
translation is spliced anew (the PO file is read again: the review now wins over the machine
text, as in any build) and MkDocs renders and writes it with the Chinese build's own config,
files, navigation and templates, through the same plugin events a full build runs for a page.
MkDocs 1.6 has no public call for one page: its own two steps of a build
(``_populate_page``, ``_build_page``) are used, and MkDocs 1.6.1 is the last 1.x release.

A save changes one page's file; a site-wide entry (``site.po``: default admonition titles)
shows on the other pages at their next rebuild or the next ``review serve``.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..pipeline.lazy import TranslationFailed
from ..review.edit import EditRefused, find_entry, save_review
from ..review.memory import Memory
from ..review.segview import Machine, QueueItem, queue_items, segment_view, worst_first
from ..review.store import PAGE_SUFFIX, PoReader, ReviewError, display, load_po, page_po_path, site_po_path
from ..review.units import Unit, page_units
from ..segment import SegmentedPage, segment_markdown, soft_breaks_as_spaces, to_readable
from .factory import PLUGIN_KEY
from .modes.nested import EnglishSite
from .reviewcapture import ReviewCapture

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from ..pipeline.pages import PageJob
    from .modes.base import Kept

QUEUE_LIMIT = 500  # rows of the queue page; the worst come first


@dataclass
class _Found:
    unit: Unit
    path: Path
    segmented: SegmentedPage


@dataclass
class ReviewSite:
    """The built site under review: what :class:`..review.server.Backend` asks for."""

    config: MkDocsConfig
    kept: Kept
    capture: ReviewCapture
    site_dir: Path
    scratch: Path
    home: str = "/"
    urls: dict[str, str] = field(default_factory=dict)  # served path -> src_uri
    page_urls: dict[str, str] = field(default_factory=dict)  # src_uri -> served path
    _segmented: dict[str, SegmentedPage] = field(default_factory=dict)
    _memory: tuple[tuple[tuple[str, int, int], ...], Memory] | None = None
    _reader: PoReader | None = None  # parses each PO file once per content (a save re-reads one)
    _built: dict[str, tuple[int, int] | None] = field(default_factory=dict)  # page -> its PO file's stamp

    # -- the site -------------------------------------------------------------------------------

    @property
    def english(self) -> EnglishSite:
        mode = self.kept.mode
        assert isinstance(mode, EnglishSite)
        return mode

    @property
    def review_dir(self) -> Path:
        review = self.kept.pipeline.review
        assert review is not None
        return review.review_dir

    def jobs(self) -> dict[str, PageJob]:
        return self.english.text.jobs

    def index_pages(self) -> None:
        """The served URL of every translated page (``/zh/guide/install/``)."""
        files = self.capture.files
        assert files is not None
        prefix = self.kept.options.language
        self.home = f"/{prefix}/"
        for file in files.documentation_pages():
            if file.src_uri not in self.jobs():
                continue
            url = f"/{prefix}/" + ("" if file.url in ("", "./") else file.url)
            self.page_urls[file.src_uri] = url
            self._built[file.src_uri] = self._stamp(file.src_uri)
            self.urls[url] = file.src_uri
            if url.endswith("/"):
                self.urls[url + "index.html"] = file.src_uri

    def page_for(self, url_path: str) -> str | None:
        return self.urls.get(url_path)

    def _stamp(self, page: str) -> tuple[int, int] | None:
        try:
            st = page_po_path(self.review_dir, page).lstat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def refresh(self, page: str) -> None:
        """Build ``page`` again when its PO file changed since it was built (another editor
        saved it): a reload shows what is on disk."""
        if self._built.get(page, self._stamp(page)) != self._stamp(page):
            self.rebuild(page)

    def segmented(self, page: str) -> SegmentedPage:
        """The page segmented as the build segments it (the marks' numbers are its indices)."""
        if page not in self._segmented:
            pipeline = self.kept.pipeline
            markdown = self.jobs()[page].markdown
            self._segmented[page] = segment_markdown(
                markdown, slugify=pipeline.slugify, syntax=pipeline.syntax, front_matter=False
            )
        return self._segmented[page]

    def find(self, page: str, index: int) -> _Found:
        """The PO unit (and its file) of segment ``index`` of ``page``; KeyError when none."""
        job = self.jobs()[page]
        segmented = self.segmented(page)
        units, site_units = page_units(segmented, job.label, job.line_offset)
        for group, path in ((units, page_po_path(self.review_dir, page)), (site_units, site_po_path(self.review_dir))):
            for unit in group:
                if index in unit.indices:
                    return _Found(unit, path, segmented)
        raise KeyError(index)

    def machine(self, pages: list[SegmentedPage], units: list[Unit]) -> dict[str, Machine]:
        """The machine cache's readable text and score of each unit, by placeholder text."""
        hits = self.kept.site_translator().cached(pages, [])
        found: dict[str, Machine] = {}
        for unit in units:
            hit = hits.get(unit.text)
            if hit is not None and unit.segment is not None:
                found[unit.text] = Machine(soft_breaks_as_spaces(to_readable(unit.segment, hit.text)), hit.score)
        return found

    @property
    def reader(self) -> PoReader:
        if self._reader is None:
            self._reader = PoReader(self.review_dir)
        return self._reader

    def memory(self) -> Memory:
        """The translation memory of every PO file, made again only when one changed."""
        reader = self.reader
        paths = sorted(p for p in self.review_dir.rglob("*" + PAGE_SUFFIX) if not p.name.startswith("."))
        stamps = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
        if self._memory is None or self._memory[0] != stamps:
            threshold = float(self.kept.options.translation_memory)
            self._memory = (stamps, Memory.of_files((reader.get(p) for p in paths), threshold))
        return self._memory[1]

    # -- the backend's calls --------------------------------------------------------------------

    def segment(self, page: str, index: int) -> dict[str, object]:
        found = self.find(page, index)
        po, _seen = load_po(found.path, self.review_dir)
        entry = find_entry(po, found.unit)
        machine = self.machine([found.segmented], [found.unit]).get(found.unit.text, Machine(None, None))
        view = segment_view(found.unit, entry, machine, self.memory(), self.kept.pipeline.glossary)
        view.update(page=page, index=index, po=found.path.relative_to(self.review_dir).as_posix())
        return view

    def save(self, page: str, index: int, text: str | None, version: str | None) -> dict[str, object]:
        found = self.find(page, index)
        if text is None:  # accept what the panel showed: the entry's text, else the machine's
            po, _seen = load_po(found.path, self.review_dir)
            entry = find_entry(po, found.unit)
            machine = self.machine([found.segmented], [found.unit]).get(found.unit.text)
            text = entry.msgstr if entry is not None and entry.msgstr else machine.text if machine else None
            if not text:
                raise EditRefused("nothing to accept: this segment has no translation yet; type one and save")
        written = save_review(self.review_dir, found.path, found.unit, text, version, int(self.kept.options.po_width))
        started = time.perf_counter()
        self.rebuild(page)
        took = round(1000 * (time.perf_counter() - started))
        return {"written": written, "rebuild_ms": took, "po": found.path.relative_to(self.review_dir).as_posix()}

    def queue(self) -> list[dict[str, object]]:
        items: list[QueueItem] = []
        pages = {page: self.segmented(page) for page in sorted(self.page_urls)}
        every: list[Unit] = []
        per_page: dict[str, list[Unit]] = {}
        for page, segmented in pages.items():
            job = self.jobs()[page]
            per_page[page] = page_units(segmented, job.label, job.line_offset)[0]
            every.extend(per_page[page])
        machine = self.machine(list(pages.values()), every)
        for page, units in per_page.items():
            items.extend(queue_items(page, units, self.reader.index(page_po_path(self.review_dir, page)), machine))
        return [dict(item.json(), url=self.page_urls[item.page]) for item in worst_first(items)[:QUEUE_LIMIT]]

    def rebuild(self, page: str) -> None:
        """Translate and render ``page`` again, as the full build did (the new review in)."""
        from mkdocs.commands.build import _build_page, _populate_page
        from mkdocs.exceptions import MkDocsException

        kept, capture, english = self.kept, self.capture, self.english
        self._built[page] = self._stamp(page)
        try:
            results, _strings, _stats = kept.site_translator().translate_pages([self.jobs()[page]], [])
        except TranslationFailed as exc:
            raise ReviewError(f"{page}: not translated again: {exc}") from None
        english.done.results.update(results)
        assert capture.config is not None and capture.files is not None and capture.mode is not None
        assert capture.nav is not None
        file = capture.files.get_file_from_path(page)
        if file is None or file.page is None:
            raise ReviewError(f"{page}: not a page of the Chinese site")
        kept.mode = capture.mode
        try:
            _populate_page(file.page, capture.config, capture.files)
            _build_page(file.page, capture.config, capture.files.documentation_pages(), capture.nav, capture.env)
        except MkDocsException as exc:
            raise ReviewError(f"{page}: the page could not be built again: {exc}") from None
        finally:
            kept.mode = english

    def close(self) -> None:
        self.config.plugins.on_shutdown()
        shutil.rmtree(self.scratch, ignore_errors=True)


def open_review_site(config_file: Path, site_url: str) -> ReviewSite:
    """Build ``config_file``'s site in review mode into a scratch directory, served at
    ``site_url``; ReviewError (one line) when it cannot be built."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.exceptions import MkDocsException

    from .collect import _check_config_file

    _check_config_file(config_file)
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]  # a fresh instance
    try:
        config = load_config(config_file=str(config_file), site_url=site_url)
    except MkDocsException as exc:
        raise ReviewError(f"{display(config_file)}: {exc}") from None
    plugin: Any = config.plugins.get(PLUGIN_KEY)
    if plugin is None or not hasattr(plugin, "review_mode"):
        raise ReviewError(f"{display(config_file)}: the zh-translate plugin is not in `plugins:`")
    scratch = Path(tempfile.mkdtemp(prefix="zh-translate-review-serve-"))
    config["site_dir"] = str(scratch / "site")
    capture = ReviewCapture()
    kept = plugin.review_mode(capture)
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
        if not isinstance(kept.mode, EnglishSite) or capture.files is None:
            raise ReviewError(
                f"{display(config_file)}: review serve needs the plugin's own Chinese build "
                "(not beside mkdocs-static-i18n)"
            )
    except (MkDocsException, ReviewError) as exc:
        config.plugins.on_shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
        if isinstance(exc, ReviewError):
            raise
        raise ReviewError(f"{display(config_file)}: the build failed: {exc}") from None
    site = ReviewSite(config, kept, capture, Path(config.site_dir), scratch)
    site.index_pages()
    logging.getLogger("mkdocs").debug(f"review serve: {len(site.page_urls)} pages under review")
    return site
