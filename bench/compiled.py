"""The optional compiled build of the rules modules: ``make compiled``, and its check in ``make test``.

``python -m bench.compiled build`` compiles ``MODULES`` with mypyc (it ships with mypy, a dev
dependency) into ``oracle/_compiled/``, which git ignores and ``oracle/build.py`` chooses at
import. It is skipped, with a message and exit 0, where no C compiler or no Python headers
exist (the pure modules run there, as black and mypy fall back), and when the build is up to
date with ``oracle/*.py``.

``python -m bench.compiled check`` runs, under ``CROUPIER_BUILD=compiled``: ``croupier
--version``, ``croupier vectors check`` of the shipped corpus, the corpus rebuilt under both
builds and compared byte for byte, and ``tests/oracle``. The pure build, the reference, is
the rest of ``make test``. Without a compiler it says why it skips and exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from croupier.oracle import build

ROOT = Path(__file__).resolve().parents[1]
#: The compiled modules: the rules and what they build rounds from. The profile loader, the
#: parameters, basic strategy and the returns tables are off the hot path and stay pure, and
#: so do the exceptions (mypyc's native classes lose the class attribute ``reason`` that each
#: subclass of ``OracleError`` overrides).
MODULES = (
    "immutable",
    "cards",
    "decision",
    "clauses",
    "provenance",
    "money",
    "settlement",
    "shoe",
    "blackjack",
    "baccarat",
    "roulette",
    "rounds",
    "verify",
)

#: What ``check`` runs pytest on under the compiled build (with Hypothesis' quick profile, but
#: another ``HYPOTHESIS_PROFILE`` given): ``tests/oracle`` but basic strategy's house edges,
#: which compute the pure ``basic_strategy`` module's tables for minutes and play no round,
#: a bet made with a stake that is no int (mypyc's classes check their fields' types, so the
#: compiled ``BaccaratBet`` refuses it when made, ``TypeError``, not the round).
TESTS = (
    "tests/oracle",
    "-k",
    (
        "not wizard_of_odds and not published_effect and not rules_worth_add_up"
        " and not stake_that_is_not_whole_minor_units"
    ),
)


def cannot_compile() -> str | None:
    """Why no compiled build can be made on this machine, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} is not on PATH)"
    for tool in ("mypyc", "setuptools"):
        if importlib.util.find_spec(tool) is None:
            return f"no {tool} in this environment (make venv installs it)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers} is missing)"
    return None


