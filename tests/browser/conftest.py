"""One headless Chromium for the browser tests (``make test`` installs it when absent)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.chromium import Chromium


@pytest.fixture(scope="session")
def browser() -> Iterator[Chromium]:
    """A browser shared by the session: pages are opened one after another."""
    with Chromium() as chromium:
        yield chromium
