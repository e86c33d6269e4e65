"""One config-file finder for every command: the same file in the same folder, and the file's
INHERIT chain merged as MkDocs merges it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.plugin.configfile import nearest_config
from mkdocs_zh_translate.plugin.docs_source import find_config
from mkdocs_zh_translate.plugin.mdconfig import markdown_setup

PAGE = (
    "# Guide\n\n"
    '!!! tip "Tip"\n    Tip body in English.\n\n'
    '=== "One"\n\n    Tab body in English.\n'
)


def test_md_and_docs_pick_the_same_file_in_a_folder_with_both(tmp_path: Path) -> None:
    (tmp_path / "properdocs.yml").write_text("site_name: ProperDocs\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: MkDocs\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    assert find_config(None, tmp_path) == tmp_path / "mkdocs.yml"  # docs
    assert markdown_setup(page).config_file == (tmp_path / "mkdocs.yml").resolve()  # md
    assert nearest_config(page) == (tmp_path / "mkdocs.yml").resolve()
    (tmp_path / "mkdocs.yml").unlink()
    assert find_config(None, tmp_path) == tmp_path / "properdocs.yml"
    assert markdown_setup(page).config_file == (tmp_path / "properdocs.yml").resolve()


def test_md_merges_inherited_extensions_as_mkdocs_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MkDocs merges an INHERIT chain deeply: extensions written as a mapping in the parent and
    in the child are all on (MkDocs' INHERIT documentation); the child did not replace them."""
    (tmp_path / "base.yml").write_text("markdown_extensions:\n  admonition: {}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "INHERIT: base.yml\nmarkdown_extensions:\n  pymdownx.superfences: {}\n"
        "  pymdownx.tabbed:\n    alternate_style: true\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    setup = markdown_setup(page)
    assert {"admonition", "pymdownx.superfences", "pymdownx.tabbed"} <= set(setup.extensions)
    assert main(["md", str(page), "--backend", "pseudo"]) == 0
    out = capsys.readouterr().out
    assert "「Tip body in English.」" in out and "「Tab body in English.」" in out


def test_a_broken_inherited_file_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "base.yml").write_text("markdown_extensions: [admonition\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("INHERIT: base.yml\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo"]) == 2
    err = capsys.readouterr().err
    assert "base.yml:2: malformed YAML" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    (tmp_path / "mkdocs.yml").write_text("INHERIT: mkdocs.yml\n", encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo"]) == 2
    err = capsys.readouterr().err
    assert "mkdocs.yml: its INHERIT chain does not end" in err and len(err.strip().splitlines()) == 1
