"""Replaying a recorded round through the rules and listing every discrepancy.

A record gives the seats and bets, the cards as dealt (or the pocket), the
decisions in order and the settlement the engine paid. The replay deals the
recorded cards as a forced shoe, applies the recorded decisions, then compares:
the number of cards the rules use, each decision's legality, and each
settlement line's stake and amount returned. Each discrepancy names the clause
that decides the differing value, the field path, and both values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from oracle import baccarat, blackjack, roulette
from oracle.clauses import Game
from oracle.errors import IllegalDecisionError, ShoeExhaustedError
from oracle.rounds import (
    Round,
    RoundRequest,
    apply_decision,
    blackjack_rules,
    roulette_rules,
    start_round,
)

if TYPE_CHECKING:
    from oracle.profile import Profile
    from oracle.settlement import SettlementLine


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimedLine:
    """One settlement line as the engine recorded it."""

    seat: int
    bet: str
    stake: int
    returned: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedRound:
    """A round as an audit log holds it; ``request.shoe`` holds the cards as dealt."""

    request: RoundRequest
    decisions: tuple[blackjack.Decision, ...]
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
class Verdict:
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


_ACTION_PARAMETER = {
    blackjack.Action.DOUBLE: "double_after_split",
    blackjack.Action.SPLIT: "split_pairs",
    blackjack.Action.SURRENDER: "surrender",
    blackjack.Action.INSURANCE: "insurance",
    blackjack.Action.DECLINE_INSURANCE: "insurance",
    blackjack.Action.EVEN_MONEY: "blackjack_vs_ace",
    blackjack.Action.DECLINE_EVEN_MONEY: "blackjack_vs_ace",
    blackjack.Action.HIT: "auto_stand_21",
    blackjack.Action.STAND: "auto_stand_21",
}


def _missing_cards(exc: ShoeExhaustedError, recorded: int, when: str) -> Discrepancy:
    """The record holds fewer cards than the rules ask for; the error names the asking rule."""
    return Discrepancy(
        clause=exc.metadata.get("clause", ""),
        path="cards_dealt",
        expected=f"at least {exc.metadata.get('needed', '?')} cards",
        actual=f"{recorded} cards",
        message=f"{when} needs a card the record does not hold: {exc}",
    )


def _extra_cards_clause(current: Round) -> str:
    """The clause that said the round needs no more cards than it used."""
    game = current.game
    if isinstance(game, baccarat.BaccaratRound):
        decisive = [s for s in game.coup.steps if s.action != "outcome"]
        return decisive[-1].clauses[0]
    return "BJ.dealer-needed"


def verify_record(
    profile: Profile, record: RecordedRound, board: roulette.TableHistory | None = None
) -> Verdict:
    """Replay a record and list its discrepancies; ``board`` is the table's history before it.

    Raises ``OracleError`` only for a record that cannot be a round at all (a bet
    the layout refuses, stakes over the balance): that is a malformed record,
    not a discrepancy.
    """
    request = record.request
    found: list[Discrepancy] = []
    recorded_cards = len(request.shoe or ())
    try:
        current = start_round(profile, request, board)
    except ShoeExhaustedError as exc:
        found.append(_missing_cards(exc, recorded_cards, "the deal"))
        return Verdict(round_id=request.round_id, discrepancies=tuple(found), replayed=None)

    for index, decision in enumerate(record.decisions):
        try:
            current = apply_decision(current, decision)
        except IllegalDecisionError as exc:
            legal = exc.metadata.get("legal", "")
            clause = _decision_clause(profile, decision.action)
            found.append(
                Discrepancy(
                    clause=clause,
                    path=f"decisions[{index}]",
                    expected=legal or "no decision (the round was over)",
                    actual=f"seat {decision.seat} hand {decision.hand} {decision.action.value}",
                    message=f"illegal decision: {exc}",
                )
            )
            return Verdict(round_id=request.round_id, discrepancies=tuple(found), replayed=current)
        except ShoeExhaustedError as exc:
            found.append(_missing_cards(exc, recorded_cards, f"decision {index}"))
            return Verdict(round_id=request.round_id, discrepancies=tuple(found), replayed=current)

    if not current.complete:
        legal = ",".join(a.value for a in current.legal)
        found.append(
            Discrepancy(
                clause="BJ.deal-order",
                path=f"decisions[{len(record.decisions)}]",
                expected=f"a decision among {legal}",
                actual="end of record",
                message="the record ends while the round still waits for a decision",
            )
        )
        return Verdict(round_id=request.round_id, discrepancies=tuple(found), replayed=current)

    used = len(current.cards_dealt)
    if request.shoe is not None and used != recorded_cards:
        found.append(
            Discrepancy(
                clause=_extra_cards_clause(current),
                path="cards_dealt",
                expected=f"{used} cards",
                actual=f"{recorded_cards} cards",
                message=f"the rules use {used} cards; the record deals {recorded_cards}",
            )
        )

    found.extend(_compare_lines(current.settlement, record.lines))
    history = None
    if isinstance(current.game, roulette.RouletteRound):
        history = current.game.history
        differences = _compare_history(profile, board, history, record.history)
        found.extend(differences)
        if board is None and record.history is not None and not differences:
            # The earlier spins were unknown; the record's own board, consistent with this spin,
            # is the best account of them for the table's next round.
            history = roulette.TableHistory(table_id=history.table_id, results=record.history)
    return Verdict(
        round_id=request.round_id, discrepancies=tuple(found), replayed=current, history=history
    )


def _decision_clause(profile: Profile, action: blackjack.Action) -> str:
    if profile.game is not Game.BLACKJACK:
        return "BAC.deal" if profile.game is Game.BACCARAT else "C.rou.wheel"
    return blackjack_rules(profile).cite(_ACTION_PARAMETER[action])[0]


def _compare_lines(
    expected: tuple[SettlementLine, ...], claimed: tuple[ClaimedLine, ...]
) -> list[Discrepancy]:
    found: list[Discrepancy] = []
    if len(expected) != len(claimed):
        clause = expected[0].clauses[0] if expected else "BJ.compare"
        found.append(
            Discrepancy(
                clause=clause,
                path="settlement.lines",
                expected=f"{len(expected)} lines",
                actual=f"{len(claimed)} lines",
                message="the settlement has a different number of lines",
            )
        )
    for index, (want, got) in enumerate(zip(expected, claimed, strict=False)):
        clause = want.clauses[0]
        base = f"settlement.lines[{index}]"
        checks = (
            ("seat", str(want.seat), str(got.seat)),
            ("bet", want.bet, got.bet),
            ("stake.minor_units", str(want.payout.stake), str(got.stake)),
            ("returned.minor_units", str(want.payout.returned), str(got.returned)),
        )
        for field, exp, act in checks:
            if exp != act:
                found.append(
                    Discrepancy(
                        clause=clause,
                        path=f"{base}.{field}",
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
            clause="C.rou.history",
            path="final_state.roulette.history",
            expected=" ".join(roulette.pocket_text(p) for p in expected.results)
            if board is not None
            else f"at most {length} results ending with {roulette.pocket_text(expected.results[-1])}",
            actual=" ".join(roulette.pocket_text(p) for p in claimed),
            message="the board's history differs",
        )
    ]
