"""Vectors: building them with the oracle, reading and writing JSON Lines, checking a corpus.

A vector's expected states are whatever the oracle answers for its Deal
request and decisions, frozen when the corpus is built. ``replay`` plays a
vector's requests through the oracle in process, exactly as a runner sends them
to an engine, so building and checking share one code path.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from google.protobuf import json_format
from google.protobuf.message import DecodeError

from croupier.clients.status import FIXED_METADATA, REQUIRED_METADATA
from croupier.conformance.since import since
from croupier.conformance.v1 import vector_pb2
from croupier.oracle import baccarat, roulette
from croupier.oracle.clauses import BY_ID, Game, citable
from croupier.oracle.errors import (
    OracleError,
    RoundExistsError,
    RoundNotCompleteError,
    RoundNotFoundError,
    UnknownProfileError,
)
from croupier.oracle.profile import Profile, shipped_profile
from croupier.oracle.provenance import compact, merged, prefixed
from croupier.oracle.rounds import (
    BlackjackWager,
    Round,
    SeatRequest,
    Wager,
    apply_decision,
    start_round,
)
from croupier.oracle.service import convert
from croupier.oracle.shoe import SeededStream, seeded_shoe, seeded_spins
from croupier.v1 import engine_service_pb2, round_pb2

#: The shipped corpus.
CORPUS_DIR = Path(__file__).parent / "vectors"

Decide = Callable[[round_pb2.RoundState, SeededStream], round_pb2.Decision]


# --- replaying through the oracle -------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayedRound:
    """What the oracle answers for one round's requests, and the table's board after it."""

    round: vector_pb2.VectorRound
    history: roulette.TableHistory | None


def _cite(
    target: MutableMapping[str, vector_pb2.Clauses],
    *parts: Mapping[str, tuple[str, ...]],
    short: bool = True,
) -> None:
    """Fill an answer's citations, in as few keys as answer the same (``compact``).

    ``short=False``: every key as recorded (``cite`` answers alike; what a vector that is
    only played, never kept, saves the work of).
    """
    every = merged(*parts)
    for path, clauses in sorted((compact(every) if short else every).items()):
        target[path].ids[:] = clauses


def fixed_values(exc: OracleError) -> dict[str, str]:
    """The metadata values of a refusal that the contract fixes (``FIXED_METADATA``)."""
    return {k: exc.metadata[k] for k in FIXED_METADATA.get(exc.reason, ()) if k in exc.metadata}


def _refuse_into(
    target: vector_pb2.VectorRound | vector_pb2.VectorStep,
    exc: OracleError,
    citations: MutableMapping[str, vector_pb2.Clauses],
    *,
    short: bool = True,
) -> None:
    """Record what a call must be refused with: reason, required keys, fixed values, clause."""
    target.expected_error = exc.reason
    target.expected_error_metadata[:] = REQUIRED_METADATA.get(exc.reason, ())
    target.expected_error_values.clear()
    target.expected_error_values.update(fixed_values(exc))
    _cite(citations, {"error": (exc.clause,)}, short=short)


def _goes_on(given: round_pb2.Decision | vector_pb2.VectorStep) -> bool:
    """Whether a scripted call is one whose refusal lets the round go on (``VectorStep``)."""
    return isinstance(given, vector_pb2.VectorStep) and bool(given.expected_error or given.settle)


def _closed(round_id: str) -> RoundNotFoundError:
    """What a call to a settled round gets: the round is closed (CONTRACT.lifecycle)."""
    return RoundNotFoundError(f"round {round_id!r} was settled and is closed", round_id=round_id)


def play_round(
    profile: Profile,
    deal: engine_service_pb2.DealRequest,
    script: Sequence[round_pb2.Decision | vector_pb2.VectorStep],
    board: roulette.TableHistory | None = None,
    *,
    policy: tuple[Decide, SeededStream] | None = None,
    taken: Set[str] = frozenset(),
    known: str | Set[str] | None = None,
    after: Sequence[vector_pb2.VectorStep] = (),
    short: bool = True,
) -> PlayedRound:
    """Play one round's requests through the oracle and record every answer and its citations.

    The decisions come from ``script``, or, for generated campaigns, from a ``policy`` that
    picks each one from the current state with a seeded stream. The oracle answers as an
    engine that knows only the profile ids ``known`` (default ``profile``'s: a lab replays a
    vector under a variant of its profile), and has dealt the rounds whose ids are ``taken``;
    a scripted step that names another round is a Decide for a round never dealt.

    A scripted ``VectorStep`` with ``expected_error`` or ``settle`` set is a call whose refusal
    lets the round go on (the round as it was); any other refusal is the round's last call.
    ``after`` are calls made once the round is settled: each is refused, the round closed.
    ``short=False``: the citations as recorded, not compacted (``_cite``).
    """
    out = vector_pb2.VectorRound(deal=deal)
    allowed = {known} if isinstance(known, str) else set(known or {profile.id})
    dealt = _deal_into(out, profile, board, taken, allowed, short=short)
    if dealt is None:
        return PlayedRound(round=out, history=board)
    current = dealt
    pending = list(script)
    while pending or (policy is not None and not current.complete):
        goes_on = False
        if pending:
            given = pending.pop(0)
            goes_on = _goes_on(given)
            step = _scripted(out.steps.add(), given)
        else:
            assert policy is not None  # noqa: S101 - the loop condition guarantees it
            choose, stream = policy
            step = out.steps.add(decision=choose(convert.round_state(current), stream))
        before = current.citations()
        try:
            if step.settle:
                if current.complete:
                    raise ValueError("a Settle step must come before the round is complete")
                raise _waiting(current)
            if step.round_id and step.round_id != deal.round_id:
                raise RoundNotFoundError(f"no open round {step.round_id!r}", round_id=step.round_id)
            decision = convert.decision_for(step.decision, current)
            current = apply_decision(current, decision)
        except OracleError as exc:
            _refuse_into(step, exc, step.citations, short=short)
            if goes_on:
                continue
            out.expected_error = step.expected_error
            out.expected_error_metadata[:] = step.expected_error_metadata
            out.expected_error_values.update(step.expected_error_values)
            step.ClearField("expected_error")
            step.ClearField("expected_error_metadata")
            step.ClearField("expected_error_values")
            return PlayedRound(round=out, history=board)
        step.expected_state.CopyFrom(convert.round_state(current))
        # Why the decision is not refused: the option the rules recorded for it before.
        legal = before.get(f"legal_decisions[{decision.action.value}]", ())
        _cite(
            step.citations,
            prefixed(current.citations(), "state"),
            {"error=ILLEGAL_DECISION": legal} if legal else {},
            short=short,
        )
    if not current.complete:
        # The script ends before the round does: Settle must be refused.
        _refuse_into(out, _waiting(current), out.settle_citations, short=short)
        return PlayedRound(round=out, history=board)
    _settle_into(out, current, deal.round_id, after, short=short)
    return PlayedRound(round=out, history=current.history or board)


def _scripted(
    step: vector_pb2.VectorStep, given: round_pb2.Decision | vector_pb2.VectorStep
) -> vector_pb2.VectorStep:
    """A scripted call's request: its decision, round id, Settle and restart point."""
    if isinstance(given, vector_pb2.VectorStep):
        if given.HasField("decision"):
            step.decision.CopyFrom(given.decision)
        step.round_id = given.round_id
        step.settle = given.settle
        step.restart_before = given.restart_before
    else:
        step.decision.CopyFrom(given)
    return step


