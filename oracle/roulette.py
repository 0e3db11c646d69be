"""Roulette: the wheel, the layout's bet shapes, settlement and the table's board.

Implements RULES.md "Roulette C" (C.rou.wheel, C.rou.zero-loses,
C.rou.geometry, C.rou.history) and "Roulette, American" (US.rou.wheel,
US.rou.geometry, US.rou.zero-loses). The clauses a round cites come from its
profile, except the layout's shapes, which belong to the wheel.
A pocket is an ``int``: 0 to 36, and ``DOUBLE_ZERO`` (37) for 00, as in the
portable spin stream (``oracle.shoe.seeded_spins``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Final, NoReturn

from croupier.oracle.clauses import Game
from croupier.oracle.decision import Action, Decision
from croupier.oracle.errors import (
    BetNotOfferedError,
    IllegalDecisionError,
    InvalidBetLayoutError,
    InvalidRoundError,
    ProfileError,
)
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Odds, Payout, Rounding, lose, multiple, portion
from croupier.oracle.profile import Citations, Profile
from croupier.oracle.settlement import (
    Limits,
    Prison,
    SettlementLine,
    Step,
    check_seat_stakes,
    settled,
)

if TYPE_CHECKING:
    from croupier.oracle.cards import Card

DOUBLE_ZERO: Final = 37
"""The pocket number standing for 00 on the American wheel."""

_HALF: Final = Fraction(1, 2)


class Wheel(Choice):
    """The two wheels: European (one zero) and American (0 and 00) (C.rou.wheel)."""

    EUROPEAN = "european"
    AMERICAN = "american"

    @property
    def pockets(self) -> int:
        """How many pockets the wheel has: 37 or 38."""
        return 37 if self is Wheel.EUROPEAN else 38

    @property
    def geometry(self) -> str:
        """The clause that refuses a set of numbers that is no shape of this layout."""
        return "C.rou.geometry" if self is Wheel.EUROPEAN else "US.rou.geometry"

    @property
    def shapes_clause(self) -> str:
        """The clause whose table lists this layout's shapes (C.rou.wheel, US.rou.geometry)."""
        return "C.rou.wheel" if self is Wheel.EUROPEAN else "US.rou.geometry"

    @property
    def zeros(self) -> frozenset[int]:
        """The green pockets: 0, and 00 on the American wheel."""
        return frozenset({0}) if self is Wheel.EUROPEAN else frozenset({0, DOUBLE_ZERO})

    def has(self, pocket: int) -> bool:
        """Whether the pocket is on this wheel."""
        return 0 <= pocket < _POCKETS[self]


#: How many pockets each wheel has (``Wheel.pockets``), for the checks every spin makes.
_POCKETS: Final = {wheel: wheel.pockets for wheel in Wheel}


def _text(pocket: int) -> str:
    # Error messages must name numbers that are not pockets at all, so no checking here.
    return "00" if pocket == DOUBLE_ZERO else str(pocket)


def _order(pocket: int) -> int:
    # Layout order: 0, then 00, then 1 to 36.
    return {0: 0, DOUBLE_ZERO: 1}.get(pocket, pocket + 1)


def pocket_text(pocket: int) -> str:
    """The printed form of a pocket: ``"0"`` to ``"36"``, ``"00"`` for ``DOUBLE_ZERO``."""
    if not 0 <= pocket <= DOUBLE_ZERO:
        raise InvalidBetLayoutError(
            f"{pocket} is not a roulette pocket (0 to 36, or {DOUBLE_ZERO} for 00)",
            pocket=pocket,
        )
    return _text(pocket)


#: Each wheel's pockets by their printed form: the only texts ``parse_pocket`` reads.
_BY_TEXT: Final = {wheel: {_text(p): p for p in range(wheel.pockets)} for wheel in Wheel}


