"""Refusal vectors of any profile, generated from its parameters.

The targeted rounds refuse what one value forbids and another allows (a bet kind the table
does not offer, a seat beyond the table's, a split beyond its hands, a double it forbids, a
stake beyond its limits). What every value of a parameter refuses is asked here: a stake
over the seat's balance, a double for more than the hand's stake or an insurance over half
of it where the profile lets the player choose the amount, a roulette bet of a kind the
table offers but of a shape its layout does not have. Each round names the reason it must be
refused with; a round the oracle refuses otherwise is left out, so every vector here is the
refusal it says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from croupier.conformance.targeted._table import plain
from croupier.conformance.targeted.probe import Probe, ProbeRound, fitted, play_probe, probe
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.clauses import Game
from croupier.oracle.profile import Profile

#: A bet of each roulette kind that no layout has, and the kinds it is refused for.
_BAD_SHAPES: dict[str, str] = {
    "straight": "straight 1-2",
    "split": "split 1-3",
    "street": "street 1-2-4",
    "corner": "corner 1-2-3-4",
    "line": "line 1-2-3-7-8-9",
    "column": "column 4",
    "dozen": "dozen 0",
    "red": "red 1",
}


def _probes(profile: Profile) -> Iterator[tuple[str, Probe]]:
    """Each refusal the profile's parameters let a round ask for, with its reason."""
    base = plain(profile)
    yield (
        "INSUFFICIENT_BALANCE",
        probe("a stake of 100 over a balance of 50", dataclasses.replace(base, seats=_poor(base))),
    )
    if profile.game is Game.BLACKJACK:
        yield from _blackjack(profile)
    if profile.game is Game.ROULETTE:
        offered = profile.words("bets_offered")
        for kind, bet in _BAD_SHAPES.items():
            if kind in offered:
                yield (
                    "INVALID_BET_LAYOUT",
                    probe(
                        f"a {kind} bet of no shape of the layout",
                        ProbeRound(seats=(f"1000:{bet}=10",), pocket="1"),
                    ),
                )


def _poor(pround: ProbeRound) -> tuple[str, ...]:
    """The round's seats with a balance of 50 under their stake of 100."""
    return tuple("50:" + seat.partition(":")[2] for seat in pround.seats)


def _blackjack(profile: Profile) -> Iterator[tuple[str, Probe]]:
    seat = ("1000:100",)
    if profile.flag("double_for_less"):
        # 5S 6D = 11 against 7H TC: a double of more than the hand's stake, or of nothing.
        for amount in (101, 0):
            yield (
                "ILLEGAL_DECISION",
                probe(
                    f"a double for {amount} on a stake of 100",
                    ProbeRound(seats=seat, shoe="5S 7H 6D TC TS", plan=f"double={amount}"),
                ),
            )
    if profile.flag("insurance") and profile.choice("insurance_stake") == "up-to-half":
        # TS 9D against AH: an insurance of more than half the stake.
        yield (
            "ILLEGAL_DECISION",
            probe(
                "insurance of 51 on a stake of 100",
                ProbeRound(seats=seat, shoe="TS AH 9D KC", plan="insurance=51"),
            ),
        )


def build_refusals(profile: Profile) -> list[vector_pb2.Vector]:
    """The profile's refusal vectors, ids ``<profile>-r<NNN>``, each refused as it says."""
    found: list[vector_pb2.Vector] = []
    for reason, asked in _probes(profile):
        vid = f"{profile.id}-r{len(found) + 1:03d}"
        name = f"{profile.id}/refused/{asked.topic.replace(' ', '-')}"
        vector = play_probe(profile, fitted(profile, asked), vid, name)
        if vector.rounds[-1].expected_error == reason:
            found.append(vector)
    return found
