"""Who may import whom: the import-linter contracts of ``make lint`` hold, and they bite.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``). Each bad import below is
planted in a scratch copy of the tree, and ``lint-imports`` must then fail naming the broken
contract: a contract that a bad import cannot break checks nothing.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "proto")}
    return subprocess.run(  # noqa: S603 - our own venv's lint-imports, on our own tree
        [str(LINT_IMPORTS), "--no-cache", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the packages and the contracts, to plant bad imports in."""
    tree = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", "vectors", "*.jsonl")
    for package in ("oracle", "clients", "conformance"):
        shutil.copytree(ROOT / package, tree / package, ignore=ignore)
    # The links proto/croupier/{oracle,clients,conformance} stay links, to the copies above.
    shutil.copytree(
        ROOT / "proto" / "croupier", tree / "proto" / "croupier", ignore=ignore, symlinks=True
    )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_tree_keeps_every_contract(scratch: Path) -> None:
    result = _lint(scratch)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


BAD_IMPORTS = [
    pytest.param("oracle/blackjack.py", "import grpc", "The rules core", id="core-imports-grpc"),
    pytest.param(
        "oracle/rounds.py",
        "from croupier.v1 import round_pb2",
        "The rules core",
        id="core-imports-generated-code",
    ),
    pytest.param(
        "oracle/verify.py",
        "from croupier.oracle.service import convert",
        "Inside oracle/",
        id="core-imports-its-edge",
    ),
    pytest.param(
        "oracle/blackjack.py",
        "from croupier.oracle import roulette",
        "Inside oracle/",
        id="one-game-imports-another",
    ),
    pytest.param(
        "clients/demo_engine/rules.py",
        "from croupier.oracle import cards",
        "clients/",
        id="demo-engine-imports-the-oracle",
    ),
    pytest.param(
        "clients/adapter.py",
        "from croupier.conformance import runner",
        "Layers",
        id="kit-imports-the-suite",
    ),
    pytest.param(
        "oracle/service/server.py",
        "from croupier.conformance import vectors",
        "Layers",
        id="service-imports-the-suite",
    ),
    pytest.param(
        "conformance/reports/junit.py",
        "from croupier.conformance import runner",
        "The reports",
        id="a-report-runs-vectors",
    ),
    pytest.param(
        "conformance/runner.py",
        "from croupier.conformance.reports import summary",
        "Nothing that runs",
        id="the-runner-writes-a-report",
    ),
    pytest.param(
        "conformance/audit/replay.py",
        "from croupier.conformance.audit import stream",
        "Inside conformance/audit/",
        id="a-shard-imports-the-log-order",
    ),
]


@pytest.mark.parametrize(("module", "statement", "contract"), BAD_IMPORTS)
def test_a_bad_import_breaks_a_contract(
    scratch: Path, module: str, statement: str, contract: str
) -> None:
    path = scratch / module
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(f"{statement}  # planted by the test\n{original}", encoding="utf-8")
        result = _lint(scratch)
    finally:
        path.write_text(original, encoding="utf-8")
    assert result.returncode != 0, result.stdout
    # The report lists the broken contracts by name after its summary.
    _, _, broken = result.stdout.partition("Broken contracts")
    assert contract in broken, result.stdout
    assert "(l.1)" in broken, result.stdout  # the planted line is the one named


#: The project's own packages: their private modules are theirs to use.
OWN = frozenset({"oracle", "clients", "conformance", "croupier", "tests", "bench"})
#: Private packages with no public spelling of what is taken from them: pytest's plugin
#: keys and report classes (``xml_key``, ``ReprEntryNative``) live only in ``_pytest``, and
#: ``_typeshed`` holds typing names only (imported for the type checker, never at run time).
WAIVED = frozenset({"_pytest", "_typeshed"})


def _private_imports(source: str) -> list[str]:
    """What a source imports from another package whose dotted name has a part starting ``_``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.extend(
            name
            for name in names
            if name.split(".")[0] not in OWN
            and name.split(".")[0] not in WAIVED
            and any(part.startswith("_") and part != "__future__" for part in name.split("."))
        )
    return found


def test_no_module_imports_a_private_module_of_a_package() -> None:
    # A private module (grpc_reflection's _async...) may change or go in any release.
    found = {
        str(path.relative_to(ROOT)): names
        for package in ("oracle", "clients", "conformance")
        for path in sorted((ROOT / package).rglob("*.py"))
        # The generated code (conformance/v1/*_pb2*.py) is protoc's, not ours to change.
        if "_pb2" not in path.name and (names := _private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_a_private_import_is_seen() -> None:
    assert _private_imports("from grpc_reflection.v1alpha import _async as aio\n") == [
        "grpc_reflection.v1alpha._async"
    ]
    assert _private_imports("import grpc._cython\nfrom __future__ import annotations\n") == [
        "grpc._cython"
    ]
    assert _private_imports("from croupier.conformance.handwritten import _table\n") == []


def test_a_bare_folder_name_is_banned(tmp_path: Path) -> None:
    """``make lint`` refuses ``oracle``, ``clients`` and ``conformance`` outside ``croupier``."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from oracle.money import minor_units\n"
        "import clients.adapter\n"
        "from conformance import cli\n"
        "from croupier.oracle import money\n",
        encoding="utf-8",
    )
    result = subprocess.run(  # noqa: S603 - our own venv's ruff, with the project's configuration
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
         str(ROOT / "pyproject.toml"), "--select", "TID251", "--output-format", "concise",
         str(planted)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    banned = [line for line in result.stdout.splitlines() if "TID251" in line]
    assert [line.split(":")[1] for line in banned] == ["1", "2", "3"], result.stdout
