"""Shaping the Chinese site: its config, language links, banner, sitemap and search index.

Everything here is a pure transformation of a config, an HTML string or a file under the built
site; the plugin decides when each runs. Links between the two languages are computed per page
and written as relative URLs, so both sites work from any mount point and from ``file://``.
"""

from __future__ import annotations

import gzip
import html
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.utils import get_relative_url

from ..plaintext import for_template

SOURCE_LANG = "en"
ZH_LABEL = "中文"
EN_LABEL = "English"

# Rendered by Material from ``extra.alternate`` and rewritten per page by :func:`fix_alternates`.
_ALT_MARK = "__zh_translate_alt__"
_ALT_HREF = re.compile(r'href="[^"]*' + _ALT_MARK + r'/([A-Za-z][\w-]*)/"')

# Han ideographs and CJK punctuation: the runs the search index has to cut into words.
_CJK_RUN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
ZWSP = "\u200b"
BUILTIN_SEARCH_SEPARATOR = r"[\s\-\u200b]+"


@dataclass(frozen=True)
class Languages:
    """Where the two sites live relative to each other: the Chinese one under ``prefix/``."""

    prefix: str  # "zh"
    site_url: str | None  # the English site's site_url, if any

    def zh_site_url(self) -> str | None:
        if not self.site_url:
            return None
        return self.site_url.rstrip("/") + f"/{self.prefix}/"

    def href(self, page_url: str, *, from_lang: str, to_lang: str) -> str:
        """Relative URL from a page to the same page in another language (or itself)."""
        here = page_url if from_lang == SOURCE_LANG else f"{self.prefix}/{page_url}"
        there = page_url if to_lang == SOURCE_LANG else f"{self.prefix}/{page_url}"
        return get_relative_url(there, here)


def is_material(config: MkDocsConfig) -> bool:
    return config.theme.name == "material"


def set_alternates(config: MkDocsConfig) -> None:
    """Give Material's language selector both languages (links fixed per page later)."""
    if not is_material(config):
        return
    # A user's own entries (other language sites) are kept, and their names for en / zh too.
    own = [a for a in config.extra.get("alternate") or [] if isinstance(a, dict)]
    names = {a.get("lang"): a.get("name") for a in own if isinstance(a.get("name"), str)}
    config.extra["alternate"] = [
        {"name": names.get(SOURCE_LANG, EN_LABEL), "link": f"{_ALT_MARK}/{SOURCE_LANG}/", "lang": SOURCE_LANG},
        {"name": names.get("zh", ZH_LABEL), "link": f"{_ALT_MARK}/zh/", "lang": "zh"},
        *(a for a in own if a.get("lang") not in (SOURCE_LANG, "zh")),
    ]


def fix_alternates(output: str, hrefs: dict[str, str]) -> str:
    """Point the rendered ``extra.alternate`` links at this page's counterparts."""
    return _ALT_HREF.sub(lambda m: f'href="{html.escape(hrefs.get(m.group(1), "./"))}"', output)


def language_hrefs(langs: Languages, page_url: str, current: str) -> dict[str, str]:
    """``{"en": href, "zh": href}`` from the current page; Material's marker uses "zh"."""
    return {
        SOURCE_LANG: langs.href(page_url, from_lang=current, to_lang=SOURCE_LANG),
        "zh": langs.href(page_url, from_lang=current, to_lang="zh"),
    }


def inject_language_links(output: str, config: MkDocsConfig, hrefs: dict[str, str], current: str) -> str:
    """Add hreflang alternates to <head> and a visible switcher for themes without one.

    Material renders both from ``extra.alternate``; the built-in ``mkdocs`` theme gets a navbar
    item, any other theme a small bar at the top of <body>."""
    if is_material(config):
        return fix_alternates(output, hrefs)
    head = "".join(
        f'<link rel="alternate" hreflang="{lang}" href="{html.escape(href)}">' for lang, href in hrefs.items()
    )
    output = output.replace("</head>", head + "</head>", 1)
    other = "zh" if current == SOURCE_LANG else SOURCE_LANG
    label = ZH_LABEL if other == "zh" else EN_LABEL
    href = html.escape(hrefs[other])
    navbar = re.search(r'<ul class="nav navbar-nav ms-md-auto">', output)
    if navbar:
        item = (
            f'<li class="nav-item"><a href="{href}" hreflang="{other}" lang="{other}" '
            f'class="nav-link zh-translate-switch">{label}</a></li>'
        )
        return output[: navbar.end()] + item + output[navbar.end() :]
    bar = (
        '<div class="zh-translate-bar" style="text-align:right;padding:.3em 1em;font-size:.9em">'
        f'<a href="{href}" hreflang="{other}" lang="{other}" class="zh-translate-switch">{label}</a></div>'
    )
    return re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + bar, output, count=1)


_HTML_LANG = re.compile(r'(<html\b[^>]*?\blang=")([A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,8})+)(")')


def fix_html_lang(output: str) -> str:
    """Built-in themes write Babel's locale (``zh_Hans_CN``) where HTML wants a BCP 47 language
    tag (``zh-Hans-CN``): the same subtags, joined by hyphens."""
    return _HTML_LANG.sub(lambda m: m.group(1) + m.group(2).replace("_", "-") + m.group(3), output, count=1)


