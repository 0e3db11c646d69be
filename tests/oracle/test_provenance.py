"""oracle.provenance: comparing two views cause first, and finding the clause of a difference.

The cases are built by hand from the rules of ``oracle/provenance.py``'s docstring: a
value-specific key first, then the path's own key, then a ``*.`` key, then the containers.
"""

from __future__ import annotations

import pytest

from croupier.oracle.provenance import (
    ABSENT,
    Difference,
    cite,
    compact,
    first_difference,
    parent,
    prefixed,
)


@pytest.mark.parametrize(
    ("path", "up"),
    [
        ("state.blackjack.seats[0].hands[1].cards[2]", "state.blackjack.seats[0].hands[1].cards"),
        ("state.blackjack.seats[0].hands[1].cards", "state.blackjack.seats[0].hands[1]"),
        ("state.blackjack.seats[0]", "state.blackjack.seats"),
        ("state.legal_decisions[double]", "state.legal_decisions"),
        ("state", ""),
        ("error", ""),
        ("", ""),
    ],
)
def test_parent(path: str, up: str) -> None:
    assert parent(path) == up


CITED = {
    "state.blackjack.dealer.cards": ("BJ.deal-order",),
    f"state.blackjack.dealer.cards[1]={ABSENT}": ("BJ.dealer-needed",),
    "state.blackjack.dealer.cards[2]": ("C.bj.dealer-draw",),
    "state.blackjack.seats[0].hands": ("C.bj.split",),
    "settlement.lines[0]": ("BJ.nat-pays", "BJ.natural"),
    "settlement.lines[0].returned.minor_units=251": ("MONEY.rounding", "BJ.nat-pays"),
    "*.currency_code": ("TABLE.currency",),
    "*.insurance": ("BJ.half-stakes", "A.insurance"),
}


@pytest.mark.parametrize(
    ("path", "actual", "clause"),
    [
        # The value-specific key: the hole card is turned, the engine hid it.
        ("state.blackjack.dealer.cards[1]", ABSENT, "BJ.dealer-needed"),
        # Another value at the same path: the container's clause (a card dealt out of order).
        ("state.blackjack.dealer.cards[1]", "9C", "BJ.deal-order"),
        # The path's own key: a third card the dealer does not draw.
        ("state.blackjack.dealer.cards[2]", "5H", "C.bj.dealer-draw"),
        # Rounded the other way: MONEY.rounding; any other amount: the line's rule.
        ("settlement.lines[0].returned.minor_units", "251", "MONEY.rounding"),
        ("settlement.lines[0].returned.minor_units", "240", "BJ.nat-pays"),
        # A *. key before the containers: a line in another currency.
        ("settlement.lines[0].stake.currency_code", "GBP", "TABLE.currency"),
        # Up through the containers: a hand too many.
        ("state.blackjack.seats[0].hands[2]", "(set)", "C.bj.split"),
        # A *. key names a container too: an insurance stake's amount is the insurance's.
        ("state.blackjack.seats[1].insurance.minor_units", "75", "BJ.half-stakes"),
        ("state.blackjack.seats[1].insurance", ABSENT, "BJ.half-stakes"),
        # ...but the leaf's own *. key comes first: its currency is the table's.
        ("state.blackjack.seats[1].insurance.currency_code", "GBP", "TABLE.currency"),
    ],
)
def test_cite_looks_up_in_order(path: str, actual: str, clause: str) -> None:
    found = cite(CITED, Difference(path=path, expected="x", actual=actual))
    assert found[0] == clause


def test_cite_finds_nothing_for_an_unknown_path() -> None:
    assert cite(CITED, Difference(path="state.roulette.pocket", expected="1", actual="2")) == ()


def test_first_difference_takes_cards_then_statuses_then_the_rest_and_cards_dealt_last() -> None:
    expected = {
        "state.phase": "play",
        "state.cards_dealt": "5",
        "state.blackjack.seats[0].hands[0].status": "stood",
        "state.blackjack.seats[0].hands[0].cards[2]": ABSENT,
        "state.turn": "(set)",
    }
    # Everything differs: the card comes first, though listed last but one.
    actual = dict.fromkeys(expected, "other")
    found = first_difference(expected, actual)
    assert found == Difference(
        path="state.blackjack.seats[0].hands[0].cards[2]", expected=ABSENT, actual="other"
    )
    del actual["state.blackjack.seats[0].hands[0].cards[2]"]
    actual["state.blackjack.seats[0].hands[0].cards[2]"] = ABSENT
    assert first_difference(expected, actual).path == "state.blackjack.seats[0].hands[0].status"  # type: ignore[union-attr]
    actual["state.blackjack.seats[0].hands[0].status"] = "stood"
    assert first_difference(expected, actual).path == "state.phase"  # type: ignore[union-attr]
    actual["state.phase"] = "play"
    actual["state.turn"] = "(set)"
    assert first_difference(expected, actual).path == "state.cards_dealt"  # type: ignore[union-attr]
    actual["state.cards_dealt"] = "5"
    assert first_difference(expected, actual) is None
    # A path the expected view lacks counts only when it holds something.
    assert first_difference(expected, {**actual, "state.extra": ABSENT}) is None
    assert first_difference(expected, {**actual, "state.extra": "1"}) == Difference(
        path="state.extra", expected=ABSENT, actual="1"
    )


