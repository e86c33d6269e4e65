"""Other plugins that post-process the HTML (minifiers, link checkers, privacy/offline), in both
orders around zh-translate: the language links must come out right whatever they did first.

mkdocs-minify-plugin before zh-translate used to leave ``href=__zh_translate_alt__/en/`` (its
HTML has no attribute quotes) in the switcher and the hreflang links of every page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.plugin_sites import Html, check_twin, html_pages, page_pairs, resolve, run_mkdocs, write_site

SITE_URL = "https://example.com/docs/"
# Every internal marker the plugin ever wrote into templates (0.1.0's Material alternates).
PLACEHOLDERS = ("__zh_translate", "zh_translate_alt")
ZH = {"zh-translate": {"backend": "pseudo"}}
MINIFY = {"minify": {"minify_html": True, "minify_js": True, "minify_css": True}}
# Reads the rendered pages only; external URLs would need the network.
PROOFER = {"htmlproofer": {"validate_external_urls": False, "raise_error": False}}
# Material's own: no network (no Google font, no fetched assets), offline rewrites every link
# to `.html` for file:// and privacy parses every page.
PRIVACY = {"privacy": {"assets_fetch": False, "cache_dir": ".cache/privacy"}}


def _plugins(*others: Any, zh_first: bool) -> list[Any]:
    return ["search", ZH, *others] if zh_first else ["search", *others, ZH]


CASES = {
    "material-minify-proofer": ("material", (MINIFY, PROOFER), "mkdocs_minify_plugin"),
    "mkdocs-minify": ("mkdocs", (MINIFY,), "mkdocs_minify_plugin"),
    "material-privacy-offline": ("material", (PRIVACY, "offline"), None),
}


def _placeholder_files(site: Path) -> list[Path]:
    """HTML files anywhere in the build (both sites, 404 pages included) holding a marker."""
    return [p for p in site.rglob("*.html") if any(m in p.read_text(encoding="utf-8") for m in PLACEHOLDERS)]


@pytest.mark.parametrize("zh_first", [False, True], ids=["zh-last", "zh-first"])
@pytest.mark.parametrize("case", list(CASES))
def test_language_links_survive_html_post_processors(tmp_path: Path, case: str, zh_first: bool) -> None:
    theme, others, module = CASES[case]
    if module:
        pytest.importorskip(module, reason=f"{module} is not installed (pip install -e .[test])")
    if PROOFER in others:
        pytest.importorskip("htmlproofer", reason="mkdocs-htmlproofer-plugin is not installed (pip install -e .[test])")
    extra: dict[str, Any] = {"plugins": _plugins(*others, zh_first=zh_first)}
    if theme == "material":
        extra["theme"] = {"name": "material", "font": False}  # no Google font for privacy to fetch
    write_site(tmp_path, theme=theme, extra_config=extra)
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    assert len(list(html_pages(site))) >= 8  # both sites and their 404 pages
    assert _placeholder_files(site) == []
    if MINIFY in others:  # the point of the case: the minifier ran on the pages (no quotes)
        assert "<html lang=en " in (site / "index.html").read_text(encoding="utf-8")
    pairs = page_pairs(site)
    assert len(pairs) == 3
    problems = [p for en, zh in pairs for p in check_twin(en, zh, site, SITE_URL)]
    assert problems == []
    for en, zh in pairs:  # the visible switcher too, not only <link hreflang>
        for page, other, want in ((en, "zh", zh), (zh, "en", en)):
            doc = Html(page)
            visible = [a["href"] for t, a in doc.tags if t == "a" and a.get("hreflang") == other]
            assert visible, f"{page}: no visible link to {other}"
            assert all(resolve(page, h, site) == want.resolve() for h in visible), visible
