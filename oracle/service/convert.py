"""Conversions between the oracle's domain objects and the ``croupier.v1`` messages.

Every function here is a plain conversion; rules live in the game modules.
Input that cannot be converted (a malformed card, an unknown enum value, an
amount in another currency) raises the oracle's own errors, which the server
maps to status codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from croupier.oracle import baccarat, blackjack, roulette
from croupier.oracle.cards import DECK, Card
from croupier.oracle.clauses import Game
from croupier.oracle.errors import (
    IllegalDecisionError,
    InvalidBetLayoutError,
    InvalidCardError,
    InvalidRoundError,
    OracleError,
)
from croupier.oracle.money import Exact
from croupier.oracle.profile import Status
from croupier.oracle.rounds import BlackjackWager, Round, RoundRequest, SeatRequest, Wager
from croupier.oracle.settlement import Prison
from croupier.oracle.verify import ClaimedLine, RecordedRound, RecordVerdict
from croupier.v1 import common_pb2, engine_service_pb2, oracle_service_pb2, round_pb2

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from croupier.oracle.profile import Parameter, Profile
    from croupier.oracle.settlement import SettlementLine

# --- enums --------------------------------------------------------------------------------

_GAMES = {
    Game.BLACKJACK: common_pb2.GAME_BLACKJACK,
    Game.BACCARAT: common_pb2.GAME_BACCARAT,
    Game.ROULETTE: common_pb2.GAME_ROULETTE,
}

_BACCARAT_KINDS = {
    round_pb2.BACCARAT_BET_KIND_PLAYER: baccarat.BetKind.PLAYER,
    round_pb2.BACCARAT_BET_KIND_BANKER: baccarat.BetKind.BANKER,
    round_pb2.BACCARAT_BET_KIND_TIE: baccarat.BetKind.TIE,
}
_BACCARAT_KINDS_PB = {kind: pb for pb, kind in _BACCARAT_KINDS.items()}

_ROULETTE_KINDS = {
    round_pb2.ROULETTE_BET_KIND_STRAIGHT: roulette.BetKind.STRAIGHT,
    round_pb2.ROULETTE_BET_KIND_SPLIT: roulette.BetKind.SPLIT,
    round_pb2.ROULETTE_BET_KIND_STREET: roulette.BetKind.STREET,
    round_pb2.ROULETTE_BET_KIND_CORNER: roulette.BetKind.CORNER,
    round_pb2.ROULETTE_BET_KIND_FIRST_FOUR: roulette.BetKind.FIRST_FOUR,
    round_pb2.ROULETTE_BET_KIND_TOP_LINE: roulette.BetKind.TOP_LINE,
    round_pb2.ROULETTE_BET_KIND_LINE: roulette.BetKind.LINE,
    round_pb2.ROULETTE_BET_KIND_COLUMN: roulette.BetKind.COLUMN,
    round_pb2.ROULETTE_BET_KIND_DOZEN: roulette.BetKind.DOZEN,
    round_pb2.ROULETTE_BET_KIND_RED: roulette.BetKind.RED,
    round_pb2.ROULETTE_BET_KIND_BLACK: roulette.BetKind.BLACK,
    round_pb2.ROULETTE_BET_KIND_EVEN: roulette.BetKind.EVEN,
    round_pb2.ROULETTE_BET_KIND_ODD: roulette.BetKind.ODD,
    round_pb2.ROULETTE_BET_KIND_LOW: roulette.BetKind.LOW,
    round_pb2.ROULETTE_BET_KIND_HIGH: roulette.BetKind.HIGH,
}
_ROULETTE_KINDS_PB = {kind: pb for pb, kind in _ROULETTE_KINDS.items()}
_GROUPED = (roulette.BetKind.COLUMN, roulette.BetKind.DOZEN)

_ACTIONS = {
    round_pb2.DECISION_KIND_HIT: blackjack.Action.HIT,
    round_pb2.DECISION_KIND_STAND: blackjack.Action.STAND,
    round_pb2.DECISION_KIND_DOUBLE: blackjack.Action.DOUBLE,
    round_pb2.DECISION_KIND_SPLIT: blackjack.Action.SPLIT,
    round_pb2.DECISION_KIND_SURRENDER: blackjack.Action.SURRENDER,
    round_pb2.DECISION_KIND_INSURANCE: blackjack.Action.INSURANCE,
    round_pb2.DECISION_KIND_DECLINE_INSURANCE: blackjack.Action.DECLINE_INSURANCE,
    round_pb2.DECISION_KIND_EVEN_MONEY: blackjack.Action.EVEN_MONEY,
    round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY: blackjack.Action.DECLINE_EVEN_MONEY,
    round_pb2.DECISION_KIND_DECLINE_SURRENDER: blackjack.Action.DECLINE_SURRENDER,
}
_ACTIONS_PB = {action: pb for pb, action in _ACTIONS.items()}

_PHASES = {
    blackjack.Phase.OFFERS: round_pb2.ROUND_PHASE_OFFERS,
    blackjack.Phase.PLAY: round_pb2.ROUND_PHASE_PLAY,
    blackjack.Phase.COMPLETE: round_pb2.ROUND_PHASE_COMPLETE,
}

_STATUSES = {
    blackjack.HandStatus.WAITING: round_pb2.HAND_STATUS_WAITING,
    blackjack.HandStatus.PLAYING: round_pb2.HAND_STATUS_PLAYING,
    blackjack.HandStatus.STOOD: round_pb2.HAND_STATUS_STOOD,
    blackjack.HandStatus.BUST: round_pb2.HAND_STATUS_BUST,
    blackjack.HandStatus.BLACKJACK: round_pb2.HAND_STATUS_BLACKJACK,
    blackjack.HandStatus.SURRENDERED: round_pb2.HAND_STATUS_SURRENDERED,
}

_OUTCOMES = {
    baccarat.CoupOutcome.PLAYER: round_pb2.BACCARAT_OUTCOME_PLAYER,
    baccarat.CoupOutcome.BANKER: round_pb2.BACCARAT_OUTCOME_BANKER,
    baccarat.CoupOutcome.TIE: round_pb2.BACCARAT_OUTCOME_TIE,
}

_PRISON_PB = {
    None: common_pb2.PRISON_STATUS_UNSPECIFIED,
    Prison.IMPRISONED: common_pb2.PRISON_STATUS_IMPRISONED,
    Prison.RELEASED: common_pb2.PRISON_STATUS_RELEASED,
}

#: A line's prison status as the verifier compares it; a number no status has stays a number.
_PRISON_FROM = {pb: prison.value if prison else "" for prison, pb in _PRISON_PB.items()}

# --- protobuf to domain -------------------------------------------------------------------


#: Each card by its text and back: a look-up, not a parse or an enum walk, per card.
_CARD_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
#: A card's text by the card's identity: the deck's cards live as long as this module, so no
#: other card shares one's id, and every card parsed is one of them (a dataclass's hash is a
#: Python call; ``id`` is not). Another card is written out by ``str``.
_CARD_TEXT: dict[int, str] = {id(card): text for text, card in _CARD_BY_TEXT.items()}


def cards_from(texts: Sequence[str], field: str = "shoe.cards") -> tuple[Card, ...]:
    """Parse cards; a malformed one is named with its index."""
    try:
        return tuple([_CARD_BY_TEXT[text] for text in texts])
    except KeyError:
        pass
    for index, text in enumerate(texts):
        try:
            Card.parse(text)
        except InvalidCardError as exc:
            raise InvalidCardError(f"{field}[{index}]: {exc}", card=text, index=index) from None
    raise AssertionError("unreachable: a card missing from the table parses")  # pragma: no cover


def amount_from(amount: common_pb2.Amount, currency: str, field: str) -> int:
    """Minor units of an amount in the round's currency (TABLE.currency).

    The sign is left to the rules: a stake below the minimum is out of the limits
    (TABLE.limits), a negative balance is not a balance.
    """
    if amount.currency_code != currency:
        held = f"in {amount.currency_code}" if amount.currency_code else "without a currency"
        raise InvalidRoundError(
            f"{field} is {held}, but the round is in {currency}",
            field=field,
            currency=amount.currency_code,
            clause="TABLE.currency",
        )
    return amount.minor_units


#: Each pocket of either wheel by its text (``"00"`` is 37): a look-up per pocket, no parse.
_POCKET_BY_TEXT: dict[str, int] = {
    roulette.pocket_text(pocket): pocket for pocket in range(roulette.Wheel.AMERICAN.pockets)
}


def _any_pocket(text: str) -> int:
    """A pocket of either wheel from its text, ``"00"`` being 37 (C.rou.wheel, US.rou.wheel).

    The profile's wheel is checked later: a text neither wheel has names no wheel.
    """
    try:
        return roulette.parse_pocket(text, roulette.Wheel.AMERICAN)
    except InvalidBetLayoutError:
        raise InvalidBetLayoutError(
            f"{text!r} is not a roulette pocket (0 to 36, and 00 on the american wheel, "
            "written without leading zeros)",
            pocket=text,
        ) from None


def pocket_from(text: str, field: str = "spin.pocket") -> int:
    """A pocket number from its text; ``"00"`` is 37 (the wheel checks it exists)."""
    try:
        return _any_pocket(text)
    except InvalidBetLayoutError as exc:
        raise InvalidRoundError(f"{field}: {exc}", field=field, pocket=text) from None


def _wager_from(bet: round_pb2.Bet, currency: str, seat: int, index: int) -> Wager:
    # The field's path is written out only for an error: a clean bet costs no formatting.
    stake = bet.stake
    if stake.currency_code == currency:
        amount = stake.minor_units
    else:
        amount = amount_from(stake, currency, f"seats[{seat}].bets[{index}].stake")
    which = bet.WhichOneof("kind")
    if which == "blackjack":
        return BlackjackWager(amount=amount)
    if which == "baccarat":
        kind = _BACCARAT_KINDS.get(bet.baccarat.kind)
        if kind is None:
            field = f"seats[{seat}].bets[{index}]"
            raise InvalidBetLayoutError(f"{field}: the baccarat bet kind is not set", field=field)
        return baccarat.BaccaratBet(kind=kind, amount=amount)
    if which == "roulette":
        return _roulette_bet(bet.roulette, amount, seat, index)
    field = f"seats[{seat}].bets[{index}]"
    raise InvalidBetLayoutError(f"{field}: the bet backs nothing (no game is set)", field=field)


def _roulette_bet(
    bet: round_pb2.RouletteBet, amount: int, seat: int, index: int
) -> roulette.RouletteBet:
    """The roulette bet of a seat's bet; its field's path is written out only for an error."""
    rkind = _ROULETTE_KINDS.get(bet.kind)
    if rkind is None:
        field = f"seats[{seat}].bets[{index}]"
        raise InvalidBetLayoutError(f"{field}: the roulette bet kind is not set", field=field)
    numbers: tuple[int, ...]
    if rkind in _GROUPED:
        if bet.pockets:
            field = f"seats[{seat}].bets[{index}]"
            raise InvalidBetLayoutError(
                f"{field}: a {rkind.value} bet names its group, not pockets", field=field
            )
        numbers = (bet.group,)
    else:
        if bet.group:
            field = f"seats[{seat}].bets[{index}]"
            raise InvalidBetLayoutError(
                f"{field}: only a column or a dozen has a group", field=field
            )
        try:
            numbers = tuple([_POCKET_BY_TEXT[text] for text in bet.pockets])
        except KeyError:
            field = f"seats[{seat}].bets[{index}]"
            numbers = tuple(
                _bet_pocket(text, f"{field}.roulette.pockets[{i}]")
                for i, text in enumerate(bet.pockets)
            )
    return roulette.RouletteBet(kind=rkind, numbers=numbers, amount=amount)


def _bet_pocket(text: str, field: str) -> int:
    try:
        return _any_pocket(text)
    except InvalidBetLayoutError as exc:
        raise InvalidBetLayoutError(f"{field}: {exc}", field=field, pocket=text) from None


def seats_from(seats: Sequence[round_pb2.Seat], currency: str) -> tuple[SeatRequest, ...]:
    """The seats of a request, in dealing order."""
    out = []
    for i, seat in enumerate(seats):
        balance = seat.balance
        out.append(
            SeatRequest(
                balance=balance.minor_units
                if balance.currency_code == currency
                else amount_from(balance, currency, f"seats[{i}].balance"),
                wagers=tuple(_wager_from(bet, currency, i, j) for j, bet in enumerate(seat.bets)),
            )
        )
    return tuple(out)


def round_request_from(request: engine_service_pb2.DealRequest) -> RoundRequest:
    """A Deal request as a domain round request."""
    currency = request.currency_code
    shoe = None
    pocket = None
    which = request.WhichOneof("outcome")
    if which == "shoe":
        shoe = cards_from(request.shoe.cards)
    elif which == "spin":
        pocket = pocket_from(request.spin.pocket)
    return RoundRequest(
        round_id=request.round_id,
        profile_id=request.profile_id,
        table_id=request.table_id,
        currency=currency,
        seats=seats_from(request.seats, currency),
        shoe=shoe,
        pocket=pocket,
    )


def decision_from(decision: round_pb2.Decision, currency: str) -> blackjack.Decision:
    """A Decision message as a domain decision; its amount, if any, in the round's currency."""
    action = _ACTIONS.get(decision.kind)
    if action is None:
        raise IllegalDecisionError(
            f"decision kind {decision.kind} is not a decision", kind=decision.kind, legal=""
        )
    amount = (
        amount_from(decision.amount, currency, "decision.amount")
        if decision.HasField("amount")
        else None
    )
    return blackjack.Decision(seat=decision.seat, hand=decision.hand, action=action, amount=amount)


