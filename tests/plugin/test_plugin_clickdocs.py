"""A CLI reference written by mkdocs-click (``::: mkdocs-click``) is translated with its page:
the help text and labels in Chinese, the usage and option listings exactly as in English, the
headings with their English ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, check_twin, page_pairs, run_mkdocs, write_site

pytest.importorskip("mkdocs_click", reason="mkdocs-click is not installed")

CLI = '''
import click


@click.group()
def cli():
    """Manage the greetings of the example project."""


@cli.command()
@click.option("--name", default="world", help="The person to greet by name.")
def hello(name):
    """Say hello to someone you know."""
    click.echo(name)
'''

PAGES = {
    "index.md": "# Home\n\nRead the [command line reference](cli.md).\n",
    "cli.md": "# Command line\n\nEvery command of the tool.\n\n::: mkdocs-click\n    :module: clitool_h7\n    :command: cli\n    :prog_name: clitool\n    :depth: 1\n    :style: table\n",
}


@pytest.mark.parametrize("attr_list", [True, False])
def test_mkdocs_click_reference_is_translated(tmp_path: Path, attr_list: bool) -> None:
    (tmp_path / "clitool_h7.py").write_text(CLI, encoding="utf-8")
    extensions = ["attr_list", "mkdocs-click"] if attr_list else ["mkdocs-click"]
    write_site(tmp_path, pages=PAGES, extra_config={"markdown_extensions": extensions})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    en, zh = Html(site / "cli/index.html"), Html(site / "zh/cli/index.html")
    assert "Say hello to someone you know." in en.text  # mkdocs-click ran in English
    for english in ("Manage the greetings of the example project.", "Say hello to someone you know.",
                    "The person to greet by name.", "Usage:", "Options:"):
        assert f"{PSEUDO_OPEN}{english}" in zh.text, english
    assert "clitool hello [OPTIONS]" in en.text and "clitool hello [OPTIONS]" in zh.text  # the usage block
    assert zh.pre_blocks() == en.pre_blocks() and zh.heading_ids() == en.heading_ids()
    assert "--name" in zh.text
    problems = [p for en_page, zh_page in page_pairs(site) for p in check_twin(en_page, zh_page, site, "https://example.com/docs/")]
    assert problems == []


def test_a_click_application_that_cannot_be_imported_is_named(tmp_path: Path) -> None:
    """MkDocs' own render fails on such a page (mkdocs-click's error names the module); the
    plugin's expansion, which runs before it, gives the reason as a problem of the page instead
    of raising, so a build whose render survived would name the page in its warnings."""
    write_site(tmp_path, pages=PAGES, extra_config={"markdown_extensions": ["mkdocs-click"]})
    proc = run_mkdocs(tmp_path)
    assert proc.returncode != 0  # MkDocs' own render fails on it
    assert "clitool_h7" in proc.stderr
    from mkdocs_zh_translate.plugin import clickdocs

    markdown = PAGES["cli.md"]
    expanded, error = clickdocs.expand(markdown, ["mkdocs-click"])
    assert expanded == markdown and error is not None and "clitool_h7" in error
