"""What the ``croupier`` commands share: consoles, failing with an exit code, option definitions."""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

import click
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.table import Table

from croupier.conformance.choice import EngineChoice
from croupier.conformance.engine import start_log
from croupier.conformance.results import Result
from croupier.conformance.scheduler import SchedulerError, check_address
from croupier.conformance.timeouts import DEFAULT_TIMEOUT, MIN_TIMEOUT, READY_TIMEOUT
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import Profile, Profiles, resolve_profile

#: The width of a console that is not a terminal: no line a command prints reaches it.
UNWRAPPED = 10_000


class _Console(Console):
    """A rich console that wraps at a terminal's width, and not at all when it is no terminal.

    Rich assumes 80 columns off a terminal: a CI log would get an error line cut in two and
    table cells cut mid-word. ``COLUMNS``, when set, still decides.
    """

    def __init__(self, *, stderr: bool = False) -> None:
        super().__init__(stderr=stderr)
        # Rich reads COLUMNS and LINES once, here; read at each print instead, so that a command
        # first imported under one invocation's environment keeps no width for the next.
        self._width = self._height = None

    @property
    def size(self) -> ConsoleDimensions:
        """The terminal's size; off a terminal, ``UNWRAPPED`` columns unless ``COLUMNS`` says."""
        found = super().size
        if self._width is None and not self.is_terminal and "COLUMNS" not in self._environ:
            return ConsoleDimensions(UNWRAPPED, found.height)
        return found

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


console = _Console()
errors = _Console(stderr=True)


_F = TypeVar("_F", bound=Callable[..., Any])


#: The longest duration any option takes, in seconds (a week): a longer one is a slip of the
#: keyboard, and a thread's wait on a huge one overflows the platform's time.
MAX_SECONDS = 7 * 24 * 3600
#: The most rounds, vectors or spins a count option makes: a campaign of more would not fit
#: on a disk or in a day.
MAX_COUNT = 10_000_000
#: The most findings or failures a listing option shows: more than a console is read for.
MAX_SHOWN = 1_000_000


def verdict(text: str, **options: Any) -> None:
    """Print a command's verdict line (``console.print``'s options): what ``--quiet`` keeps."""
    quiet, console.quiet = console.quiet, False
    try:
        console.print(text, **options)
    finally:
        console.quiet = quiet


def fail(message: str, code: int = 2) -> None:
    """Print an error and exit: 2 for bad usage or configuration, unless told otherwise."""
    errors.print(f"[bold red]error:[/] {escape(message)}")
    sys.exit(code)


class Finite(click.FloatRange):
    """A ``FloatRange`` that refuses NaN and infinity (every range check passes NaN)."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The number, or a usage error (exit 2) naming the value."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def utf8_text(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback: the text, or a usage error if it is not valid UTF-8 (a seed...).

    Bytes that are not UTF-8 reach Python as lone surrogates, which nothing can encode.
    """
    del ctx
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise click.BadParameter("not valid UTF-8 text", param=param) from None
    return value


class DaskAddress(click.ParamType[str]):
    """``--dask``: a Dask scheduler's address, or ``local:N`` (``conformance.scheduler``)."""

    name = "ADDRESS|local:N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The address, or a usage error (exit 2) saying what is wrong with it."""
        try:
            return check_address(str(value))
        except SchedulerError as exc:
            self.fail(str(exc), param, ctx)


#: What an output option is given to mean standard output.
DASH = "-"
#: The output that is standard output: ``OutputFile`` converts ``-`` to this very object.
STDOUT = Path(DASH)


