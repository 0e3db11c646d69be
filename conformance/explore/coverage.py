"""What explored rounds reached: the cells of a profile, and which of them a drawn vector hits.

A cell is one thing a rule decides that a round can show, named by a short text:

- ``clause:ID``: a clause the oracle cited for a round of the profile (every clause the
  profile's parameters name, its game's general clauses, the table's and the contract's);
- blackjack: ``decision:KIND`` (each decision the profile offers, taken), ``pair:R`` (a pair
  of each rank dealt), ``soft:T`` (a soft total 12 to 21 held), ``resplit`` (a split hand
  split again, where the profile allows it), ``insured-21`` (insurance taken, then a dealer
  21 of three cards or more: the insurance loses), ``dealer:bust``, ``dealer:blackjack``,
  ``dealer:soft-17``, ``dealer:late-blackjack`` (a blackjack seen only at the end, where the
  dealer does not look under every card, after a double or a split), ``natural:player`` (a blackjack), ``natural:both`` (against a
  dealer's), ``natural:vs-21`` (against a dealer's 21 of three cards or more);
- baccarat: ``tableau:B:V`` (the banker's two-card total B, 0 to 7, by the player's third
  card V, 0 to 9: every cell of the profile's drawing tableau), ``stood:B`` (the player
  stood, the banker holds B), ``natural``, ``outcome:player|banker|tie``, ``bet:KIND``;
- roulette: ``bet:KIND`` (each kind the table offers, accepted), ``near-miss:KIND`` (each
  kind's near misses refused, ``rounds.near_misses``), ``pocket:ZERO`` for each zero,
  ``zero:even-chance`` (an even chance on a zero), ``history:full`` (a board of more spins
  than the history shows);
- any game: ``stake:min`` and ``stake:max`` (a stake at each table limit, accepted),
  ``funds:exact`` (a seat staking its whole balance, accepted), ``refusal:REASON`` (each
  reason the contract gives the faults explore draws), ``fault:NAME`` (each fault drawn where
  it bites, ``rounds.FAULTS``, and those across profiles when a partner of the same game is
  explored too).

``cells(profile)`` lists a profile's cells; ``reached(profile, vector)`` those a drawn
vector hits. A cell no draw can reach is a bug of the generator: the tests draw every one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from croupier.conformance.explore.rounds import ACROSS, FAULTS, REFUSAL, near_misses
from croupier.conformance.v1 import vector_pb2
from croupier.oracle import baccarat, roulette
from croupier.oracle.cards import DECK, Card, Rank
from croupier.oracle.clauses import CLAUSES, Game
from croupier.oracle.profile import Profile
from croupier.oracle.roulette import BetKind, Wheel
from croupier.v1 import round_pb2

_FAULT_NAMED = re.compile(r"Explored \((.+?)(?:, with [^)]*)?\):")

#: The contract's clauses the drawn faults are refused with (oracle/clauses.py CONTRACT).
_CONTRACT_CITED = (
    "CONTRACT.request",
    "CONTRACT.lifecycle",
    "CONTRACT.balance",
    "CONTRACT.settlement",
)
#: Clauses of every game a round cites (stakes, currency).
_TABLE_CITED = ("TABLE.limits", "TABLE.currency")

_DECISIONS = {
    round_pb2.DECISION_KIND_HIT: "hit",
    round_pb2.DECISION_KIND_STAND: "stand",
    round_pb2.DECISION_KIND_DOUBLE: "double",
    round_pb2.DECISION_KIND_SPLIT: "split",
    round_pb2.DECISION_KIND_SURRENDER: "surrender",
    round_pb2.DECISION_KIND_INSURANCE: "insurance",
    round_pb2.DECISION_KIND_DECLINE_INSURANCE: "decline-insurance",
    round_pb2.DECISION_KIND_EVEN_MONEY: "even-money",
    round_pb2.DECISION_KIND_DECLINE_EVEN_MONEY: "decline-even-money",
    round_pb2.DECISION_KIND_DECLINE_SURRENDER: "decline-surrender",
}


def _faults(game: Game) -> tuple[str, ...]:
    return (*FAULTS[game], *ACROSS[game])


def decisions_offered(profile: Profile) -> tuple[str, ...]:
    """The decision kinds a blackjack profile can offer (A.surrender, VAR.bj.surrender...)."""
    kinds = ["hit", "stand", "double", "split"]
    if profile.flag("surrender"):
        kinds.append("surrender")
        if profile.choice("surrender_timing") == "early":
            kinds.append("decline-surrender")
    if profile.flag("insurance"):
        kinds += ["insurance", "decline-insurance"]
    if profile.choice("blackjack_vs_ace") == "even-money":
        kinds += ["even-money", "decline-even-money"]
    return tuple(kinds)


def _clauses(profile: Profile) -> list[str]:
    named = {c for p in profile.parameters for c in p.clauses}
    prefix = {Game.BLACKJACK: "BJ.", Game.BACCARAT: "BAC.", Game.ROULETTE: "ROU."}[profile.game]
    general = {c.id for c in CLAUSES if c.game is profile.game and c.id.startswith(prefix)}
    contract = set(_CONTRACT_CITED)
    if profile.game is Game.BLACKJACK:
        contract.discard("CONTRACT.balance")  # blackjack's funds rule is its own (BJ.funds)
    return sorted(named | general | set(_TABLE_CITED) | contract)


def _wheel(profile: Profile) -> Wheel:
    return Wheel(profile.choice("wheel"))


def _offered_kinds(profile: Profile) -> list[BetKind]:
    wheel, offered = _wheel(profile), profile.words("bets_offered")
    return [k for k in BetKind if roulette.shapes(wheel, k) and k.value in offered]


def cells(profile: Profile, partners: Sequence[Profile] = ()) -> tuple[str, ...]:
    """Every cell of ``profile``, in a fixed order (see the module's docstring).

    ``partners``: the other profiles explored with it; one of the same game makes the faults
    across profiles (``rounds.ACROSS``) cells too.
    """
    found = [f"clause:{c}" for c in _clauses(profile)]
    game = profile.game
    if game is Game.BLACKJACK:
        found += [f"decision:{k}" for k in decisions_offered(profile)]
        found += [f"pair:{r.value}" for r in Rank]
        found += [f"soft:{t}" for t in range(12, 22)]
        if profile.integer("max_hands") > 2:
            found.append("resplit")
        if profile.flag("insurance"):
            found.append("insured-21")
        found += ["dealer:bust", "dealer:blackjack", "dealer:soft-17"]
        if profile.choice("peek") != "ace-or-ten":
            found.append("dealer:late-blackjack")
        found += ["natural:player", "natural:both", "natural:vs-21"]
    elif game is Game.BACCARAT:
        found += [f"tableau:{b}:{v}" for b in range(8) for v in range(10)]
        found += [f"stood:{b}" for b in range(8)]
        found += ["natural", "outcome:player", "outcome:banker", "outcome:tie"]
        found += [f"bet:{k.value}" for k in baccarat.BetKind]
    else:
        wheel = _wheel(profile)
        found += [f"bet:{k.value}" for k in _offered_kinds(profile)]
        found += [f"near-miss:{k.value}" for k, misses in near_misses(wheel).items() if misses]
        found += [f"pocket:{_pocket(z)}" for z in sorted(wheel.zeros)]
        found += ["zero:even-chance", "history:full"]
    found += ["stake:min", "stake:max", "funds:exact"]
    reasons = sorted({REFUSAL[f] for f in _faults(game)} - {""})
    found += [f"refusal:{r}" for r in reasons]
    across = any(p.game is game and p.id != profile.id for p in partners)
    found += [f"fault:{f}" for f in (*FAULTS[game], *(ACROSS[game] if across else ()))]
    return tuple(dict.fromkeys(found))


def _pocket(number: int) -> str:
    return "00" if number == roulette.DOUBLE_ZERO else str(number)


def _rank(text: str) -> Rank | None:
    try:
        return Card.parse(text).rank
    except ValueError:
        return None


def _blackjack_total(ranks: Sequence[Rank]) -> tuple[int, bool]:
    """A hand's total and whether it is soft (an ace counted 11), BJ.values."""
    hard = sum(min(r.pip, 10) for r in ranks)
    if Rank.ACE in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _states(vround: vector_pb2.VectorRound) -> Iterator[round_pb2.RoundState]:
    if vround.HasField("expected_state"):
        yield vround.expected_state
    for step in vround.steps:
        if step.HasField("expected_state"):
            yield step.expected_state
    if vround.HasField("expected_settle"):
        yield vround.expected_settle.state


@dataclass(frozen=True, slots=True)
class Cited:
    """The clauses a vector cites, read once from its maps for ``reached`` and ``Coverage``.

    Protobuf maps are dear to read, a few microseconds an entry, and a drawn vector holds a
    hundred or so: read twice a round, they cost explore more than shuffling its shoe.
    """

    #: Those its rounds share (``vector.clauses``, ``vector.citations``).
    shared: frozenset[str]
    #: Each round's, in order: its deal's, settlement's and steps' maps; its after-settle steps'.
    rounds: tuple[tuple[frozenset[str], frozenset[str]], ...]


def cited(vector: vector_pb2.Vector) -> Cited:
    """What ``vector`` cites, shared and round by round (``Cited``)."""
    shared = _ids([vector.citations])
    return Cited(
        shared=shared.union(vector.clauses),
        rounds=tuple(
            (
                _ids([r.deal_citations, r.settle_citations, *(s.citations for s in r.steps)]),
                _ids([s.citations for s in r.after_settle]),
            )
            for r in vector.rounds
        ),
    )


def _ids(maps: Iterable[Mapping[str, vector_pb2.Clauses]]) -> frozenset[str]:
    found: set[str] = set()
    for citations in maps:
        for clauses in citations.values():
            found.update(clauses.ids)
    return frozenset(found)


def _refusals(vround: vector_pb2.VectorRound) -> set[str]:
    found = {s.expected_error for s in (*vround.steps, *vround.after_settle) if s.expected_error}
    return found | ({vround.expected_error} if vround.expected_error else set())


def _blackjack(vround: vector_pb2.VectorRound) -> set[str]:
    hit: set[str] = set()
    if vround.expected_error or not vround.HasField("expected_state"):
        return hit
    seats = len(vround.deal.seats)
    ranks = [_rank(c) for c in vround.deal.shoe.cards[: 2 * seats + 2]]
    for seat in range(seats):
        first, second = ranks[seat], ranks[seats + 1 + seat]
        if first is not None and first is second:
            hit.add(f"pair:{first.value}")
    for step in vround.steps:
        if not step.expected_error and step.HasField("decision"):
            hit.add(f"decision:{_DECISIONS[step.decision.kind]}")
    insured = False
    for state in _states(vround):
        table = state.blackjack
        for seat_state in table.seats:
            insured = insured or seat_state.insurance.minor_units > 0
            if len(seat_state.hands) > 2:
                hit.add("resplit")
            for hand in seat_state.hands:
                total, soft = _blackjack_total([r for r in map(_rank, hand.cards) if r])
                if soft and len(hand.cards) >= 2:
                    hit.add(f"soft:{total}")
                if hand.status == round_pb2.HAND_STATUS_BLACKJACK:
                    hit.add("natural:player")
    final = vround.expected_settle.state.blackjack
    dealer = [r for r in map(_rank, final.dealer.cards) if r]
    if vround.HasField("expected_settle") and len(dealer) >= 2:
        total, _soft = _blackjack_total(dealer)
        natural = len(dealer) == 2 and total == 21
        if natural:
            hit.add("dealer:blackjack")
            if {"decision:double", "decision:split"} & hit:
                hit.add("dealer:late-blackjack")
            if "natural:player" in hit:
                hit.add("natural:both")
        if total > 21:
            hit.add("dealer:bust")
        if total == 21 and len(dealer) >= 3 and insured:
            hit.add("insured-21")
        if total == 21 and len(dealer) >= 3 and "natural:player" in hit:
            hit.add("natural:vs-21")
        for end in range(2, len(dealer) + 1):
            if _blackjack_total(dealer[:end]) == (17, True):
                hit.add("dealer:soft-17")
    return hit


_OUTCOMES = {
    round_pb2.BACCARAT_OUTCOME_PLAYER: "outcome:player",
    round_pb2.BACCARAT_OUTCOME_BANKER: "outcome:banker",
    round_pb2.BACCARAT_OUTCOME_TIE: "outcome:tie",
}


def _baccarat(vround: vector_pb2.VectorRound) -> set[str]:
    hit: set[str] = set()
    for seat in vround.deal.seats:
        for bet in seat.bets:
            name = round_pb2.BaccaratBetKind.Name(bet.baccarat.kind)
            hit.add(f"bet:{name.removeprefix('BACCARAT_BET_KIND_').lower()}")
    table = vround.expected_settle.state.baccarat
    player = [r for r in map(_rank, table.player_cards) if r]
    banker = [r for r in map(_rank, table.banker_cards) if r]
    if len(player) < 2 or len(banker) < 2:
        return hit
    hit.add(_OUTCOMES[table.outcome])
    two = [sum(r.pip % 10 for r in hand[:2]) % 10 for hand in (player, banker)]
    if max(two) >= 8:
        hit.add("natural")
    elif len(player) == 3:
        hit.add(f"tableau:{two[1]}:{player[2].pip % 10}")
    else:
        hit.add(f"stood:{two[1]}")
    return hit


def _roulette(profile: Profile, vround: vector_pb2.VectorRound) -> set[str]:
    hit: set[str] = set()
    kinds = [bet.roulette.kind for seat in vround.deal.seats for bet in seat.bets]
    names = [
        round_pb2.RouletteBetKind.Name(k)
        .removeprefix("ROULETTE_BET_KIND_")
        .lower()
        .replace("_", "-")
        for k in kinds
    ]
    if vround.expected_error == "INVALID_BET_LAYOUT" and names:
        hit.add(f"near-miss:{names[0]}")
    if vround.expected_error or not vround.HasField("expected_settle"):
        return hit
    hit.update(f"bet:{n}" for n in names)
    pocket = vround.deal.spin.pocket
    wheel = _wheel(profile)
    if pocket in {_pocket(z) for z in wheel.zeros}:
        hit.add(f"pocket:{pocket}")
        if any(BetKind(n).is_even_chance for n in names):
            hit.add("zero:even-chance")
    if len(vround.expected_settle.state.roulette.history) >= profile.integer("history_length"):
        hit.add("history:full")
    return hit


def _table(profile: Profile, vround: vector_pb2.VectorRound) -> set[str]:
    """Stakes at the limits and a whole balance staked, on an accepted deal."""
    if vround.expected_error or not vround.HasField("expected_state"):
        return set()
    hit: set[str] = set()
    low, high = profile.integer("min_bet"), profile.integer("max_bet")
    for seat in vround.deal.seats:
        stakes = [b.stake.minor_units for b in seat.bets]
        if low in stakes:
            hit.add("stake:min")
        if high in stakes:
            hit.add("stake:max")
        if sum(stakes) == seat.balance.minor_units:
            hit.add("funds:exact")
    return hit


def reached(profile: Profile, vector: vector_pb2.Vector, clauses: Cited | None = None) -> set[str]:
    """The cells of ``profile`` the rounds of ``vector`` under it reach.

    ``clauses``: what ``vector`` cites (``cited``), if read already.
    """
    if clauses is None:
        clauses = cited(vector)
    hit: set[str] = set()
    # A drawn vector names its fault once the fault bit (``rounds.explored_vector``).
    named = _FAULT_NAMED.match(vector.description)
    if named:
        hit.add(f"fault:{named[1]}")
    if not vector.other_profile_ids:
        # What the rounds share, kept once per vector (``finish_vector``): all this profile's.
        hit.update(f"clause:{c}" for c in clauses.shared)
    for vround, (played, after) in zip(vector.rounds, clauses.rounds, strict=True):
        if vround.deal.profile_id != profile.id:
            # A partner's round (a fault across profiles) or an unknown profile's: only the
            # refusal counts for this profile.
            hit.update(f"refusal:{r}" for r in _refusals(vround))
            continue
        hit.update(f"clause:{c}" for c in played | after)
        hit.update(f"refusal:{r}" for r in _refusals(vround))
        hit.update(_table(profile, vround))
        if profile.game is Game.BLACKJACK:
            hit.update(_blackjack(vround))
        elif profile.game is Game.BACCARAT:
            hit.update(_baccarat(vround))
        else:
            hit.update(_roulette(profile, vround))
    return hit


@dataclass(slots=True)
class CellCoverage:
    """How often each cell of a profile was reached, and the cells it has."""

    all: tuple[str, ...]
    counts: Counter[str] = field(default_factory=Counter)
    #: The round (1-based, in draw order) at which the last cell was first reached.
    covered_at: int | None = None
    #: The round at which each cell reached was first reached.
    first: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, profile: Profile, partners: Sequence[Profile] = ()) -> CellCoverage:
        """An empty record of ``profile``'s cells (``cells``)."""
        return cls(all=cells(profile, partners))

    def add(self, hit: Iterable[str], rounds: int) -> None:
        """Count the cells one vector reached; ``rounds``: rounds drawn so far."""
        known = set(self.all)
        fresh = [c for c in hit if c in known]
        self.counts.update(fresh)
        for cell in fresh:
            self.first.setdefault(cell, rounds)
        # Every cell reached has its first round (here and in the Dask merge): while some
        # cell has none, one is unreached, and the cells need not be read again.
        if self.covered_at is None and len(self.first) >= len(self.all) and not self.unreached:
            self.covered_at = rounds

    @property
    def unreached(self) -> tuple[str, ...]:
        """The cells never reached, in the cells' order."""
        return tuple(c for c in self.all if not self.counts[c])

    @property
    def reached(self) -> int:
        """How many cells were reached."""
        return len(self.all) - len(self.unreached)


