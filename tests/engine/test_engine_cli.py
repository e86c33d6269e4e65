"""``mkdocs-zh-translate translate``: stdin lines to stdout lines, and no torch at run time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.engine import OnnxTranslator
from tests.models import tiny_onnx_model

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(REPO))


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs_zh_translate", *args], input=stdin,
                          capture_output=True, text=True, cwd=REPO, env=ENV, timeout=300)


def test_translate_lines_in_order() -> None:
    model = tiny_onnx_model("int8")
    lines = ["Open the file.", "", "Click <x1/> to save.", "Open the file.", "Run the build."]
    proc = run_cli("translate", "--model", str(model), "--beams", "2", "--batch-tokens", "32", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines)
    expected = OnnxTranslator(model, num_beams=2, max_batch_tokens=32).translate(lines)
    assert out[:-1] == expected


def test_max_new_tokens_limits_output() -> None:
    model = tiny_onnx_model("none")
    text = "Open the file and click <x1/> to save the page now."
    proc = run_cli("translate", "--model", str(model), "--max-new-tokens", "2", "--min-new-tokens", "2", stdin=text)
    assert proc.returncode == 0, proc.stderr
    ids = OnnxTranslator(model, max_new_tokens=2, min_new_tokens=2).token_ids([text])[0][0].ids
    assert len(ids) == 2  # one real token, then the forced EOS
    assert proc.stdout.strip() == OnnxTranslator(model).tokenizer.decode(ids)


def test_missing_model_is_one_line_exit_2(tmp_path: Path) -> None:
    proc = run_cli("translate", "--model", str(tmp_path / "none"), stdin="x\n")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert str(tmp_path / "none") in proc.stderr and "mkdocs-zh-translate export" in proc.stderr


def test_translate_never_imports_torch_or_transformers() -> None:
    model = tiny_onnx_model("int8")
    code = (
        "import sys, json\n"
        "from mkdocs_zh_translate.cli.app import main\n"
        "import io; sys.stdin = io.TextIOWrapper(io.BytesIO(b'Open the file.\\n'))\n"
        f"rc = main(['translate', '--model', {str(model)!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers', 'optimum', 'onnx'))\n"
        "print(json.dumps({'rc': rc, 'heavy': heavy}), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=ENV, timeout=300)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report == {"rc": 0, "heavy": []}
    assert proc.stdout.strip()


def test_translate_start_up_skips_the_other_commands_machinery(tmp_path: Path) -> None:
    """``translate`` registers only the parsers it needs: the review store and the segmenter
    (imported to register ``review`` and ``docs``) were 0.17 s of its start-up."""
    code = (
        "import sys, json\n"
        "from mkdocs_zh_translate.cli.app import main\n"
        f"rc = main(['translate', '--model', {str(tmp_path / 'none')!r}])\n"
        "names = ('mkdocs_zh_translate.review', 'mkdocs_zh_translate.segment', 'mkdocs_zh_translate.docs')\n"
        "print(json.dumps({'rc': rc, 'loaded': [m for m in names if m in sys.modules]}), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=ENV, timeout=120)
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == {"rc": 2, "loaded": []}
    help_text = subprocess.run([sys.executable, "-m", "mkdocs_zh_translate", "--help"], capture_output=True,
                               text=True, cwd=REPO, env=ENV, timeout=120).stdout
    assert "review" in help_text and "docs" in help_text and "translate" in help_text


@pytest.mark.parametrize(("preset", "expected"), [(None, "1"), ("0", "0")])
def test_onnxruntime_telemetry_is_off_unless_the_user_chose(preset: str | None, expected: str) -> None:
    """ONNX Runtime queues a telemetry event per process; a local-only translator turns that off."""
    env = {k: v for k, v in ENV.items() if k != "ORT_DISABLE_TELEMETRY"}
    if preset is not None:
        env["ORT_DISABLE_TELEMETRY"] = preset
    code = "import os, mkdocs_zh_translate.engine\nprint(os.environ.get('ORT_DISABLE_TELEMETRY'))\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert proc.stdout.strip() == expected, proc.stderr
