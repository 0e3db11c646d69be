"""The ``croupier`` group: its options, its completion command, and every command group added."""

from __future__ import annotations

import os
import sys

# gRPC's core logs a failed TLS handshake on stderr at INFO; the command says it better.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

import click  # after the environment gRPC reads when it starts
from click.shell_completion import get_completion_class

from croupier import oracle
from croupier.conformance.cli import common
from croupier.conformance.cli.audit import audit
from croupier.conformance.cli.certify import certify
from croupier.conformance.cli.explore import explore_command
from croupier.conformance.cli.outcomes import shoe, spins
from croupier.conformance.cli.profiles import profiles
from croupier.conformance.cli.proto import proto
from croupier.conformance.cli.report import report
from croupier.conformance.cli.serve import serve
from croupier.conformance.cli.vectors import vectors


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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


for _command in (
    serve,
    profiles,
    shoe,
    spins,
    vectors,
    certify,
    explore_command,
    audit,
    report,
    proto,
):
    main.add_command(_command)
