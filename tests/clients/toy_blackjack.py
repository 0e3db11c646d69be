"""A toy blackjack engine written the way engines are: a game loop, in its own words.

It plays one seat of document C's blackjack without insurance (never dealt an ace up here),
the whole way from the deal: ``play_round`` draws from ``deck`` in ITS order (the player's two
cards, then the dealer's two; both hands of a split get their second card at the split) and
calls ``choose(table, options)`` for every move ("h", "s", "d", "p", "r"). Its cards are
spelt ``K♠``, ``10♥``; its statuses are its own words. Run as a script it is a terminal game:
``python toy_blackjack.py STAKE BALANCE CARD...`` asks ``Your move?`` with ``input()``.

``bug`` (``TOY_BUG`` for the script) plants one: ``"six-five"`` pays a blackjack 6:5, not 3:2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

VALUES = {"A": 11, "J": 10, "Q": 10, "K": 10}


@dataclass
class Hand:
    cards: list[str]
    stake: int
    split: bool = False
    doubled: bool = False
    status: str = "WAIT"  # WAIT, PLAY, STAND, BUST, BJ, GIVEUP


@dataclass
class Table:
    hands: list[Hand]
    dealer: list[str]
    hole_up: bool = False
    #: (hand, stake, returned) once the round is over.
    paid: list[tuple[int, int, int]] | None = None
    drawn: int = 0
    at: int = 0  # the hand to play


def rank(card: str) -> str:
    return card[:-1]


def total(cards: list[str]) -> int:
    points = sum(VALUES.get(rank(c), 0) or int(rank(c)) for c in cards)
    aces = sum(rank(c) == "A" for c in cards)
    while points > 21 and aces:
        points, aces = points - 10, aces - 1
    return points


def natural(hand: Hand) -> bool:
    return len(hand.cards) == 2 and not hand.split and total(hand.cards) == 21


def options(table: Table, hand: Hand, balance: int) -> list[str]:
    free = balance - sum(h.stake for h in table.hands)
    moves = ["h", "s"]
    if len(hand.cards) == 2:
        if free >= hand.stake:
            moves.append("d")
        if (
            len(table.hands) == 1
            and rank(hand.cards[0]) == rank(hand.cards[1])
            and free >= hand.stake
        ):
            moves.append("p")
        if not hand.split:
            moves.append("r")
    return moves


def move(table: Table, hand: Hand, choice: str, draw: Callable[[], str]) -> None:
    if choice == "s":
        hand.status = "STAND"
    elif choice == "h":
        hand.cards.append(draw())
    elif choice == "d":
        hand.stake, hand.doubled = 2 * hand.stake, True
        hand.cards.append(draw())
        hand.status = "BUST" if total(hand.cards) > 21 else "STAND"
    elif choice == "r":
        hand.status = "GIVEUP"
    elif choice == "p":
        other = Hand([hand.cards.pop()], hand.stake, split=True)
        hand.split = True
        hand.cards.append(draw())
        other.cards.append(draw())
        table.hands.insert(table.at + 1, other)


def play_round(
    deck: Iterator[str],
    stake: int,
    balance: int,
    choose: Callable[[Table, list[str]], str],
    bug: str = "",
) -> Table:
    def draw() -> str:
        table.drawn += 1
        return next(deck)

    table = Table(hands=[], dealer=[])
    first = [draw(), draw()]
    table.dealer = [draw(), draw()]
    table.hands = [Hand(first, stake, status="PLAY")]
    if natural(table.hands[0]):
        table.hands[0].status = "BJ"
    while table.at < len(table.hands):
        hand = table.hands[table.at]
        hand.status = "PLAY" if hand.status == "WAIT" else hand.status
        while hand.status == "PLAY" and total(hand.cards) < 21:
            move(table, hand, choose(table, options(table, hand, balance)), draw)
        if hand.status == "PLAY":
            hand.status = "BUST" if total(hand.cards) > 21 else "STAND"
        table.at += 1
    table.hole_up = True
    if any(h.status == "STAND" for h in table.hands):
        while total(table.dealer) < 17:
            table.dealer.append(draw())
    dealer, dealer_bj = total(table.dealer), len(table.dealer) == 2 and total(table.dealer) == 21
    table.paid = []
    for index, hand in enumerate(table.hands):
        mine = total(hand.cards)
        if hand.status == "GIVEUP":
            back = hand.stake // 2
        elif hand.status == "BJ":
            win = hand.stake * 6 // 5 if bug == "six-five" else hand.stake * 3 // 2
            back = hand.stake if dealer_bj else hand.stake + win
        elif hand.status == "BUST" or dealer_bj:
            back = 0
        elif dealer > 21 or mine > dealer:
            back = 2 * hand.stake
        else:
            back = hand.stake if mine == dealer else 0
        table.paid.append((index, hand.stake, back))
    return table


def show(table: Table) -> str:
    """The table as the terminal game prints it."""
    dealer = " ".join(table.dealer) if table.hole_up else f"{table.dealer[0]} ??"
    lines = [f"Dealer: {dealer}"]
    for index, hand in enumerate(table.hands):
        extra = (" split" if hand.split else "") + (" doubled" if hand.doubled else "")
        lines.append(
            f"Hand {index}: {' '.join(hand.cards)} ({hand.status}, bet {hand.stake}{extra})"
        )
    lines.append(f"Cards used: {table.drawn}")
    return "\n".join(lines)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")


def main(argv: list[str]) -> None:
    stake, balance, cards = int(argv[0]), int(argv[1]), iter(argv[2:])

    def choose(table: Table, moves: list[str]) -> str:
        say(show(table))
        while (choice := input(f"Your move? [{'/'.join(moves)}] ").strip()) not in moves:
            say("No such move.")
        return choice

    table = play_round(cards, stake, balance, choose, bug=os.environ.get("TOY_BUG", ""))
    say(show(table))
    for index, bet, back in table.paid or []:
        say(f"Paid hand {index}: bet {bet}, back {back}")
    say("Goodbye.")


if __name__ == "__main__":
    main(sys.argv[1:])