def decision_for(decision: round_pb2.Decision, current: Round) -> blackjack.Decision:
    """A Decision message for an open round: one whose kind is none names the round's legal ones.

    An amount is in the round's currency (TABLE.currency). The contract fixes ILLEGAL_DECISION's
    "legal": the decisions open now, whatever was wrong.
    """
    try:
        return decision_from(decision, current.request.currency)
    except IllegalDecisionError as exc:
        legal = ",".join(a.value for a in current.legal)
        raise IllegalDecisionError(
            f"{exc.message}; legal: {legal or 'none'}", **{**exc.metadata, "legal": legal}
        ) from None


def record_from(record: round_pb2.RoundRecord) -> RecordedRound:
    """A RoundRecord as the domain's recorded round."""
    currency = record.currency_code
    pocket = pocket_from(record.pocket, "pocket") if record.pocket else None
    request = RoundRequest(
        round_id=record.round_id,
        profile_id=record.profile_id,
        table_id=record.table_id,
        currency=currency,
        seats=seats_from(record.seats, currency),
        # A card game's record with no cards still replays: the deal then finds the shoe empty.
        shoe=None if pocket is not None else cards_from(record.cards_dealt, "cards_dealt"),
        pocket=pocket,
    )
    lines = tuple(
        ClaimedLine(
            seat=line.seat,
            bet=line.bet,
            stake=line.stake.minor_units,
            returned=line.returned.minor_units,
            prison=_PRISON_FROM.get(line.prison, str(line.prison)),
            returned_exact=line.returned_exact,
            clauses=tuple(line.clauses),
        )
        for line in record.settlement.lines
    )
    history = None
    if record.final_state.WhichOneof("table") == "roulette":
        shown = record.final_state.roulette.history
        try:
            history = tuple([_POCKET_BY_TEXT[text] for text in shown])
        except KeyError:
            history = tuple(
                pocket_from(text, f"final_state.roulette.history[{i}]")
                for i, text in enumerate(shown)
            )
    return RecordedRound(
        request=request,
        decisions=tuple(decision_from(d, currency) for d in record.decisions),
        lines=lines,
        history=history,
    )