class InputFile(click.Path):
    """A file a command reads: it exists, and is a regular file (a FIFO would block the read).

    ``dir_okay`` takes a directory too (``--vectors``); ``file_okay`` off takes only one.
    """

    def __init__(self, *, dir_okay: bool = False, file_okay: bool = True) -> None:
        super().__init__(exists=True, dir_okay=dir_okay, file_okay=file_okay, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The path, or a usage error (exit 2) naming the option and what the path is."""
        path = cast(Path, super().convert(value, param, ctx))  # path_type=Path
        problem = _stat_problem(path)
        if problem:
            self.fail(f"{path}: {problem}", param, ctx)
        if not self.file_okay and not path.is_dir():
            self.fail(f"{path} is not a directory", param, ctx)
        if not path.is_file() and not (self.dir_okay and path.is_dir()):
            # Reading a FIFO waits for a writer; a device may never end.
            self.fail(
                f"{path} is not a regular file (a FIFO, a device or a socket): give a file",
                param,
                ctx,
            )
        return path


class OutputFile(click.Path):
    """A file a command writes: ``-`` is standard output (``STDOUT``), unless ``stdout`` is off.

    Otherwise it must be writable, checked without creating or truncating it: an output is
    written at the end of a run that may take an hour. A FIFO is refused (opening it would
    wait for a reader); a character device such as /dev/null is taken.
    """

    def __init__(self, *, stdout: bool = True, why: str = "") -> None:
        super().__init__(dir_okay=False, path_type=Path)
        self.stdout = stdout
        #: Why this output cannot be standard output, when ``stdout`` is off.
        self.why = why

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The path or ``STDOUT``, or a usage error (exit 2) naming the option and the problem."""
        if value is STDOUT or (isinstance(value, str) and value == DASH):
            # A default of STDOUT, or '-' as given: './-' names a file called '-'.
            if not self.stdout:
                self.fail(f"'-' (standard output) cannot take it: {self.why}", param, ctx)
            return STDOUT
        path = cast(Path, super().convert(value, param, ctx))  # path_type=Path
        problem = unwritable(path)
        if problem:
            self.fail(f"cannot write {path}: {problem}", param, ctx)
        return path


class OutputFolder(click.Path):
    """A directory a command writes into (a cache, a database): never ``-``, never a file."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The path, or a usage error (exit 2) naming the option and the problem."""
        if isinstance(value, str) and value == DASH:
            self.fail("'-' (standard output) cannot take a directory: give one", param, ctx)
        path = cast(Path, super().convert(value, param, ctx))  # path_type=Path
        problem = _stat_problem(path)
        if problem:
            self.fail(f"{path}: {problem}", param, ctx)
        if path.exists() and not path.is_dir():
            self.fail(f"{path} is not a directory", param, ctx)
        return path


def _stat_problem(path: Path) -> str:
    """Why ``path`` cannot even be looked up (a name too long, a file as a folder), or ""."""
    try:
        path.stat()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return exc.strerror or str(exc)
    return ""


def unwritable(path: Path) -> str:
    """Why an output could not be written later, or "" (nothing is created or truncated)."""
    problem = _stat_problem(path) or _stat_problem(path.parent)
    if problem:
        return problem
    folder = path.parent
    if not folder.is_dir():
        return f"no directory {folder}"
    if path.is_dir():
        return "it is a directory"
    if path.exists() and not (path.is_file() or path.is_char_device()):
        return "not a regular file (a FIFO or a socket): writing it could wait for ever"
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        return "permission denied"
    return ""


def names_a_file(name: str) -> bool:
    """Whether ``name`` (a profile id or file...) is a file; a name too long to look up is not."""
    try:
        return Path(name).is_file()
    except OSError:
        return False


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.samefile(other)
    except OSError:  # one of them does not exist yet: compare the names they resolve to
        try:
            return one.resolve() == other.resolve()
        except (OSError, RuntimeError):  # a name too long, a symbolic link loop
            return False


def prepare_outputs(
    outputs: Mapping[str, Path | None], inputs: Iterable[tuple[str, Path]] = ()
) -> dict[str, Path | None]:
    """A command's outputs by option name, checked; exit 2 if one names an input or another.

    An output is written over: one that named the log being audited would destroy the
    evidence (a hard link, a symbolic link or another spelling of it is the same file). The
    one output given as ``-`` (``STDOUT``) is written to a scratch file, copied to standard
    output when the command ends; meanwhile the console's lines go to standard error.
    """
    inputs = list(inputs)
    given = [(name, path) for name, path in outputs.items() if path is not None]
    dashes = [name for name, path in given if path is STDOUT]
    if len(dashes) > 1:
        fail(f"{' and '.join(dashes)} are both '-': only one output can be standard output")
    for index, (name, path) in enumerate(given):
        if path is STDOUT:
            continue
        problem = unwritable(path)  # a default, which no option's type checked
        if problem:
            fail(f"cannot write {name} {path}: {problem}")
        for source, used in inputs:
            if _same_file(path, used):
                fail(f"{name} {path} is {source}: an output never overwrites an input")
        for other, earlier in given[:index]:
            if earlier is not STDOUT and _same_file(path, earlier):
                fail(f"{name} {path} is also {other}: give each output its own file")
    prepared = dict(outputs)
    if dashes:
        prepared[dashes[0]] = _to_stdout()
    return prepared


def _to_stdout() -> Path:
    """A scratch file whose bytes go to standard output when the command ends."""
    handle, name = tempfile.mkstemp(prefix="croupier-stdout-")
    os.close(handle)
    scratch = Path(name)
    _SCRATCH.add(scratch)
    # The command's own lines must not mix with the output: they go to standard error.
    console.file = sys.stderr

    def copy() -> None:
        try:
            sys.stdout.flush()
            with scratch.open("rb") as source:
                shutil.copyfileobj(source, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        finally:
            scratch.unlink(missing_ok=True)
            _SCRATCH.discard(scratch)

    click.get_current_context().call_on_close(copy)
    return scratch


#: The scratch files that stand for standard output in the command running.
_SCRATCH: set[Path] = set()


def output_name(path: Path) -> str:
    """How a message names an output: "standard output" for the one given as ``-``."""
    return "standard output" if path in _SCRATCH else str(path)


def load_profile(id_or_path: str, option: str | None = None) -> Profile:
    """A shipped profile by id or a lab's profile file; a bad one exits 2 with the reason.

    ``option``: the option that named it, which the error names (none for an argument).
    """
    try:
        return resolve_profile(id_or_path)
    except OracleError as exc:
        fail(f"{option}: {exc}" if option else str(exc))
        raise  # unreachable: fail exits


def resolver(profile_files: tuple[str, ...], option: str) -> Callable[[str], Profile]:
    """Profiles by id, shipped or from the lab's files (one registry); a bad file exits 2.

    ``option`` is the command's option that named the files: its error names it.
    """
    try:
        return Profiles.load(profile_files).get
    except OracleError as exc:
        fail(f"{option}: {exc}")
        raise  # unreachable: fail exits


def profile_files_option(user: str) -> Callable[[_F], _F]:
    """``--profile-file FILE`` (repeatable): the lab profiles the ``user`` (a log...) uses."""
    return click.option(
        "--profile-file",
        "profile_files",
        multiple=True,
        metavar="FILE",
        help=f"A lab profile the {user} uses (repeatable).",
    )


#: ``--format jsonl|binary`` of an audit log, detected by default.
log_format_option = click.option(
    "--format",
    "log_format",
    type=click.Choice(["jsonl", "binary"]),
    default=None,
    help="Log format (default: detected).",
)


def engine_options(command: _F) -> _F:
    """``--target``/``--launch``, the deadlines, ``--engine-log``, ``--tls-*``: reaching an engine."""
    return _engine_options(
        command, click.option("--target", metavar="HOST:PORT", help="Attach to a running engine.")
    )


def engine_options_on_dask(command: _F) -> _F:
    """``engine_options`` where ``--target`` may be given several times (one each, with --dask)."""
    return _engine_options(
        command,
        click.option(
            "--target",
            metavar="HOST:PORT",
            multiple=True,
            help="Attach to a running engine; with --dask, give it once per engine: the "
            "workers' chunks take them in turn.",
        ),
    )


def _engine_options(command: _F, target: Callable[[_F], _F]) -> _F:
    options = (
        target,
        click.option(
            "--launch",
            metavar="CMD",
            help="Start the engine; it must print 'CROUPIER_ENGINE host:port'.",
        ),
        click.option(
            "--timeout",
            default=DEFAULT_TIMEOUT,
            show_default=True,
            type=Finite(MIN_TIMEOUT, MAX_SECONDS),
            help="Deadline of every call, in seconds.",
        ),
        click.option(
            "--ready-timeout",
            default=READY_TIMEOUT,
            show_default=True,
            type=Finite(MIN_TIMEOUT, MAX_SECONDS),
            metavar="SECONDS",
            help="How long a --launch engine is given to print its ready line.",
        ),
        click.option(
            "--engine-log",
            type=OutputFile(),
            metavar="FILE",
            help="Write the whole stderr of a --launch engine to FILE (its last lines are "
            "shown anyway when it fails to start or dies).",
        ),
        click.option(
            "--tls-ca",
            type=InputFile(),
            help="CA of the engine's certificate: turns on TLS.",
        ),
        click.option(
            "--tls-cert",
            type=InputFile(),
            help="Client certificate for mutual TLS.",
        ),
        click.option(
            "--tls-key",
            type=InputFile(),
            help="Client key for mutual TLS.",
        ),
    )
    for option in reversed(options):
        command = option(command)
    return command


def start_engine_log(engine: EngineChoice) -> None:
    """Empty ``--engine-log`` before the run (its engines append to it); exit 2 if it cannot."""
    try:
        start_log(engine.engine_log)
    except OSError as exc:
        fail(f"cannot write the engine log {engine.engine_log}: {exc.strerror}")


def print_result(result: Result) -> None:
    """A failed vector as a table: outcome, step, clause, path, expected, actual, reproduce."""
    table = Table(
        show_header=False,
        title=f"[bold red]{result.outcome.value}[/] {escape(result.vector_id)} {escape(result.name)}",
        title_justify="left",
    )
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for label, value in result.details():
        table.add_row(label, escape(value))
    console.print(table)


def progress_option(purpose: str) -> Callable[[_F], _F]:
    """``--progress-every SECONDS``: how often a run prints a progress line (``purpose`` says when)."""
    return click.option(
        "--progress-every",
        default=10.0,
        show_default=True,
        type=Finite(0.1, MAX_SECONDS),
        metavar="SECONDS",
        help=purpose,
    )
