"""Paths we own (issue 23, items 1, 5, 7, 8, 10): the project moves or removes only files it
wrote, never overwrites its own inputs, writes atomically, and refuses directories it must not
write (the filesystem root, system directories, a relative path leaving the project)."""

from __future__ import annotations

import errno
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests.plugin_sites import build_in_process, write_site


def _tree(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (SQLite's -wal/-shm companions left out: they come and go)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.endswith(("-wal", "-shm"))
    }


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# -- 1. a corrupt cache moves only its own files ----------------------------------------------


def _corrupt(cache_db: Path) -> None:
    cache_db.write_bytes(b"this is not a database" * 100)


def test_corrupt_cache_in_the_project_root_moves_only_the_cache_files(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    project = tmp_path / "project"
    config = write_site(project, plugin={"backend": "pseudo", "cache_dir": "."})
    (project / "notes.txt").write_text("the user's own file\n", encoding="utf-8")
    build_in_process(config)
    assert (project / "cache.db").is_file()
    before = {k: v for k, v in _tree(project).items() if not k.startswith(("site/", "cache.db", "report.json"))}  # the build's own outputs
    for _ in range(2):
        _corrupt(project / "cache.db")
        caplog.clear()
        build_in_process(config)
        assert any("integrity check failed" in r.getMessage() for r in caplog.records)
        after = _tree(project)
        assert {k: v for k, v in after.items() if k in before} == before  # mkdocs.yml, docs/, notes.txt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"]  # no project.broken beside it
    assert sorted(p.name for p in project.glob("cache.db*") if not p.name.endswith(("-wal", "-shm"))) == [
        "cache.db",
        "cache.db.broken",
    ]


def test_second_corruption_keeps_other_files_in_the_cache_dir(tmp_path: Path) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo", "cache_dir": ".cache"})
    build_in_process(config)
    models = tmp_path / ".cache" / "models" / "opus" / "model.onnx"
    models.parent.mkdir(parents=True)
    models.write_bytes(b"weights")
    for _ in range(2):
        _corrupt(tmp_path / ".cache" / "cache.db")
        build_in_process(config)
        assert models.read_bytes() == b"weights"
    assert not list(tmp_path.glob(".cache.*"))


def test_owned_refuses_files_that_are_not_ours_and_paths_through_links(tmp_path: Path) -> None:
    from mkdocs_zh_translate.owned import Owned, PathError, named

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "cache.db").write_text("someone else's")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    (root / "mine.txt").write_text("user")
    own = Owned(root, lambda rel: rel.name in ("cache.db", "mine.txt"), "test files")
    assert not own.owns(root / "link" / "cache.db") and not own.owns(root / ".." / "outside" / "cache.db")
    with pytest.raises(PathError, match="not one of test files"):
        own.remove(root / "link" / "cache.db")
    assert (outside / "cache.db").exists()
    with pytest.raises(PathError):
        Owned(root, named(["cache.db"]), "cache files").move(root / "mine.txt", root / "cache.db")
    assert (root / "mine.txt").exists()


def test_docs_never_removes_a_stale_file_through_a_link(tmp_path: Path) -> None:
    """The list of files an earlier `docs` run wrote names ``sub/page.md``; ``sub`` is now a link
    to a directory of the user's: that file is not ours to remove."""
    from mkdocs_zh_translate.docs import DocsReport, _manifest, _remove_stale

    out, state, elsewhere = tmp_path / "out", tmp_path / "state", tmp_path / "elsewhere"
    for d in (out, state, elsewhere):
        d.mkdir()
    (elsewhere / "page.md").write_text("the user's page")
    (out / "sub").symlink_to(elsewhere, target_is_directory=True)
    (out / "old.md").write_text("written by the earlier run")
    _manifest(state, out).write_text(json.dumps({"out": str(out), "files": ["sub/page.md", "old.md"]}))
    report = DocsReport()
    _remove_stale(out, state, [], report)
    assert (elsewhere / "page.md").read_text() == "the user's page"
    assert report.removed == ["old.md"] and not (out / "old.md").exists()


# -- 5. commands never overwrite their own inputs ---------------------------------------------


def _docs(config: Path, *extra: str) -> int:
    return cli_main(["docs", "-f", str(config), "--backend", "pseudo", *extra])


@pytest.mark.parametrize("target", ["mkdocs.yml", "docs/index.md", "docs/new.yml"])
def test_docs_snippet_never_overwrites_the_config_or_docs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    config = write_site(tmp_path)
    before = _tree(tmp_path)
    assert _docs(config, "--out", str(tmp_path / "out"), "--snippet", str(tmp_path / target)) == 2
    line = _one_error(capsys)
    assert line.startswith("mkdocs-zh-translate: error: --snippet ") and target.split("/")[-1] in line, line
    assert re.search(r"is the config file|inside docs_dir", line), line
    assert {k: v for k, v in _tree(tmp_path).items() if k in before} == before
    assert not (tmp_path / "docs" / "new.yml").exists()


def test_docs_out_never_holds_the_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "project"
    config = write_site(project, extra_config={"docs_dir": str(tmp_path / "english")})
    (project / "docs").rename(tmp_path / "english")
    before = _tree(project)
    assert _docs(config, "--out", str(project)) == 2
    assert "must not contain the config file" in _one_error(capsys)
    assert {k: v for k, v in _tree(project).items() if not k.startswith(".zh-translate-cache/")} == before


@pytest.mark.parametrize("how", ["same path", "hard link"])
def test_md_output_never_overwrites_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str) -> None:
    page = tmp_path / "idx.md"
    page.write_text("# Title\n\nSome English text.\n", encoding="utf-8")
    out = page
    if how == "hard link":
        out = tmp_path / "other.md"
        os.link(page, out)
    assert cli_main(["md", str(page), "-o", str(out), "--backend", "pseudo"]) == 2
    assert "is the input file" in _one_error(capsys)
    assert page.read_text(encoding="utf-8") == "# Title\n\nSome English text.\n"


