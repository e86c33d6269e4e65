"""The corpus harness's normalisations hide exactly the intended zh differences and nothing else.

Fast (no site is built): each normalisation is checked both ways, on the difference it is meant
to hide and on a real defect next to it that must still count.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import _LABELS, compare_page, english_labels, strip_exec_options


def test_labels_come_from_the_installed_mkdocstrings_python() -> None:
    pytest.importorskip("mkdocstrings_handlers.python")
    assert _LABELS["参数："] == ("Parameters:",)
    assert _LABELS["引发："] == ("Raises:",)  # written `"Raises:" : ...` in the template
    assert set(_LABELS["属性"]) == {"ATTRIBUTE", "Attributes"}
    assert all(not text.isascii() for text in _LABELS)


def test_mkdocstrings_labels_in_chinese_are_the_intended_zh_page() -> None:
    pytest.importorskip("mkdocstrings_handlers.python")
    english = '<p><span class="doc-section-title">Parameters:</span></p><th>Name</th><p>Name it.</p>'
    chinese = '<p><span class="doc-section-title">参数：</span></p><th>名称</th><p>「Name it.」</p>'
    assert compare_page("api.html", english, chinese).identical


def test_a_shared_chinese_label_takes_the_english_label_at_that_place() -> None:
    pytest.importorskip("mkdocstrings_handlers.python")
    english = "<th>ATTRIBUTE</th><h2>Attributes</h2>"
    assert english_labels("<th>属性</th><h2>属性</h2>", english) == english


def test_chinese_text_of_the_page_itself_is_not_taken_for_a_label() -> None:
    pytest.importorskip("mkdocstrings_handlers.python")
    english = "<p>计算机和人类之间的交流</p>"  # 类 is also mkdocstrings' label for "Classes"
    assert compare_page("blog.html", english, "<p>计算机和人类之间的交流</p>").identical


def test_a_label_does_not_hide_a_real_difference() -> None:
    pytest.importorskip("mkdocstrings_handlers.python")
    english = '<span class="doc-section-title">Parameters:</span><p>Keep this.</p>'
    chinese = '<span class="doc-section-title">参数：</span><p>「Keep that.」</p>'
    assert not compare_page("api.html", english, chinese).identical


def test_the_url_boundary_space_before_a_closing_mark_is_not_a_difference() -> None:
    english = '<p>See <a href="https://x.org">https://x.org</a>.</p>'
    chinese = '<p>「See <a href="https://x.org">https://x.org</a> 」.</p>'
    assert compare_page("p.html", english, chinese).identical
    english = "<p>The advisory:\nhttps://x.org/GHSA-1</p>"
    assert compare_page("p.html", english, "<p>「The advisory:\nhttps://x.org/GHSA-1 」</p>").identical


def test_other_spaces_after_a_link_still_count() -> None:
    english = '<p>See <a href="https://x.org">https://x.org</a>.</p>'
    assert not compare_page("p.html", english, '<p>「See <a href="https://x.org">https://x.org</a> .」</p>').identical
    assert not compare_page("p.html", english, '<p>「See <a href="https://x.org">https://x.org</a>」 .</p>').identical
    anchor = '<p><a href="https://x.org">https://x.org</a></p>'
    assert not compare_page("p.html", anchor, '<p>「<a href="https://x.org"> https://x.org</a>」</p>').identical


def test_markdown_exec_options_are_stripped_and_the_fence_kept(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "usage.md"
    page.parent.mkdir()
    page.write_text(
        'Text with exec="1" stays.\n\n```python exec="1" source="tabbed-left" title="demo"\nprint(1)\n```\n\n'
        '```bash\necho exec="1"\n```\n',
        encoding="utf-8",
    )
    assert strip_exec_options(tmp_path) == 1
    assert page.read_text(encoding="utf-8") == (
        'Text with exec="1" stays.\n\n```python title="demo"\nprint(1)\n```\n\n```bash\necho exec="1"\n```\n'
    )


def test_markdown_exec_tree_fences_lose_their_options_without_exec(tmp_path: Path) -> None:
    # markdown-exec's validator takes `tree` (and `pyodide`) without `exec`; with its plugin
    # dropped, superfences would reject `result="shell"` and misplace every fence after it.
    page = tmp_path / "docs" / "layout.md"
    page.parent.mkdir()
    page.write_text('```tree result="shell"\nroot\n    a.py\n```\n\n```treetop result="x"\nkept\n```\n', encoding="utf-8")
    assert strip_exec_options(tmp_path) == 1
    assert page.read_text(encoding="utf-8") == '```tree\nroot\n    a.py\n```\n\n```treetop result="x"\nkept\n```\n'


def test_a_file_name_label_or_code_title_is_not_prose() -> None:
    from .harness import scan

    names = (
        '<div class="tabbed-labels"><label for="t1">pyproject.toml</label></div>'
        '<div class="language-css highlight"><span class="filename">docs/css/extra.css</span><pre>x</pre></div>'
    )
    found = scan(names + "<p>「Some words.」</p>")
    assert (found.marked, found.unmarked) == (9, 0)


def test_a_label_or_title_in_words_and_a_file_name_in_prose_still_count() -> None:
    from .harness import scan

    found = scan(
        '<label for="t1">With options</label>'
        '<span class="filename">in the site file</span>'
        "<p>Edit mkdocs.yml</p><p><span>setup.cfg</span></p>"
    )
    assert found.unmarked == len("Withoptions" "inthesitefile" "Editmkdocsyml" "setupcfg")


def test_a_dropped_hooks_plugins_module_is_kept_as_a_hook(tmp_path: Path) -> None:
    import yaml

    from .harness import write_config
    from .sites import Site

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "plugins.py").write_text("def on_page_markdown(markdown, **kw):\n    return markdown\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nplugins:\n  - mkdocs-simple-hooks:\n      hooks:\n        on_page_markdown: 'docs.plugins:on_page_markdown'\n"
    )
    site = Site("x", "x", "1", "test", hooks=("docs/plugins.py",))
    config, dropped = write_config(site, tmp_path, tmp_path / "cache")
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert data["hooks"][0] == "docs/plugins.py" and data["hooks"][1].endswith("marker_hook.py")
    assert "plugin mkdocs-simple-hooks" in dropped
    assert [next(iter(p)) if isinstance(p, dict) else p for p in data["plugins"]] == ["zh-translate"]


def test_template_tags_are_not_prose_but_the_words_around_them_are() -> None:
    from .harness import scan

    found = scan("<p>{{ read_csv('data.csv') | indent(4) }}</p><p>{% raw %}Read it{% endraw %}</p><p>{# note #}</p>")
    assert (found.marked, found.unmarked) == (0, len("Readit"))
    found = scan("<p>「Use {{ macro() }} here」</p>")
    assert (found.marked, found.unmarked) == (len("Usehere"), 0)


def test_a_sites_settings_replace_top_level_keys(tmp_path: Path) -> None:
    import yaml

    from .harness import write_config
    from .sites import Site

    (tmp_path / "mkdocs.yml").write_text("site_name: x\ndocs_dir: docs\nextra:\n  social: []\n", encoding="utf-8")
    site = Site("x", "x", "1", "test", settings={"docs_dir": "docs/en", "extra": {"alternate": []}})
    config, dropped = write_config(site, tmp_path, tmp_path / "cache")
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert data["docs_dir"] == "docs/en" and data["extra"] == {"alternate": []}
    assert "docs_dir -> docs/en" in dropped


def test_version_selectors_are_told_apart() -> None:
    from .harness import version_selector

    def page(config: str, script: str = "") -> str:
        return f'<body><script id="__config" type="application/json">{config}</script>{script}</body>'

    assert version_selector(page('{"base": ".", "version": {"provider": "mike"}}')) == "material"
    assert version_selector(page('{"base": ".", "version": null}')) == ""
    ours = '<script>fetch(new URL("versions.json", deployRoot))</script>'
    assert version_selector(page('{"base": ".", "version": null}', ours)) == "zh-translate"
    assert version_selector("<body>no config</body>") == ""


def test_a_notebooks_outputs_prompts_and_copy_text_are_not_prose() -> None:
    from .harness import scan

    cell = (
        '<div class="jp-Cell jp-CodeCell"><div class="jp-InputPrompt jp-InputArea-prompt">In\xa0[3]:</div>'
        '<div class="zeroclipboard-container"><clipboard-copy for="cell-3"><div>'
        '<span class="notice" hidden="">Copied!</span></div></clipboard-copy></div>'
        '<span class="tag-container"><span class="cell-tag">slow</span></span>'
        '<div class="highlight-ipynb"><pre>print(df)</pre></div>'
        '<div class="clipboard-copy-txt" id="cell-3">print(df)</div>'
        '<div class="jp-OutputArea jp-Cell-outputArea"><div class="jp-OutputPrompt">Out[3]:</div>'
        "<div class=\"jp-RenderedText\"><pre>hello</pre></div><div class=\"jp-RenderedHTMLCommon\">"
        "<table><tr><th>sepal width</th></tr><tr><td>setosa</td></tr></table>"
        "<p>Some printed words</p></div></div></div>"
    )
    found = scan(cell + "<p>「Read the data.」</p>")
    assert (found.marked, found.unmarked) == (len("Readthedata"), 0)


def test_words_around_a_notebook_and_in_its_markdown_cells_still_count() -> None:
    from .harness import scan

    page = (
        '<div class="jp-Cell jp-MarkdownCell"><div class="jp-RenderedHTMLCommon jp-RenderedMarkdown">'
        "<p>Case two - When $T$ is falling $$F(y) = P(Y)$$ and we stop.</p></div></div>"
        '<div class="jp-InputPrompt">In\xa0[1]:</div><p>After $5 and $6</p>'
    )
    found = scan(page)
    # TeX inside the Markdown cell is math; the prose between it is not, and outside a cell `$` is text
    assert found.unmarked == len("CasetwoWhenisfallingandwestop") + len("Afterand")
    found = scan('<div class="jp-RenderedMarkdown"><p>「Mean of $x$」</p></div>')
    assert (found.marked, found.unmarked) == (len("Meanof"), 0)


def test_the_values_of_a_macros_table_are_not_prose_but_its_header_is() -> None:
    from .harness import scan

    table = (
        '<table class="macros-tb"><th>Variable</th><th>Type</th><th>Content</th>'
        "<tr><td><b>announcement</b></td><td><i>str</i></td><td>'Hello world'</td></tr>"
        "<tr><td><b>now</b></td><td><i>function</i></td><td><p>Get the current time.</p></td></tr></table>"
    )
    found = scan(table)
    assert (found.marked, found.unmarked) == (0, len("VariableTypeContent"))
    # another table's cells are prose, also after a macros table closed
    found = scan(table + "<table><tr><td>Plain cell</td></tr></table>")
    assert found.unmarked == len("VariableTypeContent") + len("Plaincell")


def test_a_page_that_claims_a_translation_and_stayed_english_is_silently_english() -> None:
    from .harness import SILENT_MIN_LETTERS, claims_translation, compare_page

    prose = "<p>" + "Every word of this page stayed English. " * 4 + "</p>"
    assert len("".join(ch for ch in prose if ch.isalpha())) - 1 >= SILENT_MIN_LETTERS
    machine = '<div class="admonition note zh-translate-banner"><p class="admonition-title">本页由机器翻译（pseudo 后端）。</p></div>'
    honest = '<div class="admonition note zh-translate-banner"><p class="admonition-title">本页未翻译，显示英文原文。</p></div>'
    assert claims_translation(machine + "<body>") and not claims_translation(honest) and not claims_translation("<p>x</p>")
    page = compare_page("guide/index.html", prose, prose)
    page.claims_translation = True
    assert page.silently_english
    page.named = True  # a warning named it: the team knows
    assert not page.silently_english
    translated = compare_page("guide/index.html", prose, prose.replace("<p>", "<p>「").replace("</p>", "」</p>"))
    translated.claims_translation = True
    assert not translated.silently_english
    short = compare_page("links/index.html", "<p>See the list.</p>", "<p>See the list.</p>")
    short.claims_translation = True
    assert not short.silently_english  # too little prose to say


def test_a_warning_names_a_page_by_its_source_file() -> None:
    from .harness import names_page, warned_pages

    log = (
        "INFO    -  zh-translate: guide/setup.md: 12 segments\n"
        "WARNING -  zh-translate: docs/guide/intro.md:3: cannot splice the translation, kept in English\n"
        "WARNING -  zh-translate: notebooks/demo.ipynb: the translated cells do not fit the notebook\n"
        "WARNING -  zh-translate: docs/README.md:1: something\n"
        "WARNING -  Doc file 'api/list.md' contains a link 'x.md', but the target is not found\n"
    )
    warnings = warned_pages(log)
    assert names_page(warnings, "guide/intro/index.html")
    assert names_page(warnings, "notebooks/demo/index.html")
    assert names_page(warnings, "index.html")  # README.md is the home page
    assert not names_page(warnings, "guide/setup/index.html")  # only an INFO line names it
    assert not names_page(warnings, "intro/index.html")  # guide/intro is another page
    assert not names_page(warnings, "guide/index.html")
    assert names_page(warnings, "api/list/index.html")  # MkDocs' own warning, by docs path
    assert not names_page(warnings, "list/index.html")
    assert names_page("WARNING -  zh-translate: site/docs/a.md: x", "a/index.html", "site/docs")
    assert not names_page("WARNING -  zh-translate: docs/a.md: x", "a/index.html", "site/docs")


def test_a_cell_of_snake_case_names_is_not_prose_but_words_and_file_names_are() -> None:
    from .harness import only_snake_names, scan

    assert only_snake_names("caption_position") and only_snake_names(" a_b, __init__ / MAX_SIZE ")
    assert not only_snake_names("Settings") and not only_snake_names("set the auto_caption option")
    assert not only_snake_names("mkdocs.yml") and not only_snake_names("_") and not only_snake_names("")
    found = scan("<table><tr><td>auto_caption</td><td>「Show a caption.」</td></tr></table><p>Use the slide_effect</p>")
    assert (found.marked, found.unmarked) == (len("Showacaption"), len("Usetheslideeffect"))


def test_the_banner_the_plugin_writes_is_the_one_the_measure_reads() -> None:
    from mkdocs_zh_translate.notice import banner_html

    from .harness import claims_translation

    def banner(**kw: bool) -> str:
        return banner_html(True, segments=4, reviewed=1, model="opus", **kw)

    assert claims_translation(banner(translated=True) + "<p>body</p>")
    assert not claims_translation(banner(translated=False))  # "not translated, English shown": honest
    assert not claims_translation(banner_html(False, segments=4, reviewed=0, model="opus", translated=True))


def test_the_banner_is_read_after_an_html_minifier_dropped_its_quotes() -> None:
    """mkdocs-minify's htmlmin may write ``class=admonition-title``: the measure must still see
    the banner, or a minified site's pages could never count as silently English."""
    from .harness import claims_translation

    minified = '<div class="admonition note zh-translate-banner"><p class=admonition-title>本页由机器翻译（模型）</p></div>'
    assert claims_translation(minified)
    assert not claims_translation('<div class="zh-translate-banner"><p class=admonition-title>本页未翻译</p></div>')
