"""Helpers for the usual mappings between an engine and the contract, for ``clients.replay``.

None of them knows a rule of any game: they move cards, count them, rename things and spell
labels, as the contract (``BJ.deal-order``, ``SettlementLine.bet``) says.

- ``Shoe``: the round's shoe as the engine draws from it, counting the cards taken in the
  contract's order (``Played.cards_dealt``); ``SHOE_EXHAUSTED`` past its end.
- ``DealOrder``: an engine that deals blackjack in another order (the players' two cards
  first, the dealer's second card after the players as in a no-hole-card game, both hands of
  a split given their second card at once). ``DealOrder(...).shoe(deal, decisions)`` is a
  ``Shoe`` whose k-th draw is the card the contract deals for that place, and its
  ``contract(played)`` shows the round as the contract deals it (a split hand that has not
  started holds one card, ``waiting``; ``cards_dealt`` counted in the contract's order).
- ``NameMap``: names the engine spells otherwise, both ways (bet kinds, decisions, cards).
- ``line_label``, ``hand_label``: a settlement line's ``bet`` text, as the contract spells it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from croupier.clients.adapter import BetInput, BlackjackView, DealInput, DecisionInput, EngineError
from croupier.clients.replay import Played

# --- the shoe ---------------------------------------------------------------------------------


class Shoe:
    """A round's shoe as the engine draws from it.

    ``order`` is the contract's place (0-based) of each card the engine draws, in the engine's
    order; past its end the engine draws the contract's next places in turn. ``floor`` is the
    first deal's count (blackjack two per seat and two for the dealer, baccarat four): those
    places count as dealt once any card is (the contract deals them at once, even if the
    engine draws some later), and a shoe that cannot deal them all is ``SHOE_EXHAUSTED`` with
    ``needed`` that count (engine_service.proto); past them, ``needed`` is the place, from 1,
    of the card being drawn.
    """

    def __init__(self, cards: Sequence[str], *, order: Sequence[int] = (), floor: int = 0) -> None:
        self.cards = tuple(cards)
        self.order = tuple(order)
        self.floor = floor
        #: The contract's place of each card drawn so far, in the engine's order.
        self.taken: list[int] = []
        #: Places the contract has not dealt yet though the engine has (``contract`` sets it).
        self.hidden: frozenset[int] = frozenset()

    def draw(self) -> str:
        """The next card the engine draws; ``SHOE_EXHAUSTED`` past the shoe's end."""
        k = len(self.taken)
        place = self.order[k] if k < len(self.order) else k
        if place >= len(self.cards):
            first = len(self.cards) < self.floor
            raise EngineError(
                "SHOE_EXHAUSTED",
                f"the shoe holds {len(self.cards)} cards; the "
                + (f"first deal takes {self.floor}" if first else "round needs more"),
                needed=self.floor if first else len(self.cards) + 1,
            )
        self.taken.append(place)
        return self.cards[place]

    def in_order(self) -> tuple[str, ...]:
        """The cards in the engine's order, as far as the shoe holds them.

        For an engine that takes the whole deck at once; ``took`` then says how many it used.
        """
        places = [*self.order, *range(len(self.order), len(self.cards))]
        held = itertools.takewhile(lambda place: place < len(self.cards), places)
        return tuple(self.cards[place] for place in held)

    def took(self, count: int) -> None:
        """The engine has drawn its first ``count`` cards (it said so: ``Cards used: 7``)."""
        self.taken = []
        for _ in range(count):
            self.draw()

    def __iter__(self) -> Shoe:
        return self

    def __next__(self) -> str:
        return self.draw()

    @property
    def cards_dealt(self) -> int:
        """How many cards the contract has dealt: the places taken are a prefix of the shoe."""
        shown = set(self.taken) - self.hidden
        if not shown:
            return 0
        return max(max(shown) + 1, self.floor)

    def contract(self, played: Played) -> Played:
        """``played`` with ``cards_dealt`` counted in the contract's order."""
        return dataclasses.replace(played, cards_dealt=self.cards_dealt)


# --- another deal order (BJ.deal-order) --------------------------------------------------------

#: The contract's first deal: a card to each seat, the dealer's up card, a second card to each
#: seat, the hole card (BJ.deal-order).
CONTRACT_DEAL = ("firsts", "up", "seconds", "hole")
_DEAL_STEPS = frozenset({"firsts", "seconds", "pairs", "up", "hole"})
_HOLE = ("with-deal", "after-players")
_SPLIT = ("when-played", "at-split")
#: Decisions that take a card for the hand they address (a split takes two: one per hand).
_DRAWS = frozenset({"hit", "double"})


