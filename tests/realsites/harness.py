"""Build real third-party doc sets with the plugin and compare each zh page with its English page.

How it works: download the pinned sdist (from pip's package index, :mod:`tests.sdists`) into
the corpus cache, unpack it into a work directory, strip markdown-exec's fence options
from its Markdown (its plugin is dropped; see :func:`strip_exec_options`), write ``mkdocs.zh-realsites.yml`` beside
the project's ``mkdocs.yml`` (overrides documented in :mod:`tests.realsites.sites`), run
``python -m mkdocs build`` in a subprocess with the ``pseudo`` backend (every translated
segment is wrapped in 「」), then compare per page the body of ``site/X.html`` with that of
``site/zh/X.html``:

* identical: the body is byte-identical once 「 and 」 are removed (and smart quotes made
  neutral: smarty curls a quote by what precedes it, and a 「 before a quote flips it, an
  artefact of the marks that a real translation does not share). Two more zh differences are
  intended and normalised, each exactly: mkdocstrings-python's own labels, which it writes in
  Chinese under the zh theme locale ("Parameters:" -> "参数：", read from the installed
  templates' ``languages/zh.html.jinja``, see :func:`mkdocstrings_labels`), and the one space
  the splice puts between a bare URL and the closing 」 (see ``_URL_BOUNDARY``);
* pre: ``<pre>`` blocks identical (marks not removed: a mark inside code is a defect);
* hrefs: the multiset of href/src values identical (marks not removed; an absolute link to
  ``site_url`` + ``zh/`` counts as the English one);
* ids: the multiset of ``id`` attributes identical;
* coverage: of the ASCII letters in the zh body's visible prose (not inside pre, code, kbd,
  script, style, math, mkdocstrings' ``div.doc`` objects), the share that sits inside 「」.
  A tab label or code block title that is exactly one file name (``pyproject.toml``,
  ``docs/css/extra.css``: a name, which the segmenter keeps as written) is not prose either, nor
  what a notebook's run printed and the cell chrome around it (``_NOTEBOOK``), the TeX of its
  Markdown cells, the cells of mkdocs-macros' tables of variables (``_MACROS_TABLE``) and a
  text of only snake_case names (:func:`only_snake_names`: the segmenter keeps names);
* silently English: a zh page whose banner says it was machine translated, with under
  ``SILENT_COVERAGE`` % of its prose inside 「」 and no warning of the build naming it
  (:attr:`PageReport.silently_english`; the banner is on, in front of the compared body).

Corpus cache: ``$ZH_TRANSLATE_REALSITES_CACHE``, else ``realsites`` beside the test models
(:func:`tests.models.dev_cache`: ``$ZH_TRANSLATE_TEST_CACHE/..``, by default the user's cache of
the project; sdists/ holds the downloads; never committed).

Running it against another worktree (the code under test is whatever ``mkdocs_zh_translate``
the subprocess imports, i.e. the first on ``PYTHONPATH``)::

    cd /work/wt/<yours>
    export PYTHONPATH=$PWD ZH_TRANSLATE_TEST_CACHE=/work/main/.cache/test-models
    /work/main/.venv/bin/python benchmarks/realsites.py            # table for all sites
    /work/main/.venv/bin/python benchmarks/realsites.py hatch -v   # one site, failing pages
    /work/main/.venv/bin/python -m pytest -q -m slow tests/realsites

(copy ``tests/realsites/`` and ``benchmarks/realsites.py`` from the ``corpus`` branch if your
branch lacks them; they only need the ``realsites`` extra installed).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

from ..sdists import fetch
from .marker_hook import BEGIN, END
from .sites import OFFLINE_PLUGINS, Site

REPO = Path(__file__).resolve().parents[2]
OVERRIDE_NAME = "mkdocs.zh-realsites.yml"
MARKS = str.maketrans("", "", "\u300c\u300d")
OPEN, CLOSE = "\u300c", "\u300d"


class CorpusError(Exception):
    """A site could not be fetched or built; the message says which and why."""


def cache_root() -> Path:
    explicit = os.environ.get("ZH_TRANSLATE_REALSITES_CACHE")
    if explicit:
        return Path(explicit)
    from tests.models import dev_cache

    return dev_cache() / "realsites"


# -- fetching -----------------------------------------------------------------------------


def sdist(site: Site) -> Path:
    """The pinned sdist in the cache, fetched from pip's package index on first use."""
    found, error = fetch(site.dist, site.version, cache_root() / "sdists")
    if found is None:
        raise CorpusError(f"{site.name}: `pip download {site.requirement}` failed: {error}")
    return found


def unpack(site: Site, into: Path) -> Path:
    """A fresh copy of the project (the sdist's top directory) under ``into``."""
    with tarfile.open(sdist(site)) as tar:
        tar.extractall(into, filter="data")
    tops = [p for p in into.iterdir() if p.is_dir()]
    if len(tops) != 1 or not (tops[0] / site.config).is_file():
        raise CorpusError(f"{site.name}: the sdist has no {site.config} at its top")
    for path in tops[0].rglob("*"):
        if path.is_symlink() and not path.exists():
            path.unlink()  # MkDocs would try to copy it and fail
    return tops[0]


