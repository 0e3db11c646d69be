"""The instrument first: what the browser tests read is what a reader sees."""

from __future__ import annotations

import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from croupier.conformance.reports.html.page import page
from tests.browser.chromium import BrowserError, Chromium


def _page(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "page.html"
    path.write_text(page(title="probe", body=body), encoding="utf-8")
    return path


def test_text_is_what_renders_not_what_the_source_holds(browser: Chromium, tmp_path: Path) -> None:
    browser.open(
        _page(
            tmp_path,
            '<div id="v">shown<span style="display:none"> hidden</span></div>'
            '<p id="gone" style="display:none">gone</p>',
        )
    )
    assert browser.text("#v") == "shown"
    assert browser.visible("#v")
    assert not browser.visible("#gone")
    assert browser.count("p") == 1
    with pytest.raises(BrowserError, match="no element matches"):
        browser.text("#absent")


def test_a_verdict_is_legible_on_its_colour(browser: Chromium, tmp_path: Path) -> None:
    """The shared style: white words on the verdict's colour, not green on green."""
    browser.open(_page(tmp_path, '<div id="v" class="verdict pass">CONFORMANT</div>'))
    assert browser.style("#v", "color") == "rgb(255, 255, 255)"
    assert browser.style("#v", "background-color") == "rgb(26, 127, 55)"


def test_the_page_fetches_nothing(browser: Chromium, tmp_path: Path) -> None:
    """The page's policy forbids fetches: a report never loads a remote asset.

    The same image in a page without the policy is fetched, so the server does see requests.
    """
    requests: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        image = f'<img id="i" src="http://127.0.0.1:{server.server_port}/x.png" alt="">'
        browser.open(_page(tmp_path, image))
        assert requests == []
        bare = tmp_path / "bare.html"
        bare.write_text(f"<!DOCTYPE html><html><body>{image}</body></html>", encoding="utf-8")
        browser.open(bare)
        for _ in range(100):
            if requests:
                break
            time.sleep(0.05)
        assert requests == ["/x.png"]
    finally:
        server.shutdown()
        server.server_close()


def test_a_screenshot_is_a_png_of_the_page(browser: Chromium, tmp_path: Path) -> None:
    browser.open(_page(tmp_path, '<div id="v" style="width:300px;height:120px">x</div>'))
    shot = tmp_path / "shot.png"
    browser.screenshot(shot, selector="#v")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (300, 120)
