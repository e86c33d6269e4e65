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
        "<p>Edit mkdocs.yml</p><p><span>setup cfg</span></p>"
    )
    assert found.unmarked == len("Withoptions" "inthesitefile" "Editmkdocsyml" "setupcfg")


def test_a_text_of_names_only_is_not_prose_but_a_sentence_naming_one_is() -> None:
    """The segmenter keeps a cell of names as written (segment/_identifiers.py)."""
    from .harness import scan

    found = scan("<td>slide_effect</td><td>os.path.join, setup.cfg</td><td>Sets the slide_effect.</td><td>Effect</td>")
    assert found.unmarked == len("Setstheslideeffect" "Effect")


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
