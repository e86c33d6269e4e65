"""Shaping the Chinese site: its config, language links, banner, sitemap and search index.

Everything here is a pure transformation of a config, an HTML string or a file under the built
site; the plugin decides when each runs. (Setting jieba's process-wide options is not a
transformation: it lives in ``jiebaconf.py``.) Links between the two languages are computed per page
and written as relative URLs, so both sites work from any mount point and from ``file://``.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.utils import get_relative_url

from ..notice import banner_html as banner_html  # the banner is part of shaping the zh site
from ..owned import atomic_write
from . import htmledit

SOURCE_LANG = "en"
ZH_LABEL = "中文"
SIMPLIFIED_LABEL = "简体中文"
EN_LABEL = "English"

# Han ideographs and CJK punctuation: the runs the search index has to cut into words.
_CJK_RUN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
ZWSP = "\u200b"
BUILTIN_SEARCH_SEPARATOR = r"[\s\-\u200b]+"
_MKDOCS_SEARCH_SEPARATOR = r"[\s\-]+"  # MkDocs' search default: replaced by ours, which extends it


def splitting_segmentation(separator: str) -> str:
    """A site's own search ``separator`` extended to split at the zero-width spaces the zh
    index is segmented with (never replaced: the site's splits stay).

    Material's docs suggest a separator of their own; without this, the zh index would take it
    as is and Chinese words, joined by U+200B, would stay one token that no query finds. The
    test is Python's ``re`` on the JavaScript source (the same syntax for what separators use);
    a pattern it cannot read is extended all the same."""
    try:
        if any(m.start() <= 1 < m.end() for m in re.finditer(separator, f"a{ZWSP}b")):
            return separator
    except re.error:
        pass
    return separator + r"|\u200b"


@dataclass(frozen=True)
class Languages:
    """Where the sites live relative to each other: the Chinese one under ``prefix/``, each
    extra variant (``variants``: code and switcher label, e.g. ``zh-TW``) under ``<code>/``."""

    prefix: str  # "zh"
    site_url: str | None  # the English site's site_url, if any
    variants: tuple[tuple[str, str], ...] = ()

    def zh_site_url(self, lang: str = "zh") -> str | None:
        if not self.site_url:
            return None
        return self.site_url.rstrip("/") + f"/{self.dir(lang)}/"

    def dir(self, lang: str) -> str:
        """The directory of a Chinese site under the English one (``zh``, ``zh-TW``)."""
        return self.prefix if lang == "zh" else lang

    def codes(self) -> list[str]:
        """Every site's language code, the English one first."""
        return [SOURCE_LANG, "zh", *(code for code, _label in self.variants)]

    def href(self, page_url: str, *, from_lang: str, to_lang: str) -> str:
        """Relative URL from a page to the same page in another language (or itself)."""
        here = page_url if from_lang == SOURCE_LANG else f"{self.dir(from_lang)}/{page_url}"
        there = page_url if to_lang == SOURCE_LANG else f"{self.dir(to_lang)}/{page_url}"
        return get_relative_url(there, here)

    def roots(self) -> dict[str, str]:
        """Each site's root as an absolute URL (with ``site_url``) or a root-relative path."""
        root = (self.site_url or "/").rstrip("/") + "/"
        return {SOURCE_LANG: root, **{code: f"{root}{self.dir(code)}/" for code in self.codes()[1:]}}

    def zh_path(self, lang: str = "zh") -> str:
        """The URL path under which the Chinese site (or a variant's) is served (``/docs/zh/``);
        the mount point is ``site_url``'s path, ``/`` without one."""
        mount = urlsplit(self.site_url or "/").path.rstrip("/")
        return quote(f"{mount}/{self.dir(lang)}/", safe="/%")


def is_material(config: MkDocsConfig) -> bool:
    return config.theme.name == "material"


class LanguageLink(str):
    """One of the two links the plugin puts into Material's ``extra.alternate``.

    As a string it is the other site's root (absolute with ``site_url``, root-relative
    without), which is what any template rendering it outside a page shows; MkDocs' ``url``
    filter, wrapped by :func:`language_url_filter`, turns it into the relative link to the same
    page in that language while the theme renders the page. No marker is ever written into the
    HTML, so nothing has to be found again after other plugins rewrote it (minifiers,
    privacy/offline plugins)."""

    lang: str

    def __new__(cls, root: str, lang: str) -> LanguageLink:
        link = super().__new__(cls, root)
        link.lang = lang
        return link

    def __reduce__(self) -> tuple[Any, ...]:  # deepcopy and pickle keep the language
        return (LanguageLink, (str(self), self.lang))


def set_alternates(
    config: MkDocsConfig, langs: Languages, human: list[dict[str, Any]] | None = None, zh_label: str = ZH_LABEL
) -> None:
    """Give Material's language selector both languages (made relative per page by the url filter).

    ``human``: entries of ``extra.alternate`` for a team's own Chinese edition elsewhere
    (editions.py), kept right after the machine site's entry, which is then ``zh_label``."""
    if not is_material(config):
        return
    # A user's own entries (other language sites) are kept, and their names for en / zh too.
    human = human or []
    own = [a for a in config.extra.get("alternate") or [] if isinstance(a, dict) and a not in human]
    names = {a.get("lang"): a.get("name") for a in own if isinstance(a.get("name"), str)}
    roots = langs.roots()
    if langs.variants and zh_label == ZH_LABEL:  # beside Traditional variants, say which Chinese
        zh_label = SIMPLIFIED_LABEL
    labels = {SOURCE_LANG: EN_LABEL, "zh": zh_label, **dict(langs.variants)}
    config.extra["alternate"] = [
        *(
            {"name": names.get(code, label), "link": LanguageLink(roots[code], code), "lang": code}
            for code, label in labels.items()
        ),
        *human,
        *(a for a in own if a.get("lang") not in labels),
    ]


def language_url_filter(original: Callable[..., str], langs: Languages, current: str) -> Callable[..., str]:
    """MkDocs' ``url`` template filter, which renders a :class:`LanguageLink` as the relative
    link from the page being rendered to its counterpart (the site root for templates that are
    not pages, such as 404.html). Every other value goes to MkDocs' own filter."""
    from jinja2 import pass_context

    @pass_context
    def url(context: Any, value: object) -> str:
        if isinstance(value, LanguageLink):
            page = context.get("page")
            href = str(value) if page is None else language_hrefs(langs, page.url, current)[value.lang]
            return html.escape(href, quote=True)
        result: str = original(context, value)
        return result

    return url


def language_hrefs(langs: Languages, page_url: str, current: str) -> dict[str, str]:
    """``{"en": href, "zh": href, …}`` from the current page (each variant's code after
    "zh"); Material's link uses "zh"."""
    return {code: langs.href(page_url, from_lang=current, to_lang=code) for code in langs.codes()}


def inject_language_links(output: str, config: MkDocsConfig, hrefs: dict[str, str], current: str) -> str:
    """Add hreflang alternates to <head> and a visible switcher for themes without one.

    Material renders both from ``extra.alternate`` (see :class:`LanguageLink`); the built-in
    ``mkdocs`` theme gets a navbar item, any other theme a small bar at the top of <body>. The
    tags are found by parsing, so a minifier that ran first (no quotes, no spaces) changes
    nothing."""
    if is_material(config):
        return output
    head_end: int | None = None
    body_end: int | None = None
    navbar_end: int | None = None
    for tag in htmledit.tags(output):
        if tag.name == "head" and tag.end_tag and head_end is None:
            head_end = tag.start
        elif tag.name == "body" and not tag.end_tag and body_end is None:
            body_end = tag.end
        elif tag.name == "ul" and not tag.end_tag and {"navbar-nav", "ms-md-auto"} <= set(tag.classes()):
            navbar_end = tag.end
            break
        # The built-in theme's navbar is the page's first <nav>: no need to parse the content.
        if body_end is not None and (config.theme.name != "mkdocs" or (tag.name == "nav" and tag.end_tag)):
            break
    other = "zh" if current == SOURCE_LANG else SOURCE_LANG
    label = ZH_LABEL if other == "zh" else EN_LABEL
    href = html.escape(hrefs[other])
    edits: list[tuple[int, int, str]] = []
    if head_end is not None:
        head = "".join(
            f'<link rel="alternate" hreflang="{lang}" href="{html.escape(h)}">' for lang, h in hrefs.items()
        )
        edits.append((head_end, head_end, head))
    if navbar_end is not None:
        edits.append(
            (
                navbar_end,
                navbar_end,
                f'<li class="nav-item"><a href="{href}" hreflang="{other}" lang="{other}" '
                f'class="nav-link zh-translate-switch">{label}</a></li>',
            )
        )
    elif body_end is not None:
        edits.append(
            (
                body_end,
                body_end,
                '<div class="zh-translate-bar" style="text-align:right;padding:.3em 1em;font-size:.9em">'
                f'<a href="{href}" hreflang="{other}" lang="{other}" class="zh-translate-switch">{label}</a></div>',
            )
        )
    return htmledit.apply(output, edits)


_LOCALE = re.compile(r"[A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,8})+")


def fix_html_lang(output: str) -> str:
    """Built-in themes write Babel's locale (``zh_Hans_CN``) where HTML wants a BCP 47 language
    tag (``zh-Hans-CN``): the same subtags, joined by hyphens. A page whose ``<html`` tag has no
    ``_`` (Material writes ``zh``) is left as it is without parsing it."""
    start = output.find("<html")
    end = output.find(">", start) if start >= 0 else -1
    if end >= 0 and "_" not in output[start:end]:
        return output
    tag = htmledit.first(output, "html")
    lang = tag.attrs.get("lang") if tag else None
    if lang is None or not _LOCALE.fullmatch(lang.value):
        return output
    return htmledit.apply(output, [htmledit.set_value(lang, lang.value.replace("_", "-"))])


def set_html_lang(output: str, lang: str) -> str:
    """The page's ``<html lang>`` set to ``lang`` (a variant's own code: ``zh-HK``, where the
    theme knows only ``zh-Hant`` or ``zh_TW``). The theme's own (Material's ``zh-TW``) is
    seen without parsing the page: the ``<html`` tag's text says it already."""
    start = output.find("<html")
    if start >= 0 and f'lang="{lang}"' in output[start : output.find(">", start) + 1]:
        return output
    tag = htmledit.first(output, "html")
    attr = tag.attrs.get("lang") if tag else None
    if attr is None or attr.value == lang:
        return output
    return htmledit.apply(output, [htmledit.set_value(attr, lang)])


def prepare_zh_config(config: MkDocsConfig, langs: Languages, site_name: str) -> None:
    """Turn a freshly loaded copy of mkdocs.yml into the Chinese site's config."""
    from mkdocs.localization import parse_locale

    from .pins import PINS

    config.site_name = site_name
    config.theme["language"] = "zh"  # Material's setting
    # The built-in themes translate their own strings by locale and ship zh_CN; a theme without
    # those strings would only warn (and fail --strict), so it keeps its locale.
    if any((Path(d) / "locales" / "zh_CN").is_dir() for d in config.theme.dirs):
        config.theme["locale"] = parse_locale("zh_CN")
    if langs.site_url:
        config.site_url = langs.zh_site_url()
    # The segmenter pins each heading's English slug with `{ #slug }`: anchors stay identical.
    # A site without attr_list gets a reader of those pins only (all of attr_list would turn
    # the site's own `{...}` text into attributes; see pins.py).
    if "attr_list" not in config.markdown_extensions and PINS not in config.markdown_extensions:
        config.markdown_extensions.append(PINS)
    try:
        from mkdocs.contrib.search import SearchPlugin
    except ImportError:  # pragma: no cover - mkdocs always ships it
        SearchPlugin = None  # type: ignore[assignment,misc]
    for plugin in config.plugins.values():
        if SearchPlugin is not None and isinstance(plugin, SearchPlugin):
            # lunr's `zh` support needs jieba in the browser and fails; we segment at build time
            # instead (see segment_search_index) and keep lunr's default pipeline, patched.
            plugin.config.lang = [SOURCE_LANG]
            separator = plugin.config.separator
            plugin.config.separator = (
                BUILTIN_SEARCH_SEPARATOR if separator in (None, _MKDOCS_SEARCH_SEPARATOR)
                else splitting_segmentation(separator)
            )
            plugin.config.prebuild_index = False
            # Chinese words are one or two characters; the default (3) would hide most of them.
            plugin.config.min_search_length = 1
        elif type(plugin).__module__.startswith("material.plugins.search") and plugin.config.get("separator"):
            # Material's own zh default splits U+200B; a site's separator replaces that default.
            plugin.config.separator = splitting_segmentation(plugin.config.separator)


# -- search --------------------------------------------------------------------------------


def segment_chinese(text: str) -> str:
    """Insert zero-width spaces between Chinese words (jieba) and around each Chinese run, so
    a whitespace-and-ZWSP tokenizer sees words instead of whole sentences."""
    import jieba

    def cut(match: re.Match[str]) -> str:
        return ZWSP + ZWSP.join(w for w in jieba.cut(match.group(0)) if w) + ZWSP

    return _CJK_RUN.sub(cut, text)


_WORKER_PATCH = r"""
/* zh-translate: Chinese search for MkDocs' built-in search.
 * The index text was cut into words at build time (jieba, joined by U+200B, which the separator
 * matches). Here lunr's trimmer learns that Han characters are word characters, and a query is
 * cut into the index's own words (fewest pieces, longest match) before lunr parses it. */
(function () {
  var HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  var RUN = new RegExp("[" + HAN + "]+", "g");
  function segment(run, vocabulary) {
    var best = [[]];
    for (var end = 1; end <= run.length; end++) {
      best[end] = null;
      for (var len = Math.min(8, end); len >= 1; len--) {
        var word = run.substr(end - len, len);
        var prev = best[end - len];
        if (prev && (len === 1 || Object.prototype.hasOwnProperty.call(vocabulary, word))) {
          if (!best[end] || prev.length + 1 < best[end].length) best[end] = prev.concat([word]);
        }
      }
    }
    return best[run.length];
  }
  function patchLunr() {
    lunr.trimmer = function (token) {
      return token.update(function (s) {
        return s.replace(new RegExp("^[^\\w" + HAN + "]+"), "").replace(new RegExp("[^\\w" + HAN + "]+$"), "");
      });
    };
    lunr.Pipeline.registerFunction(lunr.trimmer, "trimmer");
    var search = lunr.Index.prototype.search;
    lunr.Index.prototype.search = function (query) {
      var vocabulary = this.invertedIndex;
      query = String(query).replace(RUN, function (run) {
        return " " + segment(run, vocabulary).join(" ") + " ";
      });
      return search.call(this, query.trim());
    };
  }
  var loaded = onScriptsLoaded;
  onScriptsLoaded = function () { patchLunr(); loaded(); };
})();
"""


def unstemmed_material_search(config: MkDocsConfig) -> None:
    """Material's zh search stems the index (``indentation`` is stored as ``indent``) but not
    the prefix query the browser sends (``indentation*``), so inflected English words in
    Chinese pages are never found. Without the stemmer the index keeps whole words and the
    prefix query finds both ``indent`` and ``indentation``. A pipeline the user set is kept."""
    for plugin in config.plugins.values():
        if type(plugin).__module__.startswith("material.plugins.search") and plugin.config.get("pipeline") is None:
            plugin.config.pipeline = []


def segment_search_index(site_dir: Path) -> bool:
    """Prepare the built-in theme's search for Chinese; False when there is no such index."""
    index_path = site_dir / "search" / "search_index.json"
    worker = site_dir / "search" / "worker.js"
    if not index_path.is_file() or not worker.is_file():
        return False
    data: dict[str, Any] = json.loads(index_path.read_text(encoding="utf-8"))
    for doc in data.get("docs", []):
        for key in ("title", "text"):
            if isinstance(doc.get(key), str):
                doc[key] = segment_chinese(doc[key])
    atomic_write(index_path, json.dumps(data, ensure_ascii=False).encode("utf-8"), durable=False)
    source = worker.read_text(encoding="utf-8")
    if "zh-translate" not in source:
        atomic_write(worker, (source + _WORKER_PATCH).encode("utf-8"), durable=False)
    return True


# -- sitemap -------------------------------------------------------------------------------

_LOC = re.compile(r"(<url>\s*<loc>)([^<]*)(</loc>)")
_XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'


def add_sitemap_alternates(sitemap: Path, langs: Languages, lang: str) -> None:
    """Add hreflang alternates to a built sitemap (and its .gz twin) in place.

    Without ``site_url`` MkDocs writes root-relative locations, which for the Chinese build
    lack the language prefix; they are corrected here too."""
    if not sitemap.is_file():
        return
    roots = langs.roots()
    root = roots[SOURCE_LANG]
    text = sitemap.read_text(encoding="utf-8")

    def rewrite(match: re.Match[str]) -> str:
        loc = html.unescape(match.group(2).strip())
        own_root = roots[lang]
        if lang != SOURCE_LANG and loc.startswith(own_root):
            rest = loc[len(own_root) :]
        else:
            rest = loc[len(root) :] if loc.startswith(root) else loc.lstrip("/")
        urls = {code: roots[code] + rest for code in langs.codes()}
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{code}" href="{html.escape(url)}"/>'
            for code, url in (*urls.items(), ("x-default", urls[SOURCE_LANG]))
        )
        return f"{match.group(1)}{html.escape(urls[lang])}{match.group(3)}{links}"

    text = _LOC.sub(rewrite, text)
    if _XHTML_NS not in text:
        text = text.replace("<urlset ", f"<urlset {_XHTML_NS} ", 1)
    atomic_write(sitemap, text.encode("utf-8"), durable=False)
    gz = sitemap.with_name(sitemap.name + ".gz")
    if gz.exists():
        atomic_write(gz, gzip.compress(text.encode("utf-8"), mtime=0), durable=False)


