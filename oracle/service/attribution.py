"""Finding the first difference between two messages, and the clause that decides it.

The runner compares an engine's answer with the frozen expected one field by
field, and record verification compares a recorded final state with the
replayed one; the first differing field gives a path like
``state.blackjack.dealer.cards`` and, through this module, the RULES.md clause
that decides that field under the profile. Part of the protobuf edge
(``oracle.service``): the rules core never sees these messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from croupier.v1 import common_pb2, round_pb2
from google.protobuf.message import Message

from oracle.baccarat import hand_value
from oracle.blackjack import hand_total
from oracle.cards import parse_cards
from oracle.clauses import Game
from oracle.profile import Profile
from oracle.roulette import pocket_text
from oracle.rounds import blackjack_rules
from oracle.service.convert import round_state
from oracle.verify import Discrepancy, Verdict

#: Fields an engine may leave empty; the oracle fills them for people, not for comparison.
IGNORED_FIELDS = frozenset({"clauses", "returned_exact"})
#: Counts derived from the table, compared after the rest of their message: a card too many
#: is reported where it went (the dealer's hand: the dealer's drawing rule), not as a count.
DEFERRED_FIELDS = frozenset({"cards_dealt"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """The first field where two messages differ."""

    path: str
    expected: str
    actual: str
    #: The expected RoundState the differing field belongs to, if any: the state whose rules
    #: decide it (after the step, where the runner's ``expected_state`` is the one before).
    state: round_pb2.RoundState | None = None


def _text(value: object) -> str:
    if isinstance(value, Message):
        return str(value).replace("\n", " ").strip() or "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)


def _enum_names(message: Message, name: str, values: list[int]) -> list[str]:
    field = message.DESCRIPTOR.fields_by_name[name]
    if field.enum_type is None:
        return [str(v) for v in values]
    names = field.enum_type.values_by_number
    return [names[v].name if v in names else str(v) for v in values]


def first_difference(expected: Message, actual: Message, prefix: str = "") -> Difference | None:
    """The first field, in field-number order, where ``actual`` differs from ``expected``.

    ``DEFERRED_FIELDS`` come after every other field of their message. In a blackjack
    RoundState the players' cards come first: a hand dealt other cards changes the phase,
    the turn and the legal decisions too, and the cards are the cause. A difference inside a
    RoundState carries that expected state.
    """
    if isinstance(expected, round_pb2.RoundState) and isinstance(actual, round_pb2.RoundState):
        found = _players_cards_difference(expected, actual, prefix) or _fields_difference(
            expected, actual, prefix
        )
        if found is not None and found.state is None:
            found = replace(found, state=expected)
        return found
    return _fields_difference(expected, actual, prefix)


def _players_cards_difference(
    expected: round_pb2.RoundState, actual: round_pb2.RoundState, prefix: str
) -> Difference | None:
    if expected.WhichOneof("table") != "blackjack" or actual.WhichOneof("table") != "blackjack":
        return None
    path = f"{prefix}.blackjack.seats" if prefix else "blackjack.seats"
    seats = zip(expected.blackjack.seats, actual.blackjack.seats, strict=False)
    for seat, (want_seat, got_seat) in enumerate(seats):
        hands = zip(want_seat.hands, got_seat.hands, strict=False)
        for hand, (want, got) in enumerate(hands):
            if list(want.cards) != list(got.cards):
                return Difference(
                    path=f"{path}[{seat}].hands[{hand}].cards",
                    expected=_text(list(want.cards)),
                    actual=_text(list(got.cards)),
                )
    return None


def _fields_difference(expected: Message, actual: Message, prefix: str) -> Difference | None:
    regular = [f for f in expected.DESCRIPTOR.fields if f.name not in DEFERRED_FIELDS]
    deferred = [f for f in expected.DESCRIPTOR.fields if f.name in DEFERRED_FIELDS]
    for field in regular + deferred:
        if field.name in IGNORED_FIELDS:
            continue
        path = f"{prefix}.{field.name}" if prefix else field.name
        want = getattr(expected, field.name)
        got = getattr(actual, field.name)
        if field.is_repeated:
            want_list, got_list = list(want), list(got)
            if field.message_type is not None:
                for index, (w, g) in enumerate(zip(want_list, got_list, strict=False)):
                    found = first_difference(w, g, f"{path}[{index}]")
                    if found:
                        return found
                if len(want_list) != len(got_list):
                    return Difference(
                        path=path,
                        expected=f"{len(want_list)} items",
                        actual=f"{len(got_list)} items",
                    )
            elif want_list != got_list:
                if field.enum_type is not None:
                    return Difference(
                        path=path,
                        expected=_text(_enum_names(expected, field.name, want_list)),
                        actual=_text(_enum_names(expected, field.name, got_list)),
                    )
                return Difference(path=path, expected=_text(want_list), actual=_text(got_list))
            continue
        if field.message_type is not None:
            has_want = expected.HasField(field.name)
            has_got = actual.HasField(field.name)
            if has_want != has_got:
                return Difference(
                    path=path,
                    expected=_text(want) if has_want else "(absent)",
                    actual=_text(got) if has_got else "(absent)",
                )
            if has_want:
                found = first_difference(want, got, path)
                if found:
                    return found
            continue
        if want != got:
            if field.enum_type is not None:
                names = field.enum_type.values_by_number
                return Difference(
                    path=path,
                    expected=names[want].name if want in names else str(want),
                    actual=names[got].name if got in names else str(got),
                )
            return Difference(path=path, expected=_text(want), actual=_text(got))
    return None


_KINDS_BY_NAME = {
    value.name: value.number
    for value in round_pb2.DESCRIPTOR.enum_types_by_name["DecisionKind"].values
}
_LINE = re.compile(r"settlement\.lines\[(\d+)\]")
_DECISION_PARAMETER: dict[int, str] = {
    round_pb2.DECISION_KIND_DOUBLE: "double_after_split",
    round_pb2.DECISION_KIND_SPLIT: "split_pairs",
    round_pb2.DECISION_KIND_SURRENDER: "surrender",
    round_pb2.DECISION_KIND_INSURANCE: "insurance",
    round_pb2.DECISION_KIND_DECLINE_INSURANCE: "insurance",
    round_pb2.DECISION_KIND_EVEN_MONEY: "blackjack_vs_ace",
    round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY: "blackjack_vs_ace",
    round_pb2.DECISION_KIND_HIT: "auto_stand_21",
    round_pb2.DECISION_KIND_STAND: "auto_stand_21",
}


def clause_for(
    *,
    profile: Profile,
    difference: Difference,
    expected_settlement: common_pb2.Settlement | None,
    expected_state: round_pb2.RoundState | None,
    balances: list[int],
    fallback: str,
) -> str:
    """The clause that decides the differing field under this profile.

    ``expected_state`` is the state before or at the difference, ``balances`` the
    seats' funds from the Deal request (the funds rule needs them).
    """
    path = difference.path
    line = _LINE.search(path)
    if line and expected_settlement is not None:
        index = int(line.group(1))
        if index < len(expected_settlement.lines) and expected_settlement.lines[index].clauses:
            return expected_settlement.lines[index].clauses[0]
    if "total_returned" in path or "total_staked" in path:
        lines = expected_settlement.lines if expected_settlement is not None else []
        return lines[0].clauses[0] if lines and lines[0].clauses else fallback
    match profile.game:
        case Game.BLACKJACK:
            return _blackjack_clause(profile, path, difference, expected_state, balances, fallback)
        case Game.BACCARAT:
            return _baccarat_clause(profile, path, expected_state, fallback)
        case Game.ROULETTE:
            if "history" in path:
                return "C.rou.history"
            return "C.rou.wheel" if "pocket" in path else fallback


def _blackjack_clause(  # noqa: PLR0917 - one call site, all inputs of one decision
    profile: Profile,
    path: str,
    difference: Difference,
    expected_state: round_pb2.RoundState | None,
    balances: list[int],
    fallback: str,
) -> str:
    rules = blackjack_rules(profile)
    # The legal decisions and the dealer's cards are decided by the state they belong to.
    if difference.state is not None:
        expected_state = difference.state
    if path.endswith("legal_decisions"):
        want = set(difference.expected.strip("[]").split(", ")) - {""}
        got = set(difference.actual.strip("[]").split(", ")) - {""}
        for name in sorted(want ^ got):
            kind = _KINDS_BY_NAME.get(name)
            parameter = _DECISION_PARAMETER.get(kind) if kind is not None else None
            if parameter is not None:
                if kind in (
                    round_pb2.DECISION_KIND_DOUBLE,
                    round_pb2.DECISION_KIND_SPLIT,
                ) and _insured(expected_state):
                    return rules.cite("no_double_split_after_insurance")[0]
                extra = kind in (round_pb2.DECISION_KIND_DOUBLE, round_pb2.DECISION_KIND_SPLIT)
                if extra and _short_of_funds(expected_state, balances):
                    return "BJ.funds"
                return rules.cite(parameter)[0]
        return fallback
    if ".dealer.hole_card_hidden" in path:
        return rules.cite("natural_paid_at_once")[0]
    if path.endswith(".dealer.cards"):
        shown = _cards_text(difference.expected)
        dealt = _cards_text(difference.actual)
        if len(shown) == 1 and len(dealt) > 1:
            # The hole card shown where the rules keep it hidden.
            return rules.cite("natural_paid_at_once")[0]
        if len(shown) == 2 and len(dealt) > 2 and hand_total(parse_cards(shown))[0] < 17:
            # The dealer stopped below 17 by no drawing rule: no hand needed its total.
            return rules.cite("dealer_draws_when_not_needed")[0]
    if ".dealer." in path:
        return rules.cite("dealer_hits_soft_17")[0]
    if path.endswith(".status"):
        return "BJ.values"
    if ".hands" in path or path.endswith("cards_dealt"):
        return "BJ.deal-order"
    if path.endswith(".phase") or ".turn" in path:
        return rules.cite("peek")[0]
    if ".insurance" in path:
        return rules.cite("insurance")[0]
    return fallback


def _cards_text(text: str) -> list[str]:
    """The cards of a difference's ``[AH, 7C]`` text."""
    return [card for card in text.strip("[]").split(", ") if card]