def _deal_into(
    out: vector_pb2.VectorRound,
    profile: Profile,
    board: roulette.TableHistory | None,
    taken: Set[str],
    allowed: Set[str],
    *,
    short: bool,
) -> Round | None:
    """Record the Deal's answer or refusal; the round dealt, or None when it is refused."""
    try:
        request = convert.round_request_from(out.deal)
        if request.round_id in taken:
            raise RoundExistsError(
                f"round {request.round_id!r} exists already", round_id=request.round_id
            )
        if request.profile_id not in allowed:
            raise UnknownProfileError(
                f"unknown profile {request.profile_id!r}", profile=request.profile_id
            )
        current = start_round(profile, request, board)
    except OracleError as exc:
        _refuse_into(out, exc, out.deal_citations, short=short)
        return None
    out.expected_state.CopyFrom(convert.round_state(current))
    # Ids are case-sensitive: an id that differs from an earlier one only in case is new.
    folded = request.round_id.casefold()
    twin = any(t != request.round_id and t.casefold() == folded for t in taken)
    _cite(
        out.deal_citations,
        prefixed(current.citations(), "state"),
        current.accepted(),
        {"error=ROUND_EXISTS": ("CONTRACT.lifecycle",)} if twin else {},
        short=short,
    )
    return current


def _waiting(current: Round) -> RoundNotCompleteError:
    """What a Settle of a round that waits for a decision gets."""
    return RoundNotCompleteError(
        "the round waits for a decision", legal=",".join(a.value for a in current.legal)
    )