def test_review_report_never_overwrites_the_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path)
    before = config.read_bytes()
    assert cli_main(["review", "report", "-f", str(config), "-o", str(config)]) == 2
    assert "is the config file" in _one_error(capsys)
    assert config.read_bytes() == before


# -- 7. review commands refuse what the build refuses -----------------------------------------


@pytest.mark.parametrize("action", ["sync", "prune", "status"])
def test_review_refuses_a_review_dir_inside_site_dir_like_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo", "review_dir": "site/po"})
    assert cli_main(["review", action, "-f", str(config)]) == 2
    assert re.search(r"option 'review_dir': .* is inside site_dir", _one_error(capsys))
    assert not (tmp_path / "site").exists()


# -- 8. `docs --out /` ------------------------------------------------------------------------


def test_docs_out_root_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path)
    assert _docs(config, "--out", "/") == 2
    assert "system directory" in _one_error(capsys)


# -- 10. full disks, devices, percentages, directories we must not write ------------------------


class _FullDisk:
    """A file whose writes fail with ENOSPC (what a full disk does), otherwise the real file."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@pytest.fixture
def full_disk_for(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[str], bool]], None]:
    """Make every file opened for writing whose name ``hit`` accepts fail with ENOSPC, whichever
    way it is opened (``open``, ``Path.write_bytes``, ``os.fdopen`` of a temporary file)."""

    def install(hit: Callable[[str], bool]) -> None:
        real_open = io.open

        def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            handle = real_open(file, mode, *args, **kwargs)
            name = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.fspath(file)
            if any(c in mode for c in "wax+") and hit(os.path.basename(name)):
                return _FullDisk(handle)
            return handle

        monkeypatch.setattr(io, "open", fake_open)
        monkeypatch.setattr("builtins.open", fake_open)

    return install


def test_docs_on_a_full_disk_leaves_no_empty_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], full_disk_for: Callable[[Callable[[str], bool]], None]
) -> None:
    config = write_site(tmp_path)
    out = tmp_path / "out"
    full_disk_for(lambda name: "index.zh.md" in name)
    assert _docs(config, "--out", str(out)) == 2
    line = _one_error(capsys)
    assert "index.zh.md" in line and "No space left on device" in line, line
    assert not (out / "index.zh.md").exists()
    assert not [p for p in out.rglob("*") if p.is_file() and p.stat().st_size == 0]
    assert not list(out.rglob("*.tmp"))


def test_review_sync_on_a_full_disk_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], full_disk_for: Callable[[Callable[[str], bool]], None]
) -> None:
    config = write_site(tmp_path)
    full_disk_for(lambda name: "index.md.po" in name)
    assert cli_main(["review", "sync", "-f", str(config)]) == 2
    line = _one_error(capsys)
    assert "index.md.po" in line and "No space left on device" in line, line
    assert not (tmp_path / "translations" / "zh" / "index.md.po").exists()


@pytest.mark.parametrize("action", ["sync", "prune"])
def test_review_config_that_is_a_device_says_so(capsys: pytest.CaptureFixture[str], action: str) -> None:
    assert cli_main(["review", action, "-f", "/dev/null"]) == 2
    line = _one_error(capsys)
    assert "not a regular file" in line and "no such file" not in line, line


def test_docs_config_that_is_a_directory_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _docs(tmp_path, "--out", str(tmp_path / "out")) == 2
    assert "is a directory" in _one_error(capsys)


@pytest.mark.parametrize("value", ["1000", "-5", "100.5", "nan"])
def test_review_check_percentage_out_of_range_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    config = write_site(tmp_path)
    assert cli_main(["review", "check", "-f", str(config), "--min-reviewed", value]) == 2
    assert "a percentage, from 0 to 100" in _one_error(capsys)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give --min-reviewed P, --max-stale N, --max-rejected N or --max-suggested N"),
        (["--max-stale", "-1"], "--max-stale -1: a count, 0 or more"),
        (["--max-rejected", "-2"], "--max-rejected -2: a count, 0 or more"),
    ],
)
def test_review_check_without_a_limit_or_with_a_negative_count_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    config = write_site(tmp_path)
    assert cli_main(["review", "check", "-f", str(config), *args]) == 2
    assert message in _one_error(capsys)


def _build_error(config: Path, caplog: pytest.LogCaptureFixture) -> str:
    from mkdocs.exceptions import Abort

    caplog.clear()
    with pytest.raises(Abort):
        build_in_process(config)
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize("option", ["cache_dir", "review_dir"])
@pytest.mark.parametrize("value", ["/", "/etc", "/etc/zh-translate", "/proc/zh-translate", "/usr/share/zh"])
def test_system_directories_are_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, option: str, value: str
) -> None:
    config = write_site(tmp_path, plugin={"backend": "pseudo", option: value})
    assert re.search(rf"option '{option}': {re.escape(value)} is .*a system directory", _build_error(config, caplog))


@pytest.mark.parametrize("option", ["cache_dir", "review_dir"])
def test_relative_directory_outside_the_project_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, option: str
) -> None:
    config = write_site(tmp_path / "project", plugin={"backend": "pseudo", option: "../elsewhere"})
    assert re.search(rf"option '{option}': \.\./elsewhere is outside the project directory", _build_error(config, caplog))
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.parametrize("option", ["cache_dir", "review_dir"])
def test_absolute_directory_outside_the_project_is_the_users_choice(tmp_path: Path, option: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    config = write_site(tmp_path / "project", plugin={"backend": "pseudo", option: str(elsewhere)})
    build_in_process(config)
    assert (tmp_path / "project" / "site" / "zh" / "index.html").is_file()
    if option == "cache_dir":
        assert (elsewhere / "cache.db").is_file()


def test_review_sync_checks_directories_by_the_same_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path / "project", plugin={"backend": "pseudo", "review_dir": "/proc/zh-translate"})
    assert cli_main(["review", "sync", "-f", str(config)]) == 2
    assert "option 'review_dir': /proc/zh-translate is /proc/zh-translate, a system directory" in _one_error(capsys)
