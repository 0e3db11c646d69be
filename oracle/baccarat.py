"""Baccarat: the coup from a forced shoe, and the settlement of player, banker and tie bets.

Implements RULES.md "Baccarat, common to B, C and D" and the profile clauses
of B, C and D. A coup needs no decisions: the cards of the shoe decide it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import NoReturn

from croupier.oracle.cards import Card, Rank
from croupier.oracle.clauses import Game
from croupier.oracle.decision import Action, Decision
from croupier.oracle.errors import (
    IllegalDecisionError,
    InvalidBetLayoutError,
    InvalidRoundError,
    ProfileError,
    ShoeExhaustedError,
)
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Odds, Payout, Rounding, exact_text, lose, multiple, push
from croupier.oracle.profile import Citations, Profile
from croupier.oracle.provenance import ABSENT
from croupier.oracle.settlement import Limits, SettlementLine, Step, check_seat_stakes, settled
from croupier.oracle.shoe import check_composition


class Tableau(Choice):
    """The banker's third-card tableau (BAC.banker-tableau, B.tableau)."""

    STANDARD = "standard"
    DOCUMENT_B = "document-b"


class CoupOutcome(Choice):
    """Which hand won the coup, or a tie (BAC.outcome)."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class BetKind(Choice):
    """The three bets of the layout."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratRules:
    """The baccarat parameters of one profile, typed.

    ``cite`` answers which clauses the profile cites for a parameter's rule (B.decks,
    C.bac.decks or D.decks for the deck count; TABLE.limits for the limits), so a round
    can say which clause each of its checks applied.
    """

    profile_id: str
    decks: int
    tableau: Tableau
    player_pays: Odds
    banker_pays: Odds
    banker_commission: Fraction
    tie_pays: Odds
    tie_pushes: bool
    #: VAR.bac.ez: no commission, and a banker win on three cards totalling 7 pushes.
    no_commission: bool
    #: VAR.bac.banker-six: the net odds of a banker win on a total of 6, if the table pays so.
    banker_six_pays: Odds | None
    rounding: Rounding
    limits: Limits
    cite: Citations

    def __hash__(self) -> int:
        # Equal rules share a profile id, so this is a valid hash, and a cheap one: rules key
        # the table each round looks up (``_table``).
        return hash(self.profile_id)

    @classmethod
    def from_profile(cls, profile: Profile) -> BaccaratRules:
        """The rules of a baccarat profile; ``ProfileError`` for a profile of another game."""
        if profile.game is not Game.BACCARAT:
            raise ProfileError(
                f"profile {profile.id!r} is a {profile.game.value} profile, not a baccarat one",
                profile=profile.id,
                game=profile.game.value,
            )
        return cls(
            profile_id=profile.id,
            decks=profile.integer("decks"),
            tableau=Tableau(profile.choice("tableau")),
            player_pays=profile.odds("player_pays"),
            banker_pays=profile.odds("banker_pays"),
            banker_commission=profile.fraction("banker_commission"),
            tie_pays=profile.odds("tie_pays"),
            tie_pushes=profile.flag("tie_pushes"),
            no_commission=profile.flag("no_commission"),
            banker_six_pays=profile.optional_odds("banker_six_pays"),
            rounding=profile.rounding(),
            limits=Limits.of(profile),
            cite=profile.citations(),
        )


# --- cards and totals ---------------------------------------------------------

# Pips are 1-10, so modulo 10 sends tens and pictures to 0 and leaves the rest.
_VALUES: dict[Rank, int] = {rank: rank.pip % 10 for rank in Rank}


def card_value(card: Card) -> int:
    """Ace 1, two to nine face value, ten and pictures 0 (BAC.values)."""
    return _VALUES[card.rank]


def hand_value(cards: Sequence[Card]) -> int:
    """The hand's total modulo 10: 7+9 is 6, 4+6 is 0 (BAC.values)."""
    return sum(_VALUES[card.rank] for card in cards) % 10