def _manifest() -> dict[str, object] | None:
    try:
        loaded: dict[str, object] = json.loads(build.MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return loaded


def up_to_date() -> bool:
    """Whether ``oracle/_compiled/`` holds ``MODULES`` built from the current sources."""
    manifest = _manifest()
    return (
        manifest is not None
        and manifest.get("modules") == list(MODULES)
        and manifest.get("sources") == build.source_digests()
    )


def compile_modules() -> None:
    """Compile ``MODULES`` with mypyc, then replace ``oracle/_compiled/`` with the result."""
    from mypyc.build import mypycify  # noqa: PLC0415 - a dev tool, needed here only
    from setuptools import Distribution  # type: ignore[import-untyped]  # noqa: PLC0415

    digests = build.source_digests()  # before compiling: a source edited meanwhile is stale
    with tempfile.TemporaryDirectory(prefix="croupier-mypyc-") as tmp:
        work = Path(tmp)
        said = io.StringIO()
        with contextlib.redirect_stdout(said):  # mypyc's notes ("generator treated as list")
            extensions = mypycify(
                # Through the checkout's proto/croupier/ symlink, so that mypy names each
                # module as it is imported (croupier.oracle.NAME), not oracle.NAME.
                [f"proto/croupier/oracle/{name}.py" for name in MODULES],
                opt_level="3",
                multi_file=True,
                target_dir=str(work / "c"),
            )
        distribution = Distribution({"name": "croupier-compiled", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "tmp")
        command.parallel = os.cpu_count() or 1
        distribution.run_command("build_ext")
        library = [p.name for p in (work / "lib").glob("*__mypyc*")]
        if len(library) != 1:
            raise SystemExit(f"mypyc made {library or 'no'} shared library, expected one")
        shutil.rmtree(build.DIRECTORY, ignore_errors=True)
        shutil.copytree(work / "lib", build.DIRECTORY)
    manifest = {
        "modules": list(MODULES),
        "library": library[0],
        "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "sources": digests,
    }
    build.MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def build_command() -> int:
    """``make compiled``: build, or say why not (exit 0 either way but on a failed build)."""
    why = cannot_compile()
    if why is not None:
        print(f"compiled build skipped: {why}; the pure Python modules run")
        return 0
    if up_to_date():
        print(f"compiled build up to date ({len(MODULES)} modules in {build.DIRECTORY.name}/)")
        return 0
    started = time.perf_counter()
    print(
        f"compiling {len(MODULES)} rules modules with mypyc (under a minute on two cores)",
        flush=True,
    )
    os.chdir(ROOT)  # mypyc takes the paths, and mypy its configuration, from the checkout
    compile_modules()
    print(f"compiled build made in {time.perf_counter() - started:.0f} s")
    return 0


def _run(what: str, argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    print(f"  {what}: {'ok' if done.returncode == 0 else 'FAILED'} in {seconds:.0f} s", flush=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-4000:] + done.stderr[-4000:])
    return done


def _env(which: str) -> dict[str, str]:
    return {**os.environ, build.ENV: which}


def _same_corpus(tmp: Path) -> bool:
    """The shipped corpus rebuilt under each build, in parallel: byte-identical files."""
    argv = [
        sys.executable,
        "-m",
        "croupier.conformance.cli",
        "-q",
        "vectors",
        "build-corpus",
        "--out",
    ]
    runs = {
        which: subprocess.Popen(
            [*argv, str(tmp / which)],
            cwd=ROOT,
            env=_env(which),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for which in ("pure", "compiled")
    }
    started = time.perf_counter()
    failed = [w for w, run in runs.items() if run.wait() != 0]
    for which in failed:
        stderr = runs[which].stderr
        print(f"  build-corpus ({which}) failed: {stderr.read()[-2000:] if stderr else ''}")
    if failed:
        return False
    pure, compiled = tmp / "pure", tmp / "compiled"
    names = sorted(str(p.relative_to(pure)) for p in pure.rglob("*") if p.is_file())
    other = sorted(str(p.relative_to(compiled)) for p in compiled.rglob("*") if p.is_file())
    differ = [
        n for n in names if n in other and not filecmp.cmp(pure / n, compiled / n, shallow=False)
    ]
    differ += sorted(set(names) ^ set(other))
    seconds = time.perf_counter() - started
    same = bool(names) and not differ
    verdict = "byte-identical" if same else "DIFFERENT"
    print(f"  corpus rebuilt under both builds: {len(names)} files {verdict} in {seconds:.0f} s")
    for name in differ:
        print(f"    differs: {name}")
    return same


def check_command(tests: Sequence[str]) -> int:
    """``make test``'s compiled half: the corpus and the oracle tests under the compiled build."""
    why = cannot_compile()
    if why is not None:
        print(f"compiled build check skipped: {why}; only the pure Python build was tested")
        return 0
    if not up_to_date():
        print("the compiled build is absent or stale: run make compiled first")
        return 1
    print(f"the compiled build ({len(MODULES)} modules) against the pure reference:", flush=True)
    env = _env("compiled")
    croupier = [sys.executable, "-m", "croupier.conformance.cli"]
    version = _run("croupier --version", [*croupier, "--version"], env)
    ok = version.returncode == 0 and f"({build.COMPILED})" in version.stdout
    if version.returncode == 0 and not ok:
        print(f"    it says {version.stdout.strip()!r}, not the compiled build")
    ok = (
        _run("croupier vectors check", [*croupier, "-q", "vectors", "check"], env).returncode == 0
        and ok
    )
    with tempfile.TemporaryDirectory(prefix="croupier-corpus-") as tmp:
        ok = _same_corpus(Path(tmp)) and ok
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
    quick = {**env, "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "dev")}
    ok = _run(f"pytest {' '.join(tests)}", pytest, quick).returncode == 0 and ok
    print("compiled build: agrees with the pure build" if ok else "compiled build: FAILED")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``build`` or ``check``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("build", "check"))
    parser.add_argument(
        "tests", nargs="*", default=list(TESTS), help=f"what check runs pytest on ({TESTS})"
    )
    args = parser.parse_args(argv)
    return build_command() if args.command == "build" else check_command(args.tests)


if __name__ == "__main__":
    raise SystemExit(main())