# --- domain to protobuf -------------------------------------------------------------------


def amount(minor_units: int, currency: str) -> common_pb2.Amount:
    """An Amount message."""
    return common_pb2.Amount(currency_code=currency, minor_units=minor_units)


def _cards(cards: Iterable[Card]) -> list[str]:
    text = _CARD_TEXT
    return [text.get(id(card)) or str(card) for card in cards]


def fraction_text(value: Exact) -> str:
    """An exact amount as reduced fraction text: ``"250"`` or ``"75/2"``."""
    return str(value)


def _put_amount(message: common_pb2.Amount, minor_units: int, currency: str) -> None:
    """Fill an Amount where it sits in its message."""
    message.currency_code = currency
    message.minor_units = minor_units


def settlement(lines: Sequence[SettlementLine], currency: str) -> common_pb2.Settlement:
    """A Settlement message, with its totals."""
    message = common_pb2.Settlement()
    put_settlement(message, lines, currency)
    return message


def put_settlement(
    message: common_pb2.Settlement, lines: Sequence[SettlementLine], currency: str
) -> None:
    """Fill an empty Settlement where it sits in its message (an answer's), with its totals."""
    # Filled in place, field by field: a line or Amount built apart is copied in again.
    staked = returned = 0
    add = message.lines.add
    for line in lines:
        payout = line.payout
        out = add(
            seat=line.seat,
            bet=line.bet,
            returned_exact=fraction_text(payout.returned_exact),
            clauses=line.clauses,
            prison=_PRISON_PB[line.prison],
        )
        _put_amount(out.stake, payout.stake, currency)
        _put_amount(out.returned, payout.returned, currency)
        staked += payout.stake
        returned += payout.returned
    _put_amount(message.total_staked, staked, currency)
    _put_amount(message.total_returned, returned, currency)


