"""Reuse the previous ``mkdocs serve`` rebuild's Markdown renders of unchanged Chinese pages.

``mkdocs serve`` rebuilds the whole site after every edit, and the plugin's nested build renders
every Chinese page again: Python-Markdown with the site's extensions costs most of a rebuild
(pymdown-extensions' docs: about 70 % of the Chinese build), although a one-paragraph edit
changes one page. A Chinese page's render depends on its final Markdown (the translation
spliced in, after every plugin's ``on_page_markdown``), on where it lives (source path, URL),
on the site's files (links are rewritten to their targets' URLs, and checked), on the Markdown
extensions and their options, and on the link-validation settings. All of these go into a key;
when a page's key equals the one its previous render had, the stored render (HTML, table of
contents, title, anchors) stands in for ``Page.render``. Every other step of the build (plugins'
``on_page_content``, the theme's templates with the nav, the search index) still runs.

Any doubt means a full render: only in a ``serve`` process with ``speedups: auto`` and the
wrapped packages at tested versions (``speedups.TESTED``), never under ``strict`` (a render
logs the link warnings that strict counts) and only when every Markdown extension is one whose
render depends on the page alone (Python-Markdown's, pymdown-extensions', Material's and ours)
or one of mkdocstrings' and mkdocs-autorefs', whose effects beyond the page are known:
pymdownx.snippets reads other files: each file a render included is recorded with its size and
mtime, and the render is reused only while they are unchanged; each file it looked for and did
not find, only while no base path has it; a render that found one outside the first base path
(one in an earlier base could shadow it later) is not stored; with remote snippets
(``url_download``) no render is reused.

mkdocstrings and autorefs: a page with an autodoc block (``::: identifier``) reads source code
and registers objects in mkdocstrings' inventory; such a render is never stored, the page is
rendered every time (its key would have to cover the code). Every other page's render reaches
beyond the page only through autorefs' ``register_anchor`` (its headings and anchors, which
other pages' cross-references resolve to in autorefs' ``on_env``): those calls are recorded
during the render (``AutorefsPlugin.register_anchor``, wrapped for the render's duration) and
made again, in the same order and at the same point of the build, with the build's own autorefs
plugin when the render is reused. A render during which anything else happened (an anchor
registered for another page, ``register_url``, an autodoc block) is not stored. The autorefs
plugin's switches that decide what its extension does (``scan_toc``, ``record_backlinks``,
its options) go into the site key.
"""

from __future__ import annotations

import contextlib
import copy
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ..pipeline.guard import extensions_fingerprint
from ..pipeline.stable import parts_key, stable_text
from . import speedups

# Extension modules whose output depends on the page's Markdown and their options alone.
_PAGE_LOCAL = ("markdown.extensions.", "pymdownx.", "material.extensions.emoji", "mkdocs_zh_translate.")
# Extension modules whose effects beyond the page are recorded and replayed (see above).
_RECORDED = ("mkdocstrings.", "mkdocs_autorefs.")
SNIPPETS = "pymdownx.snippets"  # reads other files: the files a render included are recorded


@dataclass
class _Render:
    key: str
    content: str
    toc: Any  # mkdocs.structure.toc.TableOfContents (copied: plugins may change a page's toc)
    title: str | None
    anchors: set[str] | None
    links: dict[str, dict[str, str]] | None  # target src_uri -> {anchor: link as written}
    anchors_registered: list[_Anchor]  # autorefs' register_anchor calls of the render, in order
    snippets: list[tuple[str, int, int]]  # files pymdownx.snippets included: path, size, mtime
    missing: list[tuple[tuple[str, ...], str]]  # snippets it looked for and did not find: bases, path


@dataclass(frozen=True)
class _Anchor:
    """One ``AutorefsPlugin.register_anchor(page, identifier, anchor, title=, primary=)`` call."""

    identifier: str
    anchor: str | None
    title: str | None
    primary: bool