def banner_html(text: object, *, segments: int, reviewed: int, model: str, translated: bool) -> str:
    """The notice put at the top of each Chinese page; empty when disabled.

    ``text`` is the ``banner`` option as validated (``True``, ``False`` or a string); typed
    ``object`` because that is what MkDocs' ``Type((bool, str))`` option gives."""
    if text is False:
        return ""
    if not translated:
        body = "本页未翻译，显示英文原文。"
    else:
        first = text if isinstance(text, str) else f"本页由机器翻译（{model}）。"
        if segments and reviewed == segments:
            review = "译文已全部经人工审校。"
        elif reviewed:
            review = f"{segments} 个片段中有 {reviewed} 个经人工审校。"
        else:
            review = "译文未经人工审校。"
        body = first + review
    return (
        '<div class="admonition note zh-translate-banner">'
        f'<p class="admonition-title">{for_template(body)}</p></div>\n'
    )


def quiet_jieba(fallback_dir: Path | None = None) -> None:
    """jieba prints its dictionary loading to stderr at DEBUG level; both sites' search
    segmentation (Material's and ours) would put those lines into every build log.

    jieba also keeps its dictionary cache in the shared ``/tmp/jieba.cache``: another user's
    file there cannot be replaced (jieba prints a traceback) and would be loaded with
    ``marshal``. The cache goes to the user's cache directory instead (``fallback_dir``, our
    translation cache directory, when there is none), and a failed dump stays silent."""
    import jieba

    from ..userdirs import user_cache_dir

    jieba.setLogLevel(logging.CRITICAL)  # also hides "Dump cache file failed." + traceback
    if jieba.dt.tmp_dir is None:
        private = user_cache_dir() or fallback_dir
        if private is not None:
            jieba.dt.tmp_dir = str(private)


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
            plugin.config.separator = BUILTIN_SEARCH_SEPARATOR
            plugin.config.prebuild_index = False
            # Chinese words are one or two characters; the default (3) would hide most of them.
            plugin.config.min_search_length = 1


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
    index_path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    source = worker.read_text(encoding="utf-8")
    if "zh-translate" not in source:
        worker.write_text(source + _WORKER_PATCH, encoding="utf-8")
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
    root = (langs.site_url or "/").rstrip("/") + "/"
    zh_root = f"{root}{langs.prefix}/"
    text = sitemap.read_text(encoding="utf-8")

    def rewrite(match: re.Match[str]) -> str:
        loc = html.unescape(match.group(2).strip())
        if lang == SOURCE_LANG:
            rest = loc[len(root) :] if loc.startswith(root) else loc.lstrip("/")
        elif loc.startswith(zh_root):
            rest = loc[len(zh_root) :]
        else:
            rest = loc[len(root) :] if loc.startswith(root) else loc.lstrip("/")
        en, zh = root + rest, zh_root + rest
        own = en if lang == SOURCE_LANG else zh
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{code}" href="{html.escape(url)}"/>'
            for code, url in ((SOURCE_LANG, en), ("zh", zh), ("x-default", en))
        )
        return f"{match.group(1)}{html.escape(own)}{match.group(3)}{links}"

    text = _LOC.sub(rewrite, text)
    if _XHTML_NS not in text:
        text = text.replace("<urlset ", f"<urlset {_XHTML_NS} ", 1)
    sitemap.write_text(text, encoding="utf-8")
    gz = sitemap.with_name(sitemap.name + ".gz")
    if gz.exists():
        gz.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


# -- 404 -----------------------------------------------------------------------------------

_ROOT_LINK = re.compile(r'(\b(?:href|src)=")/(?!/)')


def fix_404_links(output: str, template_name: str, langs: Languages) -> str:
    """Keep the Chinese 404 page in the Chinese site. Without ``site_url`` MkDocs renders the
    404 template with root-relative links (``/guide/``), i.e. into the English site; with one,
    the zh build's own ``site_url`` (``…/zh/``) already gives the right links."""
    if template_name != "404.html" or langs.site_url:
        return output
    return _ROOT_LINK.sub(lambda m: f"{m.group(1)}/{langs.prefix}/", output)


# Material writes these in English in its templates, outside its language files.
_MATERIAL_404 = "<h1>404 - Not found</h1>"
MATERIAL_404_ZH = "<h1>404 - 页面未找到</h1>"
_MADE_WITH = re.compile(
    r'Made with(\s*<a href="https://squidfunk\.github\.io/mkdocs-material/"[^<>]*>\s*Material for MkDocs\s*</a>)'
)


def translate_material_text(output: str, template_name: str | None = None) -> str:
    """Material's hard-coded English in Chinese: the footer's "Made with …" on every page and
    the 404 page's heading (``template_name`` "404.html")."""
    output = _MADE_WITH.sub(lambda m: f"本站使用{m.group(1)}构建", output, count=1)
    if template_name == "404.html":
        output = output.replace(_MATERIAL_404, MATERIAL_404_ZH, 1)
    return output
