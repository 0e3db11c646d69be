"""What the ``croupier`` commands share: consoles, failing with an exit code, option definitions."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from oracle.errors import OracleError
from oracle.profile import Profile, Profiles, resolve_profile

console = Console()
errors = Console(stderr=True)

#: The default deadline of every call the runner makes, in seconds.
DEFAULT_TIMEOUT = 10.0

_F = TypeVar("_F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> None:
    """Print an error and exit: 2 for bad usage or configuration, unless told otherwise."""
    errors.print(f"[bold red]error:[/] {escape(message)}")
    sys.exit(code)


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
