"""The real-world corpus: MkDocs doc sets of real projects, pinned to exact PyPI sdists.

Each entry names a PyPI distribution and the exact version whose sdist ships ``mkdocs.yml`` and
``docs/`` (many projects' sdists do not, and newer releases of the pawamoy/facelessuser projects
moved to Zensical, so the versions are chosen on purpose; do not "upgrade" them blindly).
Nothing of these projects is committed: the harness downloads the sdist into the test cache.

Overrides, applied by the harness to a copy of the site's ``mkdocs.yml`` and documented here
because each one changes what the site builds:

* ``plugins``: only plugins in :data:`OFFLINE_PLUGINS` are kept (installed by the ``realsites``
  extra, offline, deterministic). Dropped everywhere: ``git-revision-date-localized`` and
  ``git-committers`` (need a git checkout / the network), ``social`` (downloads fonts),
  ``minify`` (rewrites the HTML we compare), ``markdown-exec`` (runs code at build time; the
  harness strips its fence options (``exec``, ``source``, ``result``, ``session``...) from the
  sources both builds read, so its blocks render as plain code blocks in both languages; left
  in, superfences rejects such a fence and it renders as a paragraph), ``coverage``,
  ``llmstxt``, ``group``, ``typeset``, ``glightbox``, ``mike``, ``material/blog`` (extras not
  installed or not relevant to page content).
  A site keeps the plugins it is in the corpus for (:attr:`Site.keep_plugins`: minify,
  glightbox, the Material blog, rss, git-revision-date-localized, mkdocs-jupyter, i18n), with the
  options documented at its entry; git-based ones read a one-commit repository the harness makes
  of the unpacked sdist (:attr:`Site.git`; fixed author and date). Builds run with HTTP(S)
  proxies pointed at a closed local port: a plugin that fetches fails at once, offline.
  A site may skip one of the offline plugins (:attr:`Site.skip_plugins`) that other sites of
  the corpus already build with the same options: build time with no coverage of its own.
* ``markdown_extensions``: those in :attr:`Site.drop_extensions` are removed (a project's own
  tool module that is not shipped in the sdist).
* ``theme``: :attr:`Site.theme` replaces the theme (a theme package that is not installed);
  ``custom_dir`` is dropped when the sdist lacks it.
* ``watch``: removed (only ``serve`` uses it, and sdists lack some watched paths).
* YAML tags naming ``zensical.extensions.*`` (the emoji functions of Zensical, which a 2026
  mkdocs.yml may use) are pointed at ``material.extensions.*``, the same functions.
* Per site, documented at the entry: extension options merged in, plugin options replaced
  (old handler options a current mkdocstrings rejects), pages excluded (``exclude_docs``, added
  to the site's own), a config in a subfolder of the sdist (:attr:`Site.config`).
* :attr:`Site.pending`: a site our plugin refuses today (the error it gives); the test expects
  that error until the fix lands.
* :attr:`Site.settings`: top-level keys of ``mkdocs.yml`` replaced, to build a project the
  way its team builds it (a second MkDocs project over the same sdist, say).
* :attr:`Site.refused`: a site our plugin refuses on purpose, with the one line it must give
  (a team's own Chinese edition where the machine site would go): never built, only refused.
* Dangling symlinks in the sdist (griffe's ``docs/logo.svg -> ../logo.svg``) are removed.
* ``hooks``: kept when the file exists in the sdist; :attr:`Site.hooks` adds the modules a
  dropped mkdocs-simple-hooks plugin loaded (their functions are plain MkDocs hooks); the
  harness appends its own marker hook.
* Always: ``strict: false`` (the English build of some sites warns about things outside our
  plugin), ``zh-translate`` added with ``backend: pseudo`` and ``banner: true`` (the default;
  the silently-English measure reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Plugin names (as written in mkdocs.yml) the harness keeps; everything else is dropped.
OFFLINE_PLUGINS = frozenset(
    {
        "search",
        "material/search",
        "autorefs",
        "mkdocstrings",
        "redirects",
        "section-index",
        "gen-files",
        "literate-nav",
        "tags",
        "material/tags",
    }
)


@dataclass(frozen=True)
class Site:
    """One doc set: where it comes from and what the harness changes to build it offline."""

    name: str
    dist: str
    version: str
    kind: str  # what it exercises, for the table: material, api, blocks, builtin
    config: str = "mkdocs.yml"
    theme: dict[str, Any] | None = None
    drop_extensions: tuple[str, ...] = ()
    # extension name -> options merged into the site's options for it
    extension_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    # plugin name -> options that replace the site's options for it
    plugin_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    # pages left out of both builds (MkDocs' own ``exclude_docs``), with the reason in a comment
    exclude_docs: tuple[str, ...] = ()
    # files (paths in the sdist) deleted before the build: a human zh page taken away, so the
    # plugin has a page to translate beside the site's own zh/ pages
    remove: tuple[str, ...] = ()
    # hook modules (paths in the sdist) added to ``hooks``: a plugin that only loads a hook
    # module (mkdocs-simple-hooks, not installed) whose functions are plain MkDocs hooks
    hooks: tuple[str, ...] = ()
    # command -> what it prints: a stand-in put first on PATH for a hook that runs a tool
    shims: dict[str, str] = field(default_factory=dict)
    # plugins kept for this site beyond OFFLINE_PLUGINS: the ones the site is in the corpus for
    # (installed by the ``realsites`` extra, offline once their options are set as documented)
    keep_plugins: tuple[str, ...] = ()
    # plugins of OFFLINE_PLUGINS dropped from this site: build time that other sites of the
    # corpus already spend on the same plugin with the same options (the reason at the entry)
    skip_plugins: tuple[str, ...] = ()
    # the unpacked sdist is made a git repository (one commit, fixed author and date) before
    # the build: date and author plugins read the page's history from git
    git: bool = False
    # a build error our plugin raises today on this site, with the issue that removes it: the
    # test expects exactly this error until the fix lands, then says to set the floors
    pending: str = ""
    # top-level keys of mkdocs.yml replaced (documented at the entry)
    settings: dict[str, Any] = field(default_factory=dict)
    # the one line our plugin refuses this site with, on purpose (never built, see the docstring)
    refused: str = ""
    # page (path of the HTML file relative to the site) -> why it is known to differ today
    known: dict[str, str] = field(default_factory=dict)

    @property
    def requirement(self) -> str:
        return f"{self.dist}=={self.version}"


#: The corpus's longest builds, longest first (`pytest --durations`, fresh and warm runs agree:
#: instructor 70-170 s, griffe 30-90 s, the next three 11-45 s; the rest under 35 s): the test
#: scheduler starts them first so the run does not end on one of them (tests/conftest.py).
SLOWEST_FIRST: tuple[str, ...] = ("instructor", "griffe", "mkdocs-jupyter", "hatch", "markdown")

SITES: tuple[Site, ...] = (
    Site("copier", "copier", "9.19.1", "material, mkdocstrings (`## ::: copier` in headings)"),
    Site(
        "griffe",
        "griffe",
        "1.7.3",
        "material, mkdocstrings, gen-files API pages, callouts",
    ),
    Site(
        "hatch",
        "hatch",
        "1.18.2",
        "material-heavy: tabs, annotations, mkdocs-click, many pages",
        # docs/.hooks/inject_version.py runs `hatch version`, and mkdocs-click imports hatch.cli;
        # hatch and its many dependencies are not installed: a shim answers the version and the
        # CLI reference page (nothing but `::: mkdocs-click` blocks) is left out.
        shims={"hatch": "1.18.2"},
        exclude_docs=("cli/reference.md",),
    ),
    Site(
        "markdown",
        "markdown",
        "3.11.3",
        "built-in `mkdocs` theme (own `nature` theme replaced), mkdocstrings API, mdx_gh_links",
        theme={"name": "mkdocs"},
    ),
    Site("mkdocs-autorefs", "mkdocs-autorefs", "1.4.2", "material, autorefs references"),
    Site("mkdocstrings", "mkdocstrings", "0.29.1", "material, mkdocstrings API pages"),
    Site(
        "mkdocstrings-python",
        "mkdocstrings-python",
        "2.0.11",
        "material, mkdocstrings API pages",
        # `::: package.generics` documents PEP 695 code, which Python 3.11's parser rejects.
        exclude_docs=("usage/configuration/headings.md",),
    ),
    Site(
        "pymdown-extensions",
        "pymdown-extensions",
        "10.16.1",
        "pymdownx.blocks everywhere, every pymdownx extension, snippets",
        drop_extensions=("tools.collapse_code",),
        # about/security.md includes SECURITY.md, which the sdist does not ship.
        extension_options={"pymdownx.snippets": {"check_paths": False}},
    ),
    Site(
        "pytkdocs",
        "pytkdocs",
        "0.16.5",
        "material, gen-files + literate-nav API pages",
        # Written for the legacy pytkdocs handler (setup_commands, selection): use today's.
        plugin_options={"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
    ),
    Site("starlette", "starlette", "1.10.0", "material, `::: starlette...` inside admonitions"),
    # -- added on trial as a new user (issue 12): doc sets the segmenter was not tuned on --
    Site(
        "dirty-equals",
        "dirty-equals",
        "0.11",
        "built-in `readthedocs` theme (Material replaced), mkdocstrings API pages",
        # The readthedocs theme stands in for Material: the corpus had no site on it. The site's
        # mkdocs-simple-hooks plugin (not installed) is dropped, its module kept as MkDocs hooks
        # (it strips pytest-examples' `test=`/`lint=` fence options, which superfences rejects
        # and which otherwise turn the home page into one long inline code span). Its
        # mkdocstrings options use the old `import:` key (inventories over the network), which a
        # current mkdocs-python rejects: the same rendering options, no inventories.
        theme={"name": "readthedocs"},
        hooks=("docs/plugins.py",),
        plugin_options={
            "mkdocstrings": {
                "handlers": {
                    "python": {
                        "options": {
                            "show_root_heading": True,
                            "show_root_full_path": False,
                            "show_source": False,
                            "heading_level": 2,
                            "merge_init_into_class": True,
                            "show_signature_annotations": True,
                            "separate_signature": True,
                            "signature_crossrefs": True,
                        }
                    }
                }
            }
        },
    ),
    Site(
        "mkdocs-print-site-plugin",
        "mkdocs-print-site-plugin",
        "2.9",
        "material: critic/mark/caret/tilde, keys, tasklists, footnotes, def lists, math, Jinja text",
        # The vegalite fence formatter comes from mkdocs-charts-plugin (not installed): no
        # custom fences, so a `vegalite` block renders as a plain code block in both builds.
        extension_options={"pymdownx.superfences": {"custom_fences": []}},
    ),
    Site(
        "mkdocs-table-reader-plugin",
        "mkdocs-table-reader-plugin",
        "4.0.2",
        "material, mkdocs-macros `{{ read_csv(...) }}`/`{% raw %}` text (macros dropped), tabs",
    ),
    Site(
        "inline-snapshot",
        "inline-snapshot",
        "0.36.1",
        "material, markdown-exec, snippets, tabs, mkdocstrings in admonitions",
        # src layout, and an inventory download: the handler reads src/, no inventories.
        plugin_options={
            "mkdocstrings": {
                "handlers": {
                    "python": {
                        "paths": ["src"],
                        "options": {"show_symbol_type_heading": True, "show_symbol_type_toc": True},
                    }
                }
            }
        },
    ),
    Site(
        "fastapi-users",
        "fastapi-users",
        "15.0.5",
        "material: content tabs, code annotations, snippets of example code, tasklists, def lists",
    ),
    Site(
        "fastapi-pagination",
        "fastapi-pagination",
        "0.16.1",
        "material, code annotations, pymdownx.extra, mdx_include `{! file !}` text (dropped)",
        # mdx_include is not installed: its `{! docs_src/x.py !}` lines stay text in both builds.
        drop_extensions=("mdx_include",),
    ),
    Site(
        "outlines",
        "outlines",
        "1.3.3",
        "material: grid cards, tables, content tabs, gen-files API pages, blog dropped",
        # src layout: the handler reads src/ (the site sets no paths; its CI installs outlines).
        # Its gen-files script writes a page per module (60 s of mkdocstrings on two cores, API
        # pages the corpus has enough of): no scripts, the hand-written API index page stays.
        plugin_options={
            "gen-files": {"scripts": []},
            "mkdocstrings": {
                "default_handler": "python",
                "handlers": {
                    "python": {"paths": ["src"], "options": {"docstring_style": "numpy", "show_submodules": True}}
                },
            }
        },
    ),
    # -- round two (issue 19): the plugins users run beside ours --
    Site(
        "mkdocs-rss-plugin",
        "mkdocs-rss-plugin",
        "1.19.0",
        "material: rss feeds, minify (HTML), git-revision-date-localized (git), mkdocstrings",
        keep_plugins=("rss", "minify", "git-revision-date-localized"),
        git=True,
        plugin_options={
            # The site's own options, except `remove_comments` (it would remove the harness's
            # body markers; the rest of htmlmin's rewriting stays).
            "minify": {"minify_html": True, "htmlmin_opts": {"remove_comments": False}},
        },
    ),
    Site(
        "mkdocs-glightbox",
        "mkdocs-glightbox",
        "0.5.3",
        "material: glightbox image lightbox, captions (`data-title`/`data-description`), galleries",
        config="demo-mkdocs/mkdocs.yml",
        keep_plugins=("glightbox",),
    ),
    Site(
        "mkdocs-jupyter",
        "mkdocs-jupyter",
        "0.26.3",
        "material: mkdocs-jupyter notebook pages (.ipynb, not executed), Markdown pages",
        # The demo/ site's docs are not in the sdist; the project's own Material test site is.
        config="src/mkdocs_jupyter/tests/mkdocs/material-with-nbs.yml",
        keep_plugins=("mkdocs-jupyter",),
    ),
    Site(
        "zotero-cli-cc",
        "zotero-cli-cc",
        "0.10.0",
        "material: mkdocs-static-i18n (folder structure) with the site's own zh/ pages, mkdocs-click",
        keep_plugins=("i18n",),
        # Issue 19 item 9: the human zh/ pages win and only the missing ones are translated.
        # The CLI reference is one `::: mkdocs-click` block that imports the package (src/
        # layout; pyzotero, openai... not installed): left out in both languages. Its zh/ has
        # every page: the human guide/pdf page is deleted, so the plugin translates that one.
        exclude_docs=("en/reference/cli.md", "zh/reference/cli.md"),
        remove=("docs/zh/guide/pdf.md",),
    ),
    Site(
        "instructor",
        "instructor",
        "1.17.0",
        "material: the blog plugin (100+ posts, archive, categories, authors), redirects, big",
        keep_plugins=("blog",),
        # The corpus's biggest build (311 pages, both languages): its minify (htmlmin, 25 % of the
        # build) and Material search (with the separator Material recommends, 17 %) are what
        # mkdocs-rss-plugin's site (minify_html) and pymdown-extensions' (the same separator)
        # already build, so here they only cost time (`make test` is CPU-bound, issue 25).
        skip_plugins=("search",),
        # The blog is on only where $CI is set (`enabled: !ENV CI`): on, with the site's options.
        plugin_options={
            "blog": {
                "enabled": True,
                "blog_dir": "blog",
                "blog_toc": True,
                "post_dir": "blog/posts",
                "post_date_format": "yyyy/MM/dd",
                "post_url_format": "{date}/{slug}",
                "authors_file": "{blog}/.authors.yml",
            },
        },
    ),
    Site(
        "mkdocs-git-revision-date-localized-plugin",
        "mkdocs-git-revision-date-localized-plugin",
        "1.5.4",
        "material: git-revision-date-localized (timeago, `locale: en`) and git-authors on git history",
        keep_plugins=("git-revision-date-localized", "git-authors"),
        git=True,
    ),
    Site(
        "mkdocs-macros-plugin",
        "mkdocs-macros-plugin",
        "1.0.5",
        "material: mkdocs-macros (variables, front-matter variables, macros, filters, pluglet, include)",
        # The project's docs (webdoc/) show macros syntax without the plugin; its test site
        # `test/module` is the one that runs it, with a local module, an include folder and
        # the mkdocs-macros-test pluglet (installed by the extra). Same sdist era as the
        # pinned plugin's syntax; the plugin itself is the pinned 1.5.0.
        config="test/module/mkdocs.yml",
        keep_plugins=("macros",),
        # Its `ignore_macros: true` front matter is an error in the pinned plugin (renamed).
        exclude_docs=("literal.md",),
    ),
    Site(
        "openai-agents",
        "openai-agents",
        "0.24.0",
        "material: mkdocs-static-i18n (English at the root, own zh/ ja/ ko/ for a third of the pages)",
        keep_plugins=("i18n",),
        # Issue 19 item 9: the human zh/ pages win and only the missing ones are translated.
        # ref/ is 248 mkdocstrings pages (the corpus has API pages enough): left out. Its
        # handler options use the legacy `selection:` key a current mkdocstrings-python rejects.
        # Its zh/ has every page: the human handoffs and guardrails pages are deleted, so the
        # plugin translates those two.
        exclude_docs=("ref/",),
        remove=("docs/zh/handoffs.md", "docs/zh/guardrails.md"),
        plugin_options={"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
    ),
    # -- round four: the set-ups of real teams (mike versions, a Chinese edition of their own) --
    Site(
        "depthcharge-ms",
        "depthcharge-ms",
        "0.4.1",
        "material: mike versions (`extra.version.provider: mike`), mkdocstrings numpy, footer nav",
        # mkquartodocs (not installed) renders the spectra page from a .qmd notebook: dropped, so
        # that nav entry has no page in either language. The selector itself is checked per zh
        # page (SiteReport.selectors): every zh page of a mike site must carry ours.
    ),
    Site(
        "zotero-cli-cc-editions",
        "zotero-cli-cc",
        "0.10.0",
        "material: a human Chinese edition as a second MkDocs project at /zh/ (extra.alternate)",
        # The same sdist as zotero-cli-cc, built the way a team with its own Chinese edition
        # builds it without mkdocs-static-i18n: the English project from docs/en, the human
        # docs/zh as a second project published at /zh/, linked from the language selector.
        # The machine site would be written over it: the build must stop with one line.
        settings={
            "docs_dir": "docs/en",
            "extra": {
                "alternate": [
                    {"name": "English", "link": "/zotero-cli-cc/", "lang": "en"},
                    {"name": "中文", "link": "/zotero-cli-cc/zh/", "lang": "zh"},
                ]
            },
        },
        exclude_docs=("reference/cli.md",),
        refused="extra.alternate links Chinese ('中文') to '/zotero-cli-cc/zh/'",
    ),
)


def by_name(name: str) -> Site:
    for site in SITES:
        if site.name == name:
            return site
    raise KeyError(f"no site {name!r}; known: {', '.join(s.name for s in SITES)}")