# -- 404 -----------------------------------------------------------------------------------


def fix_404_links(output: str, template_name: str, langs: Languages) -> str:
    """Keep the Chinese 404 page in the Chinese site. Without ``site_url`` MkDocs renders the
    404 template with root-relative links (``/guide/``), i.e. into the English site; with one,
    the zh build's own ``site_url`` (``…/zh/``) already gives the right links."""
    if template_name != "404.html" or langs.site_url:
        return output
    edits = []
    for tag in htmledit.tags(output):
        if "hreflang" in tag.attrs:  # the language links already lead to each site's root
            continue
        for name in ("href", "src"):
            attr = tag.attrs.get(name)
            if attr and attr.value.startswith("/") and not attr.value.startswith("//"):
                edits.append(htmledit.set_value(attr, f"/{langs.prefix}{attr.value}"))
    return htmledit.apply(output, edits)


def zh_404_redirect(output: str, template_name: str, langs: Languages) -> str:
    """The English (root) 404 page sends visitors of a missing ``/zh/…`` page to the Chinese
    404 page: static hosts (GitHub Pages, Netlify without rules) serve the root ``404.html`` for
    every missing path. A small inline script at the top of <head>; the only text in it is the
    Chinese site's path, from mkdocs.yml, written as a JSON string with ``<`` escaped."""
    if template_name != "404.html":
        return output
    head = htmledit.first(output, "head")
    if head is None:
        return output
    prefix = json.dumps(langs.zh_path()).replace("<", "\\u003c")
    script = (
        "<script>(function(){var z=" + prefix + ",p=window.location.pathname;"
        'if(p.indexOf(z)===0&&p!==z+"404.html")window.location.replace(z+"404.html");})();</script>'
    )
    if langs.variants:  # each Chinese site's visitors to its own 404 page
        paths = json.dumps([langs.zh_path(code) for code in langs.codes()[1:]]).replace("<", "\\u003c")
        script = (
            "<script>(function(){var s=" + paths + ",p=window.location.pathname;"
            "for(var i=0;i<s.length;i++){var z=s[i];"
            'if(p.indexOf(z)===0&&p!==z+"404.html"){window.location.replace(z+"404.html");return;}}})();</script>'
        )
    return htmledit.apply(output, [(head.end, head.end, script)])


# Material writes these in English in its templates, outside its language files.
_MATERIAL_404 = "<h1>404 - Not found</h1>"
MATERIAL_404_ZH = "<h1>404 - 页面未找到</h1>"
_MADE_WITH = re.compile(
    r'Made with(\s*<a href="https://squidfunk\.github\.io/mkdocs-material/"[^<>]*>\s*Material for MkDocs\s*</a>)'
)


def translate_material_text(
    output: str, template_name: str | None = None, convert: Callable[[str], str] = str
) -> str:
    """Material's hard-coded English in Chinese: the footer's "Made with …" on every page and
    the 404 page's heading (``template_name`` "404.html"); ``convert``: our Chinese words into a
    variant's (nothing else of the page is handed to it)."""
    output = _MADE_WITH.sub(lambda m: f"{convert('本站使用')}{m.group(1)}{convert('构建')}", output, count=1)
    if template_name == "404.html":
        output = output.replace(_MATERIAL_404, convert(MATERIAL_404_ZH), 1)
    return output