#: The groups aims go round (``aim_order``): the contract's faults, the table's limits and the
#: near misses (few cells, each a rule of its own); the decisions, dealer shapes, naturals,
#: bets and zeros; the hand shapes and tableau cells (many cells, each a case of a rule). A
#: group's cells come by tier, each tier shuffled: the pairs before the soft totals (a pair
#: brings a split, and with it split hands, re-splits, doubles after a split and the funds
#: a split takes; a soft total, one hand's count), the tableau's edges before its other
#: cells (``tableau_edges``).
_EDGES = "edges"
_GROUPS: tuple[tuple[tuple[str, ...], ...], ...] = (
    # A refusal's reason is no aim of its own: each of its faults is one.
    (("fault:", "stake:", "funds:", "near-miss:"),),
    (
        (
            "decision:",
            "natural",
            "dealer:",
            "insured-21",
            "resplit",
            "bet:",
            "pocket:",
            "zero:",
            "history:",
            "outcome:",
        ),
    ),
    (("pair:",), ("soft:",), (_EDGES,), ("tableau:", "stood:")),
)


def _card_of(value: int) -> Card:
    return next(c for c in DECK if baccarat.card_value(c) == value)


def tableau_edges(profile: Profile) -> frozenset[str]:
    """The baccarat cells where the banker's decision turns: boundary values of its rules.

    A tableau cell whose draw differs from the next third card's, or from another tableau's
    (document B's ace at 4, 5 and 6: BAC.banker-tableau, B.tableau); the banker's last
    total that draws and first that stands when the player stood (BAC.banker-stood).
    """
    if profile.game is not Game.BACCARAT:
        return frozenset()
    own = baccarat.Tableau(profile.choice("tableau"))

    def draws(tableau: baccarat.Tableau, total: int, value: int) -> bool:
        return baccarat.banker_draws(tableau, total, _card_of(value))

    found = {"stood:5", "stood:6"}
    for total in range(8):
        for value in range(10):
            turns = value < 9 and draws(own, total, value) != draws(own, total, value + 1)
            if turns:
                found |= {f"tableau:{total}:{value}", f"tableau:{total}:{value + 1}"}
            if any(draws(t, total, value) != draws(own, total, value) for t in baccarat.Tableau):
                found.add(f"tableau:{total}:{value}")
    return frozenset(found)


def aim_order(
    all_cells: Sequence[str],
    shuffle: Callable[[list[str]], None],
    edges: Collection[str] = (),
) -> tuple[list[str], ...]:
    """The cells a draw may aim at (no clause, no refusal's reason), by group, shuffled by tier.

    ``edges``: the cells of the edges' tier (``tableau_edges``).
    """
    groups: list[list[str]] = []
    for tiers in _GROUPS:
        group: list[str] = []
        for prefixes in tiers:
            here = [
                c
                for c in all_cells
                if (c in edges if prefixes == (_EDGES,) else c.startswith(prefixes))
                and c not in group
            ]
            shuffle(here)
            group += here
        groups.append(group)
    return tuple(groups)