def _settle_into(
    out: vector_pb2.VectorRound,
    current: Round,
    round_id: str,
    after: Sequence[vector_pb2.VectorStep],
    *,
    short: bool,
) -> None:
    """Record a complete round's Settle, then the calls after it, each refused."""
    settle = engine_service_pb2.SettleResponse(
        settlement=convert.settlement(current.settlement, current.request.currency),
        state=convert.round_state(current),
    )
    out.expected_settle.CopyFrom(settle)
    state = current.citations()
    _cite(
        out.settle_citations,
        prefixed(current.settlement_citations(), "settlement"),
        prefixed(state, "state"),
        {"error=ROUND_NOT_COMPLETE": state["phase"]},
        short=short,
    )
    for call in after:
        late = out.after_settle.add(settle=call.settle, restart_before=call.restart_before)
        if call.HasField("decision"):
            late.decision.CopyFrom(call.decision)
        _refuse_into(late, _closed(round_id), late.citations, short=short)


def _answer_maps(vector: vector_pb2.Vector) -> list[MutableMapping[str, vector_pb2.Clauses]]:
    maps: list[MutableMapping[str, vector_pb2.Clauses]] = []
    for vround in vector.rounds:
        maps.append(vround.deal_citations)
        maps.extend(step.citations for step in vround.steps)
        if vround.HasField("expected_settle") or vround.settle_citations:
            maps.append(vround.settle_citations)
        maps.extend(late.citations for late in vround.after_settle)
    return maps


def share_citations(vector: vector_pb2.Vector) -> None:
    """Keep once, in the vector's own map, the citations every answer holds alike."""
    maps = _answer_maps(vector)
    if len(maps) < 2:
        return
    shared = {
        path: tuple(clauses.ids)
        for path, clauses in maps[0].items()
        if all(path in other and other[path].ids == clauses.ids for other in maps[1:])
    }
    for path, clauses in sorted(shared.items()):
        vector.citations[path].ids[:] = clauses
    for answer in maps:
        for path in shared:
            del answer[path]


def replay(
    vector: vector_pb2.Vector,
    profile: Profile,
    others: Callable[[str], Profile] = shipped_profile,
) -> vector_pb2.Vector:
    """Rebuild a vector's expected answers with the current oracle.

    Rounds dealt under one of the vector's ``other_profile_ids`` are played under
    ``others(id)``; a board belongs to a (profile, table) pair.
    """
    rebuilt = vector_pb2.Vector()
    rebuilt.CopyFrom(vector)
    del rebuilt.rounds[:]
    rebuilt.ClearField("citations")
    known = {vector.profile_id, *vector.other_profile_ids}
    boards: dict[tuple[str, str], roulette.TableHistory | None] = {}
    taken: set[str] = set()
    for old in vector.rounds:
        named = old.deal.profile_id
        here = others(named) if named in vector.other_profile_ids else profile
        outcome = play_round(
            here,
            old.deal,
            list(old.steps),
            boards.get((here.id, old.deal.table_id)),
            taken=taken,
            known=known,
            after=old.after_settle,
        )
        boards[here.id, old.deal.table_id] = outcome.history
        taken.add(old.deal.round_id)
        # A recovery vector's restart points (CONTRACT.recovery): requests, not answers.
        outcome.round.restart_before_deal = old.restart_before_deal
        outcome.round.restart_before_settle = old.restart_before_settle
        rebuilt.rounds.append(outcome.round)
    share_citations(rebuilt)
    return rebuilt


def round_clauses(vround: vector_pb2.VectorRound) -> list[str]:
    """The clauses a round cites for how it ends: its settlement's lines, or the refusal's.

    Deciding clause first; a refusal's clause is the one its ``error`` key records (a
    contract label where no rule refuses: CONTRACT.request...).
    """
    found: dict[str, None] = {}
    for line in vround.expected_settle.settlement.lines:
        found.update(dict.fromkeys(line.clauses))
    answers = (vround.deal_citations, *(step.citations for step in vround.steps))
    late = (late.citations for late in vround.after_settle)
    for citations in (*answers, vround.settle_citations, *late):
        if "error" in citations:
            found.update(dict.fromkeys(citations["error"].ids))
    return list(found)