# Third-card values on which the banker draws, by tableau and banker total 0-7.
_ALL = frozenset(range(10))
_DRAWS: dict[Tableau, tuple[frozenset[int], ...]] = {
    Tableau.STANDARD: (
        _ALL,
        _ALL,
        _ALL,
        _ALL - {8},
        frozenset({2, 3, 4, 5, 6, 7}),
        frozenset({4, 5, 6, 7}),
        frozenset({6, 7}),
        frozenset(),
    ),
    # Document B lists the cards on which the banker does NOT draw, and leaves the
    # ace off the lists at 4, 5 and 6: as printed, the banker draws on an ace there.
    Tableau.DOCUMENT_B: (
        _ALL,
        _ALL,
        _ALL,
        _ALL - {8},
        _ALL - {8, 9, 0},
        _ALL - {2, 3, 8, 9, 0},
        _ALL - {2, 3, 4, 5, 8, 9, 0},
        frozenset(),
    ),
}


def banker_draws(tableau: Tableau, banker_total: int, player_third: Card | None) -> bool:
    """Whether the banker takes a third card on a two-card total of 0-9.

    With no player third card: draw on 0-5, stand on 6-7 (BAC.banker-stood).
    Otherwise by the tableau and the third card's value (BAC.banker-tableau,
    B.tableau). A natural 8 or 9 never draws (BAC.natural).
    """
    if not 0 <= banker_total <= 9:
        raise ValueError(f"a baccarat total is 0 to 9, got {banker_total}")
    if banker_total >= 8:
        return False
    if player_third is None:
        return banker_total <= 5
    return _VALUES[player_third.rank] in _DRAWS[tableau][banker_total]


# --- the coup -------------------------------------------------------------------


_DEAL_CLAUSES = ("BAC.deal", "BAC.values")
_NATURAL_CLAUSES = ("BAC.natural",)
_PLAYER_CLAUSES = ("BAC.player-draw",)
_BANKER_STOOD_CLAUSES = ("BAC.banker-stood",)
_TABLEAU_CLAUSES: dict[Tableau, tuple[str, ...]] = {
    Tableau.STANDARD: ("BAC.banker-tableau",),
    Tableau.DOCUMENT_B: ("BAC.banker-tableau", "B.tableau"),
}
_OUTCOME_CLAUSES = ("BAC.outcome",)