@dataclass(frozen=True, slots=True, kw_only=True)
class DealOrder:
    """How an engine deals blackjack, where it deals otherwise than the contract.

    ``first_deal`` is the engine's first deal in steps: ``firsts`` (a card to each seat in
    seat order), ``seconds`` (a second card to each seat), ``pairs`` (each seat's two cards
    in seat order, instead of ``firsts`` and ``seconds``), ``up`` (the dealer's up card),
    ``hole`` (the dealer's second card). ``hole="after-players"`` deals the dealer's second
    card after the players' draws, before the dealer's others (a no-hole-card game; no
    ``hole`` step then). ``split="at-split"`` gives both hands of a split their second card
    at once, the split hand's first; the contract gives the new hand its card when it starts
    to play. Draws during play follow the decisions: a hit or a double takes one card for
    its hand, a split one for each hand; the dealer's draws come after the players'.
    """

    first_deal: tuple[str, ...] = CONTRACT_DEAL
    hole: str = "with-deal"
    split: str = "when-played"

    def __post_init__(self) -> None:
        steps = set(self.first_deal)
        wrong = []
        if self.hole not in _HOLE:
            wrong.append(f"hole is {self.hole!r}, not one of {', '.join(_HOLE)}")
        if self.split not in _SPLIT:
            wrong.append(f"split is {self.split!r}, not one of {', '.join(_SPLIT)}")
        if not steps <= _DEAL_STEPS or len(steps) != len(self.first_deal):
            wrong.append(f"first_deal {self.first_deal} takes each of {sorted(_DEAL_STEPS)} once")
        seats = steps & {"firsts", "seconds", "pairs"}
        if seats not in ({"firsts", "seconds"}, {"pairs"}):
            wrong.append("first_deal deals the seats with firsts and seconds, or with pairs")
        if "up" not in steps:
            wrong.append("first_deal deals the dealer's up card (up)")
        if ("hole" in steps) != (self.hole == "with-deal"):
            wrong.append('first_deal has a hole step exactly when hole is "with-deal"')
        if wrong:
            raise ValueError("DealOrder: " + "; ".join(wrong))

    def shoe(self, deal: DealInput, decisions: Sequence[DecisionInput]) -> OrderedShoe:
        """The round's shoe in this engine's order, for the decisions taken so far.

        ``SHOE_EXHAUSTED`` if the shoe cannot make the contract's first deal.
        """
        cards = deal.shoe or ()
        seats = len(deal.seats)
        first = 2 * seats + 2
        if len(cards) < first:
            raise EngineError(
                "SHOE_EXHAUSTED",
                f"the first deal takes {first} cards; the shoe holds {len(cards)}",
                needed=first,
            )
        places = {
            "firsts": list(range(seats)),
            "up": [seats],
            "seconds": list(range(seats + 1, 2 * seats + 1)),
            "pairs": [p for s in range(seats) for p in (s, seats + 1 + s)],
            "hole": [2 * seats + 1],
        }
        contract, engine, waiting = _play_draws(decisions, seats, at_split=self.split == "at-split")
        at = {event: first + index for index, event in enumerate(contract)}
        order = [p for step in self.first_deal for p in places[step]]
        order += [at[event] for event in engine]
        if self.hole == "after-players":
            order.append(2 * seats + 1)
        return OrderedShoe(
            cards,
            order=order,
            floor=first,
            waiting=tuple((seat, hand, at[event]) for seat, hand, event in waiting),
        )


@dataclass(slots=True)
class _Hand:
    """A hand as the deal order follows it: its splits so far, its second card if it waits."""

    splits: int = 0
    waiting: int | None = None


def _play_draws(
    decisions: Sequence[DecisionInput], seats: int, *, at_split: bool
) -> tuple[list[int], list[int], list[tuple[int, int, int]]]:
    """The players' draws: in the contract's order, in the engine's, and the split hands waiting.

    A draw is an event number. A split hand waits for its second card until it starts to
    play: when a decision addresses it, a later hand or a later seat, its card is dealt
    before that decision's own; the hands still waiting after every decision so far get
    theirs next, in order. A split's new hand is numbered after the hand split and the hands
    its earlier splits made (VAR.bj.resplit).
    """
    contract: list[int] = []
    engine: list[int] = []
    events = itertools.count()
    hands = [[_Hand()] for _ in range(seats)]

    def start(seat: int, index: int) -> None:
        for s, row in enumerate(hands[: seat + 1]):
            for i, hand in enumerate(row):
                if hand.waiting is not None and (s, i) <= (seat, index):
                    contract.append(hand.waiting)
                    if not at_split:
                        engine.append(hand.waiting)
                    hand.waiting = None

    for decision in decisions:
        start(decision.seat, decision.hand)
        if decision.kind in _DRAWS:
            contract.append(next(events))
            engine.append(contract[-1])
        elif decision.kind == "split" and decision.seat < seats:
            row = hands[decision.seat]
            split = row[min(decision.hand, len(row) - 1)]
            event, second = next(events), next(events)
            contract.append(event)
            engine.append(event)
            if at_split:
                engine.append(second)
            row.insert(decision.hand + 1 + split.splits, _Hand(waiting=second))
            split.splits += 1
    waiting = [
        (s, i, hand.waiting)
        for s, row in enumerate(hands)
        for i, hand in enumerate(row)
        if hand.waiting is not None
    ]
    start(seats, 0)
    return contract, engine, waiting


