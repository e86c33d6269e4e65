"""Front matter MkDocs cannot parse is page body: the zh page shows it as the English page does.

``---\\ntitle: Contribute to X: Evals and Issues\\n---`` is no YAML (a second ``: ``), so MkDocs
keeps the three lines in the page: a rule and a setext heading. The zh page must render the same
blocks (its text translated like any heading), never a front matter rewritten into valid YAML.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, run_mkdocs, write_site

BROKEN = "---\ntitle: Contribute to X: Evals and Issues\n---\n\nSome text here.\n\n## Next step\n\nMore.\n"


def test_front_matter_mkdocs_cannot_parse_renders_as_in_english(tmp_path: Path) -> None:
    write_site(tmp_path, pages={"index.md": BROKEN})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    en, zh = Html(tmp_path / "site" / "index.html"), Html(tmp_path / "site" / "zh" / "index.html")
    assert len(zh.find("hr")) == len(en.find("hr"))
    ids = [h.get("id") for h in en.find("h2")]
    assert ids == ["title-contribute-to-x-evals-and-issues", "next-step"]
    assert [h.get("id") for h in zh.find("h2")] == ids
    assert f"{PSEUDO_OPEN}title: Contribute to X: Evals and Issues" in zh.text
    assert f'"{PSEUDO_OPEN}' not in zh.text, "rewritten into a quoted YAML value"
