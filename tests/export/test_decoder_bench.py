"""The decoder benchmark's llama.cpp rows are optional: without llama_cpp they are skipped, said once.

llama-cpp-python has no wheel on the registry (it compiles llama.cpp), so most machines that run
``benchmarks/decoder_models.py`` lack it; the other rows must still run, and the reader must see
why the llama.cpp rows are missing from the table rather than a traceback or a silent gap.
"""

from __future__ import annotations

import sys
import types

import pytest

from benchmarks import decoder_models


def test_llama_rows_are_skipped_with_one_line_when_llama_cpp_does_not_import(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # `import llama_cpp` raises ImportError
    built: list[str] = []
    monkeypatch.setattr(decoder_models, "prepare", built.append)
    monkeypatch.setattr(decoder_models.subprocess, "run", lambda *a, **k: pytest.fail("no row should run"))
    decoder_models.main(["--rows", "qwen3-llama-q4_0,hy-llama-q4_0"])
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "llama.cpp rows skipped" in line] == [err.strip()]
    assert "llama_cpp does not import" in err
    assert built == []


def test_other_rows_still_run_without_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    rows = ["seq2seq-int8", "qwen3-llama-q4_0", "qwen3-int4", "qwen3-llama-f32"]
    assert decoder_models.runnable(rows) == ["seq2seq-int8", "qwen3-int4"]


def test_llama_rows_are_kept_when_llama_cpp_imports(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", types.ModuleType("llama_cpp"))
    rows = ["seq2seq-int8", "qwen3-llama-q4_0"]
    assert decoder_models.runnable(rows) == rows
    assert "skipped" not in capsys.readouterr().err


def test_an_unknown_row_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        decoder_models.main(["--rows", "qwen3-int4,nope"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "unknown rows: nope" in err and "qwen3-llama-q4_0" in err
