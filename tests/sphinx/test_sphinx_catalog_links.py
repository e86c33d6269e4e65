"""Catalogs come from contributors: ``sphinx sync`` and the Chinese build refuse a symbolic link
below the locale directories, and never print a catalog's content in an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sphinx.helpers import build, project

SECRET = "API_TOKEN=hunter2-do-not-print\nDB_PASSWORD=swordfish-do-not-print\n"


def _secrets(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / ".env"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    return secret


def _messages(root: Path) -> Path:
    folder = root / "locale" / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.parametrize("target", ["secret", "/proc/self/environ"])
def test_sync_refuses_a_linked_catalog_and_never_prints_it(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], target: str
) -> None:
    from mkdocs_zh_translate.cli.app import main

    if target.startswith("/proc") and not Path(target).exists():
        pytest.skip("no /proc here")
    root = project(tmp_path)
    linked = _messages(root) / "usage.po"
    linked.symlink_to(_secrets(tmp_path) if target == "secret" else Path(target))
    os.environ["ZH_TRANSLATE_TEST_SECRET"] = "swordfish-do-not-print"
    try:
        assert main(["sphinx", "sync", str(root)]) == 2
    finally:
        del os.environ["ZH_TRANSLATE_TEST_SECRET"]
    out, err = capfd.readouterr()
    assert "do-not-print" not in out + err
    assert err.count("\n") == 1 and "usage.po: is a symbolic link inside" in err
    assert linked.is_symlink()  # left as it was: nothing written through or over it


def test_sync_refuses_linked_lc_messages_and_writes_nothing_there(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from mkdocs_zh_translate.cli.app import main

    root = project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "locale" / "zh_CN").mkdir(parents=True)
    (root / "locale" / "zh_CN" / "LC_MESSAGES").symlink_to(elsewhere, target_is_directory=True)
    assert main(["sphinx", "sync", str(root)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "LC_MESSAGES: is a symbolic link inside" in err
    assert list(elsewhere.iterdir()) == []


def test_sync_names_a_malformed_catalog_by_line_without_quoting_it(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from mkdocs_zh_translate.cli.app import main

    root = project(tmp_path)
    (_messages(root) / "usage.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + SECRET, encoding="utf-8"
    )
    assert main(["sphinx", "sync", str(root)]) == 2
    out, err = capfd.readouterr()
    assert "do-not-print" not in out + err
    assert err.count("\n") == 1 and "usage.po:5: malformed PO file" in err


def test_sync_refuses_a_linked_compiled_catalog_of_the_bare_language(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """gettext reads ``zh/LC_MESSAGES/*.mo`` for ``zh_CN`` too (after ``zh_CN/``)."""
    from mkdocs_zh_translate.cli.app import main

    root = project(tmp_path)
    folder = root / "locale" / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "usage.mo").symlink_to(_secrets(tmp_path))
    assert main(["sphinx", "sync", str(root)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "usage.mo: is a symbolic link inside" in err


def test_build_refuses_a_linked_catalog_before_sphinx_compiles_it(tmp_path: Path) -> None:
    root = project(tmp_path)
    (_messages(root) / "usage.po").symlink_to(_secrets(tmp_path))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", "language=zh_CN", ".", "_build/zh"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr
    assert "do-not-print" not in proc.stdout + proc.stderr
    assert "usage.po: is a symbolic link inside the locale directory" in proc.stderr
    assert not (root / "locale" / "zh_CN" / "LC_MESSAGES" / "usage.mo").exists()


def test_english_build_is_not_refused(tmp_path: Path) -> None:
    """Only the Chinese build reads the zh_CN catalogs: an English build is untouched."""
    root = project(tmp_path)
    (_messages(root) / "usage.po").symlink_to(_secrets(tmp_path))
    assert build(root, "en", language="en").warnings == ""