def parse_pocket(text: str, wheel: Wheel) -> int:
    """Read a pocket as printed (``"17"``, ``"0"``, ``"00"``) on a wheel (C.rou.wheel)."""
    pocket = _BY_TEXT[wheel].get(text)
    if pocket is not None:
        return pocket
    if text == "00":
        raise InvalidBetLayoutError(
            f"00 is not a pocket of the {wheel.value} wheel", pocket=text, wheel=wheel.value
        )
    raise InvalidBetLayoutError(
        f"{text!r} is not a pocket of the {wheel.value} wheel "
        f"(expected {'0 to 36' if wheel is Wheel.EUROPEAN else '0, 00 or 1 to 36'}, "
        "written without leading zeros)",
        pocket=text,
        wheel=wheel.value,
    )


class Colour(Choice):
    """A pocket's colour (C.rou.wheel)."""

    GREEN = "green"
    RED = "red"
    BLACK = "black"


RED_NUMBERS: Final = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
"""The red numbers as C.rou.wheel lists them; the other numbers 1 to 36 are black."""


def colour(pocket: int) -> Colour:
    """The colour of a pocket: 0 and 00 green, then C.rou.wheel's red list."""
    if pocket in (0, DOUBLE_ZERO):
        return Colour.GREEN
    if not 1 <= pocket <= 36:
        raise InvalidBetLayoutError(f"{pocket} is not a roulette pocket", pocket=pocket)
    return Colour.RED if pocket in RED_NUMBERS else Colour.BLACK


class BetKind(Choice):
    """The bets of C.rou.wheel's table, plus the American top line."""

    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    FIRST_FOUR = "first-four"
    TOP_LINE = "top-line"
    LINE = "line"
    COLUMN = "column"
    DOZEN = "dozen"
    RED = "red"
    BLACK = "black"
    EVEN = "even"
    ODD = "odd"
    LOW = "low"
    HIGH = "high"

    @property
    def is_inside(self) -> bool:
        """Bets placed on the numbers; the others are outside bets, lost to zero."""
        return self in _INSIDE

    @property
    def is_even_chance(self) -> bool:
        """Red/black, even/odd, low/high: the bets a half-back zero rule refunds."""
        return self in _EVEN_CHANCES


_INSIDE: Final = frozenset(
    {
        BetKind.STRAIGHT,
        BetKind.SPLIT,
        BetKind.STREET,
        BetKind.CORNER,
        BetKind.FIRST_FOUR,
        BetKind.TOP_LINE,
        BetKind.LINE,
    }
)
_EVEN_CHANCES: Final = frozenset(
    {BetKind.RED, BetKind.BLACK, BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH}
)

# How many numbers an inside bet names; column and dozen name one index, even chances none.
_INSIDE_COUNT: Final[Mapping[BetKind, int]] = {
    BetKind.STRAIGHT: 1,
    BetKind.SPLIT: 2,
    BetKind.STREET: 3,
    BetKind.CORNER: 4,
    BetKind.FIRST_FOUR: 4,
    BetKind.TOP_LINE: 5,
    BetKind.LINE: 6,
}

_ODDS_PARAMETER: Final[Mapping[BetKind, str]] = {
    BetKind.STRAIGHT: "straight_pays",
    BetKind.SPLIT: "split_pays",
    BetKind.STREET: "street_pays",
    BetKind.CORNER: "corner_pays",
    BetKind.FIRST_FOUR: "first_four_pays",
    BetKind.TOP_LINE: "top_line_pays",
    BetKind.LINE: "line_pays",
    BetKind.COLUMN: "column_pays",
    BetKind.DOZEN: "dozen_pays",
    **dict.fromkeys(_EVEN_CHANCES, "even_chance_pays"),
}


def _rows() -> tuple[tuple[int, int, int], ...]:
    return tuple((3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12))


