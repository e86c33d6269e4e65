"""``mkdocs-zh-translate md``: one Markdown file in, translated Markdown out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main

REPO = Path(__file__).resolve().parents[2]
PAGE = "# Install\n\nRun `pip install x` to **install** it.\n"
EXPECTED = "# 「Install」 { #install }\n\n「Run `pip install x` to **install** it.」\n"


def test_pseudo_backend_writes_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(src), "--backend", "pseudo"]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_output_file_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    out = tmp_path / "page.zh.md"
    assert main(["md", str(src), "-o", str(out), "--backend", "pseudo"]) == 0
    assert out.read_text(encoding="utf-8") == EXPECTED
    assert capsys.readouterr().out == ""


def test_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "bom.md"
    src.write_bytes(b"\xef\xbb\xbf" + PAGE.encode())
    assert main(["md", str(src), "--backend", "pseudo"]) == 0
    assert capsys.readouterr().out == "\ufeff" + EXPECTED  # kept: the output replaces the file


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "looks like a binary file"),
        ("latin1.md", "# Caf\u00e9\n\nline\n".encode("latin-1"), ":1: not valid UTF-8"),
        ("missing.md", None, "no such file"),
        ("folder", "dir", "is a directory"),
    ],
)
def test_bad_input_is_one_line_naming_the_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes | str | None, message: str
) -> None:
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    assert main(["md", str(path), "--backend", "pseudo"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] and message in lines[0]
    assert "Traceback" not in captured.err


def test_unwritable_output_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    target = tmp_path / "no" / "such" / "dir" / "out.md"
    assert main(["md", str(src), "-o", str(target), "--backend", "pseudo"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(target) in err[0]


def test_bad_input_through_the_console_script_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"ok\n\xff\xfe broken\n")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs_zh_translate", "md", str(path), "--backend", "pseudo"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"mkdocs-zh-translate: error: {path}:2: not valid UTF-8 (byte 0xff)"


def test_pseudo_backend_does_not_import_the_model_runtime(tmp_path: Path) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    probe = (
        "import json, sys\n"
        "from mkdocs_zh_translate.cli.app import main\n"
        f"code = main(['md', {str(src)!r}, '--backend', 'pseudo'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('onnxruntime', 'numpy', 'torch', 'transformers', 'sentencepiece', 'mkdocs'))\n"
        "print(json.dumps({'code': code, 'heavy': heavy}), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=60)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "heavy": []}
    assert proc.stdout == EXPECTED


def test_onnx_backend_without_a_model_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "page.md"
    src.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(src)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--model" in err[0]


def test_md_checks_the_page_with_the_guard_by_default(tmp_path: Path) -> None:
    """`md` renders the page (Python-Markdown, MkDocs' usual extensions) before and after: the
    pseudo translation of a plain page passes, so the output is the translation and stderr is quiet."""
    page = tmp_path / "p.md"
    page.write_text("# Title\n\nSee [docs](https://x.org/a) and `code`.\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_zh_translate", "md", str(page), "--backend", "pseudo"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "「See [docs](https://x.org/a) and `code`.」" in done.stdout


def test_a_page_without_prose_never_loads_the_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``md`` loads the model lazily, like a build: code and front matter need none, so a
    missing model directory is not an error for them, while a page with prose names it."""
    code_only = "```python\nprint('hi')\n```\n"
    src = tmp_path / "code.md"
    src.write_text(code_only, encoding="utf-8")
    missing = tmp_path / "no-model"
    assert main(["md", str(src), "--model", str(missing)]) == 0
    assert capsys.readouterr().out == code_only
    src.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(src), "--model", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"model directory {missing} does not exist" in err


# -- the site's Markdown extensions (issue 19, item 10) -------------------------------------

SITE_PAGE = (
    "# Guide\n\n"
    "!!! tip\n"
    "    Tip body in English.\n\n"
    "    ```python\n    x = 1\n    ```\n\n"
    '=== "First tab"\n\n'
    "    Tab body in English.\n\n"
    "Done here.\n"
)
SITE_YML = (
    "site_name: Demo\n"
    "markdown_extensions:\n"
    "  - admonition\n"
    "  - pymdownx.superfences\n"
    "  - pymdownx.tabbed:\n"
    "      alternate_style: true\n"
    "  - toc:\n"
    "      permalink: true\n"
    "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {normalize: NFC}}\n"
    "  - pymdownx.emoji:\n"
    "      emoji_index: !!python/name:os.system\n"
    "      emoji_generator: !ENV [NOT_SET_HERE, x]\n"
)


def _translated_bodies(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "body in English" in line]


def test_md_renders_with_the_sites_extensions_found_upward(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mkdocs.yml").write_text(SITE_YML, encoding="utf-8")
    page = tmp_path / "docs" / "guide" / "page.md"
    page.parent.mkdir(parents=True)
    page.write_text(SITE_PAGE, encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo"]) == 0
    captured = capsys.readouterr()
    # every body translated, none reverted by a guard that renders tabs as code
    assert _translated_bodies(captured.out) == ["「Tip body in English.」", "「Tab body in English.」"]
    assert "kept in English" not in captured.err
    # the site's toc slugify (keeping case) pins the heading; untrusted tags are named, not run
    assert "# 「Guide」 { #Guide }" in captured.out
    assert "'emoji_index' (!!python/name:os.system) not read" in captured.err
    assert "'emoji_generator' (!ENV) not read" in captured.err


def test_md_without_a_config_uses_the_common_material_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text(SITE_PAGE + '\n??? note "More"\n    Details body in English.\n', encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo"]) == 0
    captured = capsys.readouterr()
    assert len(_translated_bodies(captured.out)) == 3
    assert all(body.startswith("「") for body in _translated_bodies(captured.out))
    assert captured.err == ""


def test_md_config_file_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "properdocs.yml").write_text("markdown_extensions: [admonition]\n", encoding="utf-8")
    page = tmp_path / "elsewhere" / "page.md"
    page.parent.mkdir()
    page.write_text(SITE_PAGE, encoding="utf-8")
    # only admonition (+ MkDocs' built-ins): the tab body is code to this site, and stays English
    assert main(["md", str(page), "--backend", "pseudo", "-f", str(site / "properdocs.yml")]) == 0
    captured = capsys.readouterr()
    assert _translated_bodies(captured.out)[0] == "「Tip body in English.」"
    assert "    Tab body in English." in captured.out
    assert main(["md", str(page), "--backend", "pseudo", "-f", str(site / "nope.yml")]) == 2
    assert capsys.readouterr().err.strip().endswith("nope.yml: no such config file")
    (site / "bad.yml").write_text("markdown_extensions: [admonition\n", encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo", "-f", str(site / "bad.yml")]) == 2
    err = capsys.readouterr().err
    assert "bad.yml:2: malformed YAML" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_md_uses_the_sites_glossary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Demo\nplugins:\n  - zh-translate:\n      review_dir: po\n", encoding="utf-8"
    )
    (tmp_path / "po").mkdir()
    (tmp_path / "po" / "glossary.yml").write_text("terms:\n  cache: 缓存\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("Clear the cache.\n", encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo"]) == 0
    assert capsys.readouterr().out == "「Clear the 缓存.」\n"


def test_md_leaves_front_matter_mkdocs_cannot_parse_as_page_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not YAML (a second `: `): MkDocs renders the lines as a rule and a heading; never quoted.
    src = tmp_path / "page.md"
    src.write_text("---\ntitle: Contribute to X: Evals and Issues\n---\n\nText.\n", encoding="utf-8")
    assert main(["md", str(src), "--backend", "pseudo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("---\n「title: Contribute to X: Evals and Issues」 { #title-contribute-to-x-evals-and-issues }\n---\n"), out
    src.write_text("---\ntitle: 'Contribute to X: Evals'\n---\n\nText.\n", encoding="utf-8")  # valid: translated
    assert main(["md", str(src), "--backend", "pseudo"]) == 0
    assert capsys.readouterr().out.startswith("---\ntitle: '「Contribute to X: Evals」'\n---\n")