# --- generated campaigns ------------------------------------------------------------------------


def random_decision(state: round_pb2.RoundState, stream: SeededStream) -> round_pb2.Decision:
    """A seeded uniform choice among the legal decisions of the hand to act."""
    legal = list(state.legal_decisions)
    kind = legal[stream.uniform(len(legal))]
    return round_pb2.Decision(seat=state.turn.seat, hand=state.turn.hand, kind=kind)


#: The full amount a decision of a state would stake, where the player may choose less; 0
#: where no amount may be chosen (``chosen_amounts``).
FullAmount = Callable[[round_pb2.RoundState, round_pb2.Decision], int]


def chosen_amounts(profile: Profile) -> FullAmount | None:
    """The full amount of a double or insurance that may stake less, where the profile lets it.

    VAR.bj.double-for-less, VAR.bj.insurance-stake; None for a profile that lets no amount
    be chosen.
    """
    if profile.game is not Game.BLACKJACK:
        return None
    for_less = {
        round_pb2.DECISION_KIND_DOUBLE: profile.flag("double_for_less"),
        round_pb2.DECISION_KIND_INSURANCE: profile.choice("insurance_stake") == "up-to-half",
    }
    if not any(for_less.values()):
        return None
    halve = profile.rounding("half_stake_rounding")

    def full(state: round_pb2.RoundState, decision: round_pb2.Decision) -> int:
        if not for_less.get(decision.kind) or (decision.seat, decision.hand) != (
            state.turn.seat,
            state.turn.hand,
        ):
            return 0
        stake = state.blackjack.seats[decision.seat].hands[decision.hand].stake.minor_units
        if decision.kind == round_pb2.DECISION_KIND_INSURANCE:
            return halve.apply(Fraction(stake, 2))
        return stake

    return full


def with_amount(
    decision: round_pb2.Decision, amount: int, state: round_pb2.RoundState
) -> round_pb2.Decision:
    """The decision carrying ``amount``, in minor units of the round's currency (its stakes')."""
    currency = state.blackjack.seats[0].hands[0].stake.currency_code
    decision.amount.CopyFrom(convert.amount(amount, currency))
    return decision


def with_amounts(
    profile: Profile, choose: Decide, pick: Callable[[SeededStream, int], int]
) -> Decide:
    """``choose``, with amounts where the profile takes them (``chosen_amounts``).

    Half of the doubles and insurances that may stake less carry an amount below the full
    one, ``pick`` choosing (a number from 0 below its bound). A profile that takes no amount
    decides as ``choose`` alone: ``choose`` itself is returned.
    """
    full_amount = chosen_amounts(profile)
    if full_amount is None:
        return choose

    def decide(state: round_pb2.RoundState, stream: SeededStream) -> round_pb2.Decision:
        decision = choose(state, stream)
        full = full_amount(state, decision)
        if full > 1 and pick(stream, 2):
            return with_amount(decision, 1 + pick(stream, full - 1), state)
        return decision

    return decide


def campaign_policy(profile: Profile) -> Decide:
    """A campaign's decisions: ``random_decision``, with seeded amounts where the profile takes them."""
    return with_amounts(profile, random_decision, lambda stream, bound: stream.uniform(bound))


_STAKES = (1, 5, 10, 15, 25, 50, 75, 100, 150, 250, 333, 500)


