"""``evolve`` is ``dataclasses.replace`` for the rules' records; ``Choice`` hashes by identity."""

from __future__ import annotations

import dataclasses

import pytest

from croupier.oracle.blackjack import Hand, HandStatus
from croupier.oracle.cards import Rank, parse_cards
from croupier.oracle.immutable import evolve


def test_evolve_changes_what_it_is_told_and_keeps_the_rest() -> None:
    hand = Hand(cards=parse_cards("TH 6S"), stake=10, from_split=True)
    changed = evolve(hand, status=HandStatus.STOOD, why=("BJ.compare",))
    assert changed == dataclasses.replace(hand, status=HandStatus.STOOD, why=("BJ.compare",))
    assert changed.cards == hand.cards
    assert changed.from_split
    assert hand.status is HandStatus.PLAYING  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.stake = 20  # type: ignore[misc]


def test_evolve_refuses_a_name_that_is_not_a_field() -> None:
    hand = Hand(cards=parse_cards("TH 6S"), stake=10)
    with pytest.raises(TypeError, match="no field statu"):
        evolve(hand, statu=HandStatus.STOOD)


def test_choices_hash_as_dict_keys_by_member() -> None:
    pips = {rank: rank.pip for rank in Rank}
    assert pips[Rank.KING] == 10
    assert pips[Rank("A")] == 1
    assert len({Rank.ACE, Rank("A")}) == 1