@dataclass(frozen=True, slots=True, kw_only=True)
class Coup:
    """The cards of one coup, before any money (BAC.deal, BAC.outcome).

    ``why_player_third`` and ``why_banker_third`` are the clauses that decided whether each
    hand took a third card (BAC.natural, BAC.player-draw, BAC.banker-stood, the tableau), as
    ``play_coup`` recorded them when it decided; ``steps`` words those decisions only when
    read.
    """

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    outcome: CoupOutcome
    dealt: tuple[Card, ...]
    why_player_third: tuple[str, ...] = _NATURAL_CLAUSES
    why_banker_third: tuple[str, ...] = _NATURAL_CLAUSES

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step of the coup and the clause it applied, from what the coup recorded."""
        player, banker = self.player, self.banker
        first_player, first_banker = hand_value(player[:2]), hand_value(banker[:2])
        steps = [
            Step(
                action="deal",
                clauses=_DEAL_CLAUSES,
                says="player {} {} = {}; banker {} {} = {}",
                values=(player[0], player[1], first_player, banker[0], banker[1], first_banker),
            )
        ]
        # Equality, not identity: mypyc boxes a tuple constant afresh where it is read.
        if self.why_player_third == _NATURAL_CLAUSES:
            steps.append(
                Step(
                    action="natural",
                    clauses=_NATURAL_CLAUSES,
                    says="natural: player {}, banker {}; both stand",
                    values=(first_player, first_banker),
                )
            )
        else:
            if len(player) > 2:
                steps.append(
                    Step(
                        action="player-draw",
                        clauses=_PLAYER_CLAUSES,
                        says="player draws {}: {}",
                        values=(player[2], self.player_total),
                    )
                )
            else:
                steps.append(
                    Step(
                        action="player-stand",
                        clauses=_PLAYER_CLAUSES,
                        says="player stands on {}",
                        values=(self.player_total,),
                    )
                )
            if len(banker) > 2:
                steps.append(
                    Step(
                        action="banker-draw",
                        clauses=self.why_banker_third,
                        says="banker draws {}: {}",
                        values=(banker[2], self.banker_total),
                    )
                )
            else:
                steps.append(
                    Step(
                        action="banker-stand",
                        clauses=self.why_banker_third,
                        says="banker stands on {}",
                        values=(self.banker_total,),
                    )
                )
        steps.append(
            Step(
                action="outcome",
                clauses=_OUTCOME_CLAUSES,
                says="player {}, banker {}: {}",
                values=(self.player_total, self.banker_total, self.outcome.value),
            )
        )
        return tuple(steps)


def _exhausted(needed: int, shoe: Sequence[Card], what: str, asked_by: str) -> ShoeExhaustedError:
    # Refused by the deal's rule (BAC.deal: cards from the forced shoe, in order), whichever
    # rule asked for the card (``asked_by``: what a recorded coup without it breaks).
    return ShoeExhaustedError(
        f"the coup needs at least {needed} cards ({what}), but the shoe holds only {len(shoe)}",
        needed=needed,
        shoe_size=len(shoe),
        clause="BAC.deal",
        asked_by=asked_by,
    )


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def play_coup(
    tableau: Tableau, shoe: Sequence[Card], *, tableau_clauses: tuple[str, ...] | None = None
) -> Coup:
    """Deal one coup from the front of a forced shoe and decide it.

    Order P, B, P, B, then the player's third card, then the banker's
    (BAC.deal); naturals first (BAC.natural), then BAC.player-draw, then
    BAC.banker-stood or BAC.banker-tableau, then BAC.outcome. The shoe's
    composition is not checked here; a shoe too short raises
    ``ShoeExhaustedError``. ``tableau_clauses`` are the clauses the profile cites for its
    tableau (document B's first). Each rule that decides records its clause on the coup.
    """
    size = len(shoe)
    if size < 4:
        raise _exhausted(4, shoe, "two cards to each hand", "BAC.deal")
    p1, b1, p2, b2 = shoe[0], shoe[1], shoe[2], shoe[3]
    player_total = (_VALUES[p1.rank] + _VALUES[p2.rank]) % 10
    banker_total = (_VALUES[b1.rank] + _VALUES[b2.rank]) % 10
    # The player's and the banker's third cards, where they take one.
    player_third: Card | None = None
    banker_third: Card | None = None
    why_player: tuple[str, ...] = _NATURAL_CLAUSES
    why_banker: tuple[str, ...] = _NATURAL_CLAUSES
    if player_total < 8 and banker_total < 8:
        if player_total <= 5:
            if size < 5:
                raise _exhausted(5, shoe, "the player's third card", _PLAYER_CLAUSES[0])
            player_third = shoe[4]
            player_total = (player_total + _VALUES[player_third.rank]) % 10
        why_player = _PLAYER_CLAUSES
        why_banker = (
            _BANKER_STOOD_CLAUSES
            if player_third is None
            else tableau_clauses or _TABLEAU_CLAUSES[tableau]
        )
        if banker_draws(tableau, banker_total, player_third):
            index = 4 if player_third is None else 5
            if size <= index:
                raise _exhausted(index + 1, shoe, "the banker's third card", why_banker[0])
            banker_third = shoe[index]
            banker_total = (banker_total + _VALUES[banker_third.rank]) % 10

    if player_total > banker_total:
        outcome = CoupOutcome.PLAYER
    elif banker_total > player_total:
        outcome = CoupOutcome.BANKER
    else:
        outcome = CoupOutcome.TIE
    player = (p1, p2) if player_third is None else (p1, p2, player_third)
    banker = (b1, b2) if banker_third is None else (b1, b2, banker_third)
    # Player cards go to even positions of the first four and the player's third
    # card, if any, comes before the banker's.
    return Coup(
        player=player,
        banker=banker,
        player_total=player_total,
        banker_total=banker_total,
        outcome=outcome,
        dealt=(p1, b1, p2, b2, *player[2:], *banker[2:]),
        why_player_third=why_player,
        why_banker_third=why_banker,
    )


# --- bets and the round ---------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratBet:
    """One stake, in minor units, on the player, the banker or a tie."""

    kind: BetKind
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratSeat:
    """One seat: its funds before the round and its bets, at most one of each kind."""

    balance: int
    bets: tuple[BaccaratBet, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BaccaratRound:
    """A played round: the coup, one settlement line per bet, and every step.

    ``why`` holds, line by line, the clauses the settling rule recorded before any rounding;
    ``steps`` words the round from what it recorded, only when read.
    """

    profile_id: str
    coup: Coup
    seats: tuple[BaccaratSeat, ...]
    settlement: tuple[SettlementLine, ...]
    rules: BaccaratRules
    shoe_size: int
    why: tuple[tuple[str, ...], ...]

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checks, the coup's steps and one step per settled bet, with their clauses."""
        rules = self.rules
        steps = [
            Step(
                action="check-bets",
                clauses=rules.cite("min_bet", "max_bet"),
                says="{} seat(s), stakes within {} to {} and covered by the balances",
                values=(len(self.seats), rules.limits.min_bet, rules.limits.max_bet),
            ),
            Step(
                action="check-shoe",
                clauses=rules.cite("decks"),
                says="{} card(s), no more copies of a card than {} deck(s) hold",
                values=(self.shoe_size, rules.decks),
            ),
            *self.coup.steps,
        ]
        for index, line in enumerate(self.settlement):
            payout = line.payout
            steps.append(
                Step(
                    action="settle",
                    clauses=self.why[index],
                    says="seat {} {}: stake {}, returns {} exact, {} paid",
                    values=(
                        line.seat,
                        line.bet,
                        payout.stake,
                        exact_text(payout.returned_exact),
                        payout.returned,
                    ),
                )
            )
        return tuple(steps)

    @property
    def complete(self) -> bool:
        """A coup is complete as soon as it is dealt."""
        return True

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card the coup took, in dealing order."""
        return self.coup.dealt

    @property
    def legal(self) -> tuple[Action, ...]:
        """A coup takes no decisions."""
        return ()

    def citations(self) -> dict[str, tuple[str, ...]]:
        """The clauses behind every value of the coup's state (``oracle.provenance``)."""
        return citations(self)

    @property
    def history(self) -> None:
        """A card game keeps no board."""
        return None

    def decide(self, decision: Decision) -> NoReturn:
        """A coup takes no decisions: ``IllegalDecisionError``."""
        raise IllegalDecisionError(
            "a baccarat round takes no decisions",
            action=decision.action.value,
            legal="",
            clause="CONTRACT.request",
        )


#: Each bet kind's name, as settlement lines and errors give it.
_NAMES: dict[BetKind, str] = {kind: kind.value for kind in BetKind}


def _check_seat(rules: BaccaratRules, index: int, seat: BaccaratSeat) -> None:
    seen: set[BetKind] = set()
    for bet in seat.bets:
        if not isinstance(bet.kind, BetKind):
            raise InvalidBetLayoutError(
                f"seat {index}: {bet.kind!r} is not a baccarat bet "
                f"(expected one of {', '.join(k.value for k in BetKind)})",
                seat=index,
                bet=bet.kind,
            )
        if isinstance(bet.amount, bool) or not isinstance(bet.amount, int):
            raise InvalidRoundError(
                f"seat {index}: the {bet.kind.value} stake must be a whole number of minor "
                f"units, got {bet.amount!r}",
                seat=index,
                bet=bet.kind.value,
                amount=bet.amount,
            )
        if bet.kind in seen:
            raise InvalidRoundError(
                f"seat {index} has more than one {bet.kind.value} bet; "
                "a seat holds at most one bet of each kind",
                seat=index,
                bet=bet.kind.value,
            )
        seen.add(bet.kind)
    check_seat_stakes(
        seat=index,
        balance=seat.balance,
        stakes=tuple((_NAMES[bet.kind], bet.amount) for bet in seat.bets),
        limits=rules.limits,
    )


class _Table:
    """One profile's baccarat citations and banker gain, worked out once for all its rounds.

    Each settling rule below records one of these clause tuples where it decides; nothing
    later looks a clause up again.
    """

    __slots__ = (
        "banker_returned",
        "banker_six",
        "banker_six_returned",
        "banker_won",
        "decks",
        "ez_push",
        "lost",
        "player_returned",
        "player_won",
        "rounding",
        "rules",
        "tableau",
        "tie_lost",
        "tie_pushed",
        "tie_returned",
        "tie_won",
    )

    def __init__(self, rules: BaccaratRules) -> None:
        cite = rules.cite
        self.rules = rules
        self.lost = _OUTCOME_CLAUSES
        self.tie_won = (*cite("tie_pays"), *_OUTCOME_CLAUSES)
        self.tie_pushed = cite("tie_pushes")
        self.tie_lost = (*cite("tie_pushes"), *_OUTCOME_CLAUSES)
        self.player_won = (*cite("player_pays"), *_OUTCOME_CLAUSES)
        self.banker_six = (*cite("banker_six_pays"), *_OUTCOME_CLAUSES)
        self.ez_push = (*cite("no_commission"), *_OUTCOME_CLAUSES)
        ez = cite("no_commission") if rules.no_commission else ()
        self.banker_won = (*ez, *cite("banker_pays", "banker_commission"), *_OUTCOME_CLAUSES)
        # What a winning unit stake returns, stake included, as (numerator, denominator).
        self.player_returned = rules.player_pays.returned
        self.tie_returned = rules.tie_pays.returned
        six = rules.banker_six_pays
        self.banker_six_returned = None if six is None else six.returned
        # The commission is taken on the win, not on the stake: 1:1 less 5% is 0.95:1.
        # Without commission (VAR.bac.ez, which asks banker_commission to be 0) it is the
        # whole win.
        returned = 1 + rules.banker_pays.ratio * (1 - rules.banker_commission)
        self.banker_returned = (returned.numerator, returned.denominator)
        self.rounding = cite("rounding")
        self.decks = cite("decks")
        self.tableau = cite("tableau")


@cache
def _table(rules: BaccaratRules) -> _Table:
    """The rules' table, worked out on their first round (rules are cached per profile)."""
    return _Table(rules)


def _settle(table: _Table, coup: Coup, bet: BaccaratBet) -> tuple[Payout, tuple[str, ...]]:
    """One bet's payout and the clauses that decided it (BAC.pay-*, BAC.tie-push)."""
    rules = table.rules
    stake = bet.amount
    outcome = coup.outcome
    if bet.kind is BetKind.TIE:
        if outcome is CoupOutcome.TIE:
            return multiple(stake, *table.tie_returned, rules.rounding), table.tie_won
        return lose(stake), table.lost
    if outcome is CoupOutcome.TIE:
        if rules.tie_pushes:
            return push(stake), table.tie_pushed
        return lose(stake), table.tie_lost
    if bet.kind is BetKind.PLAYER:
        if outcome is CoupOutcome.PLAYER:
            return multiple(stake, *table.player_returned, rules.rounding), table.player_won
        return lose(stake), table.lost
    if outcome is CoupOutcome.BANKER:
        return _banker_win(table, coup, stake)
    return lose(stake), table.lost


def _banker_win(table: _Table, coup: Coup, stake: int) -> tuple[Payout, tuple[str, ...]]:
    """A winning banker bet: its odds less the commission (BAC.pay-banker), or a variant's.

    On a 6 where the table says so (VAR.bac.banker-six); a three-card 7 without commission
    pushes (VAR.bac.ez).
    """
    rules = table.rules
    six = table.banker_six_returned
    if six is not None and coup.banker_total == 6:
        return multiple(stake, *six, rules.rounding), table.banker_six
    if rules.no_commission and coup.banker_total == 7 and len(coup.banker) == 3:
        return push(stake), table.ez_push
    return multiple(stake, *table.banker_returned, rules.rounding), table.banker_won


def play_round(
    rules: BaccaratRules, shoe: Sequence[Card], seats: Sequence[BaccaratSeat]
) -> BaccaratRound:
    """Check the bets and the shoe, deal the coup, settle every bet.

    Everything is checked before a card is dealt: seats and stakes (B.limits),
    the shoe against the profile's decks (B.decks, C.bac.decks, D.decks).
    Payouts are exact, rounded once by the profile (BAC.pay-player,
    BAC.pay-banker, BAC.pay-tie, BAC.tie-push).
    """
    if not seats:
        raise InvalidRoundError("a baccarat round needs at least one seat", seats=0)
    for index, seat in enumerate(seats):
        _check_seat(rules, index, seat)
    table = _table(rules)
    check_composition(shoe, rules.decks, clause=table.decks[0])
    coup = play_coup(rules.tableau, shoe, tableau_clauses=table.tableau)
    rounding = table.rounding
    lines: list[SettlementLine] = []
    why: list[tuple[str, ...]] = []
    for index, seat in enumerate(seats):
        for bet in seat.bets:
            payout, clauses = _settle(table, coup, bet)
            lines.append(
                settled(
                    seat=index,
                    bet=_NAMES[bet.kind],
                    payout=payout,
                    clauses=clauses,
                    rounding=rounding,
                )
            )
            why.append(clauses)
    return BaccaratRound(
        profile_id=rules.profile_id,
        coup=coup,
        seats=tuple(seats),
        settlement=tuple(lines),
        rules=rules,
        shoe_size=len(shoe),
        why=tuple(why),
    )


# --- what decided each value ----------------------------------------------------------


def citations(played: BaccaratRound) -> dict[str, tuple[str, ...]]:
    """The clauses that decided every value of the coup's state, by path (``oracle.provenance``).

    A card where both accounts have one but differ was dealt out of order (BAC.deal), as is
    any fourth card; whether a hand took its third card is what the coup recorded.
    """
    coup = played.coup
    deal = ("BAC.deal",)
    out: dict[str, tuple[str, ...]] = {
        "phase": deal,
        "turn": deal,
        "cards_dealt": deal,
        "legal_decisions": deal,
        "baccarat.player_cards": deal,
        "baccarat.banker_cards": deal,
        "baccarat.player_total": ("BAC.values",),
        "baccarat.banker_total": ("BAC.values",),
        "baccarat.outcome": _OUTCOME_CLAUSES,
    }
    # Why the coup takes no card beyond those dealt: the banker's rule, else three at most.
    out["cards_dealt+"] = coup.why_banker_third if len(coup.banker) == 2 else deal
    for hand, cards, why in (
        ("player", coup.player, coup.why_player_third),
        ("banker", coup.banker, coup.why_banker_third),
    ):
        if len(cards) > 2:
            out[f"baccarat.{hand}_cards[2]={ABSENT}"] = why
        else:
            out[f"baccarat.{hand}_cards[2]"] = why
    return out


def accepted(rules: BaccaratRules) -> dict[str, tuple[str, ...]]:
    """Why a deal the rules take is not refused, keyed ``error=REASON`` (``oracle.provenance``)."""
    return {
        "error=BET_OUT_OF_LIMITS": rules.limits.clauses,
        "error=INSUFFICIENT_BALANCE": ("CONTRACT.balance",),
        "error=SHOE_NOT_IN_PROFILE": rules.cite("decks"),
        "error=SHOE_EXHAUSTED": ("BAC.deal",),
    }
