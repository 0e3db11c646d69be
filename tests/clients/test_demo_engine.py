"""The demo engine certifies conformant; engine code stays independent of the oracle."""

from __future__ import annotations

import ast
import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from conformance.runner import Outcome, RunConfig, run
from conformance.vectors import load_corpus
from oracle.profile import resolve_profile

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
#: The one module of the engines' packages that may use the suite: it runs the suite.
ZOO = CLIENTS / "mutants" / "zoo.py"
FORBIDDEN = ("oracle", "conformance")


@pytest.mark.slow
def test_the_demo_engine_certifies_conformant_on_the_shipped_corpus() -> None:
    corpus = load_corpus()
    report = asyncio.run(
        run(
            RunConfig(
                vectors=corpus,
                resolve=resolve_profile,
                launch=shlex.join([sys.executable, "-m", "clients.demo_engine"]),
                certify=True,
            )
        )
    )
    bad = [
        (r.vector_id, r.outcome.value, r.clause, r.message)
        for r in report.results
        if r.outcome is not Outcome.PASS
    ]
    assert not bad, bad[:5]
    assert report.conformant
    assert report.count(Outcome.PASS) == len(corpus)
    assert report.describe.name == "croupier-demo-engine"


def _imported(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_code_never_imports_the_oracle_or_the_suite() -> None:
    files = sorted((CLIENTS / "demo_engine").rglob("*.py")) + sorted(
        (CLIENTS / "mutants").rglob("*.py")
    )
    assert ZOO in files
    checked = [path for path in files if path != ZOO]
    assert len(checked) >= 10
    offending = {
        str(path.relative_to(CLIENTS)): name
        for path in checked
        for name in _imported(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if name.split(".")[0] in FORBIDDEN
    }
    assert not offending
    # The scan does see such imports: the zoo has them.
    assert any(n.split(".")[0] in FORBIDDEN for n in _imported(ast.parse(ZOO.read_text())))