# markdown-exec's own fence options (its plugin is dropped: it runs code at build time). Left in
# place, ``exec="1"`` makes pymdownx.superfences reject the fence (an unknown option), which then
# renders as a paragraph of inline code: a page the site's authors never see. Stripped from the
# sources both builds read, the fence stays a valid code block in English and zh alike.
_EXEC_OPTIONS = re.compile(
    r'\s+(?:exec|html|source|result|returncode|session|update_toc|updatetoc|id|idprefix|workdir|tabs)'
    r'=(?:"[^"]*"|\'[^\']*\'|\S+)'
)
# markdown-exec takes its ``tree`` and ``pyodide`` fences without ``exec`` (its validator only
# asks other languages for it): ```` ```tree result="shell" ```` is its fence too, and left with
# its options superfences rejects it, the fence after it opening where the site's closes.
_FENCE_OPEN = re.compile(r"^(\s*(?:`{3,}|~{3,})[ \t]*(?:(?:tree|pyodide)(?=[ \t])|[^\n`]*?\bexec=)[^\n]*)$", re.M)


def strip_exec_options(project: Path) -> int:
    """Remove markdown-exec options from fence openers in the project's Markdown; return how many."""
    count = 0
    for path in project.rglob("*.md"):
        if path.is_symlink() or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="surrogateescape")

        def clean(match: re.Match[str]) -> str:
            nonlocal count
            count += 1
            return _EXEC_OPTIONS.sub("", match.group(1))

        new = _FENCE_OPEN.sub(clean, text)
        if new != text:
            path.write_text(new, encoding="utf-8", errors="surrogateescape")
    return count


# Fixed identity and date: the date plugins then write the same dates on every run.
_GIT_ENV = {
    "GIT_AUTHOR_NAME": "realsites",
    "GIT_AUTHOR_EMAIL": "realsites@example.invalid",
    "GIT_COMMITTER_NAME": "realsites",
    "GIT_COMMITTER_EMAIL": "realsites@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-02T03:04:05+00:00",
    "GIT_COMMITTER_DATE": "2026-01-02T03:04:05+00:00",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def commit_all(project: Path) -> None:
    """Make the unpacked project (in the work directory) a git repository with one commit."""
    env = {**os.environ, **_GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "--no-gpg-sign", "-m", "sdist"]):
        done = subprocess.run(["git", *args], cwd=project, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise CorpusError(f"{project.name}: `git {' '.join(args)}` failed: {done.stderr.strip()[-300:]}")


# -- the override config ------------------------------------------------------------------


@dataclass
class Tagged:
    """A YAML node with a tag we must not resolve (``!!python/name:``, ``!ENV``, ``!relative``)."""

    tag: str
    value: Any


class _Loader(yaml.SafeLoader):
    pass


def _construct_tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Tagged:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    tag = node.tag.replace(":zensical.extensions.", ":material.extensions.")
    return Tagged(tag, value)


_Loader.add_multi_constructor("!", _construct_tagged)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _construct_tagged)


class _Dumper(yaml.SafeDumper):
    pass


def _represent_tagged(dumper: yaml.SafeDumper, data: Tagged) -> yaml.Node:
    if isinstance(data.value, list):
        return dumper.represent_sequence(data.tag, data.value)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(data.tag, data.value)
    return dumper.represent_scalar(data.tag, data.value)


_Dumper.add_representer(Tagged, _represent_tagged)


def _entries(value: Any) -> list[tuple[str, Any]]:
    """Plugin or extension entries as (name, options) whatever the YAML shape."""
    if isinstance(value, dict):
        return list(value.items())
    out: list[tuple[str, Any]] = []
    for item in value or []:
        if isinstance(item, str):
            out.append((item, None))
        elif isinstance(item, dict):
            out.extend(item.items())
    return out