def _campaign_seats(profile: Profile, stream: SeededStream) -> list[round_pb2.Seat]:
    seats = []
    # One to three seats, never more than the table takes (TABLE.seats).
    for _ in range(1 + stream.uniform(min(3, profile.integer("max_seats")))):
        stake = _STAKES[stream.uniform(len(_STAKES))]
        # Balances from the bare stake to four stakes: the funds rule bites often.
        balance = stake * (1 + stream.uniform(4)) + stream.uniform(stake)
        wagers: list[Wager] = []
        match profile.game:
            case Game.BLACKJACK:
                wagers.append(BlackjackWager(amount=stake))
            case Game.BACCARAT:
                kinds = list(baccarat.BetKind)
                wagers.extend(
                    baccarat.BaccaratBet(kind=kind, amount=stake)
                    for kind in kinds
                    if stream.uniform(2)
                )
                if not wagers:
                    wagers.append(baccarat.BaccaratBet(kind=kinds[stream.uniform(3)], amount=stake))
            case Game.ROULETTE:
                wagers.extend(_roulette_bets(profile, stream, stake))
        if profile.game is not Game.BLACKJACK:
            balance += sum(w.amount for w in wagers)
        seats.append(SeatRequest(balance=balance, wagers=tuple(wagers)))
    return convert.seats(seats, "EUR")


def _roulette_bets(
    profile: Profile, stream: SeededStream, stake: int
) -> list[roulette.RouletteBet]:
    wheel = roulette.Wheel(profile.choice("wheel"))
    # The kinds the layout has and the table offers (VAR.rou.bets-offered).
    offered = profile.words("bets_offered")
    kinds = [k for k in roulette.BetKind if roulette.shapes(wheel, k) and k.value in offered]
    bets = []
    for _ in range(1 + stream.uniform(4)):
        kind = kinds[stream.uniform(len(kinds))]
        shapes = roulette.shapes(wheel, kind)
        bets.append(
            roulette.RouletteBet(
                kind=kind, numbers=shapes[stream.uniform(len(shapes))], amount=stake
            )
        )
    return bets


