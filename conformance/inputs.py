"""A vector round's inputs as a person checks them by eye: seats, stakes, cards, decisions.

A failure report shows them beside the step that diverged, so that "expected 12, actual 11"
can be checked against the round itself. Amounts stay in integer minor units with their
currency (the page writes them out); cards are the shoe's, front first, as far as the round
dealt them.
"""

from __future__ import annotations

from collections.abc import Mapping

from croupier.conformance.recall import bet_label, decision_text, describe_state
from croupier.conformance.v1 import vector_pb2
from croupier.oracle.money import money_text
from croupier.v1 import round_pb2


def _final_state(vround: vector_pb2.VectorRound) -> round_pb2.RoundState | None:
    """The last state the round expects: after its settle, its last decision, or its deal."""
    if vround.expected_settle.HasField("state"):
        return vround.expected_settle.state
    for step in reversed(vround.steps):
        if step.HasField("expected_state"):
            return step.expected_state
    return vround.expected_state if vround.HasField("expected_state") else None


def round_inputs(vector: vector_pb2.Vector, index: int) -> dict[str, object]:
    """Round ``index`` of ``vector``: what was sent, and the table it should come to."""
    vround = vector.rounds[index]
    deal = vround.deal
    currency = deal.currency_code
    seats = [
        {
            "balance": seat.balance.minor_units,
            "bets": [{"bet": bet_label(bet), "stake": bet.stake.minor_units} for bet in seat.bets],
        }
        for seat in deal.seats
    ]
    state = _final_state(vround)
    if deal.HasField("spin"):
        dealt = f"spin {deal.spin.pocket}"
    else:
        cards = list(deal.shoe.cards)
        used = state.cards_dealt if state is not None and state.cards_dealt else len(cards)
        dealt = " ".join(cards[:used])
    return {
        "round": index,
        "profile": deal.profile_id,
        "table": deal.table_id,
        "currency": currency,
        "seats": seats,
        "dealt": dealt,
        "table_state": describe_state(state, currency) if state is not None else [],
        "decisions": [decision_text(step.decision, currency) for step in vround.steps],
    }


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def seat_lines(inputs: Mapping[str, object]) -> list[str]:
    """One line per seat: its balance and each bet with its stake, in the round's currency."""
    currency = str(inputs.get("currency", ""))
    lines = []
    for number, seat in enumerate(_list(inputs.get("seats"))):
        entry = seat if isinstance(seat, dict) else {}
        bets = ", ".join(
            f"{b.get('bet', '')} {money_text(_int(b.get('stake')), currency)}"
            for b in _list(entry.get("bets"))
            if isinstance(b, dict)
        )
        balance = money_text(_int(entry.get("balance")), currency)
        lines.append(f"seat {number}: balance {balance}; bets {bets or 'none'}")
    return lines


def inputs_lines(inputs: Mapping[str, object]) -> list[str]:
    """The round's inputs as text lines (the console's, the JUnit report's); none for none."""
    if not inputs:
        return []
    where = f"at table {inputs.get('table', '')} ({inputs.get('profile', '')})"
    lines = [
        f"round {inputs.get('round', '')} {where}",
        *seat_lines(inputs),
        f"dealt: {inputs.get('dealt', '') or 'nothing'}",
    ]
    decisions = [str(d) for d in _list(inputs.get("decisions"))]
    lines.append(f"decisions: {', '.join(decisions) if decisions else 'none'}")
    lines.extend(f"expected table: {line}" for line in _list(inputs.get("table_state")))
    return lines


def amount_of(path: str, value: str, currency: str) -> str:
    """A compared value that is an amount (a path ending in ``minor_units``) in its currency.

    Empty when it is not one, or when the currency is not known: the value then stands as
    it is.
    """
    if not currency or not path.endswith("minor_units"):
        return ""
    try:
        units = int(value)
    except ValueError:
        return ""
    return money_text(units, currency)


def value_text(path: str, value: str, currency: str) -> str:
    """A compared value as the console shows it: ``2.50 EUR (250 minor units)`` for money."""
    amount = amount_of(path, value, currency)
    return f"{amount} ({value} minor units)" if amount else value


def currency_of(inputs: Mapping[str, object] | None) -> str:
    """The currency of a failure's round, or empty."""
    return str((inputs or {}).get("currency", ""))
