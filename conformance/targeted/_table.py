"""Generators of the table's parameters, alike in every game: decks, limits, seats.

Each builds one plain round of the game (``plain``): a blackjack 19 standing against 17, a
baccarat player bet on a player 6 against a banker 3, a roulette bet that wins on pocket 1;
then changes the one thing the parameter decides: a card one copy too many for the smaller
shoe (BJ.deal, D.decks), a stake at the edge of the limits (TABLE.limits), one seat more
than the smaller table takes (TABLE.seats).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from croupier.conformance.targeted.probe import Probe, ProbeRound, probe
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile

_Generator = Callable[[Profile, Profile], Sequence[Probe] | str]

#: The plain round's cards: blackjack TS 9D = 19 stands against 7H TC = 17; baccarat player
#: 7S 9D = 6 stands, banker 4H 6C = 0 draws 3C: 3.
_SHOE = {Game.BLACKJACK: "TS 7H 9D TC", Game.BACCARAT: "7S 4H 9D 6C 3C"}


def winning_bet(profile: Profile, stake: int) -> str:
    """A bet of the game that the plain round decides, in the cases' text form."""
    if profile.game is Game.BLACKJACK:
        return str(stake)
    if profile.game is Game.BACCARAT:
        return f"player={stake}"
    return offered_bet(profile, stake)


#: A bet of each roulette kind that pocket 1 wins (C.rou.wheel: 1 is red, odd, low, in column 1
#: and dozen 1), the even chances first.
ON_POCKET_ONE: dict[str, str] = {
    "red": "red",
    "odd": "odd",
    "low": "low",
    "column": "column 1",
    "dozen": "dozen 1",
    "straight": "straight 1",
    "split": "split 1-2",
    "street": "street 1-2-3",
    "corner": "corner 1-2-4-5",
    "line": "line 1-2-3-4-5-6",
    "first-four": "first-four 0-1-2-3",
    "top-line": "top-line 0-00-1-2-3",
}


def offered_bet(profile: Profile, stake: int) -> str:
    """A bet the table offers that pocket 1 wins (VAR.rou.bets-offered)."""
    offered = profile.words("bets_offered")
    kind = next(k for k in ON_POCKET_ONE if k in offered and _on_layout(profile, k))
    return f"{ON_POCKET_ONE[kind]}={stake}"


def _on_layout(profile: Profile, kind: str) -> bool:
    """Whether the wheel's layout has the kind: no top line in Europe, no first four in America."""
    missing = "top-line" if profile.choice("wheel") == "european" else "first-four"
    return kind != missing


def plain(profile: Profile, seats: int = 1, stake: int = 100, balance: int = 1000) -> ProbeRound:
    """The plain round of the game, with ``seats`` seats each staking ``stake``."""
    seat = f"{balance}:{winning_bet(profile, stake)}"
    if profile.game is Game.ROULETTE:
        return ProbeRound(seats=(seat,) * seats, pocket="1")
    if profile.game is Game.BACCARAT or seats == 1:
        return ProbeRound(seats=(seat,) * seats, shoe=_SHOE[profile.game], plan="stand")
    # Blackjack: seat i gets a ten-valued card (16 different ones) and a nine, 19; the dealer
    # 7H TC. Six decks hold every card twice over.
    tens = [f"{rank}{suit}" for rank in "TJQK" for suit in "CDHS"][:seats]
    nines = [f"9{suit}" for suit in "CDHS" * 4][:seats]
    shoe = " ".join([*tens, "7H", *nines, "TC"])
    return ProbeRound(seats=(seat,) * seats, shoe=shoe, plan=" ".join(["stand"] * seats))


def _decks(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    if profile.game is Game.ROULETTE:
        return "roulette deals no cards"
    more = max(profile.integer("decks"), other.integer("decks"))
    base = plain(profile)
    shoe = f"{base.shoe} {' '.join(['AS'] * more)}"
    return [probe(f"{more} aces of spades in the shoe", dataclasses.replace(base, shoe=shoe))]


def _min_bet(profile: Profile, other: Profile) -> Sequence[Probe]:
    stake = min(profile.integer("min_bet"), other.integer("min_bet"))
    return [
        probe(f"a stake of {stake}", plain(profile, stake=stake, balance=3 * stake), exact=True)
    ]


def _max_bet(profile: Profile, other: Profile) -> Sequence[Probe]:
    stake = max(profile.integer("max_bet"), other.integer("max_bet"))
    return [
        probe(f"a stake of {stake}", plain(profile, stake=stake, balance=3 * stake), exact=True)
    ]


def _max_seats(profile: Profile, other: Profile) -> Sequence[Probe]:
    seats = max(profile.integer("max_seats"), other.integer("max_seats"))
    return [
        probe(f"a round of {seats} seats staking {stake}", plain(profile, seats=seats, stake=stake))
        for stake in (10, 20, 5)
    ]


def generators(game: Game) -> dict[str, _Generator]:
    """The table's generators: every game's limits and seats, the card games' decks."""
    found: dict[str, _Generator] = {
        "min_bet": _min_bet,
        "max_bet": _max_bet,
        "max_seats": _max_seats,
    }
    if game is not Game.ROULETTE:
        found["decks"] = _decks
    return found


def small_stakes(profile: Profile, count: int, start: int = 1) -> list[int]:
    """``count`` stakes in a row from ``start``, or from the table's minimum if higher.

    Where rounding is what a probe decides, stakes are not ``fitted`` (a multiple of one
    factor meets few remainders): they run through the remainders from the minimum up.
    """
    first = max(start, profile.integer("min_bet"))
    if first > profile.integer("max_bet"):
        first = profile.integer("min_bet")
    return [s for s in range(first, first + count) if s <= profile.integer("max_bet")]


def rounding_reason(profile: Profile, other: Profile, name: str, denominators: set[int]) -> str:
    """Why two rounding rules cannot be told apart, or "" when some amount can.

    ``denominators`` are those of every exact amount the profile can pay on a whole stake.
    """
    pair = {profile.rounding(name).value, other.rounding(name).value}
    if denominators <= {1}:
        return "every amount this profile pays is whole"
    if denominators <= {1, 2} and pair == {"up", "half-up"}:
        return "every amount this profile pays is whole or ends in .5, where up and half-up agree"
    return ""