class OrderedShoe(Shoe):
    """A ``Shoe`` in another deal order (``DealOrder.shoe``).

    It knows the split hands whose second card the engine draws before the contract deals it.
    """

    def __init__(
        self,
        cards: Sequence[str],
        *,
        order: Sequence[int],
        floor: int,
        waiting: Sequence[tuple[int, int, int]],
    ) -> None:
        super().__init__(cards, order=order, floor=floor)
        #: (seat, hand, place of its second card) of each split hand not started by a decision.
        self.waiting = tuple(waiting)

    def contract(self, played: Played) -> Played:
        """The round as the contract deals it: a split hand after the turn holds one card.

        Its status is ``waiting`` and its second card, drawn early by the engine, is not
        counted in ``cards_dealt``; once the turn reaches the hand (or the round is over) the
        contract has dealt it too.
        """
        table = played.table
        later = [
            (seat, hand, place)
            for seat, hand, place in self.waiting
            if played.payouts is None and played.turn is not None and (seat, hand) > played.turn
        ]
        self.hidden = frozenset(place for _, _, place in later if place in self.taken)
        if later and isinstance(table, BlackjackView):
            seats = [dataclasses.replace(seat, hands=list(seat.hands)) for seat in table.seats]
            for seat, hand, _ in later:
                if seat < len(seats) and hand < len(seats[seat].hands):
                    shown = seats[seat].hands[hand]
                    hands = list(seats[seat].hands)
                    hands[hand] = dataclasses.replace(
                        shown, cards=list(shown.cards)[:1], status="waiting"
                    )
                    seats[seat] = dataclasses.replace(seats[seat], hands=hands)
            table = dataclasses.replace(table, seats=seats)
        return dataclasses.replace(played, table=table, cards_dealt=self.cards_dealt)


# --- names --------------------------------------------------------------------------------------


class UnknownNameError(ValueError):
    """A name the map does not hold, on the side it was looked up from."""

    def __init__(self, what: str, name: str, side: str) -> None:
        super().__init__(f"{what} {name!r} has no {side} name in the map")
        self.name = name


class NameMap:
    """Names an engine spells otherwise, both ways: ``{contract name: engine name}``.

    ``NameMap({"red": "rouge", "black": "noir"}, what="bet kind")``: ``engine("red")`` is
    ``"rouge"``, ``contract("noir")`` is ``"black"``. With ``same`` the names listed there are
    spelt alike on both sides; any other name raises ``UnknownNameError`` (a ``ValueError``),
    so that a kind the engine lacks is never passed on silently.
    """

    def __init__(
        self, names: Mapping[str, str], *, same: Iterable[str] = (), what: str = "name"
    ) -> None:
        pairs = {**{name: name for name in same}, **names}
        back: dict[str, str] = {}
        for ours, theirs in pairs.items():
            if theirs in back:
                raise ValueError(
                    f"NameMap: {back[theirs]!r} and {ours!r} are both {theirs!r} to the engine"
                )
            back[theirs] = ours
        self.what = what
        self._engine = pairs
        self._contract = back

    def engine(self, name: str) -> str:
        """The engine's name for a contract name."""
        try:
            return self._engine[name]
        except KeyError:
            raise UnknownNameError(self.what, name, "engine") from None

    def contract(self, name: str) -> str:
        """The contract's name for an engine's name."""
        try:
            return self._contract[name]
        except KeyError:
            raise UnknownNameError(self.what, name, "contract") from None


# --- labels -------------------------------------------------------------------------------------


def _layout(pocket: str) -> tuple[int, int]:
    """Layout order: 0, 00, then 1 to 36."""
    return (0, 0) if pocket == "0" else (0, 1) if pocket == "00" else (1, int(pocket))


def line_label(bet: BetInput) -> str:
    """A bet's settlement line label (``SettlementLine.bet``): ``"split 0-1"``, ``"red"``.

    ``"dozen 2"``, ``"banker"`` too; a blackjack box's is ``hand_label``'s.
    """
    if bet.pockets:
        return f"{bet.kind} {'-'.join(sorted(bet.pockets, key=_layout))}"
    if bet.group:
        return f"{bet.kind} {bet.group}"
    return bet.kind


def hand_label(hand: int) -> str:
    """A blackjack hand's settlement line label: ``"hand 0"`` (insurance is ``"insurance"``)."""
    return f"hand {hand}"
