"""``review check`` as a CI gate on stale and rejected reviews alone (the CI guide's `reviews` step).

A team that ships machine text while reviews catch up cannot use ``--min-reviewed``: it fails on
every machine entry. ``--max-stale N`` / ``--max-rejected N`` fail only on reviews that went stale
(the English changed) or that the build rejects (they lose or add markup).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests.plugin_sites import write_site

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
STALE = (
    '#, fuzzy\n#| msgid "You need Python and a directory."\n'
    'msgid "You need Python and a cache directory."\nmsgstr "你需要 Python 和一个目录。"\n\n'
)
REJECTED = (
    'msgid "Install the package with pip. Go [home](../index.md) or see [usage](usage.md#run-it)."\n'
    'msgstr "用 pip 安装软件包。<script>alert(1)</script>"\n\n'
)


def _check(config: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = cli_main(["review", "check", "-f", str(config), *args])
    return rc, capsys.readouterr().out.strip().splitlines()[-1]


def _po(root: Path, *entries: str) -> None:
    po = root / "translations" / "zh" / "guide" / "install.md.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text(HEADER + "".join(entries), encoding="utf-8")


def test_max_stale_fails_on_a_stale_review_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path)
    _po(tmp_path)  # nothing reviewed yet: machine text everywhere is no failure
    assert _check(config, capsys, "--max-stale", "0", "--max-rejected", "0")[0] == 0
    _po(tmp_path, STALE)
    rc, line = _check(config, capsys, "--max-stale", "0")
    assert rc == 1 and line.endswith(", 1 stale, 0 rejected: more than 0 stale")
    assert _check(config, capsys, "--max-stale", "1")[0] == 0
    assert _check(config, capsys, "--max-rejected", "0")[0] == 0


def test_max_rejected_fails_on_a_review_the_build_would_reject(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path)
    _po(tmp_path, REJECTED, STALE)
    rc, line = _check(config, capsys, "--max-stale", "0", "--max-rejected", "0")
    assert rc == 1 and line.endswith(", 1 stale, 1 rejected: more than 0 stale; more than 0 rejected")
    assert _check(config, capsys, "--max-rejected", "1", "--max-stale", "1")[0] == 0
    rc, line = _check(config, capsys, "--max-rejected", "0")
    assert rc == 1 and line.endswith(": more than 0 rejected")
