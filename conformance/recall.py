"""Last-game recall: a round record as a person reads it."""

from __future__ import annotations

from croupier.v1 import round_pb2


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


def describe_record(record: round_pb2.RoundRecord) -> str:
    """Several lines: ids, cards, decisions and every payout of one round."""
    lines = [f"round {record.round_id}  profile {record.profile_id}  table {record.table_id}"]
    state = record.final_state
    match state.WhichOneof("table"):
        case "blackjack":
            table = state.blackjack
            lines.append(
                f"  dealer: {' '.join(table.dealer.cards)}"
                + ("  (hole card not shown)" if table.dealer.hole_card_hidden else "")
            )
            for seat_index, seat in enumerate(table.seats):
                for hand_index, hand in enumerate(seat.hands):
                    lines.append(
                        f"  seat {seat_index} hand {hand_index}: {' '.join(hand.cards)}  "
                        f"stake {hand.stake.minor_units}  {_kind(hand.status, 'HandStatus')}"
                    )
        case "baccarat":
            table_b = state.baccarat
            lines.append(f"  player: {' '.join(table_b.player_cards)} = {table_b.player_total}")
            lines.append(f"  banker: {' '.join(table_b.banker_cards)} = {table_b.banker_total}")
            lines.append(f"  outcome: {_kind(table_b.outcome, 'BaccaratOutcome')}")
        case "roulette":
            lines.append(
                f"  pocket: {state.roulette.pocket}   board: {' '.join(state.roulette.history)}"
            )
        case _:
            lines.append(f"  cards dealt: {' '.join(record.cards_dealt)}")
    if record.decisions:
        decisions = ", ".join(
            f"seat {d.seat} hand {d.hand} {_kind(d.kind, 'DecisionKind')}" for d in record.decisions
        )
        lines.append(f"  decisions: {decisions}")
    lines.extend(
        f"  paid seat {line.seat} {line.bet}: stake {line.stake.minor_units} "
        f"returned {line.returned.minor_units} {line.returned.currency_code}"
        for line in record.settlement.lines
    )
    return "\n".join(lines)
