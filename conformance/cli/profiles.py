"""``croupier profiles``: the rule profiles, one in full, or two side by side."""

from __future__ import annotations

import click
from croupier.v1 import oracle_service_pb2
from google.protobuf import json_format
from rich.markup import escape
from rich.table import Table

from conformance.cli.common import (
    console,
    fail,
    load_profile,
)
from oracle.profile import Profile, Status, shipped_profiles
from oracle.returns import NO_THEORETICAL_RETURN, percent, theoretical_returns
from oracle.service import convert


@click.group(invoke_without_command=True)
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
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the profile as OracleService.GetProfile returns it (proto3 JSON).",
)
def profiles_show(profile_id: str, as_json: bool) -> None:
    """Show one profile: every parameter, its clauses, documented or assumed; bets' returns.

    Then each bet's exact theoretical return and house edge (baccarat, roulette), or why
    there is none (blackjack). PROFILE_ID is a shipped id or a lab's profile file. With --json, the profile is printed
    exactly as the oracle's GetProfile answers it: the numbers an engine needs (decks,
    limits, history length, rounding) without reading Python.
    """
    profile = load_profile(profile_id)
    if as_json:
        response = oracle_service_pb2.GetProfileResponse(profile=convert.profile(profile))
        click.echo(json_format.MessageToJson(response, indent=2))
        return
    extends = f", extends {profile.extends}" if profile.extends else ""
    table = Table(
        title=f"{profile.id}: {profile.title} ({profile.game.value}, document {profile.source}{extends})"
    )
    # Names and clause ids are read whole or not at all. The notes wrap in their column
    # on a wide terminal, and follow the table, one per parameter, on a narrow one.
    notes_beside = console.width >= _WIDE
    longest_clause = max((len(c) for p in profile.parameters for c in p.clauses), default=7)
    table.add_column("parameter", no_wrap=True)
    # A long value ("same-rank-or-pictures") folds; rich would not narrow it on its own.
    table.add_column("value", overflow="fold", max_width=None if notes_beside else 10)
    table.add_column("status", no_wrap=True)
    table.add_column("clauses", min_width=longest_clause)
    if notes_beside:
        table.add_column("note", overflow="fold", ratio=1)
    for param in profile.parameters:
        status = (
            "[green]documented[/]" if param.status is Status.DOCUMENTED else "[yellow]assumed[/]"
        )
        cells = [param.name, _value(param.raw), status, " ".join(param.clauses)]
        table.add_row(*cells, *([param.note] if notes_beside else []))
    console.print(table)
    if not notes_beside:
        for param in profile.parameters:
            if param.note:
                console.print(f"[bold]{param.name}[/]: {escape(param.note)}")
    _print_returns(profile)


#: Columns from which a profile's notes fit beside its parameters.
_WIDE = 140
#: A width no table reaches: what a table would take if the terminal did not narrow it.
_UNBOUNDED = 10_000


def _print_returns(profile: Profile) -> None:
    """Each bet's exact theoretical return and house edge (``oracle.returns``), or why none."""
    why = NO_THEORETICAL_RETURN.get(profile.game)
    if why is not None:
        console.print(f"Returns: {escape(why)}.")
        return
    lines = theoretical_returns(profile)
    title = "Returns per unit staked: exact, before rounding"
    # One row a bet when the exact fractions fit beside the percentages; on a narrow terminal
    # (an eight-deck shoe's fractions run to 29 characters) each fraction goes under its
    # percentage instead, never folded.
    wide = Table(title=title)
    wide.add_column("bet", no_wrap=True)
    wide.add_column("return", no_wrap=True, justify="right")
    wide.add_column("house edge", no_wrap=True, justify="right")
    wide.add_column("exact return", no_wrap=True)
    wide.add_column("exact house edge", no_wrap=True)
    for line in lines:
        wide.add_row(
            line.bet,
            percent(line.returns),
            percent(line.house_edge),
            str(line.returns),
            str(line.house_edge),
        )
    unbounded = console.options.update_width(_UNBOUNDED)
    if console.measure(wide, options=unbounded).maximum <= console.width:
        console.print(wide)
        return
    narrow = Table(title=title)
    for column in ("bet", "return", "house edge"):
        narrow.add_column(column, no_wrap=True)
    for line in lines:
        narrow.add_row(
            line.bet,
            f"{percent(line.returns)}\n{line.returns}",
            f"{percent(line.house_edge)}\n{line.house_edge}",
        )
    console.print(narrow)


@profiles.command("diff")
@click.argument("first")
@click.argument("second")
def profiles_diff(first: str, second: str) -> None:
    """Show the parameters whose value or status differs between two profiles."""
    a, b = load_profile(first), load_profile(second)
    if a.game is not b.game:
        fail(f"{a.id} is {a.game.value} and {b.id} is {b.game.value}: nothing to compare")
    names = [p.name for p in a.parameters] + [
        p.name for p in b.parameters if a.parameter(p.name) is None
    ]
    table = Table(title=f"{a.id} vs {b.id}")
    table.add_column("parameter", no_wrap=True)
    for column in (a.id, b.id):
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
    if isinstance(raw, tuple):
        return ", ".join(raw)
    return str(getattr(raw, "value", raw))