SPLIT = "state.blackjack.seats[0].hands"


@pytest.mark.parametrize("reverse", [False, True], ids=["field-order", "reversed"])
def test_a_hands_status_comes_before_the_next_hands_cards(reverse: bool) -> None:
    # Split 8s: hand 0 stood on 8 3 K = 21 (BJ.auto-stand); an engine that keeps it playing
    # also holds back hand 1's second card. The status is the cause, the card its effect;
    # the comparison says so whichever order the views list them in.
    paths = [f"{SPLIT}[0].status", f"{SPLIT}[1].cards[1]", f"{SPLIT}[0].cards[3]"]
    expected = dict.fromkeys(paths, ABSENT) | {f"{SPLIT}[0].status": "stood", paths[1]: "9C"}
    actual = {**expected, f"{SPLIT}[0].status": "playing", paths[1]: ABSENT}
    if reverse:
        expected = dict(reversed(expected.items()))
    assert first_difference(expected, actual) == Difference(
        path=f"{SPLIT}[0].status", expected="stood", actual="playing"
    )
    # Once the status agrees, the card is what differs.
    actual[f"{SPLIT}[0].status"] = "stood"
    assert first_difference(expected, actual) == Difference(
        path=f"{SPLIT}[1].cards[1]", expected="9C", actual=ABSENT
    )


@pytest.mark.parametrize("reverse", [False, True], ids=["field-order", "reversed"])
def test_a_hands_own_card_comes_before_its_status_and_seats_go_in_order(reverse: bool) -> None:
    # A card dealt wrong decides the status of its own hand: the card is cited, not the
    # status; and the first seat's hand is played before the second seat's.
    expected = {
        "state.blackjack.seats[1].hands[0].cards[2]": "5D",
        "state.blackjack.seats[0].hands[0].status": "bust",
        "state.blackjack.seats[0].hands[0].cards[2]": "KD",
        "state.blackjack.seats[1].hands[0].status": "stood",
    }
    if reverse:
        expected = dict(reversed(expected.items()))
    actual = dict.fromkeys(expected, "other")
    order = []
    while (found := first_difference(expected, actual)) is not None:
        order.append(found.path)
        actual[found.path] = expected[found.path]
    assert order == [
        "state.blackjack.seats[0].hands[0].cards[2]",
        "state.blackjack.seats[0].hands[0].status",
        "state.blackjack.seats[1].hands[0].cards[2]",
        "state.blackjack.seats[1].hands[0].status",
    ]


def test_prefixed_keeps_wildcards() -> None:
    assert prefixed({"phase": ("A.peek",), "*.currency_code": ("TABLE.currency",)}, "state") == {
        "state.phase": ("A.peek",),
        "*.currency_code": ("TABLE.currency",),
    }


def test_compact_answers_every_difference_as_before() -> None:
    full = {
        "state.legal_decisions[hit]": ("BJ.values",),
        "state.legal_decisions[stand]": ("BJ.compare",),
        "state.legal_decisions[double]": ("C.bj.insurance",),
        "state.legal_decisions[split]": ("C.bj.insurance",),
        "state.legal_decisions[surrender]": ("C.bj.insurance",),
        "state.blackjack.dealer.cards": ("BJ.deal-order",),
        "state.blackjack.dealer.cards[0]": ("BJ.deal-order",),
        f"state.blackjack.dealer.cards[1]={ABSENT}": ("BJ.deal-order",),
        "*.currency_code": ("TABLE.currency",),
    }
    small = compact(full)
    # The three alike decisions lend their clause to the list; the cards' copies go.
    assert small == {
        "state.legal_decisions": ("C.bj.insurance",),
        "state.legal_decisions[hit]": ("BJ.values",),
        "state.legal_decisions[stand]": ("BJ.compare",),
        "state.blackjack.dealer.cards": ("BJ.deal-order",),
        "*.currency_code": ("TABLE.currency",),
    }
    for key in full:
        path, _, value = key.partition("=")
        for actual in (value or "x", "y", ABSENT):
            difference = Difference(path=path.replace("*", "a.b"), expected="", actual=actual)
            assert cite(small, difference) == cite(full, difference), (key, actual)
