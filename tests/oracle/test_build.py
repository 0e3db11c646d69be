"""``oracle.build`` chooses the build: the pure reference, or a compiled build only if fresh."""

from __future__ import annotations

import importlib.machinery
import json
from pathlib import Path

import pytest

from croupier.oracle import build


@pytest.fixture
def manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where select() looks for a compiled build: an empty directory of the test's."""
    monkeypatch.setattr(build, "DIRECTORY", tmp_path)
    monkeypatch.setattr(build, "MANIFEST", tmp_path / "manifest.json")
    return tmp_path / "manifest.json"


def test_pure_is_chosen_by_name_whatever_is_built(
    manifest: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest.write_text("not json", encoding="utf-8")
    monkeypatch.setenv(build.ENV, "pure")
    assert build.select() == "pure Python"


def test_without_a_compiled_build_the_pure_modules_run_unless_compiled_is_required(
    manifest: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(build.ENV, raising=False)
    assert build.select() == "pure Python"
    monkeypatch.setenv(build.ENV, "compiled")
    with pytest.raises(ImportError, match="compiled build is absent"):
        build.select()


def test_a_stale_compiled_build_is_never_used(
    manifest: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = build.source_digests()
    sources["blackjack.py"] = "0" * 64  # built from another blackjack.py
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    built = {"modules": ["blackjack"], "library": "x__mypyc" + suffix, "suffix": suffix}
    manifest.write_text(json.dumps({**built, "sources": sources}), encoding="utf-8")
    monkeypatch.delenv(build.ENV, raising=False)
    assert build.select() == (
        "pure Python; the compiled build is stale "
        "(oracle/*.py changed since it was built: make compiled)"
    )
    monkeypatch.setenv(build.ENV, "compiled")
    with pytest.raises(
        ImportError, match="CROUPIER_BUILD=compiled, but the compiled build is stale"
    ):
        build.select()


def test_an_unknown_choice_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(build.ENV, "fast")
    with pytest.raises(ImportError, match="CROUPIER_BUILD='fast': expected 'pure' or 'compiled'"):
        build.select()


def test_the_sources_are_the_rules_modules_not_the_package_or_this_chooser() -> None:
    names = set(build.source_digests())
    assert {"blackjack.py", "baccarat.py", "roulette.py", "money.py"} <= names
    assert not names & {"__init__.py", "build.py"}