def _insured(state: round_pb2.RoundState | None) -> bool:
    if state is None or state.WhichOneof("table") != "blackjack":
        return False
    turn = state.turn
    seats = state.blackjack.seats
    return turn.seat < len(seats) and seats[turn.seat].insurance.minor_units > 0


def _short_of_funds(state: round_pb2.RoundState | None, balances: list[int]) -> bool:
    """Whether the seat to act cannot cover another stake like its hand's (BJ.funds)."""
    if state is None or state.WhichOneof("table") != "blackjack":
        return False
    seat, hand = state.turn.seat, state.turn.hand
    seats = state.blackjack.seats
    if seat >= len(seats) or seat >= len(balances) or hand >= len(seats[seat].hands):
        return False
    committed = (
        sum(h.stake.minor_units for h in seats[seat].hands) + seats[seat].insurance.minor_units
    )
    return balances[seat] - committed < seats[seat].hands[hand].stake.minor_units


def _baccarat_clause(
    profile: Profile, path: str, state: round_pb2.RoundState | None, fallback: str
) -> str:
    table = (
        state.baccarat if state is not None and state.WhichOneof("table") == "baccarat" else None
    )
    natural = False
    player_stood = False
    if table is not None and len(table.player_cards) >= 2 and len(table.banker_cards) >= 2:
        first_two = [
            hand_value(parse_cards(table.player_cards[:2])),
            hand_value(parse_cards(table.banker_cards[:2])),
        ]
        natural = max(first_two) >= 8
        player_stood = len(table.player_cards) == 2
    if ("player_cards" in path or "banker_cards" in path) and natural:
        return "BAC.natural"
    if "player_cards" in path:
        return "BAC.player-draw"
    if "banker_cards" in path:
        if player_stood:
            return "BAC.banker-stood"
        tableau = profile.parameter("tableau")
        return tableau.clauses[0] if tableau is not None else "BAC.banker-tableau"
    if path.endswith("_total"):
        return "BAC.values"
    if path.endswith("outcome"):
        return "BAC.outcome"
    if path.endswith("cards_dealt"):
        return "BAC.deal"
    return fallback


