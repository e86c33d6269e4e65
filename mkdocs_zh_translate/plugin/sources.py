"""Where a page's text comes from, when not (only) from its Markdown: what the plugin translates
and what it must name.

A page's Markdown is what the plugin translates; three kinds of pages hold text that is not in
it. Included files (markdown-include's ``{!file!}``, pymdownx.snippets' ``--8<--``): expanded
into the page's job (``SitePipeline.expand``); an include that cannot be expanded is named.
Notebooks rendered by mkdocs-jupyter: their Markdown cells are the job, and the Chinese build
renders a translated copy of the notebook (notebooks.py). Pages some other plugin renders
from elsewhere (it replaced the page's ``render``): nothing the plugin returns is shown, so
the page is kept English, without a banner that claims a translation, and named.

Every such name is a warning of the page's result, so ``strict: true`` turns it into an
error and fails the build, like an English sentence left in a page.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.structure.pages import Page

from ..pipeline.pages import PageJob, PageResult
from ..pipeline.report import PageCounts
from . import notebooks


class PageSources:
    """One build's pages whose text comes from elsewhere (see the module)."""

    def __init__(self) -> None:
        self.notebooks: dict[str, str] = {}  # src_uri -> the notebook's JSON, as the English build read it
        self.origins: dict[str, str] = {}  # src_uri -> the notebook's own file
        self.translated: dict[str, str] = {}  # src_uri -> the translated notebook's text
        # an extra variant's (zh-TW …) translated notebooks, by its code: src_uri -> text
        self.variant_translated: dict[str, dict[str, str]] = {}
        self.kept: dict[str, PageResult] = {}  # pages nothing can translate: kept English, and why
        self.problems: dict[str, list[str]] = {}  # included text kept English, per page
        self.written: dict[str, Path] = {}  # the Chinese build's translated notebooks
        self._originals: dict[str, str | None] = {}  # the notebook's own file, while swapped
        # notebook -> the English render's heading, toc and made-up ids (notebooks.py)
        self.english_ids: dict[str, tuple[list[str], list[str], list[str]]] = {}
        self._tmp: Path | None = None

    def reset(self) -> None:
        """Forget the last build's pages (each English build collects them again)."""
        self.notebooks.clear()
        self.origins.clear()
        self.translated.clear()
        self.variant_translated.clear()
        self.english_ids.clear()
        self.kept.clear()
        self.problems.clear()

    def handled(self, src_uri: str) -> bool:
        """Whether the page's Markdown is not what the Chinese build shows (a notebook, or a page
        another plugin renders): its Markdown goes through unchanged."""
        return src_uri in self.notebooks or src_uri in self.kept

    def job(
        self,
        page: Page,
        markdown: str,
        config: Any,
        expand: Callable[[str], tuple[str, list[str]]],
        label: str,
        line_offset: int,
    ) -> PageJob | None:
        """The page's translation job, or None for a page nothing can translate (then kept)."""
        key = page.file.src_uri
        jupyter = notebooks.notebook_plugin(config)
        if jupyter is not None and notebooks.renders_notebook(jupyter, page.file):
            source = _read(page, markdown)
            cells = notebooks.markdown_cells(source, _suffix(page))
            if cells is not None:
                self.notebooks[key] = source
                self.origins[key] = page.file.abs_src_path or ""
                return PageJob(key, label, cells)
            self._keep(
                key,
                markdown,
                f"{label}: mkdocs-jupyter renders this page from a notebook it cannot read: kept in English",
            )
            return None
        renderer = foreign_renderer(page)
        if renderer is not None:
            self._keep(
                key, markdown, f"{label}: rendered by {renderer} from elsewhere than its Markdown: kept in English"
            )
            return None
        expanded, problems = expand(markdown)
        if problems:
            self.problems[key] = [f"{label}: {problem}" for problem in problems]
        else:
            self.problems.pop(key, None)
        return PageJob(key, label, expanded, line_offset)

    def _keep(self, key: str, markdown: str, message: str) -> None:
        self.kept[key] = PageResult(markdown, translated=False, warnings=[message])

    def merge(self, results: dict[str, PageResult], jobs: dict[str, PageJob]) -> None:
        """Add what this build could not translate to the pipeline's ``results`` (in place), and
        put each translated notebook together (one that cannot be is kept English, and named)."""
        for key, problems in self.problems.items():
            result = results.get(key)
            if result is not None:
                result.warnings[:0] = [p for p in problems if p not in result.warnings]
        for key, kept in self.kept.items():
            results.setdefault(key, kept)
        self._assemble(results, jobs, self.translated)

    def merge_variant(self, code: str, results: dict[str, PageResult], jobs: dict[str, PageJob]) -> None:
        """An extra variant's pass: its own translated notebooks, from its own cells' text (the
        Simplified site's problems and kept pages are that site's to report, not repeated)."""
        self._assemble(results, jobs, self.variant_translated.setdefault(code, {}))

    def _assemble(self, results: dict[str, PageResult], jobs: dict[str, PageJob], into: dict[str, str]) -> None:
        for key, source in self.notebooks.items():
            result = results.get(key)
            if result is None or not result.translated:
                continue
            text = notebooks.translated_notebook(source, result.markdown, Path(key).suffix.lower())
            if text is None:  # the cells did not come back one for one: nothing is guessed
                result.translated = False
                label = jobs[key].label if key in jobs else key
                result.warnings.append(f"{label}: the translated cells do not fit the notebook: kept in English")
            else:
                into[key] = text

    def kept_counts(self) -> dict[str, PageCounts]:
        """The build report's line for each page nothing translated: one place left behind."""
        return {key: PageCounts(left_behind=len(kept.warnings)) for key, kept in self.kept.items()}

    def content(self, page: Page, html: str, *, zh: bool) -> str:
        """A notebook page's rendered ``html``: the English build's heading ids are recorded,
        and put back in the Chinese build's page and table of contents (notebooks.py)."""
        key = page.file.src_uri
        if key not in self.notebooks:
            return html
        if not zh:
            ids = notebooks.heading_ids(html), notebooks.toc_ids(page.toc), notebooks.made_up_ids(html)
            self.english_ids[key] = ids
            return html
        if key not in self.english_ids:
            return html
        headings, toc, made_up = self.english_ids[key]
        html = notebooks.restore_made_up_ids(html, made_up)
        if key not in self.written:
            return html
        notebooks.restore_toc(page.toc, toc)
        return notebooks.restore_ids(html, headings)

    # -- the Chinese build --------------------------------------------------------------

    def prepare_zh(self, config: Any, language: str, variant: str | None = None) -> None:
        """Write each translated notebook outside docs_dir (``self.written``) and give the
        Chinese build's mkdocs-jupyter a render cache of its own. ``variant``: an extra
        variant's code, whose build shows that variant's notebooks (never the Simplified ones)."""
        self.finish()
        jupyter = notebooks.notebook_plugin(config)
        if jupyter is None or not self.notebooks:
            return
        notebooks.separate_cache(jupyter, language)
        self._tmp = Path(tempfile.mkdtemp(prefix="mkdocs-zh-translate-notebooks-"))
        translated = self.translated if variant is None else self.variant_translated.get(variant, {})
        for key, text in translated.items():
            path = self._tmp / key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            self.written[key] = path
        if (getattr(jupyter, "config", None) or {}).get("execute"):
            for key, path in self.written.items():
                notebooks.link_siblings(Path(self.origins[key]).parent, path.parent)

    def swap_in(self, page: Page) -> None:
        """Point the page's file at its translated notebook, before mkdocs-jupyter reads it
        (its cache key, in its own ``on_pre_page``)."""
        path = self.written.get(page.file.src_uri)
        if path is not None and page.file.src_uri not in self._originals:
            self._originals[page.file.src_uri] = page.file.abs_src_path
            page.file.abs_src_path = str(path)

    def swap_out(self, page: Page) -> None:
        """Point the page's file back at the notebook itself (what other plugins read: git
        dates, edit links), and at the translated copy again for the render only."""
        key = page.file.src_uri
        if key not in self._originals:
            return
        original, translated = self._originals.pop(key), page.file.abs_src_path
        page.file.abs_src_path = original
        render = page.render

        def render_translated(config: Any, files: Any) -> None:
            page.file.abs_src_path = translated
            try:
                render(config, files)
            finally:
                page.file.abs_src_path = original

        render_translated.__wrapped__ = render  # type: ignore[attr-defined]  # see foreign_renderer
        page.render = render_translated  # type: ignore[method-assign]

    def finish(self) -> None:
        """Remove the translated notebooks (after the Chinese build)."""
        self.written.clear()
        self._originals.clear()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


