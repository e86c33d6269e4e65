"""One config-file finder for every command: the same file in the same folder, and the file's
INHERIT chain merged as MkDocs merges it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.plugin.configfile import find_config, nearest_config
from mkdocs_zh_translate.plugin.mdconfig import markdown_setup
from tests.plugin_sites import write_site

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


# prefill, review and eval read the site in the working directory: each names the config file it
# read (eval's "no references" line does, as the others' output shows they read it).
SITE_COMMANDS = [
    (["review", "status"], "total"),
    (["prefill", "--plan"], "fingerprint="),
    (["eval"], "no references to score"),
]


@pytest.mark.parametrize(("command", "said"), SITE_COMMANDS, ids=[" ".join(c) for c, _ in SITE_COMMANDS])
def test_site_commands_find_the_config_as_docs_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str], said: str
) -> None:
    """Without ``-f``: a ProperDocs site's only config is found, and in a folder with both files
    mkdocs.yml is read (here properdocs.yml is broken, so reading it would fail)."""
    config = write_site(tmp_path, pages={"index.md": "# Home\n\nOne paragraph.\n"})
    config.rename(tmp_path / "properdocs.yml")
    monkeypatch.chdir(tmp_path)
    main(command)
    out = capsys.readouterr()
    assert said in out.out + out.err and "mkdocs.yml" not in out.err, out
    (tmp_path / "properdocs.yml").rename(tmp_path / "mkdocs.yml")
    (tmp_path / "properdocs.yml").write_text("site_name: [broken\n", encoding="utf-8")
    main(command)
    out = capsys.readouterr()
    assert said in out.out + out.err and "properdocs.yml" not in out.err, out
    assert find_config(None, tmp_path) == tmp_path / "mkdocs.yml"


def test_no_config_here_is_one_line_naming_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for command, _ in SITE_COMMANDS:
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err == f"mkdocs-zh-translate: error: {tmp_path}: no mkdocs.yml or properdocs.yml here (use -f to name the config file)\n"


def test_the_site_commands_parse_without_importing_mkdocs() -> None:
    """The finder is pathlib only: building the parser and reading the flags of every site
    command loads no MkDocs (the commands import it when they read the site)."""
    probe = (
        "import json, sys\n"
        "from mkdocs_zh_translate.cli.app import _build_parser\n"
        "for words in (['review', 'status'], ['prefill', '--plan'], ['eval'], ['docs', '--out', 'o']):\n"
        "    _build_parser().parse_args(words)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'mkdocs')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [], proc.stderr