# Each game's part of a RoundState is built as nested dicts, made into messages in one
# constructor call: a message built apart and then copied in costs a copy per level.


def _amount_fields(minor_units: int, currency: str) -> dict[str, Any]:
    return {"currency_code": currency, "minor_units": minor_units}


def _blackjack_state(game: object, currency: str) -> dict[str, Any]:
    assert isinstance(game, blackjack.BlackjackState)  # noqa: S101 - dispatched by game
    fields: dict[str, Any] = {
        "phase": _PHASES[game.phase],
        "legal_decisions": [_ACTIONS_PB[action] for action in game.legal],
        "blackjack": {
            "seats": [
                {
                    "hands": [
                        {
                            "cards": _cards(hand.cards),
                            "stake": _amount_fields(hand.stake, currency),
                            "status": _STATUSES[hand.status],
                            "doubled": hand.doubled,
                            "from_split": hand.from_split,
                            "even_money": hand.even_money,
                        }
                        for hand in seat.hands
                    ],
                    "insurance": _amount_fields(seat.insurance, currency),
                }
                for seat in game.seats
            ],
            "dealer": {
                "cards": _cards(game.dealer.visible),
                "hole_card_hidden": not game.dealer.hole_revealed,
            },
        },
    }
    if game.turn is not None:
        fields["turn"] = {"seat": game.turn.seat, "hand": game.turn.hand}
    return fields