def campaign(profile: Profile, seed: str, count: int, prefix: str) -> list[vector_pb2.Vector]:
    """A generated campaign of ``count`` rounds: seeded shoes or spins, seeded legal decisions.

    Card games give one vector per round; roulette gives vectors of 20 consecutive rounds at
    one table, so the board's history is exercised.
    """
    vectors: list[vector_pb2.Vector] = []
    if profile.game is Game.ROULETTE:
        per_vector = 20
        pockets = 38 if profile.choice("wheel") == "american" else 37
        for v in range((count + per_vector - 1) // per_vector):
            vseed = f"{seed}/{v}"
            stream = SeededStream(vseed + "/bets")
            spins = seeded_spins(vseed, per_vector, pockets)
            vector = _new_vector(
                profile, f"{prefix}-{v:04d}", f"{profile.id}/campaign/{seed}/{v:04d}", vseed
            )
            board: roulette.TableHistory | None = None
            for k, pocket in enumerate(spins[: min(per_vector, count - v * per_vector)]):
                deal = engine_service_pb2.DealRequest(
                    round_id=f"{vector.id}-r{k}",
                    profile_id=profile.id,
                    table_id=f"{vector.id}-table",
                    currency_code="EUR",
                    seats=_campaign_seats(profile, stream),
                    spin=engine_service_pb2.Spin(pocket="00" if pocket == 37 else str(pocket)),
                )
                outcome = play_round(profile, deal, [], board)
                board = outcome.history
                vector.rounds.append(outcome.round)
            finish_vector(vector)
            vectors.append(vector)
        return vectors
    decks = profile.integer("decks")
    for k in range(count):
        rseed = f"{seed}/{k}"
        stream = SeededStream(rseed + "/play")
        vector = _new_vector(
            profile, f"{prefix}-{k:04d}", f"{profile.id}/campaign/{seed}/{k:04d}", rseed
        )
        deal = engine_service_pb2.DealRequest(
            round_id=f"{vector.id}-r0",
            profile_id=profile.id,
            table_id=f"{vector.id}-table",
            currency_code="EUR",
            seats=_campaign_seats(profile, stream),
            shoe=engine_service_pb2.Shoe(cards=[str(c) for c in seeded_shoe(rseed, decks)]),
        )
        outcome = play_round(profile, deal, [], None, policy=(campaign_policy(profile), stream))
        vector.rounds.append(outcome.round)
        _trim_shoes(vector)
        finish_vector(vector)
        vectors.append(vector)
    return vectors


def _new_vector(profile: Profile, vid: str, name: str, seed: str) -> vector_pb2.Vector:
    return vector_pb2.Vector(
        id=vid,
        name=name,
        level=vector_pb2.LEVEL_REQUIRED,
        profile_id=profile.id,
        seed=seed,
        description="Generated: a portable seeded shoe or spin, seeded legal decisions.",
    )


def _trim_shoes(vector: vector_pb2.Vector) -> None:
    """Keep a card game's shoe to the cards the round uses plus a margin.

    The engine must deal only from the front, so the unused tail changes nothing, and a
    shorter shoe keeps the corpus small.
    """
    for vround in vector.rounds:
        used = vround.expected_settle.state.cards_dealt or vround.expected_state.cards_dealt
        keep = used + 8
        del vround.deal.shoe.cards[keep:]


def finish_vector(vector: vector_pb2.Vector, *, share: bool = True) -> None:
    """List the clauses the rounds cite, and share the citations every answer holds alike.

    ``share=False``: each answer keeps its own (the same clauses; what a vector only played,
    never written, saves the work of).
    """
    clauses: dict[str, None] = {}
    for vround in vector.rounds:
        clauses.update(dict.fromkeys(round_clauses(vround)))
    vector.clauses[:] = sorted(clauses)
    if share:
        share_citations(vector)


# --- files --------------------------------------------------------------------------------------

#: A JSON Lines vector file's name ends so: one Vector a line, as a lab writes one by hand.
JSONL = ".jsonl"
#: A binary vector file's name ends so: one gzipped VectorFile (vector.proto), as the corpus is kept.
BINARY = ".binpb.gz"


def dump_line(vector: vector_pb2.Vector) -> str:
    """One vector as one JSON line (protobuf JSON mapping, compact, stable key order)."""
    # Keys sorted: a map's order is not stable from one build to the next, a file must be.
    return json.dumps(json_format.MessageToDict(vector), separators=(",", ":"), sort_keys=True)


def write_vectors(path: Path, vectors: Iterable[vector_pb2.Vector]) -> int:
    """Write vectors, binary if the name ends in ``BINARY``, else JSON Lines; return how many.

    A binary file is the same bytes for the same vectors (deterministic serialization, no
    time in the gzip header).
    """
    if path.name.endswith(BINARY):
        listed = vector_pb2.VectorFile(vectors=list(vectors))
        data = listed.SerializeToString(deterministic=True)
        path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        return len(listed.vectors)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for vector in vectors:
            out.write(dump_line(vector) + "\n")
            count += 1
    return count


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadedVector:
    """A vector and where it was read from: its line, or a binary file's vector position."""

    vector: vector_pb2.Vector
    path: Path
    line: int

    @property
    def hand_written(self) -> bool:
        """Whether the vector comes from a corpus's hand-written cases (``*.hand.*`` files)."""
        return ".hand." in self.path.name


class VectorFileError(ValueError):
    """A vector file, or one of its vectors, that is not a valid Vector."""


def read_vectors(path: Path) -> Iterator[LoadedVector]:
    """Read a vector file, binary or JSON Lines; a bad vector raises ``VectorFileError``.

    Every vector must have the shape ``vector.proto`` gives one (``structure_problem``): a
    vector that says nothing, or that expects nothing of a call, would judge an engine on the
    vector's fault. The error names the file and the line (a binary file's vector position).
    """
    parsed = _read_binary(path) if path.name.endswith(BINARY) else _read_jsonl(path)
    for number, vector in parsed:
        problem = structure_problem(vector)
        if problem:
            name = f" ({vector.id})" if vector.id else ""
            raise VectorFileError(f"{path}:{number}{name}: not a usable Vector: {problem}")
        yield LoadedVector(vector=vector, path=path, line=number)


def _read_jsonl(path: Path) -> Iterator[tuple[int, vector_pb2.Vector]]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise VectorFileError(f"{path}:{number}: not UTF-8 text") from None
            if not line.strip():
                continue
            vector = vector_pb2.Vector()
            try:
                json_format.Parse(line, vector)
            except json_format.ParseError as exc:
                raise VectorFileError(f"{path}:{number}: not a Vector: {exc}") from None
            yield number, vector


def _read_binary(path: Path) -> Iterator[tuple[int, vector_pb2.Vector]]:
    listed = vector_pb2.VectorFile()
    try:
        listed.ParseFromString(file_bytes(path))
    except DecodeError:
        raise VectorFileError(f"{path}: not a VectorFile (vector.proto)") from None
    yield from enumerate(listed.vectors, start=1)


def file_bytes(path: Path) -> bytes:
    """A vector file's content: a binary file's decompressed, a JSON Lines file's as they are."""
    data = path.read_bytes()
    if not path.name.endswith(BINARY):
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise VectorFileError(f"{path}: not a gzip file: {exc}") from None


def structure_problem(vector: vector_pb2.Vector) -> str:
    """What makes a vector unusable as ``vector.proto`` defines one, or "" when nothing does.

    An id, a profile, a level and a round; each round a Deal; every call expects an answer,
    but for the one the round's ``expected_error`` refuses, which is its last call.
    """
    for name in ("id", "profile_id"):
        if not getattr(vector, name):
            return f"no {name}"
    if vector.level == vector_pb2.LEVEL_UNSPECIFIED:
        return "no level"
    if not vector.rounds:
        return "no round"
    for index, vround in enumerate(vector.rounds):
        problem = _round_problem(vround)
        if problem:
            return f"round {index}: {problem}"
    return _restart_problem(vector)


def restart_points(vector: vector_pb2.Vector) -> int:
    """How many restart points a vector has (CONTRACT.recovery)."""
    count = 0
    for vround in vector.rounds:
        count += vround.restart_before_deal + vround.restart_before_settle
        count += sum(s.restart_before for s in (*vround.steps, *vround.after_settle))
    return count


def _restart_problem(vector: vector_pb2.Vector) -> str:
    """A recovery vector has restart points, and only a recovery vector has them."""
    points = restart_points(vector)
    if vector.restart == vector_pb2.RESTART_UNSPECIFIED:
        return f"{points} restart points, but no restart kind" if points else ""
    return "" if points else "a restart kind, but no restart point"


def _round_problem(vround: vector_pb2.VectorRound) -> str:
    if not vround.HasField("deal"):
        return "no deal"
    refused = bool(vround.expected_error)
    if not vround.HasField("expected_state"):
        if not refused:
            return "the deal expects neither a state nor an error"
        return (
            "a refused deal is the round's last call, but steps follow it"
            if (vround.steps or vround.HasField("expected_settle"))
            else ""
        )
    for number, step in enumerate(vround.steps):
        if not step.HasField("decision") and not step.settle:
            return f"step {number}: no decision"
        if step.expected_error:
            if step.HasField("expected_state"):
                return f"step {number} expects both a state and an error"
            continue
        if step.settle:
            return f"step {number} is a Settle before the end that expects no refusal"
        if step.HasField("expected_state"):
            continue
        if not refused:
            return f"step {number} expects neither a state nor an error"
        last = number == len(vround.steps) - 1
        if not last or vround.HasField("expected_settle"):
            return f"step {number} is refused, so it must be the round's last call"
        return ""
    if vround.HasField("expected_settle"):
        if refused:
            return f"expected_error {vround.expected_error} refuses no call"
        late = [n for n, step in enumerate(vround.after_settle) if not step.expected_error]
        return f"after_settle call {late[0]} expects no refusal" if late else ""
    if vround.after_settle:
        return "calls after the settle, but the round is not settled"
    return "" if refused else "the settle expects neither an answer nor an error"


def corpus_files(directory: Path = CORPUS_DIR) -> list[Path]:
    """The vector files of a corpus directory (binary and JSON Lines), sorted by name."""
    return sorted(p for p in directory.iterdir() if p.name.endswith((BINARY, JSONL)))


def load_corpus(directory: Path = CORPUS_DIR) -> list[LoadedVector]:
    """Every vector of a corpus directory, in file then line order."""
    return [loaded for path in corpus_files(directory) for loaded in read_vectors(path)]


def load_vectors(paths: Sequence[Path] = ()) -> list[LoadedVector]:
    """The one loader: the vectors of files and corpus directories, the shipped corpus if none.

    Results, known failures and reproduce commands name a vector by its id alone, so an id
    used twice is a ``VectorFileError`` naming both places.
    """
    if not paths:
        return load_corpus(CORPUS_DIR)
    out: list[LoadedVector] = []
    for path in paths:
        out.extend(load_corpus(path) if path.is_dir() else read_vectors(path))
    first: dict[str, LoadedVector] = {}
    for loaded in out:
        earlier = first.setdefault(loaded.vector.id, loaded)
        if earlier is not loaded:
            raise VectorFileError(
                f"{loaded.path}:{loaded.line}: vector id {loaded.vector.id!r} is already used "
                f"at {earlier.path}:{earlier.line}"
            )
    return out


def vectors_hash(paths: Sequence[Path] = ()) -> str:
    """SHA-256 over the vector files' names and content, in order (the shipped corpus if none).

    A binary file's content is its decompressed bytes, so the digest says which vectors were
    run, whatever deflate implementation wrote the file. A directory stands for its files.
    """
    digest = hashlib.sha256()
    for path in paths or (CORPUS_DIR,):
        for file in corpus_files(path) if path.is_dir() else [path]:
            digest.update(file.name.encode() + b"\x00")
            digest.update(file_bytes(file))
    return digest.hexdigest()


def corpus_hash(directory: Path = CORPUS_DIR) -> str:
    """The digest of a corpus directory (``vectors_hash``): the shipped corpus's names it."""
    return vectors_hash((directory,))


# --- corpus check -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CorpusProblem:
    """One thing wrong with a corpus."""

    where: str
    message: str


def check_corpus(
    vectors: Sequence[LoadedVector],
    resolve: Callable[[str], Profile],
    *,
    stamped: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[CorpusProblem]:
    """Every problem with a corpus: stale expectations, duplicate ids, unknown or uncovered clauses.

    A vector's ``since`` must be the version its expectations date from; with ``stamped`` (the
    shipped corpus) every vector must carry one.

    A corpus covers every clause of RULES.md but the variants, and each variant that one of
    its profiles chooses. ``progress``, if given, is called before each vector with the
    number of vectors checked so far.
    """
    problems: list[CorpusProblem] = []
    seen: dict[str, str] = {}
    covered: set[str] = set()
    chosen: set[str] = set()
    for done, loaded in enumerate(vectors):
        if progress is not None:
            progress(done)
        vector = loaded.vector
        where = f"{loaded.path.name}:{loaded.line} ({vector.id})"
        if vector.id in seen:
            problems.append(
                CorpusProblem(
                    where=where, message=f"duplicate id {vector.id!r}, first at {seen[vector.id]}"
                )
            )
        seen.setdefault(vector.id, where)
        if not vector.clauses:
            problems.append(CorpusProblem(where=where, message="no clauses"))
        for cid in vector.clauses:
            if not citable(cid):
                problems.append(CorpusProblem(where=where, message=f"unknown clause {cid!r}"))
            covered.add(cid)
        if vector.level == vector_pb2.LEVEL_UNSPECIFIED:
            problems.append(CorpusProblem(where=where, message="level is not set"))
        try:
            profile = resolve(vector.profile_id)
            for other in vector.other_profile_ids:
                resolve(other)
        except OracleError as exc:
            problems.append(CorpusProblem(where=where, message=str(exc)))
            continue
        chosen.update(profile.clause_ids())
        rebuilt = replay(vector, profile, resolve)
        if rebuilt.SerializeToString(deterministic=True) != vector.SerializeToString(
            deterministic=True
        ):
            problems.append(CorpusProblem(where=where, message=_first_difference(vector, rebuilt)))
            continue
        # A vector the oracle reproduces must say which version its expectations date from.
        dated = since(vector) if vector.since or stamped else ""
        if dated != vector.since:
            problems.append(
                CorpusProblem(
                    where=where,
                    message=f"since {vector.since or '(none)'}, but its expectations date from "
                    f"{dated} (make corpus stamps them)",
                )
            )
    problems.extend(
        CorpusProblem(where="corpus", message=f"clause {cid} has no vector")
        for cid, rule in BY_ID.items()
        if cid not in covered and (not rule.variant or cid in chosen)
    )
    return problems


def _first_difference(stored: vector_pb2.Vector, rebuilt: vector_pb2.Vector) -> str:
    for index, (old, new) in enumerate(zip(stored.rounds, rebuilt.rounds, strict=False)):
        if old.SerializeToString(deterministic=True) != new.SerializeToString(deterministic=True):
            a = json_format.MessageToDict(old)
            b = json_format.MessageToDict(new)
            for key in ("expectedError", "expectedState", "steps", "expectedSettle"):
                if a.get(key) != b.get(key):
                    return (
                        f"round {index}: the oracle no longer reproduces {key}: "
                        f"stored {json.dumps(a.get(key))[:200]}, now {json.dumps(b.get(key))[:200]}"
                    )
    return "the oracle no longer reproduces the stored expectations"
