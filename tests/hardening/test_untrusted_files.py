"""Files a pull request controls (PO files, glossary.yml, catalogs) are read safely and fast.

A contributor can add ``translations/zh/index.md.po`` as a symbolic link to ``../../.env`` or
``/proc/self/environ``, as a FIFO, or as junk with a secret-looking line: the build and
``review status`` must fail with one line naming the file, never print what the file holds, and
never hang. And reading must stay linear in the number of entries (polib's duplicate check
scanned every earlier entry: 50,000 junk entries took over 300 s).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.pofill.catalog import CatalogError, parse_catalog
from mkdocs_zh_translate.review.store import ReviewError, read_po
from mkdocs_zh_translate.untrusted import MAX_BYTES, UntrustedFileError, read_untrusted
from tests.growth import assert_scales, fastest
from tests.plugin_sites import PAGES, write_site

REPO = Path(__file__).resolve().parents[2]
SECRET = "ghp_f4k3S3cr3tT0k3nF0rT3sts0nly"
DOTENV = f"CI_SECRET_TOKEN={SECRET}\nOTHER=1\n"


def _run(root: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A command of this checkout in ``root``, with the fake secret in its environment."""
    env = {"CI_SECRET_TOKEN": SECRET, **os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=root, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _build(root: Path) -> subprocess.CompletedProcess[str]:
    return _run(root, "mkdocs", "build")


def _status(root: Path) -> subprocess.CompletedProcess[str]:
    return _run(root, "mkdocs_zh_translate", "review", "status", "-f", "mkdocs.yml")


def _error_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    """MkDocs' ``ERROR -`` log lines and the CLI's ``error:`` line."""
    return [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("ERROR") or ": error:" in line]


def _review_dir(root: Path) -> Path:
    write_site(root)
    review = root / "translations" / "zh"
    review.mkdir(parents=True)
    return review


@pytest.mark.parametrize("target", ["dotenv", "environ", "glossary"])
def test_a_linked_file_outside_review_dir_fails_without_printing_it(tmp_path: Path, target: str) -> None:
    review = _review_dir(tmp_path)
    (tmp_path / ".env").write_text(DOTENV, encoding="utf-8")
    name = "glossary.yml" if target == "glossary" else "index.md.po"
    if target == "environ":
        if not Path("/proc/self/environ").exists():
            pytest.skip("no /proc")
        (review / name).symlink_to("/proc/self/environ")
    else:
        (review / name).symlink_to(Path("..", "..", ".env"))
    for command in (_build, _status):
        done = command(tmp_path)
        assert done.returncode != 0, done.stdout + done.stderr
        assert SECRET not in done.stdout + done.stderr and "CI_SECRET_TOKEN" not in done.stdout + done.stderr
        errors = _error_lines(done)
        assert len(errors) == 1 and f"{name}: is a symbolic link" in errors[0], done.stdout + done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "site" / "zh").exists() or SECRET not in "".join(
        p.read_text(errors="replace") for p in (tmp_path / "site").rglob("*") if p.is_file()
    )


