"""``croupier profiles``: the rule profiles, one in full, or two side by side."""

from __future__ import annotations

import json

import click
from google.protobuf import json_format
from rich.markup import escape
from rich.table import Table

from croupier.conformance.cli.common import (
    console,
    fail,
    load_profile,
)
from croupier.conformance.labcorpus import value_text
from croupier.oracle import basic_strategy
from croupier.oracle.basic_strategy import Action, StrategyReturn
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ProfileError
from croupier.oracle.profile import Profile, Status, shipped_profiles
from croupier.oracle.returns import percent, theoretical_returns
from croupier.oracle.service import convert
from croupier.v1 import oracle_service_pb2


@click.group(invoke_without_command=True)
@click.pass_context
def profiles(ctx: click.Context) -> None:
    """The rule profiles (subcommands: list, show, diff, strategy); bare, lists them."""
    if ctx.invoked_subcommand is None:
        _list(as_json=False)


@profiles.command("list")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON array: each profile's id, game, source, title, extends and counts.",
)
def profiles_list(as_json: bool) -> None:
    """List the shipped rule profiles: id, game, source document, title, parameters assumed."""
    _list(as_json=as_json)


def _list(*, as_json: bool) -> None:
    shipped = shipped_profiles()
    if as_json:
        listed = [
            {
                "id": profile.id,
                "game": profile.game.value,
                "source": profile.source,
                "title": profile.title,
                "extends": profile.extends,
                "parameters": len(profile.parameters),
                "assumed": sum(p.status is Status.ASSUMED for p in profile.parameters),
            }
            for profile in shipped
        ]
        click.echo(json.dumps(listed, indent=2))
        return
    table = Table(title="Rule profiles")
    for column in ("id", "game", "source", "title", "assumed"):
        table.add_column(column)
    for profile in shipped:
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

    Then each bet's exact theoretical return and house edge (baccarat, roulette), or the
    return under basic strategy (blackjack; its chart: ``profiles strategy``). PROFILE_ID is a shipped id or a lab's profile file. With --json, the profile is printed
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
        cells = [param.name, value_text(param.raw), status, " ".join(param.clauses)]
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
    """Each bet's exact theoretical return (``oracle.returns``), or blackjack's by its chart.

    Blackjack's is the return under basic strategy (``oracle.basic_strategy``).
    """
    if profile.game is Game.BLACKJACK:
        found = _strategy(profile)
        console.print(_return_line(found))
        console.print(f"The chart and each rule's worth: croupier profiles strategy {profile.id}")
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


def _strategy(profile: Profile) -> StrategyReturn:
    try:
        return basic_strategy.strategy_return(profile)
    except ProfileError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def _signed(value: float) -> str:
    return f"{value * 100:+.4f}%"


def _return_line(found: StrategyReturn) -> str:
    return (
        f"Returns under basic strategy: {_signed(found.returns)} per unit of first stake "
        f"(house edge {found.house_edge * 100:.4f}%), exact to {found.error_bound:g}; "
        f"{found.stake:.4f} units staked a round, {found.per_unit_staked * 100:.4f}% returned "
        "per unit staked."
    )


#: The chart's columns: the up card, ace last, as charts print it.
_UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def _letter(action: Action, fallback: Action) -> str:
    """A chart cell: D and R say what to do where doubling or surrender is not open."""
    if action in (Action.DOUBLE, Action.SURRENDER) and fallback is Action.STAND:
        return f"{action.value}s"
    return str(action.value)


def _chart(title: str, rows: list[tuple[str, dict[int, str]]]) -> Table:
    table = Table(title=title)
    table.add_column("hand", no_wrap=True)
    for up in _UPS:
        table.add_column("A" if up == 1 else str(up), justify="center", no_wrap=True)
    for label, cells in rows:
        table.add_row(label, *(cells[up] for up in _UPS))
    return table


