"""``po fill --format md`` on a real mdpo catalog: md2po -> po fill -> po2md keeps every link
target and code span of the English Markdown."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pofill import fill
from tests.fakes import HanTranslator

PAGE = """\
# Install the toolkit

Run `pip install widget-toolkit` and read the [Python docs](https://docs.python.org/3/) **first**.

- See the [usage page](usage.md#basics) for *details*.
- Use `--verbose` to see more, or press ++ctrl+c++ to stop.

| Option | Meaning |
|--------|---------|
| `-v`   | Print more, see [logging](logging.md). |

```python
print("code stays")
```
"""


@pytest.mark.skipif(shutil.which("md2po") is None or shutil.which("po2md") is None, reason="mdpo not installed")
def test_mdpo_round_trip(tmp_path: Path) -> None:
    markdown = pytest.importorskip("markdown")
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    po = tmp_path / "page.po"
    subprocess.run(["md2po", str(page), "-s", "-p", str(po)], check=True, capture_output=True, timeout=60)
    lazy = LazyTranslator(lambda *a, **k: HanTranslator())
    summary = fill([po], TranslatorSpec("pseudo", None), fmt="md", cache_dir=tmp_path / "cache", lazy=lazy)
    assert summary.failed == [] and summary.filled == summary.entries >= 5
    zh = tmp_path / "page.zh.md"
    subprocess.run(
        ["po2md", str(page), "-p", str(po), "-s", str(zh), "--wrapwidth", "0"], check=True, capture_output=True, timeout=60
    )
    html_en = markdown.markdown(PAGE, extensions=["tables", "fenced_code"])
    html_zh = markdown.markdown(zh.read_text(encoding="utf-8"), extensions=["tables", "fenced_code"])
    assert re.search("[\u4e00-\u9fff]", html_zh)
    for pattern in (r'href="[^"]*"', r"<code>.*?</code>", r"<strong>", r"<em>", r"<li>", r"<td>"):
        assert sorted(re.findall(pattern, html_zh)) == sorted(re.findall(pattern, html_en)), pattern
