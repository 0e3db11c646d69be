"""The ``croupier`` group: its options, its completion command, and every command group added."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

# gRPC's core logs a failed TLS handshake on stderr at INFO; the command says it better.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

import click  # after the environment gRPC reads when it starts
from click.shell_completion import get_completion_class

from croupier import oracle
from croupier.conformance.cli import common

#: Each command, by name, and where it is defined (``module:attribute`` of this package).
LAZY = {
    "audit": "audit:audit",
    "certify": "certify:certify",
    "explore": "explore:explore_command",
    "profiles": "profiles:profiles",
    "proto": "proto:proto",
    "report": "report:report",
    "serve": "serve:serve",
    "shoe": "outcomes:shoe",
    "spins": "outcomes:spins",
    "vectors": "vectors:vectors",
}


class LazyGroup(click.Group):
    """A group whose commands are imported when one is named or listed, each on its own.

    ``croupier serve`` or ``croupier --version`` then does not import what explore and
    certify need (Hypothesis, Dask's client...): about a second of start-up.
    """

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, the lazy ones without importing them."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, imported the first time it is asked for."""
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attribute = self.lazy[cmd_name].split(":")
            loaded = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
            self.add_command(loaded, cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=LAZY, context_settings={"help_option_names": ["-h", "--help"]})
# The build that runs (oracle/build.py): "croupier 0.3.0 (compiled: mypyc)" or "(pure Python)".
@click.version_option(
    oracle.__version__, prog_name="croupier", message=f"%(prog)s %(version)s ({oracle.BUILD})"
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Print only errors and the verdict line (certify, audit verify, vectors check).",
)
def main(quiet: bool) -> None:
    """Croupier: a rules-compliance test oracle for blackjack, baccarat and roulette.

    Every rule it applies cites its clause ID from RULES.md.
    """
    # Set each time: CliRunner runs many commands in one process.
    common.console.quiet = quiet
    for stream in (sys.stdout, sys.stderr):
        # A file name that is not UTF-8 (its bytes reach Python as lone surrogates) is
        # printed with its odd bytes escaped, not raised as UnicodeEncodeError.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    common.console.file = None  # type: ignore[assignment]  # stdout again (rich's default)


@main.command("completion")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL (bash, zsh or fish).

    Load it in the shell's startup file, for bash: eval "$(croupier completion bash)".
    """
    script = get_completion_class(shell)
    if script is None:  # every choice is one of click's shells
        common.fail(f"click has no completion for {shell}")
        return
    click.echo(script(main, {}, "croupier", "_CROUPIER_COMPLETE").source())