class RenderMemo:
    """The Chinese pages' renders of the previous build, by source path, in this process."""

    def __init__(self) -> None:
        self._renders: dict[str, _Render] = {}
        self._site: str | None = None  # this build's site key ("" when renders are not reused)
        self._watch = False  # whether this build's renders may call mkdocstrings, autorefs, snippets
        self.reused = 0  # renders reused in the current build (tests, log)
        self.rendered = 0

    def new_build(self) -> None:
        """A Chinese build starts: its site key is computed on its first page."""
        self._site = None
        self.reused = self.rendered = 0

    def attach(self, page: Page, config: MkDocsConfig, files: Files) -> None:
        """Make ``page.render`` reuse the stored render when the page's key is unchanged."""
        if self._site is None:
            self._site = site_key(config, files)
            modules = [_module(e) for e in config.markdown_extensions]
            self._watch = any((m + ".").startswith(_RECORDED) or m == SNIPPETS for m in modules)
            if not self._site:
                self._renders.clear()
        if not self._site:
            return
        original: Callable[[MkDocsConfig, Files], None] = page.render
        site, watch = self._site, self._watch

        def render(config: MkDocsConfig, files: Files) -> None:
            key = _page_key(site, page)
            stored = self._renders.pop(page.file.src_uri, None)
            autorefs = config.plugins.get("autorefs")
            if stored is not None and stored.key == key and _restore(page, stored, files, autorefs):
                self._renders[page.file.src_uri] = stored
                self.reused += 1
                return
            with _recording(page, autorefs, watch) as recorded:
                original(config, files)
            self.rendered += 1
            if recorded.foreign:  # something beyond the page happened: render it every time
                return
            self._renders[page.file.src_uri] = _Render(
                key,
                page.content or "",
                copy.deepcopy(page.toc),
                page._title_from_render,
                set(page.present_anchor_ids) if page.present_anchor_ids is not None else None,
                {f.src_uri: dict(links) for f, links in page.links_to_anchors.items()}
                if page.links_to_anchors is not None
                else None,
                recorded.anchors,
                recorded.snippets,
                recorded.missing,
            )

        page.render = render  # type: ignore[method-assign]


def site_key(config: MkDocsConfig, files: Files) -> str:
    """What every page's render depends on besides its own Markdown ("" when in doubt)."""
    extensions = list(config.markdown_extensions)
    modules = [_module(extension) for extension in extensions]
    if config.strict or not all((m + ".").startswith(_PAGE_LOCAL + _RECORDED) for m in modules):
        return ""
    if not all(speedups.tested(d) for d in _wrapped(modules, config.plugins.get("autorefs") is not None)):
        return ""  # a release whose internals these wrappers were not tested with: plain renders
    if SNIPPETS in modules and config.mdx_configs.get(SNIPPETS, {}).get("url_download"):
        return ""  # remote snippets: nothing to record
    parts = [
        extensions_fingerprint(extensions, config.mdx_configs),
        stable_text(config.validation),
        str(config.use_directory_urls),
        str(config.docs_dir),
    ]
    parts.extend(f"{f.src_uri}\x01{f.dest_uri}\x01{f.url}\x01{f.inclusion}" for f in files)
    autorefs = config.plugins.get("autorefs")
    if autorefs is not None:  # what its Markdown extension registers and marks up
        parts.append(_autorefs_switches(autorefs))
    return parts_key(parts)


def _wrapped(modules: list[str], autorefs: bool) -> list[str]:
    """The distributions whose internals this site's renders would be wrapped in."""
    wrapped = ["mkdocs"]
    if autorefs or any(m.startswith("mkdocs_autorefs") for m in modules):
        wrapped.append("mkdocs-autorefs")
    if any(m.startswith("mkdocstrings") for m in modules):
        wrapped.append("mkdocstrings")
    if SNIPPETS in modules:
        wrapped.append("pymdown-extensions")
    return wrapped


def _module(extension: Any) -> str:
    """The module of a Markdown extension given by name (``toc``: an entry point), path or instance."""
    if not isinstance(extension, str):
        return type(extension).__module__
    if "." not in extension:
        found = entry_points(group="markdown.extensions", name=extension)
        return next((e.value.split(":")[0] for e in found), extension)
    return extension.split(":")[0]


def _page_key(site: str, page: Page) -> str:
    return parts_key((site, page.file.src_uri, page.file.url, page.markdown or "", stable_text(page.meta)))


def _restore(page: Page, stored: _Render, files: Files, autorefs: Any) -> bool:
    """Put the stored render on ``page`` and replay its anchor registrations; False when a
    linked file is gone or there is no autorefs plugin to replay them with (render instead)."""
    if stored.anchors_registered and not _is_autorefs(autorefs):
        return False
    if any(_stat(path) != (size, mtime) for path, size, mtime in stored.snippets):
        return False
    if any(_found_now(bases, path) for bases, path in stored.missing):
        return False
    links = None
    if stored.links is not None:
        links = {}
        for src_uri, anchors in stored.links.items():
            target = files.get_file_from_path(src_uri)
            if target is None:
                return False
            links[target] = dict(anchors)
    page.content = stored.content
    page.toc = copy.deepcopy(stored.toc)
    page._title_from_render = stored.title
    page.present_anchor_ids = set(stored.anchors) if stored.anchors is not None else None
    page.links_to_anchors = links
    for call in stored.anchors_registered:
        autorefs.register_anchor(page, call.identifier, call.anchor, title=call.title, primary=call.primary)
    return True


class _Recorded:
    def __init__(self) -> None:
        self.anchors: list[_Anchor] = []
        self.snippets: list[tuple[str, int, int]] = []
        self.missing: list[tuple[tuple[str, ...], str]] = []
        self.foreign = False  # something the render did beyond the page that cannot be replayed


