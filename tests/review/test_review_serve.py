"""``review serve`` without a browser: the segment marks, the save rules, the server's checks."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review import edit
from mkdocs_zh_translate.review.edit import EditRefused, entry_version, save_review
from mkdocs_zh_translate.review.marks import mark, mark_html, strip_marks
from mkdocs_zh_translate.review.units import Unit
from mkdocs_zh_translate.segment import segment_markdown
from tests.plugin_sites import build_in_process, write_site

PAGES = {
    "index.md": "# Home\n\nWelcome to the demo site.\n",
    "guide.md": "# Guide\n\nFirst paragraph of the guide.\n\nSee [the home page](index.md) first.\n\n![A logo](img/logo.png)\n",
}
NONCHARACTERS = range(0xFDD0, 0xFDF0)


def _no_marks(text: str) -> bool:
    return not any(ord(c) in NONCHARACTERS for c in text)


# -- marks -----------------------------------------------------------------------------------------


def test_a_marked_segment_becomes_a_span_and_no_mark_survives_elsewhere() -> None:
    html = f"<h1>{mark(0, '标题')}</h1><p>{mark(1, '一段 <a href=x>链接</a> 文字')}</p>"
    assert mark_html(html) == '<h1><span data-zh-seg="0">标题</span></h1><p><span data-zh-seg="1">一段 <a href=x>链接</a> 文字</span></p>'


def test_marks_across_elements_mark_the_element_that_opens_them() -> None:
    opened, closed = mark(7, "x").split("x")
    html = f"<li><p>{opened}一</p><p>二{closed}</p></li>"
    assert mark_html(html) == '<li data-zh-seg="7"><p>一</p><p>二</p></li>'


def test_marks_in_attributes_code_and_titles_are_removed() -> None:
    alt = mark(2, "图")
    html = f'<p><img alt="{alt}" src="a.png"><code>{mark(3, "c")}</code></p><title>{mark(4, "t")}</title>'
    out = mark_html(html)
    assert out == '<p><img alt="图" src="a.png"><code>c</code></p><title>t</title>'
    assert strip_marks(f"a{mark(12, 'b')}c") == "abc"


def test_the_html_marker_is_linear() -> None:
    from tests.growth import assert_linear, growth_ratios

    def page(n: int) -> str:  # unclosed marks and stray "<": the worst the tokenizer meets
        return ("<p>" + mark(1, "字 <b>粗</b>")) * n + "<" * n + "</p>" * n

    assert_linear("mark_html", lambda: growth_ratios(page, 2000, mark_html))


def test_the_queue_puts_stale_reviews_first_then_the_least_confident() -> None:
    from mkdocs_zh_translate.review.segview import QueueItem, worst_first

    items = [
        QueueItem("a.md", 0, "machine", -0.2, "A", "甲"),
        QueueItem("a.md", 1, "machine", None, "B", "乙"),
        QueueItem("b.md", 0, "stale", -0.01, "C", "丙"),
        QueueItem("b.md", 1, "suggested", -0.9, "D", "丁"),
        QueueItem("b.md", 2, "machine", -0.5, "E", "戊"),
    ]
    assert [i.english for i in worst_first(items)] == ["C", "D", "E", "A", "B"]


def test_untrusted_text_reaches_the_queue_and_the_data_island_as_text_only() -> None:
    from mkdocs_zh_translate.review.queuepage import render_queue
    from mkdocs_zh_translate.review.server import config_script

    evil = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    item = {"page": "a.md", "index": 0, "state": evil, "confidence": None, "english": evil, "text": evil,
            "url": '/zh/"><script>alert(3)</script>'}
    page = render_queue([item])
    assert "<script>" not in page and "<img" not in page and 'href="/zh/&quot;&gt;' in page
    island = config_script({"page": "</script><script>alert(4)</script>", "token": "t"})
    assert island.count("</script>") == 1 and json.loads(island[island.index(">") + 1 : -len("</script>")])["page"]


# -- the save rules ----------------------------------------------------------------------------------


def _unit(text: str) -> Unit:
    segment = segment_markdown(text + "\n", front_matter=False).segments[0]
    return Unit(text, None, segment.text, segment.kind, segment, [("docs/guide.md", "3")], [0])


def test_a_save_writes_one_entry_of_a_new_file_that_msgfmt_accepts(tmp_path: Path) -> None:
    review = tmp_path / "translations" / "zh"
    path = review / "guide" / "page.md.po"
    assert save_review(review, path, _unit("See [the docs](x.md) now."), "现在就看[文档](x.md)。", "") is True
    po = polib.pofile(str(path))
    assert [(e.msgid, e.msgstr, e.flags) for e in po] == [("See [the docs](x.md) now.", "现在就看[文档](x.md)。", [])]
    assert po.metadata["Language"] == "zh_CN"
    if shutil.which("msgfmt"):
        result = subprocess.run(["msgfmt", "-c", "-o", os.devnull, str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("现在就看文档。", "lost the link"),
        ("现在就看[文档](https://evil.example)。", "link"),
        ("现在就看[文档](x.md)\u202e。", "invisible control"),
        ("现在就看[文档](x.md)\ufdd0。", "noncharacters"),
        ("  ", "empty"),
    ],
)
def test_an_edit_that_changes_markup_or_hides_characters_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    review = tmp_path / "translations"
    with pytest.raises(EditRefused, match=reason):
        save_review(review, review / "p.md.po", _unit("See [the docs](x.md) now."), text, "")
    assert not review.exists()


def test_a_file_changed_on_disk_between_read_and_write_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    review = tmp_path / "translations"
    path = review / "p.md.po"
    unit = _unit("Hello there.")
    save_review(review, path, unit, "你好。", "")
    real = edit.load_po

    def then_an_editor_saves(*args: Any) -> Any:
        read = real(*args)
        path.write_text(path.read_text(encoding="utf-8").replace("你好。", "您好。"), encoding="utf-8")
        return read

    monkeypatch.setattr(edit, "load_po", then_an_editor_saves)
    version = entry_version(polib.pofile(str(path)).find("Hello there."))
    with pytest.raises(EditRefused, match="changed on disk"):
        save_review(review, path, unit, "嗨。", version)
    assert polib.pofile(str(path)).find("Hello there.").msgstr == "您好。"


def test_an_entry_another_editor_changed_since_the_panel_showed_it_is_not_replaced(tmp_path: Path) -> None:
    review = tmp_path / "translations"
    path = review / "p.md.po"
    unit = _unit("Hello there.")
    save_review(review, path, unit, "你好。", "")
    seen = entry_version(polib.pofile(str(path)).find("Hello there."))
    po = polib.pofile(str(path))
    po.find("Hello there.").msgstr = "您好。"
    po.save()
    with pytest.raises(EditRefused, match="changed on disk since the panel showed it"):
        save_review(review, path, unit, "嗨。", seen)
    assert polib.pofile(str(path)).find("Hello there.").msgstr == "您好。"


def test_a_save_never_writes_through_a_link_out_of_the_review_directory(tmp_path: Path) -> None:
    review = tmp_path / "translations"
    review.mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (review / "guide").symlink_to(outside)
    with pytest.raises(Exception, match="symbolic link"):
        save_review(review, review / "guide" / "p.md.po", _unit("Hello there."), "你好。", "")
    assert not list(outside.iterdir())


# -- the review build and the server ------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from mkdocs_zh_translate.plugin.reviewsite import open_review_site
    from mkdocs_zh_translate.review.server import ReviewServer

    root = tmp_path_factory.mktemp("serve")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        config = write_site(root, pages=PAGES)
        build_in_process(config)
        assert cli_main(["review", "sync", "-f", str(config)]) == 0
        server = ReviewServer(0)
        site = open_review_site(config, server.url)
        server.backend = site
        server.start()
        try:
            yield server
        finally:
            server.stop()
            site.close()


def _request(server: Any, method: str, path: str, body: object = None, **headers: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    sent = {"Host": f"127.0.0.1:{server.port}", **headers}
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    text = response.read().decode("utf-8")
    connection.close()
    return response.status, text


def test_the_server_listens_on_loopback_only_and_pages_carry_marks_as_spans(served: Any) -> None:
    assert served.httpd.server_address[0] == "127.0.0.1"
    status, page = _request(served, "GET", "/zh/guide/")
    assert status == 200
    assert '<span data-zh-seg="1">' in page and _no_marks(page)
    assert 'id="zh-review-config"' in page and served.token in page


def test_the_shipped_build_has_no_marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    build_in_process(config)
    for page in (tmp_path / "site" / "zh").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "data-zh-seg" not in text and _no_marks(text), page


def test_another_host_is_refused_even_for_reading(served: Any) -> None:
    status, _text = _request(served, "GET", "/zh/guide/", Host="rebind.example:80")
    assert status == 403
    status, _text = _request(served, "GET", "/_review/api/segment?page=guide.md&index=1")
    assert status == 403  # no token


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "application/json"}, 403),
        ({"Content-Type": "application/json", "X-Review-Token": "guess"}, 403),
        ({"Content-Type": "application/x-www-form-urlencoded", "X-Review-Token": "TOKEN"}, 415),
        ({"Content-Type": "application/json", "X-Review-Token": "TOKEN", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "application/json", "X-Review-Token": "TOKEN", "Sec-Fetch-Site": "cross-site"}, 403),
    ],
)
def test_writes_need_the_token_json_and_the_same_origin(served: Any, headers: dict[str, str], status: int) -> None:
    headers = {k: served.token if v == "TOKEN" else v for k, v in headers.items()}
    body = {"page": "index.md", "index": 1, "text": "欢迎。", "version": None}
    assert _request(served, "POST", "/_review/api/save", body, **headers)[0] == status
    po = polib.pofile(str(Path("translations/zh/index.md.po").resolve()))
    assert po.find("Welcome to the demo site.").msgstr != "欢迎。"


def test_files_outside_the_built_site_are_not_served(served: Any) -> None:
    for path in ("/../mkdocs.yml", "/%2e%2e/mkdocs.yml", "/zh/../../mkdocs.yml"):
        assert _request(served, "GET", path)[0] == 404


def test_a_save_keeps_what_another_editor_saved_in_the_same_file(served: Any) -> None:
    path = Path("translations/zh/guide.md.po").resolve()
    token = {"X-Review-Token": served.token}
    status, text = _request(served, "GET", "/_review/api/segment?page=guide.md&index=1", **token)
    assert status == 200
    view = json.loads(text)
    assert view["english"] == "First paragraph of the guide." and view["state"] == "machine"
    po = polib.pofile(str(path))  # Poedit saves another entry meanwhile
    po.find("Guide").msgstr, po.find("Guide").flags = "指南", []
    po.save()
    body = {"page": "guide.md", "index": 1, "text": "指南第一段。", "version": view["version"]}
    status, text = _request(served, "POST", "/_review/api/save", body, **token, **{"Content-Type": "application/json"})
    assert status == 200, text
    po = polib.pofile(str(path))
    assert po.find("Guide").msgstr == "指南" and po.find("First paragraph of the guide.").msgstr == "指南第一段。"
    status, page = _request(served, "GET", "/zh/guide/")
    assert "指南第一段。" in page


def test_serve_refuses_a_bad_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["review", "serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--port 70000" in err[0]


def test_a_page_whose_po_file_another_editor_saved_is_built_again_on_reload(served: Any) -> None:
    path = Path("translations/zh/index.md.po").resolve()
    po = polib.pofile(str(path))
    po.find("Home").msgstr, po.find("Home").flags = "主页（由 Poedit 保存）", []
    po.save()
    status, page = _request(served, "GET", "/zh/")
    assert status == 200 and "主页（由 Poedit 保存）" in page


def test_a_malformed_po_file_is_one_line_in_the_panel_not_a_traceback(served: Any) -> None:
    path = Path("translations/zh/index.md.po").resolve()
    kept = path.read_bytes()
    try:
        path.write_text('msgid "a"\nmsgstr "b\n', encoding="utf-8")
        status, text = _request(served, "GET", "/_review/api/segment?page=index.md&index=1",
                                **{"X-Review-Token": served.token})
        assert status == 409
        error = json.loads(text)["error"]
        assert "index.md.po:2" in error and "Traceback" not in error
        assert _request(served, "GET", "/zh/")[0] == 200  # the last build is still served
    finally:
        path.write_bytes(kept)


def test_a_page_built_again_after_a_save_takes_no_review_the_full_build_would_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another page's review of the same English stays that page's: rebuilding one page alone
    must not see the other page's file as orphaned (its reviews 'moved away')."""
    from mkdocs_zh_translate.plugin.reviewsite import open_review_site

    monkeypatch.chdir(tmp_path)
    pages = {"index.md": "# Home\n\nShared sentence here.\n", "guide.md": "# Guide\n\nShared sentence here.\n\nOther text.\n"}
    config = write_site(tmp_path, pages=pages)
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    home = polib.pofile("translations/zh/index.md.po")
    home.find("Shared sentence here.").msgstr, home.find("Shared sentence here.").flags = "首页的审校。", []
    home.save()
    guide = polib.pofile("translations/zh/guide.md.po")
    guide.remove(guide.find("Shared sentence here."))  # written before the sentence was added here
    guide.save()
    site = open_review_site(config, "http://127.0.0.1:9/")
    try:
        built = (site.site_dir / "zh" / "guide" / "index.html").read_text(encoding="utf-8")
        assert "首页的审校。" not in built
        index = next(i for i in range(10) if site.segment("guide.md", i)["english"] == "Other text.")
        site.save("guide.md", index, "其他文字。", None)
        rebuilt = (site.site_dir / "zh" / "guide" / "index.html").read_text(encoding="utf-8")
        assert "其他文字。" in rebuilt and "首页的审校。" not in rebuilt
    finally:
        site.close()


def test_the_command_serves_on_loopback_and_removes_its_build_when_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse
    import re
    import tempfile
    import threading
    import time
    import urllib.request

    from mkdocs_zh_translate.cli.reviewserve import run_serve

    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    stop = threading.Event()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(run_serve(argparse.Namespace(port=0), config, stop)))
    thread.start()
    try:
        out, deadline = "", time.monotonic() + 120
        while "review serve:" not in out and time.monotonic() < deadline and thread.is_alive():
            time.sleep(0.2)
            out += capsys.readouterr().out
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", out)
        assert url is not None, out
        assert list(scratch.glob("zh-translate-review-serve-*"))
        with urllib.request.urlopen(url.group(0) + "zh/", timeout=30) as response:
            assert 'data-zh-seg="' in response.read().decode()
    finally:
        stop.set()
        thread.join(60)
    assert result == [0]
    assert not list(scratch.glob("zh-translate-review-serve-*"))