def _grid_shapes() -> dict[BetKind, frozenset[frozenset[int]]]:
    """The shapes every wheel shares: those made of the numbers 1 to 36 alone."""
    rows = _rows()
    # Number n sits in row (n-1)//3 and column (n-1)%3; only numbers of the same row are
    # side by side, which is why 3-4 is no split although 3 and 4 are consecutive.
    across = {frozenset({n, n + 1}) for n in range(1, 37) if n % 3 != 0}
    down = {frozenset({n, n + 3}) for n in range(1, 34)}
    corners = {frozenset({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if n % 3 != 0}
    return {
        BetKind.STRAIGHT: frozenset(frozenset({n}) for n in range(1, 37)),
        BetKind.SPLIT: frozenset(across | down),
        BetKind.STREET: frozenset(frozenset(row) for row in rows),
        BetKind.CORNER: frozenset(corners),
        BetKind.LINE: frozenset(frozenset(a + b) for a, b in pairwise(rows)),
    }


def _wheel_shapes(wheel: Wheel) -> dict[BetKind, frozenset[frozenset[int]]]:
    """Every inside shape of one wheel's layout (C.rou.wheel table, RULES.md "American")."""
    shapes = _grid_shapes()
    z, zz = 0, DOUBLE_ZERO
    if wheel is Wheel.EUROPEAN:
        # Document C's own examples: 1+0, 2+0, 3+0, 1+2+0 (and 0-2-3), 1+2+3+0.
        zero_straights = [{z}]
        zero_splits = [{z, 1}, {z, 2}, {z, 3}]
        zero_trios = [{z, 1, 2}, {z, 2, 3}]
        four_or_five = {BetKind.FIRST_FOUR: [{z, 1, 2, 3}], BetKind.TOP_LINE: []}
    else:
        zero_straights = [{z}, {zz}]
        zero_splits = [{z, 1}, {z, 2}, {zz, 2}, {zz, 3}, {z, zz}]
        zero_trios = [{z, 1, 2}, {z, zz, 2}, {zz, 2, 3}]
        four_or_five = {BetKind.FIRST_FOUR: [], BetKind.TOP_LINE: [{z, zz, 1, 2, 3}]}
    shapes[BetKind.STRAIGHT] |= {frozenset(s) for s in zero_straights}
    shapes[BetKind.SPLIT] |= {frozenset(s) for s in zero_splits}
    shapes[BetKind.STREET] |= {frozenset(s) for s in zero_trios}
    for kind, extra in four_or_five.items():
        shapes[kind] = frozenset(frozenset(s) for s in extra)
    return shapes


_SHAPES: Final[Mapping[Wheel, Mapping[BetKind, frozenset[frozenset[int]]]]] = {
    wheel: _wheel_shapes(wheel) for wheel in Wheel
}

_OUTSIDE_COVER: Final[Mapping[BetKind, frozenset[int]]] = {
    BetKind.RED: RED_NUMBERS,
    BetKind.BLACK: frozenset(range(1, 37)) - RED_NUMBERS,
    BetKind.EVEN: frozenset(range(2, 37, 2)),
    BetKind.ODD: frozenset(range(1, 37, 2)),
    BetKind.LOW: frozenset(range(1, 19)),
    BetKind.HIGH: frozenset(range(19, 37)),
}


def _shape_help(wheel: Wheel, kind: BetKind) -> str:
    american = wheel is Wheel.AMERICAN
    match kind:
        case BetKind.SPLIT:
            zeros = "0-1, 0-2, 00-2, 00-3 or 0-00" if american else "0-1, 0-2 or 0-3"
            return (
                "a split is two numbers side by side in a row or one above the other in a "
                f"column of the layout, or {zeros}"
            )
        case BetKind.STREET:
            trios = "0-1-2, 0-00-2 or 00-2-3" if american else "0-1-2 or 0-2-3"
            return f"a street is a row of three (1-2-3 ... 34-35-36) or the trio {trios}"
        case BetKind.CORNER:
            return "a corner is four numbers meeting at one corner of the layout, like 1-2-4-5"
        case BetKind.LINE:
            return "a line is two adjacent rows of three, like 1-2-3-4-5-6"
        case BetKind.FIRST_FOUR:
            if american:
                return "the first four is not offered on the american wheel (see top-line)"
            return "the first four is 0-1-2-3"
        case BetKind.TOP_LINE:
            if not american:
                return "the top line 0-00-1-2-3 is offered only on the american wheel"
            return "the top line is 0-00-1-2-3"
        case _:
            return f"a {kind.value} is a single number on the wheel"


def _refuse(wheel: Wheel, kind: BetKind, numbers: Sequence[int], why: str) -> InvalidBetLayoutError:
    shown = "-".join(_text(n) for n in numbers) or "(none)"
    return InvalidBetLayoutError(
        f"{kind.value} {shown} is not a bet of the {wheel.value} layout: {why}",
        kind=kind.value,
        numbers=shown,
        wheel=wheel.value,
        why=why,
        clause=wheel.geometry,
    )


def covered(wheel: Wheel, kind: BetKind, numbers: tuple[int, ...]) -> frozenset[int]:
    """The pockets a bet covers, once its shape is checked on the layout (C.rou.geometry).

    Inside bets name the pockets they cover, in any order; column and dozen name
    their index 1 to 3; red/black, even/odd and low/high name nothing.
    """
    if kind is BetKind.COLUMN or kind is BetKind.DOZEN:
        if len(numbers) != 1 or not 1 <= numbers[0] <= 3:
            raise _refuse(wheel, kind, numbers, f"a {kind.value} bet names one index, 1, 2 or 3")
        k = numbers[0]
        if kind is BetKind.COLUMN:
            # Column 1 is the one holding 1, 4, ..., 34 (the "2 à 1" box under it).
            return frozenset(range(k, 37, 3))
        return frozenset(range(12 * (k - 1) + 1, 12 * k + 1))
    if kind in _OUTSIDE_COVER:
        if numbers:
            raise _refuse(
                wheel, kind, numbers, f"a {kind.value} bet covers its 18 numbers and names none"
            )
        return _OUTSIDE_COVER[kind]

    count = _INSIDE_COUNT[kind]
    for n in numbers:
        if not wheel.has(n):
            where = "00 (37) exists only on the american wheel" if n == DOUBLE_ZERO else ""
            raise _refuse(
                wheel,
                kind,
                numbers,
                f"{_text(n)} is not a pocket of the {wheel.value} wheel"
                + (f"; {where}" if where else ""),
            )
    cover = frozenset(numbers)
    if len(cover) != len(numbers):
        raise _refuse(wheel, kind, numbers, "a number is named twice")
    if len(numbers) != count:
        raise _refuse(
            wheel, kind, numbers, f"a {kind.value} covers {count} numbers, not {len(numbers)}"
        )
    if cover not in _SHAPES[wheel][kind]:
        shown = "-".join(_text(n) for n in numbers)
        why = f"{shown} is not one of its shapes; {_shape_help(wheel, kind)}"
        raise _refuse(wheel, kind, numbers, why)
    return cover


def shapes(wheel: Wheel, kind: BetKind) -> tuple[tuple[int, ...], ...]:
    """Every legal ``numbers`` of an inside bet kind on a wheel, in layout order (C.rou.geometry).

    Column and dozen give their indexes, even chances the one empty tuple.
    """
    if kind is BetKind.COLUMN or kind is BetKind.DOZEN:
        return ((1,), (2,), (3,))
    if kind in _OUTSIDE_COVER:
        return ((),)
    found = (tuple(sorted(s, key=_order)) for s in _SHAPES[wheel][kind])
    return tuple(sorted(found, key=lambda ns: [_order(n) for n in ns]))


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteBet:
    """One stake on the layout: its kind, the numbers it names and its amount in minor units."""

    kind: BetKind
    numbers: tuple[int, ...] = ()
    amount: int

    @property
    def label(self) -> str:
        """The bet's name in settlements and errors: ``"split 0-1"``, ``"dozen 2"``, ``"red"``."""
        if not self.numbers:
            return self.kind.value
        ordered = self.numbers
        if self.kind.is_inside:
            ordered = tuple(sorted(self.numbers, key=_order))
        return f"{self.kind.value} {'-'.join(_text(n) for n in ordered)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteRules:
    """What a roulette profile fixes (C.rou.wheel, C.rou.zero-loses, C.rou.history)."""

    profile_id: str
    wheel: Wheel
    zero_loses: bool
    history_length: int
    #: VAR.rou.en-prison: a zero imprisons the even-money bets until the seat's next spin.
    en_prison: bool
    #: VAR.rou.bets-offered: the kinds the table takes; a bet of another kind is refused.
    offered: frozenset[BetKind]
    odds: tuple[tuple[BetKind, Odds], ...]
    rounding: Rounding
    limits: Limits
    cite: Citations

    def __hash__(self) -> int:
        # Equal rules share a profile id, so this is a valid hash, and a cheap one: rules key
        # the table each spin looks up (``_table``).
        return hash(self.profile_id)

    def __post_init__(self) -> None:
        missing = [k.value for k in BetKind if k not in dict(self.odds)]
        if missing:
            raise ProfileError(
                f"roulette rules {self.profile_id!r} give no odds for {', '.join(missing)}",
                profile=self.profile_id,
                missing=",".join(missing),
            )

    @classmethod
    def from_profile(cls, profile: Profile) -> RouletteRules:
        """The rules of a roulette profile; ``ProfileError`` for another game's profile."""
        if profile.game is not Game.ROULETTE:
            raise ProfileError(
                f"profile {profile.id!r} is a {profile.game.value} profile, not roulette",
                profile=profile.id,
                game=profile.game.value,
            )
        return cls(
            profile_id=profile.id,
            wheel=Wheel(profile.choice("wheel")),
            zero_loses=profile.choice("zero_rule") == "loses",
            history_length=profile.integer("history_length"),
            en_prison=profile.choice("zero_rule") == "en-prison",
            offered=frozenset(BetKind(kind) for kind in profile.words("bets_offered")),
            odds=tuple((kind, profile.odds(_ODDS_PARAMETER[kind])) for kind in BetKind),
            rounding=profile.rounding(),
            limits=Limits.of(profile),
            cite=profile.citations(),
        )

    def odds_for(self, kind: BetKind) -> Odds:
        """The net odds a winning bet of this kind is paid (C.rou.wheel table)."""
        return dict(self.odds)[kind]

    def odds_clauses(self, kind: BetKind) -> tuple[str, ...]:
        """The clauses the profile cites for the odds of this kind of bet."""
        return self.cite(_ODDS_PARAMETER[kind])


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteSeat:
    """One seat: its funds before the spin and its bets, in the order placed."""

    balance: int
    bets: tuple[RouletteBet, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Prisoner:
    """An even-money bet imprisoned by a zero, waiting for its seat's next spin (VAR.rou.en-prison).

    A seat is known by its number at the table: its position in the round's request.
    """

    seat: int
    kind: BetKind
    amount: int

    @property
    def label(self) -> str:
        """The bet's name, as its settlement line gives it: ``"red"``."""
        return self.kind.value


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHistory:
    """What a table keeps across rounds: its board and its prison.

    The board is its last results, oldest first (C.rou.history); the prison, the bets
    imprisoned at it, by seat (VAR.rou.en-prison).
    """

    table_id: str
    results: tuple[int, ...] = ()
    prison: tuple[Prisoner, ...] = ()

    @classmethod
    def new(cls, table_id: str) -> TableHistory:
        """A table that has not spun yet: an empty board."""
        return cls(table_id=table_id, results=())

    def after(self, pocket: int, length: int) -> TableHistory:
        """The board once ``pocket`` is added, keeping only the last ``length`` results."""
        if length < 1:
            raise InvalidRoundError(
                f"table {self.table_id}: a board shows at least one result, not {length}",
                table=self.table_id,
                length=length,
            )
        return TableHistory(
            table_id=self.table_id, results=(*self.results, pocket)[-length:], prison=self.prison
        )

    def imprisoning(self, prison: tuple[Prisoner, ...]) -> TableHistory:
        """The table with these bets imprisoned at it (VAR.rou.en-prison)."""
        return TableHistory(table_id=self.table_id, results=self.results, prison=prison)

    def __str__(self) -> str:
        """The results, oldest first, 00 written as such; ``(empty)`` before the first spin."""
        return " ".join(_text(p) for p in self.results) or "(empty)"


class Boards:
    """The boards of every table under way, keyed by profile and table (C.rou.history).

    The one board store: a table's board belongs to one wheel, so the profile is part of the
    key. At most ``max_tables`` are kept; the table touched longest ago goes first.
    """

    def __init__(self, max_tables: int = 10_000) -> None:
        self._boards: OrderedDict[tuple[str, str], TableHistory] = OrderedDict()
        self._max = max_tables

    def get(self, profile_id: str, table_id: str) -> TableHistory | None:
        """The table's board before its next spin; None for a table never seen."""
        return self._boards.get((profile_id, table_id))

    def put(self, profile_id: str, board: TableHistory) -> None:
        """Keep a table's board after a spin."""
        key = (profile_id, board.table_id)
        self._boards[key] = board
        self._boards.move_to_end(key)
        while len(self._boards) > self._max:
            self._boards.popitem(last=False)

    def __len__(self) -> int:
        return len(self._boards)


@dataclass(frozen=True, slots=True, kw_only=True)
class RouletteRound:
    """A settled spin: its pocket, each bet's payout, the new board; its steps when read."""

    profile_id: str
    pocket: int
    seats: tuple[RouletteSeat, ...]
    settlement: tuple[SettlementLine, ...]
    history: TableHistory
    rules: RouletteRules

    @property
    def steps(self) -> tuple[Step, ...]:
        """The spin's steps and the clauses each applied, worded from what the spin recorded."""
        rules, lines, board = self.rules, self.settlement, self.history
        staked = sum(line.payout.stake for line in lines)
        returned = sum(line.payout.returned for line in lines)
        return (
            Step(
                action="bets",
                clauses=(rules.wheel.geometry, *rules.cite("min_bet", "max_bet")),
                says="{} bet(s) on {} seat(s) accepted, {} staked",
                values=(len(lines), len(self.seats), staked),
            ),
            Step(
                action="spin",
                clauses=rules.cite("wheel"),
                says="pocket {} ({})",
                values=(_text(self.pocket), colour(self.pocket).value),
            ),
            Step(
                action="settle",
                clauses=tuple(dict.fromkeys(c for line in lines for c in line.clauses)),
                says="{} returned on {} staked",
                values=(returned, staked),
            ),
            Step(
                action="board",
                clauses=rules.cite("history_length"),
                says="table {}, oldest first: {}",
                values=(board.table_id, board),
            ),
        )

    @property
    def complete(self) -> bool:
        """A spin is complete as soon as it is dealt."""
        return True

    @property
    def dealt(self) -> tuple[Card, ...]:
        """A spin takes no cards."""
        return ()

    @property
    def legal(self) -> tuple[Action, ...]:
        """A spin takes no decisions."""
        return ()

    def citations(self) -> dict[str, tuple[str, ...]]:
        """The clauses behind every value of the spin's state (``oracle.provenance``)."""
        return citations(self)

    def decide(self, decision: Decision) -> NoReturn:
        """A spin takes no decisions: ``IllegalDecisionError``."""
        raise IllegalDecisionError(
            "a roulette round takes no decisions",
            action=decision.action.value,
            legal="",
            clause="CONTRACT.request",
        )


def _check_pocket(wheel: Wheel, pocket: int, what: str, **metadata: object) -> None:
    if not wheel.has(pocket):
        # Named as the request wrote it: 00 is 37 only inside the oracle.
        raise InvalidRoundError(
            f"{what} {_text(pocket)} is not a pocket of the {wheel.value} wheel "
            f"({'0 to 36' if wheel is Wheel.EUROPEAN else '0, 00 or 1 to 36'})",
            pocket=_text(pocket),
            wheel=wheel.value,
            **metadata,
        )


def _covers(wheel: Wheel, seat: int, bet: RouletteBet) -> frozenset[int]:
    try:
        return covered(wheel, bet.kind, bet.numbers)
    except InvalidBetLayoutError as exc:
        # Several seats may hold the same bad bet; the caller needs to know whose.
        raise InvalidBetLayoutError(
            f"seat {seat}: {exc.message}", seat=seat, **exc.metadata
        ) from None


class _Table:
    """One profile's roulette odds and citations, worked out once for all its spins.

    Each settling rule records one of these clause tuples where it decides; ``covers`` keeps
    every bet shape the layout has taken (C.rou.geometry) with its label, so a shape met
    again is not checked again.
    """

    __slots__ = ("covers", "odds", "prison", "rounding", "rules", "wheel", "zero", "zeros")

    def __init__(self, rules: RouletteRules) -> None:
        self.rules = rules
        # What a winning unit stake of each kind returns, as (numerator, denominator).
        self.odds = {
            kind: (rules.odds_for(kind).returned, rules.odds_clauses(kind)) for kind in BetKind
        }
        self.wheel = rules.cite("wheel")
        self.zero = rules.cite("zero_rule", "wheel")
        self.prison = _prison_clauses(rules)
        self.rounding = rules.cite("rounding")
        self.zeros = rules.wheel.zeros
        self.covers: dict[tuple[BetKind, tuple[int, ...]], tuple[frozenset[int], str]] = {}


@cache
def _table(rules: RouletteRules) -> _Table:
    """The rules' table, worked out on their first round (rules are cached per profile)."""
    return _Table(rules)


def _cover_and_label(table: _Table, seat: int, bet: RouletteBet) -> tuple[frozenset[int], str]:
    """The pockets a bet covers and its label, its shape checked once per profile."""
    key = (bet.kind, bet.numbers)
    found = table.covers.get(key)
    if found is None:
        found = table.covers[key] = (_covers(table.rules.wheel, seat, bet), bet.label)
    return found


def _settle(
    table: _Table, pocket: int, bet: RouletteBet, cover: frozenset[int]
) -> tuple[Payout, tuple[str, ...]]:
    """One bet's payout and the clauses that decided it (C.rou.wheel, C.rou.zero-loses)."""
    rules = table.rules
    if pocket in cover:
        (numerator, denominator), clauses = table.odds[bet.kind]
        return multiple(bet.amount, numerator, denominator, rules.rounding), clauses
    if pocket in table.zeros and bet.kind not in _INSIDE:
        if bet.kind in _EVEN_CHANCES and rules.en_prison:
            # Neither lost nor paid: the stake stays on the table (``_imprison``).
            return lose(bet.amount), table.prison
        if bet.kind in _EVEN_CHANCES and not rules.zero_loses:
            return portion(bet.amount, _HALF, rules.rounding), table.zero
        return lose(bet.amount), table.zero
    return lose(bet.amount), table.wheel


def imprisons(rules: RouletteRules, bet: RouletteBet, pocket: int) -> bool:
    """Whether the spin imprisons the bet: en prison, an even-money bet, a zero (VAR.rou.en-prison)."""
    return rules.en_prison and bet.kind.is_even_chance and pocket in rules.wheel.zeros


def next_prison(
    rules: RouletteRules,
    prison: tuple[Prisoner, ...],
    pocket: int,
    seats: Sequence[RouletteSeat],
) -> tuple[Prisoner, ...]:
    """The bets imprisoned at a table after a spin, by seat (VAR.rou.en-prison).

    A seat at the spin has its imprisoned bets decided (``spin_round`` settles them); a seat
    not at it keeps them; the spin's zero imprisons the even-money bets of the seats at it.
    """
    kept = [p for p in prison if p.seat >= len(seats)]
    taken = [
        Prisoner(seat=index, kind=bet.kind, amount=bet.amount)
        for index, seat in enumerate(seats)
        for bet in seat.bets
        if imprisons(rules, bet, pocket)
    ]
    return tuple(sorted((*kept, *taken), key=lambda p: p.seat))


def _prison_clauses(rules: RouletteRules) -> tuple[str, ...]:
    return tuple(dict.fromkeys(("VAR.rou.en-prison", *rules.cite("zero_rule", "wheel"))))


def _release(rules: RouletteRules, pocket: int, prisoner: Prisoner) -> SettlementLine:
    """The seat's next spin decides an imprisoned bet (VAR.rou.en-prison).

    Its stake back if the bet would win, else nothing, another zero included. Its stake was
    counted on the spin that imprisoned it, so the line stakes 0.
    """
    back = prisoner.amount if pocket in _OUTSIDE_COVER[prisoner.kind] else 0
    payout = Payout(stake=0, returned_exact=back, returned=back)
    return settled(
        seat=prisoner.seat,
        bet=prisoner.label,
        payout=payout,
        clauses=_prison_clauses(rules),
        rounding=rules.cite("rounding"),
        prison=Prison.RELEASED,
    )


def _check_offered(rules: RouletteRules, seat: int, bet: RouletteBet) -> None:
    if bet.kind not in rules.offered:
        offered = ", ".join(k.value for k in BetKind if k in rules.offered)
        raise BetNotOfferedError(
            f"seat {seat}: this table does not offer {bet.kind.value} bets (it offers {offered})",
            seat=seat,
            kind=bet.kind.value,
            offered=offered,
            clause=rules.cite("bets_offered")[0],
        )


def spin_round(
    rules: RouletteRules,
    history: TableHistory,
    pocket: int,
    seats: Sequence[RouletteSeat],
) -> RouletteRound:
    """Settle every bet on one spin and update the table's board.

    Everything is checked before anything is settled: the seats, the pocket,
    every bet's shape (C.rou.geometry), then each seat's stakes against the
    limits and its balance.
    """
    wheel = rules.wheel
    if not seats:
        raise InvalidRoundError("a roulette round needs at least one seat", seats=0)
    _check_pocket(wheel, pocket, "the winning pocket")
    for result in history.results:
        if not wheel.has(result):
            _check_pocket(
                wheel, result, f"table {history.table_id}: board result", table=history.table_id
            )

    for index, seat in enumerate(seats):
        for bet in seat.bets:
            _check_offered(rules, index, bet)
    table = _table(rules)
    # Each seat's bets, each with the pockets it covers and its label.
    shaped = tuple(
        tuple((bet, *_cover_and_label(table, index, bet)) for bet in seat.bets)
        for index, seat in enumerate(seats)
    )
    for index, seat in enumerate(seats):
        check_seat_stakes(
            seat=index,
            balance=seat.balance,
            stakes=tuple((label, bet.amount) for bet, _, label in shaped[index]),
            limits=rules.limits,
        )

    lines: list[SettlementLine] = []
    rounding = table.rounding
    for index, bets in enumerate(shaped):
        # A seat at this spin has its imprisoned bets decided first (VAR.rou.en-prison).
        if history.prison:
            lines.extend(_release(rules, pocket, p) for p in history.prison if p.seat == index)
        for bet, cover, label in bets:
            payout, clauses = _settle(table, pocket, bet, cover)
            prison = Prison.IMPRISONED if imprisons(rules, bet, pocket) else None
            lines.append(
                settled(
                    seat=index,
                    bet=label,
                    payout=payout,
                    clauses=clauses,
                    rounding=rounding,
                    # A pocket the bet covers is the wheel's to say; what it pays, the odds'.
                    won_by=table.wheel if pocket in cover else (),
                    prison=prison,
                )
            )

    board = history.after(pocket, rules.history_length)
    if rules.en_prison:
        board = board.imprisoning(next_prison(rules, history.prison, pocket, seats))
    return RouletteRound(
        profile_id=rules.profile_id,
        pocket=pocket,
        seats=tuple(seats),
        settlement=tuple(lines),
        history=board,
        rules=rules,
    )


# --- what decided each value ----------------------------------------------------------


def citations(played: RouletteRound) -> dict[str, tuple[str, ...]]:
    """The clauses that decided every value of the spin's state, by path (``oracle.provenance``)."""
    rules = played.rules
    wheel = rules.cite("wheel")
    out = {
        "phase": wheel,
        "turn": wheel,
        "cards_dealt": wheel,
        "legal_decisions": wheel,
        "roulette.pocket": wheel,
        "roulette.history": rules.cite("history_length"),
    }
    if rules.en_prison:
        out["roulette.prison"] = _prison_clauses(rules)
    else:
        # A zero rule without prison (C.rou.zero-loses: "no prison") imprisons no bet.
        out["roulette.prison"] = rules.cite("zero_rule", "wheel")
    return out


def accepted(rules: RouletteRules) -> dict[str, tuple[str, ...]]:
    """Why a deal the rules take is not refused, keyed ``error=REASON`` (``oracle.provenance``)."""
    out = {
        "error=BET_OUT_OF_LIMITS": rules.limits.clauses,
        "error=INSUFFICIENT_BALANCE": ("CONTRACT.balance",),
        # A shape of the layout refused: the rule that refuses only what is no shape, then the
        # table that lists the shapes.
        "error=INVALID_BET_LAYOUT": tuple(
            dict.fromkeys((rules.wheel.geometry, rules.wheel.shapes_clause))
        ),
    }
    if rules.offered != frozenset(BetKind):
        out["error=BET_NOT_OFFERED"] = rules.cite("bets_offered")
    return out
