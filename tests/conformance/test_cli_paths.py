"""Every ``croupier`` command's path options refuse hostile files clearly, and never overwrite an input.

The options are enumerated from the click command tree: every parameter whose type is a
``click.Path`` (inputs, outputs, folders), so that a new one is driven without a word here.
Each is given, one at a time, a missing directory, a directory, /dev/null, a FIFO, an
empty file, binary garbage, a name too long for the system, a name that is not UTF-8,
an unreadable file (unless run as root, who reads it) and
``-``. A command may take the value (and then fail or pass on other grounds), or refuse it
with exit 2 and an error naming the option or the path; it never raises, never hangs, and
never changes an input. Then every output option is given, in four spellings, a file the
command reads: it is refused, and the file is unchanged.
"""

from __future__ import annotations

import hashlib
import os
import signal
from pathlib import Path
from types import FrameType

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from croupier.conformance.cli import main
from croupier.conformance.cli.common import OutputFile
from croupier.conformance.vectors import CORPUS_DIR
from tests.conformance.cli_tree import command, commands

#: Nothing listens there: a command that gets as far as calling the engine exits 3.
NOBODY = "127.0.0.1:9"
#: The exit codes the commands document: passed, failed, bad usage, engine unreachable.
DOCUMENTED = frozenset({0, 1, 2, 3})
#: The longest a command may take on one hostile value, in seconds: a FIFO must not block it.
PATIENCE = 60


def _name(param: click.Parameter) -> str:
    return max(param.opts, key=len) if isinstance(param, click.Option) else (param.name or "")


PATHS = [
    (path, _name(param))
    for path in commands()
    for param in command(path).params
    if isinstance(param.type, click.Path)
]
OUTPUTS = [
    (path, _name(param))
    for path in commands()
    for param in command(path).params
    if isinstance(param.type, OutputFile)
]


def _base(sandbox: Path) -> dict[tuple[str, ...], dict[str, str]]:
    """Each command's cheapest run with an input of every kind it reads, by parameter name.

    A command with a path option that is missing here fails the test: add its line.
    """
    vectors = str(sandbox / "vectors.jsonl")
    engine = {"--target": NOBODY, "--timeout": "0.2"}
    return {
        ("audit", "html"): {
            "report": str(sandbox / "report.json"),
            "--output": str(sandbox / "o.html"),
        },
        ("audit", "keygen"): {"name": str(sandbox / "operator")},
        ("audit", "recall"): {"log": str(sandbox / "log.jsonl"), "--table": "t"},
        ("audit", "verify"): {"log": str(sandbox / "log.jsonl")},
        ("certify",): {
            **engine,
            "--vectors": vectors,
            "--known-failures": str(sandbox / "known.txt"),
        },
        ("explore",): {
            **engine,
            "--rounds": "1",
            "--profile": "baccarat-c",
            "--known-failures": str(sandbox / "known.txt"),
        },
        ("report", "html"): {"jsonl": str(sandbox / "run.jsonl")},
        ("serve",): {"--port": "0"},
        ("proto", "descriptor-set"): {},
        ("vectors", "build"): {"--profile": "baccarat-c", "--seed": "s", "--count": "1"},
        ("vectors", "build-corpus"): {},
        ("vectors", "check"): {},
        ("vectors", "export"): {"--vectors": vectors},
        ("vectors", "show"): {"patterns": "nothing-matches", "--vectors": vectors},
    }


