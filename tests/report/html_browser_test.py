"""The HTML report in a real browser: headless Chromium loads it from disk
(no network), runs its script without a console message, and the rendered
DOM shows the totals, the charts and every ledger row."""
from __future__ import annotations

import os
import re
import struct

import pytest

from tests.conftest import REPO
from tests.report.browser import load, require_chromium, screenshot
from tests.report.helpers import FIXTURES, rendered, report_of

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    return require_chromium()


@pytest.fixture
def page(tmp_path, monkeypatch):
    monkeypatch.chdir(FIXTURES / "legacy")
    report = report_of(".", rocm_version="5.7")
    path = tmp_path / "report.html"
    path.write_text(rendered(report, "html"), encoding="utf-8")
    return report, path


def test_page_renders_without_console_messages(browser, page):
    report, path = page
    loaded = load(browser, path)
    assert loaded.console == []
    dom = loaded.dom
    assert 'data-ready="yes"' in dom  # the script ran to its end
    assert re.search(r'id="total-conversion">55\.0 %<', dom)
    assert re.search(r'id="total-reuse">72\.2 %<', dom)
    assert re.search(rf'id="total-ledger">{len(report.ledger)}<', dom)
    rows = re.findall(r'<tr class="ledger-row">.*?<code>([^<]+)</code>', dom)
    assert rows == [row.cuda_name for row in report.ledger]
    for chart in ("chart-libraries", "chart-ledger", "chart-directories"):
        assert re.search(rf'<svg id="{chart}"[^>]*>\s*<text', dom), chart


def test_a_script_error_would_be_caught(browser, tmp_path):
    # The check above is only worth something if console errors are seen.
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><p>x</p><script>undefinedFunction();</script>")
    assert any("Uncaught" in m for m in load(browser, bad).console)


def test_screenshot_of_the_examples_report(browser, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    path = tmp_path / "examples.html"
    path.write_text(rendered(report_of("examples"), "html"), encoding="utf-8")
    shot = tmp_path / "examples.png"
    screenshot(browser, path, shot)
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert (width, height) == (1280, 2600)
    keep = os.environ.get("HIPPORT_KEEP_SCREENSHOT")
    if keep:  # for a person to look at: HIPPORT_KEEP_SCREENSHOT=/tmp/report.png
        shot.replace(keep)
