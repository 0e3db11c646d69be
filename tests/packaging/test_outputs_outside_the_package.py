"""Commands never write inside an installed package; the documents it carries are readable.

The wheel itself is built and installed by ``test_wheel.py``; these run in-process, with the
checkout made to look like an installed package where that is the point.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.conformance import packaged
from croupier.conformance.cli import main
from croupier.conformance.vectors import CORPUS_DIR

# The module, not the click group of the same name that conformance.cli hands on.
vectors_cli = importlib.import_module("croupier.conformance.cli.vectors")

ROOT = Path(__file__).resolve().parents[2]


def test_the_checkout_is_seen_as_one() -> None:
    assert packaged.checkout() == ROOT


def test_build_corpus_writes_to_its_out_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[Path] = []
    monkeypatch.setattr(vectors_cli, "build_corpus", lambda d: written.append(d) or {})
    result = CliRunner().invoke(main, ["vectors", "build-corpus", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    assert written == [tmp_path / "c"]


def test_an_installed_package_is_not_rewritten(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[Path] = []
    monkeypatch.setattr(vectors_cli, "build_corpus", lambda d: written.append(d) or {})
    monkeypatch.setattr(vectors_cli, "checkout", lambda: None)
    result = CliRunner().invoke(main, ["vectors", "build-corpus"])
    assert result.exit_code == 2
    assert "give --out DIR" in result.output
    assert written == []
    frozen = CliRunner().invoke(main, ["vectors", "freeze"])
    assert frozen.exit_code == 2
    assert "installed package" in frozen.output


def test_in_a_checkout_build_corpus_defaults_to_its_corpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[Path] = []
    monkeypatch.setattr(vectors_cli, "build_corpus", lambda d: written.append(d) or {})
    result = CliRunner().invoke(main, ["vectors", "build-corpus"])
    assert result.exit_code == 0, result.output
    assert written == [CORPUS_DIR]


def test_audit_guide_prints_the_regulators_guide() -> None:
    result = CliRunner().invoke(main, ["audit", "guide"])
    assert result.exit_code == 0, result.output
    assert result.output == (ROOT / "docs" / "AUDIT.md").read_text(encoding="utf-8")


def test_a_document_comes_from_the_package_when_no_checkout_holds_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(packaged, "checkout", lambda: None)
    # The checkout's conformance/ has no RULES.md copy (only the wheel does): nothing found.
    assert packaged.document("RULES.md") is None
    monkeypatch.setattr(packaged, "checkout", lambda: tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "RULES.md").write_text("# rules\n", encoding="utf-8")
    assert packaged.document("RULES.md") == "# rules\n"
