"""Last-game recall: a round record as a person reads it (also a failure's round inputs)."""

from __future__ import annotations

from croupier.oracle.money import money_text
from croupier.v1 import common_pb2, round_pb2


def _kind(value: int, enum: str) -> str:
    names = round_pb2.DESCRIPTOR.enum_types_by_name[enum].values_by_number
    name = names[value].name if value in names else str(value)
    return (
        name.split("_KIND_")[-1]
        .split("_STATUS_")[-1]
        .split("_OUTCOME_")[-1]
        .lower()
        .replace("_", "-")
    )


def amount_text(amount: common_pb2.Amount, currency: str = "") -> str:
    """An amount in its currency (the round's when it names none): ``12.50 EUR``."""
    return money_text(amount.minor_units, amount.currency_code or currency)


def decision_text(decision: round_pb2.Decision, currency: str = "") -> str:
    """``seat 0 hand 1 double``, with the amount a decision carries."""
    text = f"seat {decision.seat} hand {decision.hand} {_kind(decision.kind, 'DecisionKind')}"
    if decision.HasField("amount"):
        text += f" {amount_text(decision.amount, currency)}"
    return text


def bet_label(bet: round_pb2.Bet) -> str:
    """What a bet is on, its stake aside: ``hand``, ``banker``, ``split 17-20``, ``dozen 2``."""
    match bet.WhichOneof("kind"):
        case "baccarat":
            return _kind(bet.baccarat.kind, "BaccaratBetKind")
        case "roulette":
            where = "-".join(bet.roulette.pockets) or (
                str(bet.roulette.group) if bet.roulette.group else ""
            )
            kind = _kind(bet.roulette.kind, "RouletteBetKind")
            return f"{kind} {where}" if where else kind
        case _:
            return "hand"


def describe_state(state: round_pb2.RoundState, currency: str = "") -> list[str]:
    """The table of a round state, one line per hand, coup or spin."""
    match state.WhichOneof("table"):
        case "blackjack":
            table = state.blackjack
            lines = [
                f"dealer: {' '.join(table.dealer.cards)}"
                + ("  (hole card not shown)" if table.dealer.hole_card_hidden else "")
            ]
            for seat_index, seat in enumerate(table.seats):
                for hand_index, hand in enumerate(seat.hands):
                    lines.append(
                        f"seat {seat_index} hand {hand_index}: {' '.join(hand.cards)}  "
                        f"stake {amount_text(hand.stake, currency)}  "
                        f"{_kind(hand.status, 'HandStatus')}"
                    )
            return lines
        case "baccarat":
            coup = state.baccarat
            return [
                f"player: {' '.join(coup.player_cards)} = {coup.player_total}",
                f"banker: {' '.join(coup.banker_cards)} = {coup.banker_total}",
                f"outcome: {_kind(coup.outcome, 'BaccaratOutcome')}",
            ]
        case "roulette":
            return [f"pocket: {state.roulette.pocket}   board: {' '.join(state.roulette.history)}"]
        case _:
            return []


def describe_record(record: round_pb2.RoundRecord) -> str:
    """Several lines: ids, cards, decisions and every payout of one round."""
    currency = record.currency_code
    lines = [f"round {record.round_id}  profile {record.profile_id}  table {record.table_id}"]
    table = describe_state(record.final_state, currency)
    lines.extend(f"  {line}" for line in table or [f"cards dealt: {' '.join(record.cards_dealt)}"])
    if record.decisions:
        decisions = ", ".join(decision_text(d, currency) for d in record.decisions)
        lines.append(f"  decisions: {decisions}")
    lines.extend(
        f"  paid seat {line.seat} {line.bet}: stake {amount_text(line.stake, currency)} "
        f"returned {amount_text(line.returned, currency)}"
        for line in record.settlement.lines
    )
    return "\n".join(lines)