@contextlib.contextmanager
def _recording(page: Page, autorefs: Any, watch: bool) -> Iterator[_Recorded]:
    """Record autorefs' anchor registrations and pymdownx.snippets' files of ``page``'s render
    (``watch``: the build has mkdocstrings', autorefs' or snippets' extension); ``foreign``
    when the render did anything else beyond the page (an autodoc block, another page's anchor,
    ``register_url``, a snippet it could not record), or registered anchors with no autorefs
    plugin of the build to replay them with."""
    recorded = _Recorded()
    if not watch:  # no extension of theirs: nothing to watch
        yield recorded
        return
    patches = [*_autorefs_patches(recorded, page, autorefs), *_autodoc_patches(recorded), *_snippet_patches(recorded)]
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches]
    for owner, name, replacement in patches:
        setattr(owner, name, replacement)
    try:
        yield recorded
    finally:
        for owner, name, method in saved:
            setattr(owner, name, method)
    if recorded.foreign or (recorded.anchors and not _is_autorefs(autorefs)):
        recorded.anchors, recorded.snippets, recorded.missing = [], [], []
        recorded.foreign = True


def _autorefs_patches(recorded: _Recorded, page: Page, autorefs: Any) -> list[tuple[Any, str, Any]]:
    try:
        from mkdocs_autorefs import AutorefsPlugin
    except ImportError:
        return []
    register_anchor = AutorefsPlugin.register_anchor
    register_url = AutorefsPlugin.register_url

    def record_anchor(
        self: Any,
        target: Any,
        identifier: str,
        anchor: str | None = None,
        *,
        title: str | None = None,
        primary: bool = True,
    ) -> None:
        register_anchor(self, target, identifier, anchor, title=title, primary=primary)
        if self is autorefs and target is page:
            recorded.anchors.append(_Anchor(identifier, anchor, title, primary))
        else:
            recorded.foreign = True

    def record_url(self: Any, *args: Any, **kwargs: Any) -> None:
        recorded.foreign = True
        register_url(self, *args, **kwargs)

    return [(AutorefsPlugin, "register_anchor", record_anchor), (AutorefsPlugin, "register_url", record_url)]


def _autodoc_patches(recorded: _Recorded) -> list[tuple[Any, str, Any]]:
    try:
        from mkdocstrings import AutoDocProcessor
    except ImportError:
        return []
    run = AutoDocProcessor.run

    def autodoc(self: Any, *args: Any, **kwargs: Any) -> None:
        recorded.foreign = True
        run(self, *args, **kwargs)

    return [(AutoDocProcessor, "run", autodoc)]


def _snippet_patches(recorded: _Recorded) -> list[tuple[Any, str, Any]]:
    try:
        from pymdownx.snippets import SnippetPreprocessor  # type: ignore[import-untyped]
    except ImportError:
        return []
    find = SnippetPreprocessor.get_snippet_path

    def get_snippet_path(self: Any, path: str) -> Any:
        found = find(self, path)
        bases = list(getattr(self, "base_path", None) or [])  # as configured, existing or not
        first = os.path.abspath(bases[0]) if bases and os.path.isdir(bases[0]) else None
        info = _stat(found) if isinstance(found, str) else None
        if found is None and isinstance(path, str):
            recorded.missing.append((tuple(str(b) for b in bases), path))  # reused while still missing
        elif info is None or first is None or not os.path.abspath(found).startswith(first.rstrip(os.sep) + os.sep):
            recorded.foreign = True  # found where an earlier base may shadow it later
        else:
            recorded.snippets.append((found, *info))
        return found

    return [(SnippetPreprocessor, "get_snippet_path", get_snippet_path)]


def _found_now(bases: tuple[str, ...], path: str) -> bool:
    """Whether a snippet that was missing may be found now: a file at ``path`` under any
    configured base (beside it, for a base that is a file)."""
    for base in bases:
        folder = os.path.dirname(base) if os.path.isfile(base) else base
        if os.path.exists(os.path.join(folder, path)):
            return True
    return False


def _stat(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def _is_autorefs(plugin: Any) -> bool:
    kind = type(plugin)
    return kind.__module__.startswith("mkdocs_autorefs.") and kind.__qualname__ == "AutorefsPlugin"


def _autorefs_switches(plugin: Any) -> str:
    """The autorefs plugin's settings that change what its Markdown extension does."""
    switches = [getattr(plugin, name, None) for name in ("scan_toc", "record_backlinks", "legacy_refs")]
    options = getattr(plugin, "config", None)
    return f"{type(plugin).__module__}\x01{stable_text(switches)}\x01{stable_text(dict(options or {}))}"