@profiles.command("strategy")
@click.argument("profile_id")
def profiles_strategy(profile_id: str) -> None:
    """Print a blackjack profile's basic strategy and its return, with each rule's worth.

    The strategy is total-dependent (the hand's total, soft or hard, pair or not, and the
    up card), for a shoe reshuffled before every round; the return is worked out card by
    card from the profile's finite shoe, not simulated. H hit, S stand, D double (else hit),
    Ds double (else stand), P split, R surrender (else hit), Rs surrender (else stand).
    PROFILE_ID is a shipped id or a lab's profile file.
    """
    profile = load_profile(profile_id)
    if profile.game is not Game.BLACKJACK:
        fail(f"{profile.id} is a {profile.game.value} profile: basic strategy is blackjack's")
    found = _strategy(profile)
    chart = found.chart
    hard = [
        (
            f"hard {t}",
            {up: _letter(chart.hard[up][t], chart.hit_stand[up][t, False]) for up in _UPS},
        )
        for t in range(5, 21)
    ]
    soft = [
        (
            f"soft {t} (A,{t - 11})",
            {up: _letter(chart.soft[up][t], chart.hit_stand[up][t, True]) for up in _UPS},
        )
        for t in range(13, 21)
    ]
    pair_rows = []
    for v in (1, 10, 9, 8, 7, 6, 5, 4, 3, 2):
        name = "A" if v == 1 else "T" if v == 10 else str(v)
        total = 12 if v == 1 else 2 * v
        cells = {up: _letter(chart.pairs[up][v], chart.hit_stand[up][total, v == 1]) for up in _UPS}
        pair_rows.append((f"{name},{name}", cells))
    decks = found.rules.decks
    console.print(
        f"[bold]{escape(profile.id)}[/]: total-dependent basic strategy, {decks} deck"
        f"{'s' if decks > 1 else ''} reshuffled every round"
    )
    console.print(_chart("Hard totals (two cards; 3 or more: H or S as shown)", hard))
    console.print(_chart("Soft totals", soft))
    console.print(_chart("Pairs", pair_rows))
    for up in _UPS:
        later = sorted(chart.double_later[up], key=lambda cell: (cell[1], cell[0]))
        if later:
            named = ", ".join(f"{'soft' if soft else 'hard'} {t}" for t, soft in later)
            console.print(
                f"Against {'A' if up == 1 else up}, three cards or more double on {named}."
            )
    console.print(_return_line(found))
    base, worths = basic_strategy.contributions(found.rules)
    console.print(
        f"The standard game ({decks} decks, stand on soft 17, 3:2, peek under an ace or a ten, "
        "double any two cards and after a split, one split, one card to split aces, no "
        f"surrender) returns {_signed(base.returns)}."
    )
    table = Table(title="Each rule's worth, applied in turn to the standard game")
    for column in ("rule", "standard", "profile", "worth", "return after"):
        table.add_column(column, no_wrap=column != "rule")
    for worth in worths:
        table.add_row(
            worth.rule, worth.standard, worth.profile, _signed(worth.worth), _signed(worth.after)
        )
    if worths:
        console.print(table)
    else:
        console.print("The profile plays the standard game's rules.")
    declined = found.declined
    console.print(
        "Insurance and even money are declined. Taking them would change the return by: "
        f"insurance on every hand {_signed(declined.insurance)}"
        + (
            f", and {_signed(declined.after_insurance)} more by the rule against doubling and "
            "splitting after insurance"
            if found.rules.no_double_split_after_insurance
            else ""
        )
        + f"; even money on every natural {_signed(declined.even_money)}."
    )


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
        va = (
            f"{value_text(pa.raw)} ({pa.status.value})"
            if pa
            else f"{value_text(a[name])} (default)"
        )
        vb = (
            f"{value_text(pb.raw)} ({pb.status.value})"
            if pb
            else f"{value_text(b[name])} (default)"
        )
        if va != vb:
            differ += 1
            table.add_row(name, va, vb)
    if differ:
        console.print(table)
    else:
        console.print(f"{a.id} and {b.id} have the same parameters.")
