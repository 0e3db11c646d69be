"""Roulette: the layout's bet shapes, the payouts of a spin and each table's board."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from croupier.clients.adapter import (
    BetInput,
    EngineError,
    Imprisoned,
    Line,
    RouletteView,
    RoundView,
    SeatInput,
)
from croupier.clients.demo_engine.house import House
from croupier.clients.demo_engine.rules import RouletteRules, Wheel

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
#: How many pockets each inside bet names.
INSIDE_SIZES = {
    "straight": 1,
    "split": 2,
    "street": 3,
    "corner": 4,
    "first-four": 4,
    "top-line": 5,
    "line": 6,
}
#: The even-money bets and the numbers each one covers.
EVEN_CHANCES = {
    "red": RED,
    "black": frozenset(range(1, 37)) - RED,
    "even": frozenset(range(2, 37, 2)),
    "odd": frozenset(range(1, 37, 2)),
    "low": frozenset(range(1, 19)),
    "high": frozenset(range(19, 37)),
}
MAX_TABLES = 10_000

Shape = frozenset[str]


def zeros(wheel: Wheel) -> tuple[str, ...]:
    """The green pockets: 0, and 00 on the American wheel."""
    return ("0",) if wheel == "european" else ("0", "00")


def pockets(wheel: Wheel) -> tuple[str, ...]:
    """Every pocket of a wheel, as text."""
    return (*zeros(wheel), *(str(n) for n in range(1, 37)))


def layout_order(pocket: str) -> int:
    """Where a pocket sits on the layout: 0, then 00, then 1 to 36."""
    return {"0": 0, "00": 1}.get(pocket, 1 + int(pocket) if pocket.isdigit() else 99)


def _shape(*numbers: int | str) -> Shape:
    return frozenset(str(n) for n in numbers)


@cache
def layout(wheel: Wheel) -> Mapping[str, frozenset[Shape]]:
    """Every shape an inside bet may take on a wheel's layout, by bet kind."""
    rows = [(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)]
    shapes: dict[str, set[Shape]] = {
        "straight": {_shape(p) for p in pockets(wheel)},
        # Side by side in a row (3-4 is not: they sit in different rows), or one above the other.
        "split": {_shape(n, n + 1) for n in range(1, 37) if n % 3}
        | {_shape(n, n + 3) for n in range(1, 34)},
        "street": {_shape(*row) for row in rows},
        "corner": {_shape(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3},
        "line": {_shape(*rows[r], *rows[r + 1]) for r in range(11)},
        "first-four": set(),
        "top-line": set(),
    }
    if wheel == "european":
        shapes["split"] |= {_shape(0, 1), _shape(0, 2), _shape(0, 3)}
        shapes["street"] |= {_shape(0, 1, 2), _shape(0, 2, 3)}
        shapes["first-four"] = {_shape(0, 1, 2, 3)}
    else:
        shapes["split"] |= {
            _shape(0, 1),
            _shape(0, 2),
            _shape("00", 2),
            _shape("00", 3),
            _shape(0, "00"),
        }
        shapes["street"] |= {_shape(0, 1, 2), _shape(0, "00", 2), _shape("00", 2, 3)}
        shapes["top-line"] = {_shape(0, "00", 1, 2, 3)}
    return {kind: frozenset(found) for kind, found in shapes.items()}


def check_bet_format(seat: int, bet: BetInput) -> None:
    """A roulette bet's own form: pocket texts of 0 to 36 or 00, a group only on a column or dozen."""
    grouped = bet.kind in ("column", "dozen")
    if grouped and bet.pockets:
        why = f"a {bet.kind} names its group, not pockets"
    elif not grouped and bet.group:
        why = "only a column or a dozen has a group"
    else:
        bad = [p for p in bet.pockets if p not in pockets("american")]
        if not bad:
            return
        why = f"{bad[0]!r} is not a pocket (0 to 36, 00, without leading zeros)"
    raise EngineError("INVALID_BET_LAYOUT", f"seat {seat}: {bet.kind}: {why}", seat=seat)


@dataclass(slots=True)
class Spin:
    """One spin: the winning pocket, the table's board after it, and the settled bets."""

    pocket: str
    history: list[str]
    lines: list[Line]
    #: The bets imprisoned at the table after the spin (en prison).
    prison: list[Imprisoned]


class RouletteCroupier(House):
    """Spins and pays roulette rounds under a ``RouletteRules`` table, and keeps each table's board."""

    def __init__(self) -> None:
        #: The board of each table, keyed by profile and table id: its last results, oldest first.
        self.boards: OrderedDict[str, list[str]] = OrderedDict()
        #: The bets imprisoned at each table (en prison), by the same key, seat by seat.
        self.prisons: dict[str, list[Imprisoned]] = {}

    def bet_label(self, bet: BetInput) -> str:
        """A bet's text form: ``"split 0-1"``, ``"dozen 2"``, ``"red"``."""
        if bet.kind in ("column", "dozen"):
            return f"{bet.kind} {bet.group}"
        if bet.kind in INSIDE_SIZES:
            return f"{bet.kind} {'-'.join(sorted(bet.pockets, key=layout_order))}"
        return bet.kind

    def bet_cover(self, rules: RouletteRules, bet: BetInput) -> Shape:
        """The pockets a bet covers, once its shape is checked on the table's layout."""

        def refuse(why: str) -> EngineError:
            return EngineError(
                "INVALID_BET_LAYOUT",
                f"{bet.kind} {'-'.join(bet.pockets) or bet.group or ''}".strip() + f": {why}",
                kind=bet.kind,
                pockets="-".join(bet.pockets),
                group=bet.group,
            )

        if bet.kind not in rules.payouts:
            raise refuse(f"not a bet of the {rules.wheel} layout")
        if bet.kind in ("column", "dozen"):
            if bet.pockets or bet.group not in (1, 2, 3):
                raise refuse(f"a {bet.kind} names its group, 1 to 3, and no pockets")
            if bet.kind == "column":
                return _shape(*range(bet.group, 37, 3))
            return _shape(*range(12 * bet.group - 11, 12 * bet.group + 1))
        if bet.group:
            raise refuse("only a column or a dozen has a group")
        if bet.kind in EVEN_CHANCES:
            if bet.pockets:
                raise refuse("an even-money bet names no pockets")
            return _shape(*EVEN_CHANCES[bet.kind])
        wheel = pockets(rules.wheel)
        for pocket in bet.pockets:
            if pocket not in wheel:
                raise refuse(f"{pocket!r} is not a pocket of the {rules.wheel} wheel")
        cover = frozenset(bet.pockets)
        if len(cover) != len(bet.pockets) or len(cover) != INSIDE_SIZES[bet.kind]:
            raise refuse(f"a {bet.kind} covers {INSIDE_SIZES[bet.kind]} different pockets")
        if not self.is_shape(rules, bet.kind, cover):
            raise refuse(f"those pockets are not a {bet.kind} of the layout")
        return cover

    def is_shape(self, rules: RouletteRules, kind: str, cover: Shape) -> bool:
        """Whether an inside bet's pockets form one of its shapes on the table's layout."""
        return cover in layout(rules.wheel)[kind]

    def check_offered(self, rules: RouletteRules, seat: int, bet: BetInput) -> None:
        """A table that offers only some kinds refuses the others (``BET_NOT_OFFERED``)."""
        if rules.offered is not None and bet.kind not in rules.offered:
            raise EngineError(
                "BET_NOT_OFFERED",
                f"seat {seat}: this table does not offer {bet.kind} bets",
                seat=seat,
                kind=bet.kind,
            )

    def imprisons(self, rules: RouletteRules, bet: BetInput, pocket: str) -> bool:
        """Whether a zero sends this bet to prison: en prison, an even-money bet, a zero."""
        return (
            rules.zero_rule == "en-prison"
            and bet.kind in EVEN_CHANCES
            and pocket in zeros(rules.wheel)
        )

    def release(self, prisoner: Imprisoned, pocket: str) -> Line:
        """The seat's next spin decides an imprisoned bet: its stake back if it wins, else 0."""
        won = pocket in {str(n) for n in EVEN_CHANCES[prisoner.kind]}
        return Line(
            seat=prisoner.seat,
            bet=prisoner.kind,
            stake=0,
            returned=prisoner.stake if won else 0,
            prison="released",
        )

    def zero_returns(self, rules: RouletteRules, bet: BetInput) -> int:
        """What an outside bet returns when a zero comes up: nothing, or half an even-money stake."""
        if rules.zero_rule == "half-back" and bet.kind in EVEN_CHANCES:
            return self.half_stake(bet.stake)
        return 0

    def roulette_bet_returns(
        self, rules: RouletteRules, bet: BetInput, cover: Shape, pocket: str
    ) -> int:
        """What one bet returns, stake included."""
        if pocket in cover:
            return self.win(bet.stake, rules.payouts[bet.kind])
        if pocket in zeros(rules.wheel) and bet.kind not in INSIDE_SIZES:
            return self.zero_returns(rules, bet)
        return 0

    def record_result(self, table: str, pocket: str, length: int) -> list[str]:
        """Add a result to a table's board and keep its last ``length`` results."""
        board = [*self.boards.pop(table, []), pocket][-length:]
        self.boards[table] = board
        while len(self.boards) > MAX_TABLES:
            gone, _ = self.boards.popitem(last=False)
            self.prisons.pop(gone, None)
        return list(board)

    def spin_roulette(
        self, rules: RouletteRules, table: str, seats: Sequence[SeatInput], pocket: str
    ) -> Spin:
        """Check the spin and every bet, pay each bet, and put the result on the table's board."""
        if pocket not in pockets(rules.wheel):
            raise EngineError(
                "INVALID_ROUND",
                f"spin.pocket {pocket!r} is not a pocket of the {rules.wheel} wheel",
                field="spin.pocket",
                pocket=pocket,
            )
        covers = []
        for index, seat in enumerate(seats):
            for bet in seat.bets:
                self.check_offered(rules, index, bet)
            try:
                covers.append([self.bet_cover(rules, bet) for bet in seat.bets])
            except EngineError as exc:
                raise EngineError(
                    exc.reason, f"seat {index}: {exc.message}", **exc.metadata, seat=index
                ) from None
        for index, seat in enumerate(seats):
            self.check_stakes(
                index,
                seat.balance,
                [(self.bet_label(bet), bet.stake) for bet in seat.bets],
                (rules.min_bet, rules.max_bet),
            )
        waiting = self.prisons.get(table, [])
        kept = [p for p in waiting if p.seat >= len(seats)]
        taken: list[Imprisoned] = []
        lines: list[Line] = []
        for index, seat in enumerate(seats):
            lines.extend(self.release(p, pocket) for p in waiting if p.seat == index)
            for bet, cover in zip(seat.bets, covers[index], strict=True):
                jailed = self.imprisons(rules, bet, pocket)
                if jailed:
                    taken.append(Imprisoned(seat=index, kind=bet.kind, stake=bet.stake))
                lines.append(
                    Line(
                        seat=index,
                        bet=self.bet_label(bet),
                        stake=bet.stake,
                        returned=0
                        if jailed
                        else self.roulette_bet_returns(rules, bet, cover, pocket),
                        prison="imprisoned" if jailed else "",
                    )
                )
        prison = sorted([*kept, *taken], key=lambda p: p.seat)
        if prison:
            self.prisons[table] = prison
        else:
            self.prisons.pop(table, None)
        history = self.record_result(table, pocket, rules.history_length)
        return Spin(pocket=pocket, history=history, lines=lines, prison=list(prison))

    def view_roulette(self, spin: Spin) -> RoundView:
        """A spin is complete as soon as it lands."""
        return RoundView(
            phase="complete",
            cards_dealt=0,
            table=RouletteView(pocket=spin.pocket, history=spin.history, prison=spin.prison),
        )