def write_config(
    site: Site, project: Path, cache_dir: Path, *, guard: bool | None = None, variants: Sequence[str] = ()
) -> tuple[Path, list[str]]:
    """Write the override config beside the project's; return it and what was dropped."""
    data = yaml.load((project / site.config).read_text(encoding="utf-8"), Loader=_Loader) or {}
    dropped: list[str] = []
    plugins: list[Any] = []
    for name, options in _entries(data.get("plugins")):
        if name in site.plugin_options:
            plugins.append({name: site.plugin_options[name]})
        elif (name in OFFLINE_PLUGINS and name not in site.skip_plugins) or name in site.keep_plugins:
            plugins.append({name: options} if options else name)
        else:
            dropped.append(f"plugin {name}")
    # The banner is on (the plugin's default): a zh page's claim to be machine translated is what
    # the "silently English" measure checks. It goes in front of the body's begin marker (added in
    # on_page_context, after the marker hook), so no body comparison sees it.
    zh: dict[str, Any] = {"backend": "pseudo", "banner": True, "cache_dir": str(cache_dir)}
    if guard is not None:
        zh["guard"] = guard
    if variants:
        zh["variants"] = ["zh-Hans", *variants]
    plugins.append({"zh-translate": zh})
    data["plugins"] = plugins
    if site.drop_extensions or site.extension_options:
        kept: list[Any] = []
        for name, options in _entries(data.get("markdown_extensions")):
            if name in site.drop_extensions:
                dropped.append(f"extension {name}")
                continue
            if name in site.extension_options:
                options = {**(options or {}), **site.extension_options[name]}
                dropped.append(f"extension {name} options {site.extension_options[name]}")
            kept.append({name: options} if options is not None else name)
        data["markdown_extensions"] = kept
    if site.exclude_docs:
        dropped.append(f"exclude_docs {', '.join(site.exclude_docs)}")
        own = data.get("exclude_docs")  # the site's own exclusions stay
        data["exclude_docs"] = "\n".join([*(own.splitlines() if isinstance(own, str) else []), *site.exclude_docs])
    for name in site.plugin_options:
        dropped.append(f"plugin {name} options replaced")
    data.pop("watch", None)
    for key, value in site.settings.items():
        dropped.append(f"{key} -> {value}")
        data[key] = value
    if site.theme is not None:
        dropped.append(f"theme -> {site.theme}")
        data["theme"] = dict(site.theme)
    base = (project / site.config).parent  # paths in the config are relative to its folder
    theme = data.get("theme")
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    if isinstance(theme, dict) and isinstance(custom, str) and not (base / custom).is_dir():
        dropped.append(f"theme.custom_dir {theme.pop('custom_dir')}")
    hooks = [h for h in data.get("hooks") or [] if isinstance(h, str) and (base / h).is_file()]
    for hook in site.hooks:
        dropped.append(f"hook {hook} (the dropped plugin's module)")
        hooks.append(os.path.relpath(project / hook, base))
    hooks.append(str(Path(__file__).with_name("marker_hook.py")))
    data["hooks"] = hooks
    data["strict"] = False
    target = base / OVERRIDE_NAME
    target.write_text(yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target, dropped


# -- building -----------------------------------------------------------------------------


@dataclass
class Built:
    site: Site
    project: Path
    site_dir: Path
    site_url: str
    dropped: list[str]
    log: str
    # zh pages the site ships itself (human translations): not ours to compare with English
    human: frozenset[str] = frozenset()
    # output folders of the site's other mkdocs-static-i18n languages (ja/, ko/): not English
    languages: frozenset[str] = frozenset()
    # the docs folder relative to the build's working folder: the plugin names a page by that path
    docs_prefix: str = "docs"
    # the extra Chinese variants built beside zh/ (option `variants`): not English either
    variants: tuple[str, ...] = ()


def i18n_languages(data: dict[str, Any]) -> frozenset[str]:
    """The locales of a config's mkdocs-static-i18n languages other than the default one."""
    for entry in data.get("plugins") or []:
        if isinstance(entry, dict) and isinstance(entry.get("i18n"), dict):
            languages = entry["i18n"].get("languages") or []
            return frozenset(
                str(lang["locale"]) for lang in languages if isinstance(lang, dict) and not lang.get("default")
            )
    return frozenset()


def human_zh_pages(docs_dir: Path) -> frozenset[str]:
    """HTML paths (directory URLs) of the zh pages a site ships: ``zh/x.md`` (static-i18n's
    folder structure) and ``x.zh.md`` (its suffix structure) become ``x/index.html``."""
    sources = [p.relative_to(docs_dir / "zh") for p in (docs_dir / "zh").rglob("*.md")] if (docs_dir / "zh").is_dir() else []
    sources += [p.relative_to(docs_dir).with_name(p.name[: -len(".zh.md")] + ".md") for p in docs_dir.rglob("*.zh.md")]
    pages = set()
    for src in sources:
        stem = src.with_suffix("")
        if stem.name in ("index", "README"):
            stem = stem.parent
        pages.add((stem / "index.html").as_posix().removeprefix("./"))
    return frozenset(pages)


def build(
    site: Site, work: Path, *, guard: bool | None = None, timeout: float = 1800, variants: Sequence[str] = ()
) -> Built:
    """Unpack ``site`` under ``work`` and build it (English + nested zh) with the plugin."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    project = unpack(site, work / "src")
    for name in site.remove:
        (project / name).unlink()
    config, dropped = write_config(site, project, work / "zh-cache", guard=guard, variants=variants)
    fences = strip_exec_options(project)
    if fences:
        dropped.append(f"markdown-exec options stripped from {fences} fences")
    if site.git:
        commit_all(project)
    site_dir = work / "site"
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(REPO))
    # The build runs in the config's directory (the project's top for all but three sites), so
    # `python -m` puts it first on sys.path: the
    # project's own hooks and tool modules import, and a flat-layout project (pymdownx) builds
    # with its own version of itself, as its docs expect. src/ is not added: mkdocstrings,
    # griffe and autorefs from an sdist would shadow the installed, mutually compatible set.
    env["NO_COLOR"] = "1"
    # Offline and fast: a plugin that fetches (mkdocs-rss-plugin asks each remote image for its
    # length, twice) gets "connection refused" from a closed local port at once instead of
    # waiting on name resolution (30 s of the rss site's build otherwise).
    for proxy in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        env[proxy] = "http://127.0.0.1:9"
    env["NO_PROXY"] = env["no_proxy"] = ""
    # Reproducible builds: mkdocstrings/autorefs backlinks follow set iteration order, so without
    # a fixed seed the same code measured griffe at 85% and 90% identical on two runs.
    env["PYTHONHASHSEED"] = "0"
    if site.shims:
        bin_dir = work / "bin"
        bin_dir.mkdir()
        for command, output in site.shims.items():
            shim = bin_dir / command
            shim.write_text(f"#!/bin/sh\necho {output}\n", encoding="utf-8")
            shim.chmod(0o755)
        env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(config), "-d", str(site_dir)]
    try:
        # From the config's folder, as its users build it (a config in a subfolder of the sdist
        # resolves the paths its plugins read, like mkdocs-macros' `include_dir`, from there).
        done = subprocess.run(cmd, cwd=config.parent, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CorpusError(f"{site.name}: the build took longer than {timeout:.0f} s") from None
    if done.returncode != 0 or not (site_dir / "zh").is_dir():
        raise CorpusError(f"{site.name}: mkdocs build failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    data = yaml.load(config.read_text(encoding="utf-8"), Loader=_Loader) or {}
    site_url = data.get("site_url") if isinstance(data.get("site_url"), str) else ""
    docs_dir = config.parent / str(data.get("docs_dir") or "docs")
    return Built(
        site,
        project,
        site_dir,
        site_url or "",
        dropped,
        done.stderr,
        human_zh_pages(docs_dir),
        i18n_languages(data),
        Path(os.path.relpath(docs_dir, config.parent)).as_posix(),
        tuple(variants),
    )


# -- comparing ----------------------------------------------------------------------------


def body(html: str) -> str | None:
    start = html.find(BEGIN)
    end = html.rfind(END)
    if start < 0 or end < start:
        return None
    return html[start + len(BEGIN) : end]


_PRE = re.compile(r"<pre\b.*?</pre>", re.S)
_SKIP = {"pre", "code", "kbd", "script", "style", "math", "svg"}
# Not prose from the page's Markdown: math, and mkdocstrings' rendered objects (docstrings are
# not translated; the API page's own prose around them is).
_GENERATED = {"arithmatex", "doc"}
# A label or code title that is one file name (the segmenter's own test, segment/_segmenter.py).
_FILE_NAME = re.compile(r"[\w-]*[./\\][\w./\\-]*")
# A text that is only snake_case names (``caption_position``, ``a_b, c_d``: an option table's
# cells): the segmenter keeps names as written (segment/_identifiers.py), and a reader searches
# for them as written. Plain words and dotted file names in prose still count.
_SNAKE_NAME = re.compile(r"_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*|_+[A-Za-z][A-Za-z0-9]*_*")
_NAME_SEPARATORS = re.compile(r"[\s,;/|]+")


def only_snake_names(text: str) -> bool:
    """Whether ``text`` is one or more snake_case names and nothing else."""
    words = [w for w in _NAME_SEPARATORS.split(text) if w]
    return bool(words) and all(_SNAKE_NAME.fullmatch(w) for w in words)


# Template tags (mkdocs-macros, table-reader's Jinja): the segmenter keeps them as written, the
# templating plugin renders them; where that plugin is dropped (see sites.py) they stay visible
# as text in both languages and are not prose. Same delimiters as segment/_inline_rules.py.
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|\{!.*?!\}", re.S)
# mkdocs-jupyter's rendering of a notebook around its Markdown cells, none of it prose: what a
# cell printed (``jp-OutputArea``: streams, plain-text reprs, tables and LaTeX a cell returned;
# program output, which the notebook's run wrote, not its authors), the ``In [1]:`` prompts, the
# hidden copy of each code cell's source the copy button reads (``clipboard-copy-txt``: the
# code again, outside <pre>), that button's "Copied!" notice and the cell's metadata tags.
_NOTEBOOK = {"jp-OutputArea", "jp-InputPrompt", "clipboard-copy-txt", "zeroclipboard-container", "tag-container"}
# A notebook's Markdown cells keep their TeX as written (``$x$``, ``$$...$$``) for MathJax to
# typeset in the browser: math, like arithmatex's spans on a Markdown page. Only inside those
# cells (``jp-RenderedMarkdown``): elsewhere a ``$`` is a price or a prompt.
_NOTEBOOK_MARKDOWN = "jp-RenderedMarkdown"
_TEX = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
# mkdocs-macros' ``pretty`` filter and ``macros_info()`` print variables as a ``table.macros-tb``:
# its cells are a variable's name, its Python type and its value's repr, or a macro's or a
# Jinja filter's signature and docstring (the docstrings of Python objects, like mkdocstrings'
# ``div.doc``): not prose. Its header row (Variable, Type, Content) is prose and still counts.
_MACROS_TABLE = "macros-tb"
_VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "track"}


class _Scan(HTMLParser):
    """hrefs/srcs, ids and visible-prose letters (inside 「」 or not) of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: list[str] = []
        self.skip = 0
        self.depth = 0  # 「」 nesting
        self.marked = 0
        self.unmarked = 0

    def _collect(self, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src"):
                self.links.append(value)
            elif name == "id":
                self.ids.append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._collect(attrs)
        classes = dict(attrs).get("class") or ""
        if tag not in _VOID:
            # pymdownx.tabbed's labels (`<label for=…>`) and superfences' titles (`span.filename`)
            name = (tag == "label" and "for" in dict(attrs)) or (tag == "span" and "filename" in classes.split())
            self._names.append((tag, name))
        if tag == "table":
            self._tables.append(_MACROS_TABLE in classes.split())
        if _NOTEBOOK_MARKDOWN in classes.split() and tag not in _VOID:
            self._tex.append(len(self._names))
        if self._not_prose(tag, classes.split()):
            if tag not in _VOID:
                self.skip += 1
                self._skipping.append(tag)
        elif self._skipping and tag == self._skipping[-1] and tag not in _VOID:
            self.skip += 1
            self._skipping.append(tag)

    def _not_prose(self, tag: str, classes: list[str]) -> bool:
        """Whether the element starting here holds no page prose (its letters are not counted)."""
        if tag in _SKIP or (tag in ("span", "div") and _GENERATED.intersection(classes)):
            return True
        if tag not in _VOID and _NOTEBOOK.intersection(classes):
            return True
        return tag == "td" and bool(self._tables) and self._tables[-1]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._collect(attrs)

    def handle_endtag(self, tag: str) -> None:
        opened = [t for t, _name in self._names]
        if tag in opened:  # close it and whatever was left open inside it
            del self._names[len(opened) - 1 - opened[::-1].index(tag) :]
            while self._tex and self._tex[-1] > len(self._names):
                self._tex.pop()
        if tag == "table" and self._tables:
            self._tables.pop()
        if self._skipping and tag == self._skipping[-1]:
            self._skipping.pop()
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if self._names and self._names[-1][1] and _FILE_NAME.fullmatch(data.strip()):
            return  # a file name, not prose
        if only_snake_names(data):
            return  # names, not prose
        data = _TEMPLATE.sub(" ", data)
        if self._tex:
            data = _TEX.sub(" ", data)
        for char in data:
            if char == OPEN:
                self.depth += 1
            elif char == CLOSE:
                self.depth = max(0, self.depth - 1)
            elif not self.skip and char.isascii() and char.isalpha():
                if self.depth:
                    self.marked += 1
                else:
                    self.unmarked += 1

    def reset(self) -> None:
        super().reset()
        self._skipping: list[str] = []
        self._names: list[tuple[str, bool]] = []  # open elements: does it hold a name (tab label, code title)?
        self._tables: list[bool] = []  # open tables: is it mkdocs-macros' table of variables?
        self._tex: list[int] = []  # depth in _names of each open notebook Markdown cell


def scan(fragment: str) -> _Scan:
    parser = _Scan()
    parser.feed(fragment)
    parser.close()
    return parser


def _same(a: Iterable[str], b: Iterable[str]) -> tuple[int, int]:
    """(matching, total) of two multisets; total is the larger side, so extras count too."""
    ca, cb = Counter(a), Counter(b)
    return sum((ca & cb).values()), max(sum(ca.values()), sum(cb.values()))


# A page is "silently English" below this share of its prose letters inside 「」 (a page whose
# translation worked is at 90-100 %; one that stayed English at 0), counted only from this many
# prose letters on (two sentences: a title and a link list say nothing either way).
SILENT_COVERAGE = 10.0
SILENT_MIN_LETTERS = 80


# The banner of a page with machine text (plugin/site.banner_html); a page the plugin could not
# translate says 本页未翻译 ("not translated") instead, which is honest, not silent.
def claims_translation(html: str) -> bool:
    """Whether a built zh page carries the banner that says it was machine translated.

    Read by its class and its title's words, not by its exact markup: a site's HTML minifier
    (mkdocs-minify's htmlmin) may drop the quotes or the spaces of the banner's tags. Each place
    the class is named is read up to its next paragraph end (a stylesheet may name it first)."""
    start = html.find("zh-translate-banner")
    while start != -1:
        end = html.find("</p>", start)
        if end == -1:
            return False
        if "机器翻译" in html[start:end]:
            return True
        start = html.find("zh-translate-banner", end)
    return False


def warned_pages(log: str) -> str:
    """The build log's warning lines (the plugin's and MkDocs'), for :func:`names_page`."""
    return "\n".join(line for line in log.splitlines() if "WARNING" in line or "ERROR" in line)


def names_page(warnings: str, page: str, docs_prefix: str = "docs") -> bool:
    """Whether a warning names the source of the built page ``page`` (``a/b/index.html``).

    Warnings name a page by its source file: the plugin's by its path from the build's folder
    (``docs/a/b.md:12: ...``, ``docs_prefix`` being the docs folder from there), MkDocs' by its
    path in the docs (``'a/b.md'``). The built path says only where that file may be
    (``a/b.md``, ``a/b/index.md``, ``a/b/README.md``, ``a/b.ipynb``), so every candidate stem is
    tried, each followed by an extension's dot, and never as the tail of a longer path.
    """
    stem = page.removesuffix(".html")
    candidates = {stem}
    if stem == "index" or stem.endswith("/index"):
        folder = stem.removesuffix("index").rstrip("/")
        candidates |= {f"{folder}/README" if folder else "README"}
        if folder:
            candidates.add(folder)
    candidates |= {f"{docs_prefix.rstrip('/')}/{c}" for c in candidates if docs_prefix not in ("", ".")}
    return any(re.search(rf"(?<![\w/.-]){re.escape(c)}\.\w", warnings) for c in candidates)


@dataclass
class PageReport:
    page: str
    identical: bool
    pre: tuple[int, int]
    links: tuple[int, int]
    ids: tuple[int, int]
    marked: int
    letters: int
    first_difference: str = ""
    claims_translation: bool = False  # the zh page carries the machine-translation banner
    named: bool = False  # a warning of the zh build names the page's source

    @property
    def silently_english(self) -> bool:
        """The page says it was machine translated, its prose stayed English, and no warning said so.

        A reader trusts the banner; a team trusts the build log. A page that fails both (the
        segmenter found no prose in it, a plugin rendered it after the translation, a cache
        served the English text) is the one defect neither would notice. Prose is counted as for
        ``coverage``; a page with fewer than ``SILENT_MIN_LETTERS`` letters of it (a page of
        code, an index of links) says nothing either way.
        """
        if not self.claims_translation or self.named or self.letters < SILENT_MIN_LETTERS:
            return False
        return 100.0 * self.marked / self.letters < SILENT_COVERAGE

    @property
    def broken(self) -> bool:
        """Structure differs: code, a link or an anchor was lost or changed."""
        return any(same != total for same, total in (self.pre, self.links, self.ids))


@dataclass
class SiteReport:
    site: Site
    pages: list[PageReport] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # English pages without a zh page
    human: list[str] = field(default_factory=list)  # zh pages the site ships (not compared)
    log: str = ""
    # HTML files anywhere in the build (both languages, 404s, blog indexes) that still hold one
    # of the plugin's internal placeholders (`__zh_translate…`): a reader would see it
    placeholders: list[str] = field(default_factory=list)
    # zh pages whose English page shows Material's mike version selector and which carry no
    # version selector themselves (neither Material's nor the plugin's)
    selectors: list[str] = field(default_factory=list)
    versioned: int = 0  # English pages with Material's mike version selector

    def _ratio(self, attr: str) -> float:
        same = sum(getattr(p, attr)[0] for p in self.pages)
        total = sum(getattr(p, attr)[1] for p in self.pages)
        return 100.0 * same / total if total else 100.0

    @property
    def identical(self) -> float:
        return 100.0 * sum(p.identical for p in self.pages) / len(self.pages) if self.pages else 100.0

    @property
    def pre(self) -> float:
        return self._ratio("pre")

    @property
    def links(self) -> float:
        return self._ratio("links")

    @property
    def ids(self) -> float:
        return self._ratio("ids")

    @property
    def coverage(self) -> float:
        letters = sum(p.letters for p in self.pages)
        return 100.0 * sum(p.marked for p in self.pages) / letters if letters else 100.0

    @property
    def broken(self) -> list[PageReport]:
        return [p for p in self.pages if p.broken]

    @property
    def silent(self) -> list[PageReport]:
        """Pages that claim a translation and stayed English, unnamed by any warning."""
        return [p for p in self.pages if p.silently_english]

    def row(self) -> str:
        return (
            f"{self.site.name:<20} {len(self.pages):>5} {self.identical:>7.1f} {self.pre:>7.1f} "
            f"{self.links:>7.1f} {self.ids:>7.1f} {self.coverage:>7.1f} {len(self.broken):>6} {len(self.silent):>6}"
        )


HEADER = (
    f"{'site':<20} {'pages':>5} {'ident%':>7} {'pre%':>7} {'hrefs%':>7} {'ids%':>7} {'cover%':>7} {'broken':>6}"
    f" {'silent':>6}"
)


def _first_difference(a: str, b: str) -> str:
    i = next((n for n, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"@{i}: en {a[max(0, i - 60) : i + 60]!r}\n      zh {b[max(0, i - 60) : i + 60]!r}"


_QUOTES = re.compile(r"&[lr]dquo;|&[lr]squo;|[\u201c\u201d\u2018\u2019]")


def _neutral_quotes(text: str) -> str:
    return _QUOTES.sub(lambda m: '"' if "d" in m.group() or m.group() in "\u201c\u201d" else "'", text)


_LABEL_PAIR = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)",?\s*$', re.M)


def _label_table(language: str) -> dict[str, str]:
    """key -> text of one of mkdocstrings-python's ``languages/<language>.html.jinja`` files."""
    try:
        import mkdocstrings_handlers.python as handler
    except ImportError:
        return {}
    table: dict[str, str] = {}
    for root in handler.__path__:
        for path in sorted(Path(root).glob(f"templates/*/_base/languages/{language}.html.jinja")):
            for key, text in _LABEL_PAIR.findall(path.read_text(encoding="utf-8")):
                table.setdefault(key, text)
    return table


def mkdocstrings_labels() -> dict[str, tuple[str, ...]]:
    """Chinese label -> the English labels it stands for, from the installed mkdocstrings-python.

    Under a zh theme locale mkdocstrings-python writes its own section titles and table headers
    in Chinese ("Parameters:" -> "参数："): the zh site's intended behaviour, like Material's
    interface strings outside the page body, not a translation of the page. Read from the
    installed templates, so the harness follows the pinned version instead of a hand list.
    Several English labels share one Chinese text (ATTRIBUTE and Attributes are both 属性).
    A Traditional variant's pages carry the same table converted by the variant's OpenCC table
    (the plugin converts the handlers' table for that build): those forms map back too.
    """
    english, chinese = _label_table("en"), _label_table("zh")
    out: dict[str, list[str]] = {}
    for key, text in chinese.items():
        if text.isascii():  # untranslated entries ("Class Type Parameters:") need no mapping
            continue
        label = english.get(key, key)
        for form in (text, *_variant_forms(text)):
            out.setdefault(form, [])
            if label not in out[form]:
                out[form].append(label)
    return {text: tuple(labels) for text, labels in out.items()}


def _variant_forms(text: str) -> tuple[str, ...]:
    """``text`` converted by the variants' default OpenCC tables (none without the `hant` extra)."""
    try:
        import opencc
    except ImportError:
        return ()
    return tuple(opencc.OpenCC(f"{table}.json").convert(text) for table in ("s2twp", "s2hk", "s2t"))


_LABELS = mkdocstrings_labels()
_LABEL_RE = re.compile("|".join(re.escape(t) for t in sorted(_LABELS, key=len, reverse=True))) if _LABELS else None


def english_labels(chinese: str, english: str) -> str:
    """``chinese`` with mkdocstrings' Chinese labels put back to the English labels at that place.

    A Chinese label can only come from mkdocstrings' templates (the pseudo backend writes no
    Chinese). Where several English labels share it, the one the English page has at the aligned
    position is taken; where none is (the page already differs before it), the first, and the
    page stays different.
    """
    if _LABEL_RE is None:
        return chinese
    parts: list[str] = []
    shift = 0  # English position = zh position + shift, as long as the pages agree so far
    last = 0
    for match in _LABEL_RE.finditer(chinese):
        candidates = _LABELS[match.group()]
        at = match.start() + shift
        if english.startswith(match.group(), at):  # the page's own Chinese text ("人类"), not a label
            continue
        label = next((c for c in candidates if english.startswith(c, at)), candidates[0])
        parts += [chinese[last : match.start()], label]
        shift += len(label) - len(match.group())
        last = match.end()
    parts.append(chinese[last:])
    return "".join(parts)


# The splice puts a space between a bare URL (a magiclink/autolink) and a following non-ASCII
# character, so that the URL does not swallow it in the zh text ("https://x.org」" would link to
# "https://x.org」"). A real translation needs that boundary; the rendered difference is one space
# outside the link (or after the URL's text, where the site has no magiclink). The harness removes
# exactly that space (after </a> or a URL, before 」) and nothing else. The other direction, a
# space the splice puts *before* a URL that follows a tag (`<a href=...> https://...</a>`), is
# not normalised: no translation needs it (the splice used to put one there, on starlette's home page).
_URL_BOUNDARY = re.compile("(</a>|https?://[^\\s<>\"\u300c\u300d]+) (\u300d)")


def compare_page(page: str, english: str, chinese: str, site_url: str = "") -> PageReport:
    if site_url:
        root = site_url.rstrip("/") + "/"
        chinese = chinese.replace(f'"{root}zh/', f'"{root}')
    english_plain = _neutral_quotes(english)
    plain = english_labels(_neutral_quotes(_URL_BOUNDARY.sub(r"\1\2", chinese).translate(MARKS)), english_plain)
    en, zh = scan(english), scan(chinese)
    return PageReport(
        page=page,
        identical=plain == english_plain,
        pre=_same(_PRE.findall(english), _PRE.findall(chinese)),
        links=_same(en.links, zh.links),
        ids=_same(en.ids, zh.ids),
        marked=zh.marked,
        letters=zh.marked + zh.unmarked,
        first_difference="" if plain == english_plain else _first_difference(english_plain, plain),
    )


PLACEHOLDER = "__zh_translate"


_CONFIG_SCRIPT = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)


def version_selector(html: str) -> str:
    """The version selector a Material page carries: ``material`` (Material's own, configured in
    the page's ``__config``), ``zh-translate`` (the plugin's, on a zh page of a mike site), or ""."""
    found = _CONFIG_SCRIPT.search(html)
    if found is None:
        return ""
    try:
        config = json.loads(found.group(1))
    except ValueError:
        return ""
    if isinstance(config, dict) and isinstance(config.get("version"), dict):
        return "material"
    return "zh-translate" if 'new URL("versions.json", deployRoot)' in html else ""


def compare(built: Built, language: str = "zh") -> SiteReport:
    """Each English page against its page in ``language`` (``zh``, or a variant's ``zh-TW``)."""
    report = SiteReport(built.site, dropped=built.dropped, log=built.log)
    report.placeholders = [
        path.relative_to(built.site_dir).as_posix()
        for path in sorted(built.site_dir.rglob("*.html"))
        if PLACEHOLDER in path.read_text(encoding="utf-8", errors="replace")
    ]
    zh_root = built.site_dir / language
    warnings = warned_pages(built.log)
    for path in sorted(built.site_dir.rglob("*.html")):
        rel = path.relative_to(built.site_dir)
        if rel.parts[0] in ("zh", *built.variants) or rel.parts[0] in built.languages:
            continue
        english_html = path.read_text(encoding="utf-8", errors="replace")
        english = body(english_html)
        if english is None:  # not a page (404.html, redirect stubs)
            continue
        target = zh_root / rel
        chinese_html = target.read_text(encoding="utf-8", errors="replace") if target.is_file() else ""
        chinese = body(chinese_html)
        if chinese is None:
            report.missing.append(rel.as_posix())
            continue
        if version_selector(english_html) == "material":
            report.versioned += 1
            if not version_selector(chinese_html):
                report.selectors.append(rel.as_posix())
        if rel.as_posix() in built.human:
            report.human.append(rel.as_posix())
            continue
        page = compare_page(rel.as_posix(), english, chinese, built.site_url)
        page.claims_translation = claims_translation(chinese_html)
        page.named = names_page(warnings, page.page, built.docs_prefix)
        report.pages.append(page)
    return report


def run_site(site: Site, work: Path | None = None, *, guard: bool | None = None) -> SiteReport:
    """Build and compare one site; ``work`` defaults to a temporary directory removed after."""
    if work is not None:
        return compare(build(site, work, guard=guard))
    with tempfile.TemporaryDirectory(prefix=f"realsite-{site.name}-") as tmp:
        return compare(build(site, Path(tmp) / "w", guard=guard))


_CAUSES = (
    (":::", "`::: identifier` directive (mkdocstrings/mkdocs-click) translated as prose"),
    ("///", "pymdownx.blocks `///` fence translated as prose"),
    ("{:", "heading/block attr_list kept as text or id changed"),
    ("{ #", "heading pin beside an existing id or attr_list"),
    ("][", "autorefs reference without a definition lost"),
    ("--8<--", "snippet include"),
    ("TIP: ", "markdown-callouts `TIP:`/`NOTE:` paragraph translated as prose"),
    ("NOTE: ", "markdown-callouts `TIP:`/`NOTE:` paragraph translated as prose"),
    ("WARNING: ", "markdown-callouts `TIP:`/`NOTE:` paragraph translated as prose"),
    ("GRIFFE: ", "markdown-callouts `TIP:`/`NOTE:` paragraph translated as prose"),
    ("IMPORTANT: ", "markdown-callouts `TIP:`/`NOTE:` paragraph translated as prose"),
    ('id="-', "pymdownx.tabbed: the tab id is slugified from the translated tab title"),
    ("<h1 id=", "heading id: the site's toc slugify / an existing `{: #id}` not honoured by the pin"),
    ("<pre>", "a code block's content changed (construct recognised inside code)"),
    ("http", "URL boundary (magiclink) or link"),
)


def likely_cause(page: PageReport) -> str:
    """A first guess at why a page differs, from the text at its first difference."""
    text = page.first_difference
    if not text:
        return "a 「」 mark inside a code block (a fence inside a fence closed early)"
    zh = text.split("\n      zh ", 1)[-1]
    for needle, cause in _CAUSES:
        if needle in zh:
            return cause
    return "other (see benchmarks/realsites.py -v)"


def baseline_source(reports: list[SiteReport]) -> str:
    """The text of tests/realsites/baseline.py for these reports (floors rounded down)."""
    import math

    lines = [
        '"""Floors and known-broken pages of the real-world corpus (generated by',
        "``benchmarks/realsites.py --baseline``, guard off; edit reasons by hand if a guess is wrong).",
        "",
        "A floor only goes up: regenerate after a fix, never to accept a regression.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "FLOORS: dict[str, dict[str, float]] = {",
    ]
    for r in reports:
        values = {"identical": r.identical, "pre": r.pre, "hrefs": r.links, "ids": r.ids, "coverage": r.coverage}
        inner = ", ".join(f'"{k}": {math.floor(v * 10) / 10:.1f}' for k, v in values.items())
        lines.append(f'    "{r.site.name}": {{{inner}}},')
    lines += ["}", "", "# site -> page -> the likely cause; pages whose <pre>, href/src or ids differ today.", "KNOWN_BROKEN: dict[str, dict[str, str]] = {"]
    for r in reports:
        if not r.broken:
            continue
        lines.append(f'    "{r.site.name}": {{')
        for page in r.broken:
            lines.append(f'        "{page.page}": "{likely_cause(page)}",')
        lines.append("    },")
    lines += ["}", ""]
    return "\n".join(lines)
