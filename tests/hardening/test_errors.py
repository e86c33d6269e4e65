"""One error base class: every package error derives from ``ZhTranslateError``, and the console
script prints any of them as one line with exit code 2, never a traceback."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import mkdocs_zh_translate
from mkdocs_zh_translate.cli import app
from mkdocs_zh_translate.cli.errors import CliError
from mkdocs_zh_translate.docs import DocsError
from mkdocs_zh_translate.engine import EngineError
from mkdocs_zh_translate.errors import ZhTranslateError
from mkdocs_zh_translate.export import ExportError
from mkdocs_zh_translate.model_integrity import ModelIntegrityError
from mkdocs_zh_translate.owned import PathError
from mkdocs_zh_translate.pipeline.backends import BackendError
from mkdocs_zh_translate.pipeline.lazy import TranslationFailed
from mkdocs_zh_translate.pipeline.variants import VariantError
from mkdocs_zh_translate.plugin.config import DirOptionError
from mkdocs_zh_translate.plugin.configfile import ConfigFileError
from mkdocs_zh_translate.plugin.mdconfig import MdConfigError
from mkdocs_zh_translate.pofill.catalog import CatalogError
from mkdocs_zh_translate.pofill.fill import FillError
from mkdocs_zh_translate.quality.references import ReferencesError
from mkdocs_zh_translate.review.pocheck import PoSyntaxError
from mkdocs_zh_translate.review.store import ReviewError
from mkdocs_zh_translate.segment import SegmentError
from mkdocs_zh_translate.sphinx.build import ZhTranslateBuildError
from mkdocs_zh_translate.sphinx.catalogs import CatalogLinkError
from mkdocs_zh_translate.sphinx.sync import SyncError
from mkdocs_zh_translate.textfile import NotUtf8Error, decode_utf8, split_bom
from mkdocs_zh_translate.tune.errors import TuneError
from mkdocs_zh_translate.untrusted import UntrustedFileError

PACKAGE = Path(mkdocs_zh_translate.__file__).parent
ERRORS = [
    CliError, DocsError, EngineError, ExportError, ModelIntegrityError, BackendError, TranslationFailed,
    CatalogError, FillError, PoSyntaxError, ReviewError, SegmentError, NotUtf8Error, PathError, DirOptionError,
    UntrustedFileError, MdConfigError, SyncError, ZhTranslateBuildError, ReferencesError,
    CatalogLinkError, ConfigFileError, VariantError, TuneError,
]


def test_every_error_class_of_the_package_is_listed_here() -> None:
    """A new ``class FooError(...)`` anywhere in the package must be added above (and derive from the base)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Failed")):
                found.add(node.name)
    assert found == {cls.__name__ for cls in ERRORS} | {"ZhTranslateError"}


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: c.__name__)
def test_every_error_derives_from_the_one_base(cls: type[Exception]) -> None:
    assert issubclass(cls, ZhTranslateError)
    assert mkdocs_zh_translate.ZhTranslateError is ZhTranslateError


def test_value_errors_stay_value_errors() -> None:
    """Callers that caught ValueError before the base class existed still catch these."""
    assert issubclass(SegmentError, ValueError) and issubclass(PoSyntaxError, ValueError)
    assert issubclass(NotUtf8Error, ValueError)


def test_errors_module_imports_nothing() -> None:
    """engine/ and segment/ derive from it: it must not pull in any other part of the package."""
    tree = ast.parse((PACKAGE / "errors.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_console_script_prints_any_package_error_as_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(args: object) -> int:
        raise ModelIntegrityError("model/encoder.onnx: sha256 mismatch")

    monkeypatch.setattr(app, "_cmd_translate", fail)  # the parser looks it up when built
    rc = app.main(["translate", "--model", "model"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err == "mkdocs-zh-translate: error: model/encoder.onnx: sha256 mismatch\n"


def test_import_of_the_package_is_cheap() -> None:
    code = (
        "import sys, mkdocs_zh_translate\n"
        "mkdocs_zh_translate.ZhTranslateError\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('mkdocs', 'numpy', 'onnxruntime', 'markdown_it', 'diskcache', 'yaml', 'torch'))\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_plugin_entry_point_still_resolves() -> None:
    """pyproject's ``mkdocs_zh_translate.plugin:ZhTranslatePlugin`` (the package re-exports it lazily)."""
    from importlib.metadata import EntryPoint

    from mkdocs_zh_translate.plugin.plugin import ZhTranslatePlugin

    ep = EntryPoint("zh-translate", "mkdocs_zh_translate.plugin:ZhTranslatePlugin", "mkdocs.plugins")
    assert ep.load() is ZhTranslatePlugin


def test_decode_utf8_names_the_line_of_the_first_bad_byte() -> None:
    data = b"ok\nstill ok\n" + b"caf\xe9\n" + b"\xff later\n"
    with pytest.raises(NotUtf8Error) as caught:
        decode_utf8(data, "docs/page.md", hint="; save it as UTF-8")
    assert str(caught.value) == "docs/page.md:3: not valid UTF-8 (byte 0xe9); save it as UTF-8"
    assert caught.value.line == 3
    assert decode_utf8("\ufeff# Title\n".encode(), "x") == "\ufeff# Title\n"
    assert split_bom("\ufeff# T") == ("# T", "\ufeff") and split_bom("# T") == ("# T", "")


def test_every_reader_of_user_files_uses_the_one_decoder() -> None:
    """The line-counting decoder is written once: no other module decodes UTF-8 by hand and
    catches ``UnicodeDecodeError`` to work out a line number."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "textfile.py" and "exc.start].count(b" in text:
            offenders.append(path.relative_to(PACKAGE).as_posix())
    assert offenders == []


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["po", "fill", "{dir}", "--backend", "pseudo"], "messages.po:2: not valid UTF-8 (byte 0xe9)"),
        (["md", "{dir}/messages.po", "--backend", "pseudo"], "messages.po:2: not valid UTF-8 (byte 0xe9)"),
    ],
)
def test_commands_report_bad_utf8_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    (tmp_path / "messages.po").write_bytes(b'msgid ""\nmsgstr "caf\xe9"\n')
    code = app.main([a.replace("{dir}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and needle in err, err