def _argv(path: tuple[str, ...], values: dict[str, str]) -> list[str]:
    """The command line: arguments in the command's order, then options."""
    found = command(path)
    arguments = [
        values[p.name] for p in found.params if isinstance(p, click.Argument) and p.name in values
    ]
    options = [
        word for name, value in values.items() if name.startswith("-") for word in (name, value)
    ]
    return [*path, *arguments, *options]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The inputs the commands read, and the hostile files, in one folder."""
    folder = tmp_path_factory.mktemp("paths")
    vectors = CORPUS_DIR / "baccarat-c.hand.binpb.gz"
    exported = CliRunner().invoke(main, ["vectors", "export", "--vectors", str(vectors)])
    assert exported.exit_code == 0, exported.output
    first = exported.stdout.splitlines()[0]
    (folder / "vectors.jsonl").write_text(first + "\n", encoding="utf-8")
    (folder / "log.jsonl").write_text('{"roundId": "r1"}\n', encoding="utf-8")
    (folder / "report.json").write_text('{"verdict": "clean"}\n', encoding="utf-8")
    (folder / "run.jsonl").write_text('{"kind": "header"}\n', encoding="utf-8")
    (folder / "known.txt").write_text("nothing-*  # no such vector\n", encoding="utf-8")
    (folder / "folder").mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "empty").write_bytes(b"")
    (folder / "garbage").write_bytes(bytes(range(256)) * 16)
    (folder / "unreadable").write_text("{}\n", encoding="utf-8")
    (folder / "unreadable").chmod(0)
    return folder


INPUTS = ("vectors.jsonl", "log.jsonl", "report.json", "run.jsonl", "known.txt")


def _hashes(folder: Path) -> dict[str, str]:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in INPUTS}


def _hostile(sandbox: Path, kind: str) -> str:
    return {
        "missing-folder": str(sandbox / "no-such-folder" / "file"),
        "folder": str(sandbox / "folder"),
        "dev-null": os.devnull,
        "fifo": str(sandbox / "fifo"),
        "empty": str(sandbox / "empty"),
        "garbage": str(sandbox / "garbage"),
        "too-long": str(sandbox / ("x" * 300)),
        "not-utf8": str(sandbox / "caf\udce9"),  # the byte 0xE9 of a Latin-1 name
        "dash": "-",
        "unreadable": str(sandbox / "unreadable"),
    }[kind]


#: Values a command takes and then works on for minutes: a folder the whole corpus is
#: rebuilt into. Only the values it must refuse are driven there.
SLOW: dict[tuple[str, ...], set[str]] = {
    ("vectors", "build-corpus"): {"missing-folder", "folder", "not-utf8"}
}

KINDS: tuple[str, ...] = (
    "missing-folder",
    "folder",
    "dev-null",
    "fifo",
    "empty",
    "garbage",
    "too-long",
    "not-utf8",
    "dash",
)
# Root reads a file of mode 000: the case means something only for another user.
if os.geteuid() != 0:
    KINDS = (*KINDS, "unreadable")


class _HungError(Exception):
    """A command took longer than ``PATIENCE``: a FIFO or a device blocked it."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _HungError


def _run(argv: list[str]) -> Result:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(PATIENCE)
    try:
        return CliRunner().invoke(main, argv, env={"COLUMNS": "400"})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_every_command_with_a_path_option_has_a_cheap_run(tmp_path: Path) -> None:
    commands = {path for path, _ in PATHS}
    assert commands <= set(_base(tmp_path)), commands - set(_base(tmp_path))
    names = {name for _, name in PATHS}
    assert {"--report", "--html", "--junit", "--out", "--engine-log", "--vectors", "log"} <= names


@pytest.mark.parametrize("where", PATHS, ids=lambda w: f"{' '.join(w[0])} {w[1]}")
@settings(max_examples=len(KINDS) * 2, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS))
def test_a_hostile_path_is_taken_or_refused_naming_it(
    sandbox: Path, monkeypatch: pytest.MonkeyPatch, where: tuple[tuple[str, ...], str], kind: str
) -> None:
    monkeypatch.chdir(sandbox)  # a '-' taken as a file name would land here
    path, name = where
    assume(kind not in SLOW.get(path, set()))
    value = _hostile(sandbox, kind)
    values = {**_base(sandbox)[path], name: value}
    before = _hashes(sandbox)
    argv = _argv(path, values)
    result = _run(argv)
    assert not (sandbox / "-").exists(), "'-' was written as a file, not standard output"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output,
        result.exception,
    )
    assert result.exit_code in DOCUMENTED, result.output
    assert _hashes(sandbox) == before, "an input was changed"
    if result.exit_code == 2:
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert lines, result.output
        # The error names the option (or argument) or the value it was given; one that the
        # value got past names what it refused instead (another input of the command line).
        shown = name.upper() if not name.startswith("-") else name
        printed = value.encode("utf-8", "backslashreplace").decode("utf-8")
        named = [shown, value, printed, *(word for word in argv[len(path) :] if len(word) > 3)]
        assert any(word in lines[-1] for word in named), (lines[-1], name, value)


