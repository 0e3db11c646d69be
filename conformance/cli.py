"""The ``croupier`` command: one front door to the oracle, the server and the suite."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

import oracle
from oracle.cards import format_cards
from oracle.errors import OracleError
from oracle.profile import Profile, Status, resolve_profile, shipped_profiles
from oracle.roulette import DOUBLE_ZERO, pocket_text
from oracle.server import OracleServer, ServerConfig, TlsFiles
from oracle.shoe import seeded_shoe, seeded_spins

console = Console()
errors = Console(stderr=True)


def _fail(message: str, code: int = 2) -> None:
    errors.print(f"[bold red]error:[/] {message}")
    sys.exit(code)


def _load(id_or_path: str) -> Profile:
    try:
        return resolve_profile(id_or_path)
    except OracleError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(oracle.__version__, prog_name="croupier")
def main() -> None:
    """Croupier: a rules-compliance test oracle for blackjack, baccarat and roulette.

    Every rule it applies cites its clause ID from RULES.md.
    """


# --- serve ----------------------------------------------------------------------------------


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=50051,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port; 0 picks a free one.",
)
@click.option(
    "--tls-cert",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server certificate (PEM).",
)
@click.option(
    "--tls-key",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server private key (PEM).",
)
@click.option(
    "--tls-client-ca",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CA that signs client certificates: turns on mutual TLS.",
)
@click.option(
    "--max-open-rounds",
    default=10_000,
    show_default=True,
    type=click.IntRange(1),
    help="Open rounds held at once; more get RESOURCE_EXHAUSTED.",
)
@click.option(
    "--round-ttl",
    default=900.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Seconds before an untouched round expires.",
)
@click.option(
    "--grace",
    default=5.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds in-flight calls get on shutdown.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="FILE",
    help="A lab's profile file to serve too (repeatable).",
)
def serve(
    host: str,
    port: int,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    max_open_rounds: int,
    round_ttl: float,
    grace: float,
    profiles: tuple[str, ...],
) -> None:
    """Serve EngineService and OracleService over gRPC, with health and reflection.

    Prints "CROUPIER_ENGINE host:port" when ready; stops gracefully on SIGTERM.
    """
    if (tls_cert is None) != (tls_key is None):
        _fail("--tls-cert and --tls-key go together")
    if tls_client_ca is not None and tls_cert is None:
        _fail("--tls-client-ca needs --tls-cert and --tls-key")
    tls = None
    if tls_cert is not None and tls_key is not None:
        tls = TlsFiles(cert=tls_cert, key=tls_key, client_ca=tls_client_ca)
    for path in profiles:
        _load(path)
    config = ServerConfig(
        host=host,
        port=port,
        tls=tls,
        max_open_rounds=max_open_rounds,
        round_ttl_seconds=round_ttl,
        grace_seconds=grace,
        profiles=profiles,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    def ready(address: str) -> None:
        print(f"CROUPIER_ENGINE {address}", flush=True)  # noqa: T201 - the launch protocol's line

    async def run() -> None:
        # grpc.aio binds its server to the running event loop: build it inside.
        try:
            server = OracleServer(config)
        except (OSError, RuntimeError) as exc:
            _fail(f"cannot serve on {host}:{port}: {exc}", code=3)
        await server.serve_until_signalled(ready)

    asyncio.run(run())


# --- profiles -------------------------------------------------------------------------------


@main.group(invoke_without_command=True)
@click.pass_context
def profiles(ctx: click.Context) -> None:
    """List the shipped rule profiles (subcommands: show, diff)."""
    if ctx.invoked_subcommand is not None:
        return
    table = Table(title="Rule profiles")
    for column in ("id", "game", "source", "title", "assumed"):
        table.add_column(column)
    for profile in shipped_profiles():
        assumed = sum(p.status is Status.ASSUMED for p in profile.parameters)
        table.add_row(
            profile.id,
            profile.game.value,
            profile.source,
            profile.title,
            f"{assumed}/{len(profile.parameters)}",
        )
    console.print(table)


@profiles.command("show")
@click.argument("profile_id")
def profiles_show(profile_id: str) -> None:
    """Show one profile: every parameter, its clauses, documented or assumed.

    PROFILE_ID is a shipped id or a lab's profile file.
    """
    profile = _load(profile_id)
    extends = f", extends {profile.extends}" if profile.extends else ""
    table = Table(
        title=f"{profile.id}: {profile.title} ({profile.game.value}, document {profile.source}{extends})"
    )
    for column in ("parameter", "value", "status", "clauses", "note"):
        table.add_column(column, overflow="fold")
    for param in profile.parameters:
        status = (
            "[green]documented[/]" if param.status is Status.DOCUMENTED else "[yellow]assumed[/]"
        )
        table.add_row(param.name, _value(param.raw), status, " ".join(param.clauses), param.note)
    console.print(table)


@profiles.command("diff")
@click.argument("first")
@click.argument("second")
def profiles_diff(first: str, second: str) -> None:
    """Show the parameters whose value or status differs between two profiles."""
    a, b = _load(first), _load(second)
    if a.game is not b.game:
        _fail(f"{a.id} is {a.game.value} and {b.id} is {b.game.value}: nothing to compare")
    names = [p.name for p in a.parameters] + [
        p.name for p in b.parameters if a.parameter(p.name) is None
    ]
    table = Table(title=f"{a.id} vs {b.id}")
    for column in ("parameter", a.id, b.id):
        table.add_column(column, overflow="fold")
    differ = 0
    for name in names:
        pa, pb = a.parameter(name), b.parameter(name)
        va = f"{_value(pa.raw)} ({pa.status.value})" if pa else f"{_value(a[name])} (default)"
        vb = f"{_value(pb.raw)} ({pb.status.value})" if pb else f"{_value(b[name])} (default)"
        if va != vb:
            differ += 1
            table.add_row(name, va, vb)
    if differ:
        console.print(table)
    else:
        console.print(f"{a.id} and {b.id} have the same parameters.")


def _value(raw: object) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    return str(getattr(raw, "value", raw))


# --- shoe and spins -------------------------------------------------------------------------


@main.command()
@click.option("--seed", required=True, help="The seed, any UTF-8 text (may be empty).")
@click.option(
    "--decks", default=1, show_default=True, type=click.IntRange(1, 8), help="Decks in the shoe."
)
@click.option("--count", type=click.IntRange(1), help="Print only the first COUNT cards.")
def shoe(seed: str, decks: int, count: int | None) -> None:
    """Print the portable seeded shoe of SEED in text form, first card dealt first."""
    cards = seeded_shoe(seed, decks)
    print(format_cards(cards[:count] if count else cards))  # noqa: T201 - plain output for pipes


@main.command()
@click.option("--seed", required=True, help="The seed, any UTF-8 text (may be empty).")
@click.option(
    "--count", default=13, show_default=True, type=click.IntRange(1), help="How many spins."
)
@click.option(
    "--wheel", type=click.Choice(["european", "american"]), default="european", show_default=True
)
def spins(seed: str, count: int, wheel: str) -> None:
    """Print the portable seeded roulette spins of SEED (00 on the American wheel)."""
    pockets = 38 if wheel == "american" else 37
    values = seeded_spins(seed, count, pockets)
    print(" ".join(pocket_text(v) if v != DOUBLE_ZERO else "00" for v in values))  # noqa: T201


if __name__ == "__main__":
    main()


if __name__ == "__main__":
    main()
