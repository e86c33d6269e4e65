"""One line and exit 2, never a traceback: a closed stdout, a thread count ONNX Runtime cannot take.

``md`` and ``docs --json`` with their stdout closed (``| head`` that already left, ``>&-``)
printed a ``BrokenPipeError`` (or ``AttributeError``) traceback; ``--threads 99999999999`` and
``threads:`` raised ONNX Runtime's ``TypeError`` (now refused with the options, by the option
table's bound, before a model is read). Each test failed on main. (A lone surrogate in
a glossary term: tests/hardening/test_controls.py.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.engine.errors import EngineError
from mkdocs_zh_translate.limits import MAX_THREADS
from tests.models import tiny_onnx_model
from tests.plugin_sites import run_mkdocs, write_site

REPO = Path(__file__).resolve().parents[2]
PAGE = "# Title\n\n" + "".join(f"Paragraph number {i} of the page.\n\n" for i in range(3000))


def _run_with_stdout_closed(args: list[str], cwd: Path, *, closed_at_start: bool = False) -> tuple[int, str]:
    """Run the console script whose stdout reader is gone before it writes (or that starts
    without a stdout at all); (exit code, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "mkdocs_zh_translate", *args]
    if closed_at_start:
        proc = subprocess.run(["/bin/sh", "-c", '"$@" >&-', "sh", *command], cwd=cwd, env=env,
                              stderr=subprocess.PIPE, text=True, timeout=300)
        return proc.returncode, proc.stderr
    with subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        assert p.stdout is not None and p.stderr is not None
        p.stdout.close()  # the reader left before anything was written
        err = p.stderr.read()
        return p.wait(timeout=300), err


@pytest.mark.parametrize("closed_at_start", [False, True])
def test_md_with_stdout_closed_is_one_line_exit_2(tmp_path: Path, closed_at_start: bool) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    code, err = _run_with_stdout_closed(["md", str(page), "--backend", "pseudo"], tmp_path,
                                        closed_at_start=closed_at_start)
    assert code == 2 and "Traceback" not in err, err
    assert err.count("stdout was closed") == 1 and err.strip().count("\n") == 0, err


def test_md_with_stdout_closed_but_an_output_file_succeeds(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nOne paragraph.\n", encoding="utf-8")
    code, err = _run_with_stdout_closed(["md", str(page), "--backend", "pseudo", "-o", str(tmp_path / "zh.md")],
                                        tmp_path, closed_at_start=True)
    assert code == 0 and (tmp_path / "zh.md").is_file(), err


def test_docs_json_with_stdout_closed_is_one_line_exit_2(tmp_path: Path) -> None:
    write_site(tmp_path, pages={"index.md": PAGE})
    code, err = _run_with_stdout_closed(["docs", "--out", str(tmp_path / "i18n"), "--json"], tmp_path)
    assert code == 2 and "Traceback" not in err, err
    assert err.count("stdout was closed") == 1, err
    assert (tmp_path / "i18n" / "index.zh.md").is_file()  # the tree was written before the report


def test_threads_beyond_what_onnx_runtime_takes_is_refused_with_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The option table's bound, checked with the flags (argparse: usage, then the one error
    line, exit 2): before any model directory is read (this one does not exist)."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nOne paragraph.\n", encoding="utf-8")
    for threads in ("99999999999", str(MAX_THREADS + 1)):
        with pytest.raises(SystemExit) as exited:
            cli_main(["md", str(page), "--backend", "onnx", "--model", str(tmp_path / "none"), "--threads", threads])
        err = capsys.readouterr().err
        assert exited.value.code == 2 and "Traceback" not in err, err
        assert err.splitlines()[-1].endswith(f"argument --threads: threads must be from 1 to {MAX_THREADS}, got {threads}")
    from mkdocs_zh_translate.engine.translator import OnnxTranslator

    model = tiny_onnx_model()
    for bad in (0, MAX_THREADS + 1):  # the engine's own check, for a caller of its API
        with pytest.raises(EngineError, match=f"threads must be from 1 to {MAX_THREADS}, got {bad}"):
            OnnxTranslator(model, threads=bad)


def test_threads_option_in_mkdocs_yml_is_one_line(tmp_path: Path) -> None:
    write_site(tmp_path, pages={"index.md": "# Home\n\nOne paragraph.\n"},
               plugin={"backend": "onnx", "model": str(tmp_path / "none"), "threads": 99999999999})
    proc = run_mkdocs(tmp_path)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert f"threads must be from 1 to {MAX_THREADS}, got 99999999999" in proc.stderr


def test_prefill_threads_beyond_what_onnx_runtime_takes_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages={"index.md": "# Home\n\nOne paragraph.\n"})
    with pytest.raises(SystemExit) as exited:
        cli_main(["prefill", "-f", str(config), "--threads", "99999999999"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "Traceback" not in err, err
    assert err.splitlines()[-1].endswith(f"threads must be from 1 to {MAX_THREADS}, got 99999999999"), err
