"""The site files the plugin rewrites after MkDocs wrote them are atomic but not forced to disk.

Every build writes them again, as MkDocs writes its pages (no fsync); an fsync right after a
build wrote a whole site waits for all of it to reach the disk (issue 21: 0.5 s of a 50-page
site's build). What people write or review (PO files) is still forced to disk.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mkdocs_zh_translate import owned
from mkdocs_zh_translate.plugin import site

SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "<url>\n<loc>https://example.com/zh/guide/</loc>\n</url>\n</urlset>\n"
)


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    real = owned.os.fsync

    def counting(fd: int) -> None:
        seen.append(fd)
        real(fd)

    monkeypatch.setattr(owned.os, "fsync", counting)
    return seen


def test_the_rewritten_site_files_are_not_forced_to_disk(tmp_path: Path, fsyncs: list[int]) -> None:
    search = tmp_path / "search"
    search.mkdir()
    (search / "search_index.json").write_text(json.dumps({"docs": [{"title": "安装指南", "text": "先读指南。"}]}))
    (search / "worker.js").write_text("// worker\n")
    (tmp_path / "sitemap.xml").write_text(SITEMAP)
    (tmp_path / "sitemap.xml.gz").write_bytes(gzip.compress(SITEMAP.encode()))

    assert site.segment_search_index(tmp_path)
    site.add_sitemap_alternates(tmp_path / "sitemap.xml", site.Languages("zh", "https://example.com/"), "zh")

    assert "zh-translate" in (search / "worker.js").read_text()  # all four were rewritten
    assert "\u200b" in json.loads((search / "search_index.json").read_text())["docs"][0]["text"]
    assert 'hreflang="en"' in (tmp_path / "sitemap.xml").read_text()
    assert b'hreflang="en"' in gzip.decompress((tmp_path / "sitemap.xml.gz").read_bytes())
    assert fsyncs == []


def test_what_people_write_is_still_forced_to_disk(tmp_path: Path, fsyncs: list[int]) -> None:
    owned.atomic_write(tmp_path / "site.po", b'msgid ""\nmsgstr ""\n')
    assert len(fsyncs) == 1
    owned.atomic_write(tmp_path / "report.json", b"{}", durable=False)
    assert len(fsyncs) == 1 and (tmp_path / "report.json").read_bytes() == b"{}"
