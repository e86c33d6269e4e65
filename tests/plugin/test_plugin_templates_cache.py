"""Theme templates are compiled once per process and shared by both builds (issue 21).

The Chinese build (and every ``mkdocs serve`` reload) loads the code the first build compiled;
an edited template is compiled again, so a reload shows the edit in both languages.
"""

from __future__ import annotations

from pathlib import Path

from tests.plugin_sites import build_in_process, write_site


def test_the_chinese_build_loads_the_templates_the_english_build_compiled(tmp_path: Path) -> None:
    config = write_site(tmp_path, theme="material")
    plugin = build_in_process(config)
    assert plugin._templates.loads > 10  # Material's main.html, base.html, partials...
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert 'lang="zh' in html and "「" in html


def test_an_edited_template_is_compiled_again_on_a_serve_reload(tmp_path: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    overrides = tmp_path / "overrides"
    overrides.mkdir()
    template = overrides / "main.html"
    template.write_text('{% extends "base.html" %}{% block content %}MARKER-ONE{{ super() }}{% endblock %}\n')
    config_file = write_site(tmp_path, extra_config={"theme": {"name": "mkdocs", "custom_dir": "overrides"}})
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    config = load_config(config_file=str(config_file))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        build(config)
        assert "MARKER-ONE" in (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
        template.write_text(template.read_text().replace("MARKER-ONE", "MARKER-TWO"))
        config = load_config(config_file=str(config_file))  # what `mkdocs serve` does per rebuild
        build(config)
    finally:
        config.plugins.on_shutdown()
    for page in (tmp_path / "site" / "index.html", tmp_path / "site" / "zh" / "index.html"):
        html = page.read_text(encoding="utf-8")
        assert "MARKER-TWO" in html and "MARKER-ONE" not in html, page