def read_beyond_docs(config: Any, included: list[Path]) -> list[Path]:
    """The files outside ``docs_dir`` whose text the Chinese site shows: the files the last
    English build's pages included (``included``: ``SitePipeline.included_files()``, snippets
    and markdown-include) and the override templates of ``theme.custom_dir`` (templates.py),
    absolute and sorted. One list for whoever must know when the Chinese site may change
    although no page did (a CI cache key, say)."""
    docs_dir = Path(config.docs_dir).resolve()
    found = set(included)
    custom_dir = config.theme.custom_dir
    if custom_dir and Path(custom_dir).is_dir():
        found.update(path.resolve() for path in Path(custom_dir).rglob("*.html"))
    return sorted(path for path in found if not path.resolve().is_relative_to(docs_dir))


def foreign_renderer(page: Page) -> str | None:
    """The module of a plugin that replaced ``page``'s render (it renders the page from something
    other than its Markdown), or None. The plugin's own wrappers say what they wrap (``__wrapped__``)."""
    render = page.__dict__.get("render")
    while render is not None and getattr(render, "__wrapped__", None) is not None:
        render = render.__wrapped__
    if render is None:
        return None
    function = getattr(render, "__func__", render)
    if function is getattr(type(page), "render", None) or function is Page.render:
        return None
    module = str(getattr(function, "__module__", "") or "")
    return module.split(".")[0] or "another plugin"


def _suffix(page: Page) -> str:
    """The notebook's format, by its file name (``.ipynb``, or jupytext's ``.py``/``.md``)."""
    return Path(page.file.src_uri).suffix.lower()


def _read(page: Page, markdown: str) -> str:
    """The notebook's file as MkDocs read it (the ``markdown`` MkDocs handed over, if unreadable)."""
    path = page.file.abs_src_path
    if not path:
        return markdown
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return markdown
