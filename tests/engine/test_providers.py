"""Execution providers: CPU by default, CUDA selectable; a provider this onnxruntime lacks is
one clear error line (never a silent fall back to the CPU). No GPU here: CUDA itself is untested."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort
import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.engine.errors import EngineError
from mkdocs_zh_translate.engine.session import resolve_providers
from tests.plugin_sites import run_mkdocs, write_site

pytestmark = pytest.mark.skipif(
    "CUDAExecutionProvider" in ort.get_available_providers(), reason="this onnxruntime has CUDA: the error is not reachable"
)


@pytest.fixture(scope="module")
def model() -> Path:
    from tests.models import tiny_onnx_model

    return tiny_onnx_model(quantize="none")


def _one_cuda_error(text: str) -> None:
    lines = [line for line in text.strip().splitlines() if "zh-translate" in line or "error" in line.lower()]
    assert len(lines) == 1, text
    assert "CUDAExecutionProvider is not available in this onnxruntime" in lines[0]
    assert "onnxruntime-gpu" in lines[0] and "Traceback" not in text


def test_provider_names_and_aliases() -> None:
    assert resolve_providers(None) == ["CPUExecutionProvider"]
    assert resolve_providers(["cpu"]) == ["CPUExecutionProvider"]
    assert resolve_providers(["CPUExecutionProvider"]) == ["CPUExecutionProvider"]
    with pytest.raises(EngineError, match="CUDAExecutionProvider is not available"):
        resolve_providers(["cuda", "cpu"])  # no silent fall back to the second choice


def test_md_with_cuda_is_one_error_line(tmp_path: Path, model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.md"
    page.write_text("Hello world.\n", encoding="utf-8")
    assert main(["md", str(page), "--model", str(model), "--providers", "cuda"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    _one_cuda_error(captured.err)
    assert main(["md", str(page), "--model", str(model), "--providers", "cpu"]) == 0  # explicit CPU works


def test_plugin_option_providers_cuda_fails_the_build_in_one_line(tmp_path: Path, model: Path) -> None:
    write_site(tmp_path, plugin={"backend": "onnx", "model": str(model), "providers": ["cuda"]})
    result = run_mkdocs(tmp_path)
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if "CUDAExecutionProvider" in line]
    assert len(errors) == 1 and "onnxruntime-gpu" in errors[0], result.stderr
    assert "Traceback" not in result.stderr


def test_prefill_workers_with_cuda_is_one_error_line(
    tmp_path: Path, model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": str(model)})
    assert main(["prefill", "-f", str(config), "--no-progress", "--workers", "1", "--providers", "cuda"]) == 2
    _one_cuda_error(capsys.readouterr().err)