def _baccarat_state(game: object, currency: str) -> dict[str, Any]:
    del currency
    assert isinstance(game, baccarat.BaccaratRound)  # noqa: S101 - dispatched by game
    coup = game.coup
    return {
        "phase": round_pb2.ROUND_PHASE_COMPLETE,
        "baccarat": {
            "player_cards": _cards(coup.player),
            "banker_cards": _cards(coup.banker),
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "outcome": _OUTCOMES[coup.outcome],
        },
    }


def _roulette_state(game: object, currency: str) -> dict[str, Any]:
    assert isinstance(game, roulette.RouletteRound)  # noqa: S101 - dispatched by game
    return {
        "phase": round_pb2.ROUND_PHASE_COMPLETE,
        "roulette": {
            "pocket": roulette.pocket_text(game.pocket),
            "history": [roulette.pocket_text(p) for p in game.history.results],
            "prison": [
                {
                    "seat": p.seat,
                    "kind": _ROULETTE_KINDS_PB[p.kind],
                    "stake": _amount_fields(p.amount, currency),
                }
                for p in game.history.prison
            ],
        },
    }


#: Each game's part of a RoundState, by the profile's game.
_GAME_STATES = {
    Game.BLACKJACK: _blackjack_state,
    Game.BACCARAT: _baccarat_state,
    Game.ROULETTE: _roulette_state,
}


def round_state(current: Round) -> round_pb2.RoundState:
    """What a player sees of a round: cards, turn, legal decisions."""
    return round_pb2.RoundState(**_round_state_fields(current))


_Answer = TypeVar(
    "_Answer",
    engine_service_pb2.DealResponse,
    engine_service_pb2.DecideResponse,
    engine_service_pb2.SettleResponse,
)


def answer(kind: type[_Answer], current: Round) -> _Answer:
    """An answer holding ``round_state``, built where it sits: one built apart is copied in."""
    # The stubs type ``state`` as a message; the constructor takes its fields as a dict too.
    fields: dict[str, Any] = {"state": _round_state_fields(current)}
    return kind(**fields)


def _round_state_fields(current: Round) -> dict[str, Any]:
    request = current.request
    return {
        "round_id": request.round_id,
        "profile_id": request.profile_id,
        "cards_dealt": len(current.cards_dealt),
        **_GAME_STATES[current.profile.game](current.game, request.currency),
    }


def decision(decision: blackjack.Decision, currency: str) -> round_pb2.Decision:
    """A Decision message; its amount, if any, in the round's currency."""
    message = round_pb2.Decision(
        seat=decision.seat, hand=decision.hand, kind=_ACTIONS_PB[decision.action]
    )
    if decision.amount is not None:
        message.amount.CopyFrom(amount(decision.amount, currency))
    return message


