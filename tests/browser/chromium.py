"""Headless Chromium driven over its DevTools pipe: no driver binary, no extra package.

Chromium started with ``--remote-debugging-pipe`` reads DevTools commands on fd 3 and
writes replies and events on fd 4, each a JSON object ended by a NUL byte. That is all the
browser tests need: open a file, read what rendered (``innerText`` leaves out what CSS
hides), and take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Self

#: How long a page may take to load (a whole-corpus certificate is about a megabyte).
LOAD_SECONDS = 30.0

#: Where the project's set-up (``make test``) installs Debian's chromium package.
BINARY = "chromium"

#: The machine's network is closed: without these, Chromium tries (and fails) to reach
#: Google at every start.
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


class BrowserError(Exception):
    """Chromium is missing, died, or answered a command with an error."""


def find_chromium() -> str:
    """The Chromium binary's path; ``BrowserError`` naming the set-up step when absent."""
    path = shutil.which(BINARY)
    if path is None:
        raise BrowserError(
            "chromium is not installed: `make test` installs Debian's chromium package "
            "(or run: apt-get install chromium)"
        )
    return path


class Chromium:
    """One headless browser with one page target; use as a context manager."""

    def __init__(self, *, width: int = 1200, height: int = 900) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="croupier-chromium-")
        self._log = Path(self._profile.name, "stderr.log").open("w+b")  # noqa: SIM115 - closed in close()
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def _wire() -> None:  # pragma: no cover - runs in the child
            # Copies first: either pipe end may itself be fd 3 or 4.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self._process = subprocess.Popen(  # noqa: S603 - our own arguments
            [
                find_chromium(),
                *_FLAGS,
                f"--user-data-dir={self._profile.name}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            # Kept for the error message, should the browser die.
            stderr=self._log,
            # dup2 leaves fds 3 and 4 inheritable; every other descriptor Python opened is
            # close-on-exec already, so nothing else leaks into the browser.
            close_fds=False,
            preexec_fn=_wire,  # noqa: PLW1509 - dup2 before exec, no threads involved
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self._session = ""
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            attached = self.call("Target.attachToTarget", targetId=target, flatten=True)
            self._session = attached["sessionId"]
            self.call("Page.enable")
        except BrowserError:
            self.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the browser and remove its profile directory."""
        os.close(self._to_browser)
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._from_browser)
        self._log.close()
        self._profile.cleanup()

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and wait for its reply (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self._session:
            message["sessionId"] = self._session
        try:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise self._died() from None
        while True:
            reply = self._read()
            if reply.get("id") != self._next_id:
                continue
            if "error" in reply:
                raise BrowserError(f"{method}: {reply['error']}")
            result: dict[str, Any] = reply["result"]
            return result

    def _died(self) -> BrowserError:
        """The error of a browser that closed its pipe, with the end of what it printed."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
        self._log.seek(0)
        said = self._log.read()[-2000:].decode(errors="replace").strip()
        return BrowserError(
            f"chromium closed its DevTools pipe (exit code {self._process.poll()}): {said}"
        )

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise self._died()
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        decoded: dict[str, Any] = json.loads(raw)
        return decoded

    def open(self, path: Path) -> None:
        """Load a local file and wait until it has loaded."""
        self.call("Page.navigate", url=path.resolve().as_uri())
        # Navigation returns once the page is committed; a large report is still parsing.
        deadline = time.monotonic() + LOAD_SECONDS
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise BrowserError(f"{path} did not finish loading in {LOAD_SECONDS:g} s")
            time.sleep(0.02)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (returned by value)."""
        reply = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def text(self, selector: str) -> str:
        """The rendered text (``innerText``) of the first element matching ``selector``."""
        value = self.evaluate(
            f"(e => e === null ? null : e.innerText)(document.querySelector({json.dumps(selector)}))"
        )
        if value is None:
            raise BrowserError(f"no element matches {selector!r}")
        return str(value)

    def count(self, selector: str) -> int:
        """How many elements match ``selector``."""
        return int(self.evaluate(f"document.querySelectorAll({json.dumps(selector)}).length"))

    def visible(self, selector: str) -> bool:
        """Whether the first element matching ``selector`` takes up space and is shown.

        Inside a closed ``<details>`` an element keeps its boxes but is not rendered
        (``checkVisibility`` says so): folded is not visible.
        """
        return bool(
            self.evaluate(
                f"(e => e !== null && e.getClientRects().length > 0 && e.offsetWidth > 0"
                f" && e.checkVisibility())"
                f"(document.querySelector({json.dumps(selector)}))"
            )
        )

    def window(self, width: int, height: int) -> None:
        """Show the page in a window of ``width`` by ``height`` CSS pixels (``reset`` undoes it)."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    def reset(self) -> None:
        """Back to the browser's own window size."""
        self.call("Emulation.clearDeviceMetricsOverride")

    def pdf_pages(self) -> tuple[int, bytes]:
        """The page printed to PDF (its print style sheet): the number of pages and the bytes."""
        self.call("Emulation.setEmulatedMedia", media="print")
        try:
            pdf = base64.b64decode(self.call("Page.printToPDF")["data"])
        finally:
            self.call("Emulation.setEmulatedMedia", media="")
        # Every page object says /Type /Page; the one page tree says /Type /Pages.
        return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)), pdf

    def style(self, selector: str, prop: str) -> str:
        """The computed CSS value of ``prop`` on the first element matching ``selector``."""
        return str(
            self.evaluate(
                f"getComputedStyle(document.querySelector({json.dumps(selector)}))"
                f".getPropertyValue({json.dumps(prop)})"
            )
        )

    def screenshot(self, path: Path, *, selector: str = "", max_height: int = 4000) -> None:
        """A PNG of the whole page, or of the element matching ``selector``, cut at ``max_height``."""
        if selector:
            box = self.evaluate(
                f"(r => [r.x + scrollX, r.y + scrollY, r.width, r.height])"
                f"(document.querySelector({json.dumps(selector)}).getBoundingClientRect())"
            )
            x, y, width, height = (float(v) for v in box)
        else:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            x, y, width, height = 0.0, 0.0, float(size["width"]), float(size["height"])
        data = self.call(
            "Page.captureScreenshot",
            format="png",
            captureBeyondViewport=True,
            clip={"x": x, "y": y, "width": width, "height": min(height, max_height), "scale": 1},
        )["data"]
        path.write_bytes(base64.b64decode(data))
