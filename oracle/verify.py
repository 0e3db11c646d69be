"""Replaying a recorded round through the rules and listing every discrepancy.

A record gives the seats and bets, the cards as dealt (or the pocket), the
decisions in order and the settlement the engine paid. The replay deals the
recorded cards as a forced shoe, applies the recorded decisions, then compares:
the number of cards the rules use, each decision's legality, and each
settlement line's stake and amount returned. Each discrepancy cites the clause
the rules recorded when they decided the differing value (``oracle.provenance``),
with the field path and both values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.oracle import roulette
from croupier.oracle.errors import IllegalDecisionError, ShoeExhaustedError
from croupier.oracle.provenance import Difference, cite
from croupier.oracle.rounds import Round, RoundRequest, apply_decision, roulette_rules, start_round

if TYPE_CHECKING:
    from croupier.oracle.decision import Decision
    from croupier.oracle.profile import Profile
    from croupier.oracle.settlement import SettlementLine


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimedLine:
    """One settlement line as the engine recorded it."""

    seat: int
    bet: str
    stake: int
    returned: int
    #: ``imprisoned`` or ``released`` (VAR.rou.en-prison), else empty.
    prison: str = ""
    #: What the engine says was returned before rounding, and which clauses decided the
    #: line; either may be left empty (CONTRACT.settlement), and is then not checked.
    returned_exact: str = ""
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedRound:
    """A round as an audit log holds it; ``request.shoe`` holds the cards as dealt."""

    request: RoundRequest
    decisions: tuple[Decision, ...]
    lines: tuple[ClaimedLine, ...]
    history: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Discrepancy:
    """One difference between a record and the rules."""

    clause: str
    path: str
    expected: str
    actual: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordVerdict:
    """The outcome of replaying one record."""

    round_id: str
    discrepancies: tuple[Discrepancy, ...]
    replayed: Round | None
    history: roulette.TableHistory | None = None

    @property
    def conformant(self) -> bool:
        """True when the record matches the rules everywhere it was checked."""
        return not self.discrepancies

    @property
    def expected(self) -> tuple[SettlementLine, ...]:
        """The settlement the rules give, when the round could be replayed to its end."""
        if self.replayed is None or not self.replayed.complete:
            return ()
        return self.replayed.settlement


def _missing_cards(exc: ShoeExhaustedError, recorded: int, when: str) -> Discrepancy:
    """The record holds fewer cards than the rules ask for; the error names the asking rule."""
    return Discrepancy(
        clause=exc.asked_by,
        path="cards_dealt",
        expected=f"at least {exc.metadata.get('needed', '?')} cards",
        actual=f"{recorded} cards",
        message=f"{when} needs a card the record does not hold: {exc}",
    )


def verify_record(
    profile: Profile, record: RecordedRound, board: roulette.TableHistory | None = None
) -> RecordVerdict:
    """Replay a record and list its discrepancies; ``board`` is the table's history before it.

    Raises ``OracleError`` only for a record that cannot be a round at all (a bet
    the layout refuses, stakes over the balance): that is a malformed record,
    not a discrepancy.
    """
    request = record.request
    round_id = request.round_id
    recorded_cards = len(request.shoe or ())
    try:
        current = start_round(profile, request, board)
    except ShoeExhaustedError as exc:
        missing = (_missing_cards(exc, recorded_cards, "the deal"),)
        return RecordVerdict(round_id=round_id, discrepancies=missing, replayed=None)

    for index, decision in enumerate(record.decisions):
        try:
            current = apply_decision(current, decision)
        except IllegalDecisionError as exc:
            refused = Discrepancy(
                clause=exc.clause,
                path=f"decisions[{index}]",
                expected=exc.metadata.get("legal", "") or "no decision (the round was over)",
                actual=f"seat {decision.seat} hand {decision.hand} {decision.action.value}",
                message=f"illegal decision: {exc}",
            )
            return RecordVerdict(round_id=round_id, discrepancies=(refused,), replayed=current)
        except ShoeExhaustedError as exc:
            missing = (_missing_cards(exc, recorded_cards, f"decision {index}"),)
            return RecordVerdict(round_id=round_id, discrepancies=missing, replayed=current)

    # Cited only where something differs: a clean record never needs them.
    citations = current.citations
    if not current.complete:
        legal = ",".join(a.value for a in current.legal)
        unfinished = Discrepancy(
            clause=citations()["turn"][0],
            path=f"decisions[{len(record.decisions)}]",
            expected=f"a decision among {legal}",
            actual="end of record",
            message="the record ends while the round still waits for a decision",
        )
        return RecordVerdict(round_id=round_id, discrepancies=(unfinished,), replayed=current)

    found: list[Discrepancy] = []
    used = len(current.cards_dealt)
    if request.shoe is not None and used != recorded_cards:
        # More cards than the rules use: what stopped the round cites; fewer raised above.
        found.append(
            Discrepancy(
                clause=(citations().get("cards_dealt+") or citations()["cards_dealt"])[0],
                path="cards_dealt",
                expected=f"{used} cards",
                actual=f"{recorded_cards} cards",
                message=f"the rules use {used} cards; the record deals {recorded_cards}",
            )
        )
    found.extend(_compare_lines(current, record.lines))
    history = current.history
    if history is not None:
        differences = _compare_history(profile, board, history, record.history, citations)
        found.extend(differences)
        if board is None and record.history is not None and not differences:
            # The earlier spins were unknown; the record's own board, consistent with this spin,
            # is the best account of them for the table's next round.
            history = roulette.TableHistory(table_id=history.table_id, results=record.history)
    return RecordVerdict(
        round_id=round_id, discrepancies=tuple(found), replayed=current, history=history
    )


#: The line fields an engine may leave empty: checked only when it fills them.
_OPTIONAL = frozenset(("returned_exact", "clauses"))


def _compare_lines(current: Round, claimed: tuple[ClaimedLine, ...]) -> list[Discrepancy]:
    expected = current.settlement
    citations = current.settlement_citations
    found: list[Discrepancy] = []
    if len(expected) != len(claimed):
        difference = Difference(
            path="lines", expected=f"{len(expected)} lines", actual=f"{len(claimed)} lines"
        )
        found.append(
            Discrepancy(
                clause=cite(citations(), difference)[0],
                path="settlement.lines",
                expected=difference.expected,
                actual=difference.actual,
                message="the settlement has a different number of lines",
            )
        )
    for index, (want, got) in enumerate(zip(expected, claimed, strict=False)):
        payout = want.payout
        if (
            want.seat == got.seat
            and want.bet == got.bet
            and payout.stake == got.stake
            and payout.returned == got.returned
            and (want.prison.value if want.prison else "") == got.prison
            and (not got.returned_exact or got.returned_exact == str(payout.returned_exact))
            and (not got.clauses or sorted(want.clauses) == sorted(got.clauses))
        ):
            # Every check below agrees (equal values have equal texts): none is written out.
            continue
        checks = (
            ("seat", str(want.seat), str(got.seat)),
            ("bet", want.bet, got.bet),
            ("stake.minor_units", str(want.payout.stake), str(got.stake)),
            ("returned.minor_units", str(want.payout.returned), str(got.returned)),
            ("prison", want.prison.value if want.prison else "", got.prison),
            # Reduced fraction text, as the oracle writes it ("75/2"); empty is not checked.
            ("returned_exact", str(want.payout.returned_exact), got.returned_exact),
            ("clauses", " ".join(sorted(want.clauses)), " ".join(sorted(got.clauses))),
        )
        for field, exp, act in checks:
            if exp == act or (field in _OPTIONAL and not act):
                continue
            difference = Difference(path=f"lines[{index}].{field}", expected=exp, actual=act)
            found.append(
                Discrepancy(
                    clause=cite(citations(), difference)[0],
                    path=f"settlement.{difference.path}",
                    expected=exp,
                    actual=act,
                    message=f"seat {want.seat} {want.bet}: {field.split('.')[0]} differs "
                    f"(exact amount returned {want.payout.returned_exact})",
                )
            )
    return found


def _compare_history(
    profile: Profile,
    board: roulette.TableHistory | None,
    expected: roulette.TableHistory,
    claimed: tuple[int, ...] | None,
    citations: Callable[[], dict[str, tuple[str, ...]]],
) -> list[Discrepancy]:
    if claimed is None:
        return []
    length = roulette_rules(profile).history_length
    if board is None:
        # The table's earlier spins are unknown: check only what this spin fixes.
        ok = bool(claimed) and claimed[-1] == expected.results[-1] and len(claimed) <= length
    else:
        ok = claimed == expected.results
    if ok:
        return []
    return [
        Discrepancy(
            clause=citations()["roulette.history"][0],
            path="final_state.roulette.history",
            expected=" ".join(roulette.pocket_text(p) for p in expected.results)
            if board is not None
            else f"at most {length} results ending with {roulette.pocket_text(expected.results[-1])}",
            actual=" ".join(roulette.pocket_text(p) for p in claimed),
            message="the board's history differs",
        )
    ]
