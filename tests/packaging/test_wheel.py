"""The wheel as a vendor installs it: built from this tree, installed in a fresh venv, used elsewhere.

One module-scoped install serves every test here (``make test`` builds and installs once):
the wheel is built without build isolation (hatchling comes with the test group), installed
with ``--no-index --no-deps`` into a new venv, and that venv sees the third-party packages of
the project's own ``.venv`` through a folder of links that leaves out the editable install of
this checkout (nothing is downloaded: a fresh CI machine has those packages from
``make venv``). Every command then runs from a directory outside the checkout, with no
``PYTHONPATH``: what it imports comes from the installed wheel or fails.

The README's commands, one of each kind: profiles, shoe, the regulator's guide, the
descriptor set and TypeScript stubs made from it alone and compiled, the vectors, serve and
certify with every report, a launched demo engine's signed audit log verified and recalled, the
mutant list, explore, the pytest plugin in a vendor's project whose engine uses the adapter
kit, and build-corpus refusing to rewrite the installed package.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier import oracle

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Installed:
    """A venv holding the wheel, and a working directory outside the checkout."""

    venv: Path
    site: Path
    work: Path

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.venv)
        # Lab corpora and strategy tables are cached per user: this user is new.
        env["XDG_CACHE_HOME"] = str(self.work / ".cache")
        env["COLUMNS"] = "200"
        return env

    def run(
        self, *args: str, cwd: Path | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run ``args`` (``croupier ...``, ``python ...``) in the venv, from ``cwd``."""
        command = [self.python if args[0] == "python" else args[0], *args[1:]]
        if command[0] == "croupier":
            command[0] = str(self.venv / "bin" / "croupier")
        return subprocess.run(  # noqa: S603 - our own commands
            command,
            cwd=cwd or self.work,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def ok(self, *args: str, cwd: Path | None = None) -> str:
        done = self.run(*args, cwd=cwd)
        assert done.returncode == 0, (
            f"{shlex.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        return done.stdout


def _links_to_dependencies(target: Path) -> None:
    """Link every package of the project's venv but the editable install of this checkout."""
    target.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    for entry in site.iterdir():
        name = entry.name.lower()
        # The editable install's croupier/ holds only the documents it copies (force-include).
        if name == "croupier" or name.startswith(
            ("croupier-", "_editable_impl_croupier", "__editable__")
        ):
            continue
        if name.endswith(".pth") or name == "__pycache__":
            continue
        (target / entry.name).symlink_to(entry)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(dist), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = dist.glob("croupier-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)  # noqa: S603
    py = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = venv / "lib" / py / "site-packages"
    deps = base / "deps"
    _links_to_dependencies(deps)
    (site / "_croupier_test_dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--quiet", "--no-index", "--no-deps", "--no-compile", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    work = base / "elsewhere"
    work.mkdir()
    return Installed(venv=venv, site=site, work=work)


def test_the_wheel_is_what_is_imported_and_carries_its_documents(installed: Installed) -> None:
    where = installed.ok(
        "python", "-c",
        "import croupier\nfrom croupier import clients, conformance, oracle\n"
        "for m in (clients, conformance, croupier, oracle): print(m.__file__)",
    )  # fmt: skip
    assert all(line.startswith(str(installed.site)) for line in where.split()), where
    assert (installed.site / "croupier" / "conformance" / "AUDIT.md").is_file()
    assert (installed.site / "croupier" / "conformance" / "RULES.md").is_file()
    (info,) = installed.site.glob("croupier-*.dist-info")
    # One top-level name: what the wheel installs in site-packages is croupier and its metadata.
    record = (info / "RECORD").read_text(encoding="utf-8").splitlines()
    tops = {line.split(",")[0].split("/")[0] for line in record}
    assert tops - {".."} == {"croupier", info.name}, tops
    assert (info / "licenses" / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    # Where a vendor finds the project, its documentation, its issues and its changes.
    metadata = (info / "METADATA").read_text(encoding="utf-8").split("\n\n")[0].splitlines()
    urls = dict(
        line.split(": ", 1)[1].split(", ", 1)
        for line in metadata
        if line.startswith("Project-URL: ")
    )
    assert set(urls) == {"Homepage", "Documentation", "Issues", "Changelog"}, urls
    assert urls["Changelog"].endswith("/docs/CHANGES.md")
    # The wheel carries no compiled build (git ignores oracle/_compiled/): the pure modules run.
    assert (
        installed.ok("croupier", "--version").strip()
        == f"croupier {oracle.__version__} (pure Python)"
    )
    guide = installed.ok("croupier", "audit", "guide")
    assert guide == (ROOT / "docs" / "AUDIT.md").read_text(encoding="utf-8")


def test_offline_commands(installed: Installed) -> None:
    listed = json.loads(installed.ok("croupier", "profiles", "list", "--json"))
    assert "blackjack-a" in json.dumps(listed)
    # Roulette: a blackjack profile's page computes its basic strategy's return (seconds).
    assert "C.rou.wheel" in installed.ok("croupier", "profiles", "show", "roulette-c")
    diff = installed.ok("croupier", "profiles", "diff", "blackjack-a", "blackjack-c")
    assert "dealer_hits_soft_17" in diff
    shoe = installed.ok("croupier", "shoe", "--seed", "croupier", "--decks", "6")
    assert len(shoe.split()) >= 312
    shown = installed.ok("croupier", "vectors", "show", "bja-h001")
    assert '"id": "bja-h001"' in shown
    mutants = installed.ok("python", "-m", "croupier.clients.mutants", "--list")
    assert "blackjack-pays-6-5" in mutants


def test_build_corpus_leaves_the_installed_package_alone(installed: Installed) -> None:
    vectors = installed.site / "croupier" / "conformance" / "vectors"
    before = {p.name: p.stat().st_mtime_ns for p in vectors.iterdir()}
    refused = installed.run("croupier", "vectors", "build-corpus")
    assert refused.returncode == 2
    assert "give --out DIR" in refused.stderr + refused.stdout
    assert {p.name: p.stat().st_mtime_ns for p in vectors.iterdir()} == before


def test_serve_certify_and_every_report(installed: Installed) -> None:
    server = subprocess.Popen(  # noqa: S603 - our own command
        [str(installed.venv / "bin" / "croupier"), "serve", "--port", "0"],
        cwd=installed.work, env=installed.env(), stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        ready = server.stdout.readline()
        assert ready.startswith("CROUPIER_ENGINE "), ready
        address = ready.split()[1]
        out = installed.ok(
            "croupier", "certify", "--target", address, "--vector", "bja-h001",
            "--report", "run.jsonl", "--junit", "run.xml", "--html", "run.html",
        )  # fmt: skip
        assert "passed 1 of the 1 vector" in out
    finally:
        server.terminate()
        server.wait(60)
    installed.ok("croupier", "report", "html", "run.jsonl", "-o", "again.html")
    page = (installed.work / "again.html").read_text(encoding="utf-8")
    # The clause's text comes from the RULES.md the wheel carries.
    assert "A player blackjack wins 3:2" in page


def test_a_launched_demo_engine_its_audit_log_and_explore(installed: Installed) -> None:
    installed.ok("croupier", "audit", "keygen", "operator")
    launch = "python -m croupier.clients.demo_engine --port 0 --audit-log rounds.jsonl --audit-key operator.key"
    out = installed.ok("croupier", "certify", "--launch", launch, "--vector", "rou-h00*")
    assert "pass)" in out
    installed.ok(
        "croupier", "audit", "verify", "rounds.jsonl", "--public-key", "operator.pub",
        "--report", "audit.json", "--html", "audit.html",
    )  # fmt: skip
    audit = json.loads((installed.work / "audit.json").read_text(encoding="utf-8"))
    assert audit["clean"] is True
    assert audit["signing"]["valid_checkpoints"] == audit["signing"]["checkpoints"] >= 1
    assert "<svg" in (installed.work / "audit.html").read_text(encoding="utf-8")
    first = json.loads((installed.work / "rounds.jsonl").read_text(encoding="utf-8").split("\n")[0])
    recalled = installed.ok(
        "croupier", "audit", "recall", "rounds.jsonl", "--table", first["tableId"], "--last", "1"
    )
    assert first["roundId"] in recalled
    explored = installed.run(
        "croupier", "explore", "--launch", "python -m croupier.clients.demo_engine --port 0",
        "--profile", "roulette-c", "--rounds", "20", "--out", "found.jsonl",
    )  # fmt: skip
    assert explored.returncode == 0, explored.stdout + explored.stderr


VENDOR_ENGINE = """\
import sys

from croupier.clients import adapter
from croupier.clients.demo_engine import DemoEngine

adapter.main(DemoEngine(), sys.argv[1:])
"""


def test_the_plugin_in_a_vendor_project_whose_engine_uses_the_adapter_kit(
    installed: Installed,
) -> None:
    vendor = installed.work / "vendor"
    vendor.mkdir()
    (vendor / "my_engine.py").write_text(VENDOR_ENGINE, encoding="utf-8")
    (vendor / "test_own.py").write_text("def test_own():\n    pass\n", encoding="utf-8")
    done = installed.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-q",
        "--croupier-launch", "python -m my_engine --port 0", "-k", "test_own or bja-h001 or rou-h003",
        "--junitxml=junit.xml", cwd=vendor,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout
    assert "croupier run: passed 2 of the 2 vectors selected" in done.stdout


def test_a_vendor_with_its_own_clients_package_imports_the_adapter_kit(
    installed: Installed,
) -> None:
    vendor = installed.work / "vendor-with-clients"
    (vendor / "clients").mkdir(parents=True)
    (vendor / "clients" / "__init__.py").write_text('"""The vendor\'s own."""\n', encoding="utf-8")
    (vendor / "my_engine.py").write_text(VENDOR_ENGINE, encoding="utf-8")
    done = installed.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-q",
        "--croupier-launch", "python -m my_engine --port 0", "-k", "bja-h001", cwd=vendor,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    demo = installed.run("python", "-m", "croupier.clients.demo_engine", "--help", cwd=vendor)
    assert demo.returncode == 0, demo.stderr


def test_typescript_stubs_from_the_shipped_descriptor_set_alone_compile(
    installed: Installed,
) -> None:
    """The descriptor set the wheel prints, protoc-gen-es through buf, then tsc --strict."""
    tools = ROOT / "node_modules" / ".bin"
    if not all((tools / tool).exists() for tool in ("buf", "protoc-gen-es", "tsc")):
        pytest.fail("buf, protoc-gen-es and tsc come from package.json: run `npm ci` (make lint)")
    stubs = installed.work / "ts"
    stubs.mkdir()
    installed.ok("croupier", "proto", "descriptor-set", "-o", str(stubs / "croupier.binpb"))
    template = {
        "version": "v2",
        "plugins": [{"local": str(tools / "protoc-gen-es"), "out": "gen", "opt": ["target=ts"]}],
    }
    installed.ok(
        str(tools / "buf"), "generate", "croupier.binpb", "--template", json.dumps(template),
        cwd=stubs,
    )  # fmt: skip
    assert (stubs / "gen" / "croupier" / "v1" / "engine_service_pb.ts").is_file()
    (stubs / "node_modules").symlink_to(ROOT / "node_modules")
    config = {
        "compilerOptions": {
            "strict": True, "noEmit": True, "target": "es2022", "module": "esnext",
            "moduleResolution": "bundler",
        },
        "include": ["gen/**/*.ts", "use.ts"],
    }  # fmt: skip
    (stubs / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    # A client's code against the stubs, typed; and a field that does not exist, refused.
    (stubs / "use.ts").write_text(
        textwrap.dedent(
            """\
            import { create } from "@bufbuild/protobuf";
            import { EngineService, SettleRequestSchema } from "./gen/croupier/v1/engine_service_pb";
            const request = create(SettleRequestSchema, { roundId: "r1" });
            export const method: string = EngineService.method.settle.name + request.roundId;
            export const wrong: string = request.nope;
            """
        ),
        encoding="utf-8",
    )
    compiled = installed.run(str(tools / "tsc"), "-p", ".", "--pretty", "false", cwd=stubs)
    errors = [line for line in compiled.stdout.splitlines() if "error TS" in line]
    # One compile: the stubs and the typed use pass, the one wrong line does not.
    assert compiled.returncode != 0
    assert len(errors) == 1, compiled.stdout
    assert errors[0].startswith("use.ts(5,"), errors
    assert "'nope'" in errors[0], errors


def test_no_scratch_file_is_left_in_the_checkout(installed: Installed) -> None:
    """The build writes nothing into the tree it builds from."""
    assert not (ROOT / "build").exists()
    assert shutil.which("croupier", path=str(installed.venv / "bin"))