def test_a_link_inside_review_dir_to_a_file_inside_it_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Simplest rule, documented: no link below review_dir at all, even one that stays inside."""
    review = _review_dir(tmp_path)
    (review / "index.md.po").write_text('msgid "Welcome"\nmsgstr "欢迎"\n', encoding="utf-8")
    (review / "guide").mkdir()
    (review / "guide" / "install.md.po").symlink_to(Path("..", "index.md.po"))
    assert cli_main(["review", "status", "-f", str(tmp_path / "mkdocs.yml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "install.md.po: is a symbolic link inside" in err, err


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    review = _review_dir(tmp_path)
    os.mkfifo(review / "site.po")
    for command in (_build, _status):
        done = command(tmp_path)  # the old reader blocked here until the timeout
        errors = _error_lines(done)
        assert done.returncode != 0 and len(errors) == 1, done.stdout + done.stderr
        assert "site.po: not a regular file" in errors[0]


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (f"CI_SECRET_TOKEN={SECRET}", "not PO syntax"),
        (f'msgstr "ok" CI_SECRET_TOKEN={SECRET}', "text after the closing"),
        (f'msgstr "\\\x1b[2J{SECRET}"', "invalid escape sequence '\\\\\\x1b'"),
        (f"msgstrr{SECRET} \"x\"", "not PO syntax"),
        ('msgsrt "x"', "unknown keyword 'msgsrt'"),
    ],
)
def test_a_malformed_line_is_never_quoted_beyond_a_short_escaped_excerpt(
    tmp_path: Path, line: str, shown: str
) -> None:
    path = tmp_path / "index.md.po"
    path.write_text(f'msgid "Welcome"\nmsgstr "欢迎"\n\nmsgid "Other"\n{line}\n', encoding="utf-8")
    with pytest.raises(ReviewError) as review_error:
        read_po(path)
    with pytest.raises(CatalogError) as catalog_error:
        parse_catalog(path.read_text(encoding="utf-8"), "index.md.po")
    for message in (str(review_error.value), str(catalog_error.value)):
        assert "index.md.po:5: malformed PO file: " in message and shown in message, message
        assert SECRET[:8] not in message and "\x1b" not in message, message
        assert len(message) < 200


def test_po_fill_refuses_a_linked_catalog_in_the_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locale = tmp_path / "locale" / "zh_CN" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    (tmp_path / ".env").write_text(DOTENV, encoding="utf-8")
    (locale / "index.po").symlink_to(tmp_path / ".env")
    code = cli_main(["po", "fill", str(tmp_path / "locale"), "--backend", "pseudo", "--cache-dir", str(tmp_path / "c")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "index.po: is a symbolic link" in err, err
    assert SECRET not in err


def test_the_reader_refuses_what_is_not_a_regular_file_inside_its_root(tmp_path: Path) -> None:
    root = tmp_path / "review"
    (root / "real").mkdir(parents=True)
    (root / "real" / "a.po").write_text("x", encoding="utf-8")
    (root / "linked").symlink_to(root / "real", target_is_directory=True)
    (tmp_path / "outside.po").write_text("x", encoding="utf-8")
    assert read_untrusted(root / "real" / "a.po", root) == b"x"
    assert read_untrusted(root / "real" / "missing.po", root) is None
    refused = {
        root / "linked" / "a.po": "linked: is a symbolic link",  # a linked directory on the way
        tmp_path / "outside.po": "outside",
        root / ".." / "outside.po": "outside",
        root / "real": "a directory",
    }
    for path, reason in refused.items():
        with pytest.raises(UntrustedFileError, match=reason):
            read_untrusted(path, root)
    if Path("/dev/zero").exists():
        with pytest.raises(UntrustedFileError, match="not a regular file"):
            read_untrusted(Path("/dev/zero"), Path("/dev"))
    big = root / "big.po"
    with big.open("wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: nothing is written or read
    with pytest.raises(UntrustedFileError, match="larger than 32 MiB"):
        read_untrusted(big, root)


# -- growth: reading PO files is linear in their entries ----------------------------------------

N = 2000  # junk entries at scale 1 (the old reader took ~0.4 s here and ~4x per doubling)


def _junk(n: int, tag: str = "") -> str:
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    return head + "".join(f'\nmsgid "junk {tag}entry number {i} with some words"\nmsgstr "垃圾条目 {i}"\n' for i in range(n))


def _write_junk(review: Path, n: int) -> None:
    (review / "index.md.po").write_text(_junk(n), encoding="utf-8")
    (review / "site.po").write_text(_junk(n, "site "), encoding="utf-8")


def test_the_plugin_reads_po_files_in_linear_time(tmp_path: Path) -> None:
    from mkdocs_zh_translate.review.layer import ReviewedLayer
    from mkdocs_zh_translate.segment import segment_markdown

    review = _review_dir(tmp_path)
    page = segment_markdown(PAGES["index.md"] + "\n!!! note\n    A site-wide title.\n")

    def time_at(k: int) -> float:
        _write_junk(review, k * N)
        return fastest(lambda: ReviewedLayer(review).page("index.md", page, "docs/index.md"), repeats=2)

    assert_scales("plugin PO read", time_at)


def test_review_status_is_linear_in_po_entries(tmp_path: Path) -> None:
    from mkdocs_zh_translate.plugin.collect import collect_site
    from mkdocs_zh_translate.review.layer import rejected_entries
    from mkdocs_zh_translate.review.status import ReviewFile, status_of
    from mkdocs_zh_translate.review.sync import plan_sync

    review = _review_dir(tmp_path)
    site = collect_site(tmp_path / "mkdocs.yml")  # the English build: the same at every size

    def status() -> None:
        planned = plan_sync(site)
        status_of([ReviewFile(p.path, "", p.po, rejected_entries(site.pages.get(p.path, []), p.po)) for p in planned])

    def time_at(k: int) -> float:
        _write_junk(review, k * N)
        return fastest(status, repeats=1)  # ~2.5 s at 4n: one run each, three attempts

    assert_scales("review status", time_at)


def test_every_page_looks_up_site_po_without_reindexing_it(tmp_path: Path) -> None:
    """Each page's lookup in site.po costs its own units, not the file's size (pages x entries)."""
    from mkdocs_zh_translate.review.layer import ReviewedLayer
    from mkdocs_zh_translate.segment import segment_markdown

    review = _review_dir(tmp_path)
    page = segment_markdown("A paragraph.\n\n!!! note\n    A site-wide title.\n")

    def time_at(k: int) -> float:
        (review / "site.po").write_text(_junk(k * N, "site "), encoding="utf-8")
        layer = ReviewedLayer(review)
        layer.page("index.md", page, "docs/index.md")  # the file is read once: not what is timed

        def pages() -> None:
            for _ in range(k * 200):
                layer.page("index.md", page, "docs/index.md")

        return fastest(pages, repeats=2)

    assert_scales("site.po lookups of every page", time_at)