def bet(wager: Wager, currency: str) -> round_pb2.Bet:
    """A Bet message for a domain wager."""
    stake = amount(wager.amount, currency)
    if isinstance(wager, BlackjackWager):
        return round_pb2.Bet(stake=stake, blackjack=round_pb2.BlackjackBet())
    if isinstance(wager, baccarat.BaccaratBet):
        return round_pb2.Bet(
            stake=stake, baccarat=round_pb2.BaccaratBet(kind=_BACCARAT_KINDS_PB[wager.kind])
        )
    if wager.kind in _GROUPED:
        rbet = round_pb2.RouletteBet(kind=_ROULETTE_KINDS_PB[wager.kind], group=wager.numbers[0])
    else:
        rbet = round_pb2.RouletteBet(
            kind=_ROULETTE_KINDS_PB[wager.kind],
            pockets=[roulette.pocket_text(n) for n in wager.numbers],
        )
    return round_pb2.Bet(stake=stake, roulette=rbet)


def seats(seat_requests: Sequence[SeatRequest], currency: str) -> list[round_pb2.Seat]:
    """Seat messages."""
    return [
        round_pb2.Seat(
            balance=amount(seat.balance, currency),
            bets=[bet(w, currency) for w in seat.wagers],
        )
        for seat in seat_requests
    ]


def deal_request(request: RoundRequest) -> engine_service_pb2.DealRequest:
    """A Deal request for a domain round request (what a client sends)."""
    message = engine_service_pb2.DealRequest(
        round_id=request.round_id,
        profile_id=request.profile_id,
        table_id=request.table_id,
        currency_code=request.currency,
        seats=seats(request.seats, request.currency),
    )
    if request.shoe is not None:
        message.shoe.cards.extend(_cards(request.shoe))
    if request.pocket is not None:
        message.spin.pocket = roulette.pocket_text(request.pocket)
    return message


def round_record(current: Round, previous_sha256: bytes = b"") -> round_pb2.RoundRecord:
    """The complete record of a finished round, as an audit log holds it."""
    request = current.request
    return round_pb2.RoundRecord(
        round_id=request.round_id,
        profile_id=request.profile_id,
        table_id=request.table_id,
        currency_code=request.currency,
        seats=seats(request.seats, request.currency),
        cards_dealt=_cards(current.cards_dealt),
        pocket=roulette.pocket_text(request.pocket) if request.pocket is not None else "",
        decisions=[decision(d, current.request.currency) for d in current.decisions],
        final_state=round_state(current),
        settlement=settlement(current.settlement, request.currency),
        previous_record_sha256=previous_sha256,
    )


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parameter(param: Parameter) -> oracle_service_pb2.ProfileParameter:
    raw = param.raw
    if isinstance(raw, bool):
        value = "true" if raw else "false"
    elif isinstance(raw, int):
        value = str(raw)
    elif isinstance(raw, tuple):
        value = "[" + ", ".join(_toml_string(word) for word in raw) + "]"
    else:
        value = _toml_string(raw)
    return oracle_service_pb2.ProfileParameter(
        name=param.name,
        value=value,
        clauses=list(param.clauses),
        status=oracle_service_pb2.PARAMETER_STATUS_DOCUMENTED
        if param.status is Status.DOCUMENTED
        else oracle_service_pb2.PARAMETER_STATUS_ASSUMED,
        note=param.note,
    )


def profile(profile: Profile) -> oracle_service_pb2.Profile:
    """A Profile message."""
    return oracle_service_pb2.Profile(
        id=profile.id,
        game=_GAMES[profile.game],
        title=profile.title,
        source=profile.source,
        extends=profile.extends or "",
        parameters=[_parameter(p) for p in profile.parameters],
    )


def verdict(result: RecordVerdict, currency: str) -> oracle_service_pb2.Verdict:
    """A Verdict message."""
    message = oracle_service_pb2.Verdict(
        round_id=result.round_id,
        conformant=result.conformant,
        discrepancies=[
            oracle_service_pb2.Discrepancy(
                clause=d.clause,
                path=d.path,
                expected=d.expected,
                actual=d.actual,
                message=d.message,
            )
            for d in result.discrepancies
        ],
    )
    if result.expected:
        message.expected_settlement.CopyFrom(settlement(result.expected, currency))
    return message


def malformed_verdict(round_id: str, error: OracleError) -> oracle_service_pb2.Verdict:
    """The verdict on a record that cannot be replayed at all: what is wrong, and no settlement."""
    field = error.metadata.get("field", "")
    return oracle_service_pb2.Verdict(
        round_id=round_id,
        conformant=False,
        discrepancies=[
            oracle_service_pb2.Discrepancy(
                clause="",
                path=field,
                expected="a record that can be replayed",
                actual=error.reason,
                message=f"malformed record: {error.message}",
            )
        ],
    )
