"""Hand-written vectors as compact cases, each with the outcome computed by hand.

A case names its profile, clauses, shoe or spins, seats and decisions in a
short text form, and states what a person worked out from RULES.md: the amount
each settlement line returns, or the error the round must fail with. Building
the corpus plays each case through the oracle and refuses any case whose
oracle outcome differs from the hand-computed one, so a hand-written vector is
checked twice: by hand when written, by the corpus check ever after.

Text forms:
- seats: ``"1000:100"`` is balance 1000 with a blackjack stake of 100;
  ``"1000:player=100,tie=10"`` for baccarat; ``"500:straight 17=10,split 0-1=5,red=20,dozen 2=10"``
  for roulette (kind, then pockets joined by ``-`` or a group, ``=`` stake).
- decisions: ``"hit stand 1/0:double"``: a bare decision goes to the hand whose
  turn it is; ``seat/hand:decision`` addresses one explicitly (to test refusals);
  ``double=40`` and ``insurance=20`` carry an amount (VAR.bj.double-for-less,
  VAR.bj.insurance-stake). A leading ``!`` (``"!double stand"``) marks a call that must be
  refused while the round goes on (a refused call changes nothing); ``settle`` is a Settle
  sent before the end (refused, the round goes on). The reasons of these refusals are
  ``CaseRound.refusals``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from typing import Protocol

from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import play_round, share_citations
from croupier.oracle import roulette
from croupier.oracle.baccarat import BaccaratBet, BetKind
from croupier.oracle.clauses import Game, citable
from croupier.oracle.profile import Profile, shipped_profile
from croupier.oracle.rounds import BlackjackWager
from croupier.oracle.service import convert
from croupier.v1 import engine_service_pb2, round_pb2

_DECISIONS = {
    "hit": round_pb2.DECISION_KIND_HIT,
    "stand": round_pb2.DECISION_KIND_STAND,
    "double": round_pb2.DECISION_KIND_DOUBLE,
    "split": round_pb2.DECISION_KIND_SPLIT,
    "surrender": round_pb2.DECISION_KIND_SURRENDER,
    "insurance": round_pb2.DECISION_KIND_INSURANCE,
    "decline-insurance": round_pb2.DECISION_KIND_DECLINE_INSURANCE,
    "even-money": round_pb2.DECISION_KIND_EVEN_MONEY,
    "decline-even-money": round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY,
    "decline-surrender": round_pb2.DECISION_KIND_DECLINE_SURRENDER,
    # No decision at all: the kind left unset.
    "unspecified": round_pb2.DECISION_KIND_UNSPECIFIED,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseRound:
    """One round of a case and its hand-computed outcome."""

    seats: tuple[str, ...]
    shoe: str = ""
    pocket: str = ""
    decisions: str = ""
    #: Amount returned by each settlement line, in order (hand-computed).
    returns: tuple[int, ...] | None = None
    #: The error reason the round must fail with (hand-determined).
    error: str = ""
    currency: str = "EUR"
    #: The currency the stakes are given in, when it differs from the round's (TABLE.currency);
    #: ``NO_CURRENCY`` for stakes that name none.
    stake_currency: str = ""
    #: The round's id, when not ``<case id>-r<index>`` (a malformed one: INVALID_ROUND).
    round_id: str = ""
    #: Reuse the id of this earlier round of the case (ROUND_EXISTS).
    reuse: int | None = None
    #: The profile the Deal names, when not the case's (one the engine does not know).
    profile_id: str = ""
    #: A decision sent, after the scripted ones, to a round never dealt (ROUND_NOT_FOUND).
    stray_decision: str = ""
    #: Calls sent once the round is settled, in the decisions' text form (``"settle stand"``):
    #: each is refused, the round closed (ROUND_NOT_FOUND).
    after_settle: str = ""
    #: The table's id, when not ``<case id>-table`` (the same table under two profiles, or two
    #: ids that differ only in letter case).
    table_id: str = ""
    #: The reasons of the calls refused while the round goes on (``!`` decisions, early settles
    #: and ``after_settle`` calls), in order (hand-determined).
    refusals: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """A hand-written vector."""

    id: str
    name: str
    profile: str
    clauses: tuple[str, ...]
    description: str
    rounds: tuple[CaseRound, ...]
    level: vector_pb2.Level.ValueType = vector_pb2.LEVEL_REQUIRED
    #: Other profiles some rounds are dealt under (``CaseRound.profile_id`` names one).
    other_profiles: tuple[str, ...] = ()


class CaseMaker(Protocol):
    """Builds the cases of one profile from their number and content."""

    def __call__(
        self,
        n: int | tuple[int, ...],
        topic: str,
        clauses: tuple[str, ...],
        description: str,
        *rounds: CaseRound,
    ) -> Case:
        """Case ``<prefix>-h<n>``, named ``<profile>/<topic>``."""
        ...


def case_maker(
    profile: str,
    prefix: str,
    expand: Mapping[str, tuple[str, ...]] | None = None,
    column: int = 0,
) -> CaseMaker:
    """A builder of one profile's shared cases, numbered ``<prefix>-hNNN``.

    ``expand`` replaces a clause by the profile's own list for it (TABLE.limits by
    TABLE.limits and B.limits for document B; ``{double}`` by A.double or C.bj.double).
    A case shared by profiles that numbered it apart gives one number per profile:
    ``column`` picks this profile's.
    """
    table = dict(expand or {})

    def case(
        n: int | tuple[int, ...],
        topic: str,
        clauses: tuple[str, ...],
        description: str,
        *rounds: CaseRound,
    ) -> Case:
        number = n[column] if isinstance(n, tuple) else n
        return Case(
            id=f"{prefix}-h{number:03d}",
            name=f"{profile}/{topic}",
            profile=profile,
            clauses=tuple(c for cid in clauses for c in table.get(cid, (cid,))),
            description=description,
            rounds=rounds,
        )

    return case


class CaseError(ValueError):
    """A case that is malformed, or whose oracle outcome differs from the hand-computed one."""


def _bet(game: Game, text: str, currency: str) -> round_pb2.Bet:
    """A Bet message from its text form, pockets and groups as written (a malformed one too)."""
    if game is Game.BLACKJACK:
        return convert.bet(BlackjackWager(amount=int(text)), currency)
    name, _, stake = text.rpartition("=")
    amount = int(stake)
    if game is Game.BACCARAT:
        return convert.bet(BaccaratBet(kind=BetKind(name.strip()), amount=amount), currency)
    kind_text, _, where = name.strip().partition(" ")
    kind = round_pb2.RouletteBetKind.Value(
        "ROULETTE_BET_KIND_" + kind_text.upper().replace("-", "_")
    )
    bet = round_pb2.RouletteBet(kind=kind)
    if kind in (round_pb2.ROULETTE_BET_KIND_COLUMN, round_pb2.ROULETTE_BET_KIND_DOZEN):
        bet.group = int(where)
    elif where:
        bet.pockets.extend(where.split("-"))
    return round_pb2.Bet(stake=convert.amount(amount, currency), roulette=bet)


#: ``CaseRound.stake_currency`` for stakes that name no currency at all.
NO_CURRENCY = "none"


def seats_message(
    game: Game, seats: tuple[str, ...], currency: str, stake_currency: str = ""
) -> list[round_pb2.Seat]:
    """Seat messages from the text form; stakes in ``stake_currency`` if given."""
    out = []
    for text in seats:
        balance, _, bets = text.partition(":")
        seat = round_pb2.Seat(
            balance=convert.amount(int(balance), currency),
            bets=[_bet(game, b, stake_currency or currency) for b in bets.split(",") if b.strip()],
        )
        if stake_currency == NO_CURRENCY:
            for bet in seat.bets:
                bet.stake.ClearField("currency_code")
        out.append(seat)
    return out


def decisions_message(text: str, currency: str) -> list[round_pb2.Decision]:
    """Decision messages from the text form; seat and hand -1 mean "whoever's turn it is".

    ``double=50`` and ``insurance=20`` carry an amount, in ``currency``.
    """
    out = []
    for token in text.split():
        where, _, kind = token.removeprefix("!").rpartition(":")
        kind, _, amount = kind.partition("=")
        seat, hand = (-1, -1)
        if where:
            s, _, h = where.partition("/")
            seat, hand = int(s), int(h)
        decision = round_pb2.Decision(seat=seat, hand=hand, kind=_DECISIONS[kind])
        if amount:
            decision.amount.CopyFrom(convert.amount(int(amount), currency))
        out.append(decision)
    return out


#: What a scripted call whose refusal lets the round go on carries until the oracle fills it.
_REFUSED = "refused"


def _script(text: str, currency: str) -> list[round_pb2.Decision | vector_pb2.VectorStep]:
    """The calls of the text form: a plain decision, or a step refused while the round goes on."""
    out: list[round_pb2.Decision | vector_pb2.VectorStep] = []
    for word in text.split():
        if word == "settle":
            out.append(vector_pb2.VectorStep(settle=True))
            continue
        (decision,) = decisions_message(word, currency)
        if word.startswith("!"):
            out.append(vector_pb2.VectorStep(decision=decision, expected_error=_REFUSED))
        else:
            out.append(decision)
    return out


def build_case(
    case: Case, profile: Profile, others: Callable[[str], Profile] = shipped_profile
) -> vector_pb2.Vector:
    """Play a case through the oracle and freeze it as a vector, checking the hand outcome."""
    for cid in case.clauses:
        if not citable(cid):
            raise CaseError(f"{case.id}: unknown clause {cid!r}")
    vector = vector_pb2.Vector(
        id=case.id,
        name=case.name,
        clauses=list(case.clauses),
        level=case.level,
        profile_id=profile.id,
        description=case.description,
        other_profile_ids=list(case.other_profiles),
    )
    known = {profile.id, *case.other_profiles}
    boards: dict[tuple[str, str], roulette.TableHistory | None] = {}
    ids: list[str] = []
    for index, cround in enumerate(case.rounds):
        here = others(cround.profile_id) if cround.profile_id in case.other_profiles else profile
        round_id = cround.round_id or f"{case.id}-r{index}"
        if cround.reuse is not None:
            round_id = ids[cround.reuse]
        deal = engine_service_pb2.DealRequest(
            round_id=round_id,
            profile_id=cround.profile_id or profile.id,
            table_id=cround.table_id or f"{case.id}-table",
            currency_code=cround.currency,
            seats=seats_message(here.game, cround.seats, cround.currency, cround.stake_currency),
        )
        if cround.pocket:
            deal.spin.pocket = cround.pocket
        else:
            deal.shoe.cards.extend(cround.shoe.split())
        board = boards.get((here.id, deal.table_id))
        script = _resolve_turns(
            here, deal, _script(cround.decisions, cround.currency), board, known
        )
        script.extend(
            vector_pb2.VectorStep(decision=stray, round_id=f"{case.id}-none")
            for stray in decisions_message(cround.stray_decision, cround.currency)
        )
        after = [
            step
            if isinstance(step, vector_pb2.VectorStep)
            else vector_pb2.VectorStep(decision=step)
            for step in _script(cround.after_settle, cround.currency)
        ]
        outcome = play_round(here, deal, script, board, taken=set(ids), known=known, after=after)
        ids.append(round_id)
        boards[here.id, deal.table_id] = outcome.history
        _check(case, index, cround, outcome.round)
        vector.rounds.append(outcome.round)
    share_citations(vector)
    return vector


def _resolve_turns(
    profile: Profile,
    deal: engine_service_pb2.DealRequest,
    script: list[round_pb2.Decision | vector_pb2.VectorStep],
    board: roulette.TableHistory | None,
    known: Set[str],
) -> list[round_pb2.Decision | vector_pb2.VectorStep]:
    """Address each bare decision to the hand whose turn it is when it is sent."""
    resolved: list[round_pb2.Decision | vector_pb2.VectorStep] = []
    for call in script:
        decision = call.decision if isinstance(call, vector_pb2.VectorStep) else call
        if (isinstance(call, vector_pb2.VectorStep) and call.settle) or decision.seat >= 0:
            resolved.append(call)
            continue
        partial = play_round(profile, deal, resolved, board, known=known)
        states = [s.expected_state for s in partial.round.steps if s.HasField("expected_state")]
        turn = (states or [partial.round.expected_state])[-1].turn
        addressed = round_pb2.Decision()
        addressed.CopyFrom(decision)
        addressed.seat, addressed.hand = turn.seat, turn.hand
        if isinstance(call, vector_pb2.VectorStep):
            resolved.append(vector_pb2.VectorStep(decision=addressed, expected_error=_REFUSED))
        else:
            resolved.append(addressed)
    return resolved


def _check(case: Case, index: int, cround: CaseRound, vround: vector_pb2.VectorRound) -> None:
    where = f"{case.id} round {index}"
    refusals = tuple(
        step.expected_error for step in (*vround.steps, *vround.after_settle) if step.expected_error
    )
    if refusals != cround.refusals:
        raise CaseError(
            f"{where}: hand-determined refusals {cround.refusals}, the oracle gives {refusals}"
        )
    if cround.error or vround.expected_error:
        if vround.expected_error != cround.error:
            raise CaseError(
                f"{where}: hand-computed error {cround.error or 'none'!r}, "
                f"the oracle gives {vround.expected_error or 'none'!r}"
            )
        return
    got = tuple(line.returned.minor_units for line in vround.expected_settle.settlement.lines)
    if cround.returns is not None and got != cround.returns:
        raise CaseError(f"{where}: hand-computed returns {cround.returns}, the oracle gives {got}")
