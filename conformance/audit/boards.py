"""Roulette tables in the main process: the board each record is replayed on, in deal order."""

from __future__ import annotations

import contextlib
import functools
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from croupier.clients.words import plural
from croupier.conformance.audit.problem import Problem
from croupier.conformance.audit.replay import load_profile
from croupier.oracle import roulette
from croupier.oracle.clauses import Game
from croupier.oracle.errors import InvalidBetLayoutError, OracleError
from croupier.oracle.roulette import RouletteRules, TableHistory
from croupier.oracle.rounds import roulette_rules
from croupier.oracle.service import convert
from croupier.v1 import round_pb2


def pockets(texts: Iterable[str]) -> list[int]:
    """Pocket numbers from their text; anything else is left to the replay to report."""
    found = []
    for text in texts:
        with contextlib.suppress(InvalidBetLayoutError):
            found.append(roulette.parse_pocket(text, roulette.Wheel.AMERICAN))
    return found


#: Spins a table remembers behind its latest: how late a round may be settled and still be
#: checked against the boards of the rounds dealt after it.
SPIN_WINDOW = 4096


@dataclass(slots=True)
class _Table:
    """One roulette table's rounds by place in deal order, and what boards showed there."""

    #: Place -> (pocket, record, the table after the spin): each round's own spin.
    spins: dict[int, tuple[int, int, TableHistory]] = field(default_factory=dict)
    #: Place -> (pocket, record): what the first board to show that place showed.
    shown: dict[int, tuple[int, int]] = field(default_factory=dict)
    high: int = 0


class Spins:
    """Roulette boards checked in deal order (``RoundRecord.table_round``), not log order.

    The board a round sees is its table's board when it is dealt, and a log is written as
    rounds are settled. A record whose round before it in deal order is in the log is
    replayed on the table as that round left it (a difference is a finding of the replay,
    C.rou.history); otherwise it is replayed on its own board, and that board's results are
    checked against every spin and board of the table known so far, as later spins are
    against it (``board`` problems).
    """

    def __init__(self, max_tables: int = 100_000) -> None:
        self.tables: OrderedDict[tuple[str, str], _Table] = OrderedDict()
        self.max_tables = max_tables

    def check(
        self, number: int, record: round_pb2.RoundRecord, rules: RouletteRules
    ) -> tuple[TableHistory | None, list[Problem]]:
        """The table to replay the record on (None: its own board), and the problems found."""
        key = (record.profile_id, record.table_id)
        table = self.tables.pop(key, None) or _Table()
        self.tables[key] = table
        while len(self.tables) > self.max_tables:
            self.tables.popitem(last=False)
        own = pockets([record.pocket])
        if not own:
            return None, []  # the replay reports the pocket
        spin, place, length = own[0], record.table_round, rules.history_length
        problem = functools.partial(Problem, record=number, round_id=record.round_id, kind="board")
        name = record.table_id
        found: list[Problem] = []
        if place in table.spins:
            found.append(
                problem(
                    message=f"table {name}: round {place} of the table again (record "
                    f"{table.spins[place][1]} was dealt as that round)"
                )
            )
        board: TableHistory | None
        if place - 1 in table.spins:
            board = table.spins[place - 1][2]
            before = board
        elif place == 1:
            board = before = TableHistory.new(name)
        else:
            board = None
            shown = pockets(record.final_state.roulette.history)
            found.extend(self._shown(table, number, record, shown, length))
            before = TableHistory(table_id=name, results=tuple(shown[:-1][-length:]))
        claimed = table.shown.get(place)
        if claimed is not None and claimed[0] != spin:
            found.append(
                problem(
                    message=f"table {name}: round {place} of the table spun "
                    f"{roulette.pocket_text(spin)}; the board of record {claimed[1]} shows "
                    f"{roulette.pocket_text(claimed[0])}"
                )
            )
        table.spins[place] = (spin, number, after_spin(rules, before, spin, record))
        table.high = max(table.high, place)
        if len(table.spins) + len(table.shown) > 2 * (length + SPIN_WINDOW):
            floor = table.high - length - SPIN_WINDOW
            table.spins = {q: v for q, v in table.spins.items() if q > floor}
            table.shown = {q: v for q, v in table.shown.items() if q > floor}
        return board, found

    @staticmethod
    def _shown(
        table: _Table, number: int, record: round_pb2.RoundRecord, shown: list[int], length: int
    ) -> list[Problem]:
        """A record's own board against its place and the table's rounds known so far."""
        place, name = record.table_round, record.table_id
        problem = functools.partial(Problem, record=number, round_id=record.round_id, kind="board")
        found = []
        if len(shown) != min(length, place):
            found.append(
                problem(
                    message=f"table {name}: the board shows {plural(len(shown), 'result')}; after "
                    f"round {place} of the table it shows {min(length, place)}"
                )
            )
        first = place - len(shown) + 1
        for offset, pocket in enumerate(shown[:-1]):
            at = first + offset
            spun = table.spins.get(at)
            known = (spun[0], spun[1]) if spun is not None else table.shown.get(at)
            if known is not None and known[0] != pocket:
                found.append(
                    problem(
                        message=f"table {name}: the board shows {roulette.pocket_text(pocket)} "
                        f"for round {at} of the table; record {known[1]} shows "
                        f"{roulette.pocket_text(known[0])}"
                    )
                )
                break
            table.shown.setdefault(at, (pocket, number))
        return found


def after_spin(
    rules: RouletteRules, before: TableHistory, pocket: int, record: round_pb2.RoundRecord
) -> TableHistory:
    """The table after a record's spin: its board, and its prison where the profile has one.

    The prison follows from the record's seats and pocket alone (``roulette.next_prison``), so
    the log's order carries it like the board; seats that cannot be read leave it as it was
    (the replay reports the record).
    """
    after = before.after(pocket, rules.history_length)
    if not rules.en_prison:
        return after
    try:
        seats = [
            roulette.RouletteSeat(
                balance=seat.balance,
                bets=tuple(w for w in seat.wagers if isinstance(w, roulette.RouletteBet)),
            )
            for seat in convert.seats_from(record.seats, record.currency_code)
        ]
    except OracleError:
        return after
    return after.imprisoning(roulette.next_prison(rules, before.prison, pocket, seats))


def table_rules(lab_files: Sequence[str]) -> Callable[[str], RouletteRules | None]:
    """The roulette rules of a profile by id, None for another game or an unknown id."""
    cache: dict[str, RouletteRules | None] = {}

    def rules(profile_id: str) -> RouletteRules | None:
        if profile_id not in cache:
            try:
                profile = load_profile(profile_id, lab_files)
            except OracleError:
                cache[profile_id] = None
            else:
                cache[profile_id] = (
                    roulette_rules(profile) if profile.game is Game.ROULETTE else None
                )
        return cache[profile_id]

    return rules
