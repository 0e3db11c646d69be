"""penny-ante 1.0.0 (PyPI) served as a Croupier engine, under ``examples/roulette/profile.toml``.

penny-ante's ``Game`` takes each seat as a player holding chips (its balance, one minor unit a
chip), checks and places each ``Bet`` (``Game.place_bet``: its betting rules, the player's
chips), spins and pays (``Bet.calculate_payout``: the stake and its winnings). The wrapper
lands the wheel on the forced pocket instead of its ``os.urandom`` draw, maps the contract's
bet kinds to ``BetType`` and the engine's refusals to the contract's reasons, and keeps the
board the engine does not (``replay.Boards``). Run: ``python examples/roulette/engine.py``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from penny_ante import Bet, BettingRules, BetType, Game

from croupier.clients import adapter, mappings, replay
from croupier.clients.adapter import DealInput, DecisionInput, EngineError, Line, RouletteView

# penny-ante's wheel ships without the config/*.yaml its Game loads: the engine's own
# create_default_config writes the default rules once, and every Game reads them.
CONFIG = str(Path(tempfile.mkdtemp(prefix="penny-ante-")) / "european_rules.yaml")
BettingRules.create_default_config(CONFIG)
#: The contract's bet kinds as penny-ante names them; first-four has no BetType.
KINDS = mappings.NameMap(
    {"straight": "straight_up", "line": "six_line"},
    same=("split", "street", "corner", "red", "black", "even", "odd", "low", "high"),
    what="bet kind",
)
ORDINALS = ("first", "second", "third")


def engine_bet(seat: int, bet: adapter.BetInput, game: Game) -> Bet:
    """The contract's bet as penny-ante's ``Bet``, its shape checked by ``Bet`` itself."""
    try:
        if bet.kind in ("column", "dozen"):
            if bet.group not in (1, 2, 3) or bet.pockets:
                raise ValueError(f"a {bet.kind} names its group, 1 to 3")
            kind = BetType(f"{ORDINALS[bet.group - 1]}_{bet.kind}")
        else:
            kind = BetType(KINDS.engine(bet.kind))
    except mappings.UnknownNameError:
        raise EngineError(
            "BET_NOT_OFFERED", f"no {bet.kind} bet", seat=seat, kind=bet.kind
        ) from None
    except ValueError as exc:
        raise EngineError("INVALID_BET_LAYOUT", str(exc), seat=seat) from None
    if kind in (BetType.RED, BetType.BLACK):
        return Bet.create_color_bet(bet.kind, bet.stake, layout=game.table.layout)
    if bet.kind in ("column", "dozen"):
        make = Bet.create_column_bet if bet.kind == "column" else Bet.create_dozen_bet
        return make(bet.group, bet.stake, layout=game.table.layout)
    return Bet(kind, list(bet.pockets), bet.stake, layout=game.table.layout)


def refusal(seat: int, exc: Exception) -> EngineError:
    """penny-ante's refusal (a ValueError or an Exception, by its text) as the contract's."""
    text = str(exc)
    if "insufficient chips" in text:
        return EngineError("INSUFFICIENT_BALANCE", text, seat=seat)
    if "outside allowed range" in text or "maximum total bet" in text or "positive" in text:
        return EngineError("BET_OUT_OF_LIMITS", text, seat=seat)
    return EngineError("INVALID_BET_LAYOUT", text, seat=seat)


def play(deal: DealInput, decisions: tuple[DecisionInput, ...]) -> replay.Played:
    """One spin on a fresh penny-ante table, landing on the forced pocket."""
    del decisions
    game = Game(table_type="EUROPEAN", betting_rules_config=CONFIG)
    placed: list[tuple[int, adapter.BetInput, Bet]] = []
    for s, seat in enumerate(deal.seats):
        name = f"seat {s}"
        game.add_player(name)
        game.players[name].buy_chips(count=seat.balance, value=1)
        for bet in seat.bets:
            try:
                placed.append((s, bet, engine_bet(s, bet, game)))
                game.place_bet(placed[-1][2], player_name=name)
            except EngineError:
                raise
            except Exception as exc:  # noqa: BLE001 - penny-ante refuses with bare Exceptions too
                raise refusal(s, exc) from None
    spaces = {space.value: space for space in game.table.wheel.spaces}
    pocket = deal.pocket or ""
    if pocket not in spaces:
        raise EngineError("INVALID_ROUND", f"no pocket {pocket!r} here", field="spin.pocket")
    wheel = game.table.wheel

    def land() -> bool:
        wheel.current_space = spaces[pocket]
        return True

    wheel.spin = land
    game.spin_wheel()
    lines = [
        Line(
            seat=s,
            bet=mappings.line_label(bet),
            stake=bet.stake,
            returned=engine.calculate_payout(game.current_space),
        )
        for s, bet, engine in placed
    ]
    return replay.Played(table=RouletteView(pocket=pocket, history=()), payouts=lines)


ENGINE = replay.ReplayEngine(
    name="penny-ante",
    version="1.0.0",
    profile_ids=("penny-ante",),
    play=play,
    boards=replay.Boards(13),
)

if __name__ == "__main__":
    adapter.main(ENGINE)