def _spellings(sandbox: Path, target: Path) -> dict[str, str]:
    """Four names of one file: itself, ./ relative, a symbolic link, a hard link."""
    link, hard = sandbox / f"link-{target.name}", sandbox / f"hard-{target.name}"
    if not link.exists():
        link.symlink_to(target)
    if not hard.exists():
        os.link(target, hard)
    return {
        "itself": str(target),
        "dot-relative": f"./{target.name}",
        "symbolic-link": str(link),
        "hard-link": str(hard),
    }


#: Per command, the input an output is pointed at (one the base run reads).
TARGETS = {
    ("audit", "html"): "report.json",
    ("audit", "verify"): "log.jsonl",
    ("certify",): "vectors.jsonl",
    ("explore",): "known.txt",
    ("report", "html"): "run.jsonl",
    ("vectors", "export"): "vectors.jsonl",
}


def test_every_output_option_has_an_input_to_aim_at() -> None:
    # These read no file here (a shipped profile id, the packaged contract): nothing to overwrite.
    readless = {("vectors", "build"), ("proto", "descriptor-set")}
    assert {path for path, _ in OUTPUTS} - readless <= set(TARGETS)


@pytest.mark.parametrize("spelling", ["itself", "dot-relative", "symbolic-link", "hard-link"])
@pytest.mark.parametrize(
    "where",
    [w for w in OUTPUTS if w[0] in TARGETS],
    ids=lambda w: f"{' '.join(w[0])} {w[1]}",
)
def test_an_output_naming_an_input_is_refused_and_the_input_kept(
    sandbox: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: tuple[tuple[str, ...], str],
    spelling: str,
) -> None:
    monkeypatch.chdir(sandbox)
    path, name = where
    target = sandbox / TARGETS[path]
    value = _spellings(sandbox, target)[spelling]
    values = {**_base(sandbox)[path], name: value}
    if name == "--explore-out":
        values["--explore"] = "1"
    if name == "--engine-log":
        del values["--target"]
        values["--launch"] = "true"
    before = _hashes(sandbox)
    result = _run(_argv(path, values))
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert f"{name} {Path(value)} is " in said, said
    assert "an output never overwrites an input" in said, said
    assert _hashes(sandbox) == before


def test_dash_is_standard_output_for_a_vector_file(tmp_path: Path) -> None:
    build = ["vectors", "build", "--profile", "baccarat-c", "--seed", "s", "--count", "2"]
    to_file = _run([*build, "--out", str(tmp_path / "built.jsonl")])
    assert to_file.exit_code == 0, to_file.output
    to_stdout = _run([*build, "--out", "-"])
    assert to_stdout.exit_code == 0, to_stdout.output
    assert to_stdout.stdout == (tmp_path / "built.jsonl").read_text(encoding="utf-8")
    # The command's own line goes to standard error, naming where the vectors went.
    assert "wrote 2 vectors (2 rounds) to standard output" in to_stdout.stderr


def test_dash_is_standard_output_for_junit_and_the_console_moves_to_stderr(
    sandbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(sandbox)
    result = _run(_argv(("certify",), {**_base(sandbox)[("certify",)], "--junit": "-"}))
    assert result.exit_code == 3, result.output  # nothing answers: the run stops, reports kept
    assert result.stdout.startswith("<?xml"), result.stdout
    assert "<testsuite" in result.stdout
    assert "nothing answers at 127.0.0.1:9" in result.stderr
    assert not (sandbox / "-").exists()


def test_two_outputs_cannot_both_be_standard_output(sandbox: Path) -> None:
    values = {**_base(sandbox)[("certify",)], "--junit": "-", "--report": "-"}
    result = _run(_argv(("certify",), values))
    assert result.exit_code == 2, result.output
    assert "are both '-': only one output can be standard output" in result.output


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["certify", "--cache-dir", "-"], "'-' (standard output) cannot take a directory"),
        (["explore", "--database", "-"], "'-' (standard output) cannot take a directory"),
        (["audit", "keygen", "-"], "never standard output"),
    ],
)
def test_a_folder_or_a_key_pair_cannot_be_standard_output(argv: list[str], said: str) -> None:
    result = _run(argv)
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())
