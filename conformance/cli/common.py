"""What the ``croupier`` commands share: consoles, failing with an exit code, option definitions."""

from __future__ import annotations

import math
import os
import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.table import Table

from conformance.engine import TlsOptions, start_log
from conformance.results import ConfigError, Result
from conformance.timeouts import DEFAULT_TIMEOUT, READY_TIMEOUT
from oracle.errors import OracleError
from oracle.profile import Profile, Profiles, resolve_profile

#: The width of a console that is not a terminal: no line a command prints reaches it.
UNWRAPPED = 10_000


class _Console(Console):
    """A rich console that wraps at a terminal's width, and not at all when it is no terminal.

    Rich assumes 80 columns off a terminal: a CI log would get an error line cut in two and
    table cells cut mid-word. ``COLUMNS``, when set, still decides.
    """

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


#: The shortest call deadline an engine is given, in seconds.
MIN_TIMEOUT = 0.01

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


def check_writable(path: Path | None, what: str) -> None:
    """Exit 2 now if ``path`` (an output file, when given) could not be written later.

    An output is written at the end of a run that may take an hour: it is checked before the
    run, without creating or truncating it.
    """
    if path is None:
        return
    folder = path.parent
    if not folder.is_dir():
        fail(f"cannot write {what} {path}: no directory {folder}")
    if path.is_dir():
        fail(f"cannot write {what} {path}: it is a directory")
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        fail(f"cannot write {what} {path}: permission denied")


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.samefile(other)
    except OSError:  # one of them does not exist yet: compare the names they resolve to
        return one.resolve() == other.resolve()


def check_outputs_apart(
    outputs: dict[str, Path | None], inputs: Iterable[tuple[str, Path]]
) -> None:
    """Exit 2 now if an output names an input, or two outputs name one file.

    An output is written over: one that named the log being audited would destroy the
    evidence (a hard link or a symbolic link to it is the same file).
    """
    inputs = list(inputs)
    given = [(what, path) for what, path in outputs.items() if path is not None]
    for index, (what, path) in enumerate(given):
        for source, used in inputs:
            if _same_file(path, used):
                fail(f"{what} {path} is {source}: an output never overwrites an input")
        for other, earlier in given[:index]:
            if _same_file(path, earlier):
                fail(f"{what} {path} is also {other}: give each output its own file")


def load_profile(id_or_path: str) -> Profile:
    """A shipped profile by id or a lab's profile file; a bad one exits 2 with the reason."""
    try:
        return resolve_profile(id_or_path)
    except OracleError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def resolver(profile_files: tuple[str, ...]) -> Callable[[str], Profile]:
    """Profiles by id, shipped or from the lab's files (one registry); a bad file exits 2."""
    try:
        return Profiles.load(profile_files).get
    except OracleError as exc:
        fail(str(exc))
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
    options = (
        click.option("--target", metavar="HOST:PORT", help="Attach to a running engine."),
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
            type=click.Path(dir_okay=False, path_type=Path),
            metavar="FILE",
            help="Write the whole stderr of a --launch engine to FILE (its last lines are "
            "shown anyway when it fails to start or dies).",
        ),
        click.option(
            "--tls-ca",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="CA of the engine's certificate: turns on TLS.",
        ),
        click.option(
            "--tls-cert",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Client certificate for mutual TLS.",
        ),
        click.option(
            "--tls-key",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Client key for mutual TLS.",
        ),
    )
    for option in reversed(options):
        command = option(command)
    return command


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineChoice:
    """The engine a command reaches, checked, and the words that reach it again."""

    target: str | None
    launch: str | None
    timeout: float
    tls: TlsOptions | None
    #: How long a launched engine is given to be ready, and where its stderr is written.
    ready_timeout: float = READY_TIMEOUT
    engine_log: Path | None = None
    #: ``--target ...`` or ``--launch ...``, then the TLS files and a non-default deadline.
    words: str


def engine_choice(
    *,
    target: str | None,
    launch: str | None,
    timeout: float,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    ready_timeout: float = READY_TIMEOUT,
    engine_log: Path | None = None,
    prefix: str = "--",
) -> EngineChoice:
    """The options of ``engine_options``, checked; ``ConfigError`` says what is wrong (exit 2).

    ``prefix`` starts the options' names in the messages (the pytest plugin's are
    ``--croupier-tls-ca``...); the reproduce words are always certify's.
    """
    if (target is None) == (launch is None):
        raise ConfigError(f"give exactly one of {prefix}target HOST:PORT and {prefix}launch CMD")
    if target is not None and not target.strip():
        raise ConfigError(f"{prefix}target: give HOST:PORT, not an empty string")
    if launch is not None:
        try:
            argv = shlex.split(launch)
        except ValueError as exc:  # an unbalanced quote, a trailing backslash
            raise ConfigError(
                f"{prefix}launch {launch!r}: {exc} (quoted as a shell would)"
            ) from None
        if not argv:
            raise ConfigError(f"{prefix}launch: the command is empty")
    if not timeout >= MIN_TIMEOUT:  # NaN too
        # certify's click option checks this first; the pytest plugin's option does not.
        raise ConfigError(f"{prefix}timeout: {timeout:g} s is under {MIN_TIMEOUT:g} s")
    if not ready_timeout >= MIN_TIMEOUT or not math.isfinite(ready_timeout):
        raise ConfigError(
            f"{prefix}ready-timeout: {ready_timeout:g} s is not a number of seconds from "
            f"{MIN_TIMEOUT:g}"
        )
    if engine_log is not None and launch is None:
        raise ConfigError(
            f"{prefix}engine-log needs {prefix}launch: only a launched engine's stderr is read"
        )
    if (tls_cert is None) != (tls_key is None):
        raise ConfigError(f"{prefix}tls-cert and {prefix}tls-key go together")
    if tls_cert is not None and tls_ca is None:
        raise ConfigError(
            f"{prefix}tls-cert and {prefix}tls-key are a client certificate for mutual TLS: "
            f"give {prefix}tls-ca too"
        )
    files = (("--tls-ca", tls_ca), ("--tls-cert", tls_cert), ("--tls-key", tls_key))
    for flag, path in files:
        if path is not None and not path.is_file():
            # certify's click options check this first; the pytest plugin's options do not.
            raise ConfigError(f"{prefix}{flag[2:]}: no file {path}")
    tls = TlsOptions(ca=tls_ca, cert=tls_cert, key=tls_key) if (tls_ca or tls_cert) else None
    engine_arg = f"--target {target}" if target else f"--launch {shlex.quote(launch or '')}"
    # The same connection as this run: TLS files and a non-default deadline go along.
    tls_arg = "".join(
        f" {flag} {shlex.quote(str(path))}" for flag, path in files if path is not None
    )
    timeout_arg = f" --timeout {timeout:g}" if timeout != DEFAULT_TIMEOUT else ""
    if launch is not None and ready_timeout != READY_TIMEOUT:
        timeout_arg += f" --ready-timeout {ready_timeout:g}"
    return EngineChoice(
        target=target,
        launch=launch,
        timeout=timeout,
        tls=tls,
        ready_timeout=ready_timeout,
        engine_log=engine_log,
        words=f"{engine_arg}{tls_arg}{timeout_arg}",
    )


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