def final_state_discrepancy(
    profile: Profile, verdict: Verdict, record: round_pb2.RoundRecord
) -> Discrepancy | None:
    """The first difference between a record's final state and the replayed round, if any."""
    replayed = verdict.replayed
    if replayed is None or not replayed.complete:
        return None
    expected_state = round_state(replayed)
    if verdict.history is not None and expected_state.WhichOneof("table") == "roulette":
        # With the table's earlier spins unknown, the verdict's board is the record's own,
        # already checked against this spin.
        del expected_state.roulette.history[:]
        expected_state.roulette.history.extend(pocket_text(p) for p in verdict.history.results)
    diff = first_difference(expected_state, record.final_state, "final_state")
    if diff is None:
        return None
    clause = clause_for(
        profile=profile,
        difference=diff,
        expected_settlement=None,
        expected_state=expected_state,
        balances=[seat.balance.minor_units for seat in record.seats],
        fallback="BJ.deal-order",
    )
    return Discrepancy(
        clause=clause,
        path=diff.path,
        expected=diff.expected,
        actual=diff.actual,
        message="the recorded final state differs from the replayed round",
    )


def with_final_state(profile: Profile, verdict: Verdict, record: round_pb2.RoundRecord) -> Verdict:
    """The verdict, with the final-state difference added when nothing else differs."""
    if verdict.discrepancies:
        return verdict
    found = final_state_discrepancy(profile, verdict, record)
    return verdict if found is None else replace(verdict, discrepancies=(found,))
