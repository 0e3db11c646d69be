"""The coverage rule of DESIGN.md "Vectors": every value a profile may give a parameter is pinned.

For every parameter a shipped profile lists, and every alternative legal value of it, the
profile with that one parameter flipped must give a different expected result for at least
one vector of the profile's shipped corpus (hand-written vectors first, then the campaign;
the search stops at the first difference). A parameter no vector notices is a rule the
corpus does not test: an engine could get it wrong and still pass.

Alternatives: a bool takes the other value; a choice every other legal choice; an int
``value - 1`` if legal, else ``value + 1`` (``history_length`` both 12 and 14); odds one more
on the numerator, same base; a fraction ``value + 1/100``; a rounding rule every other mode.
"""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest

from croupier.conformance.cases import Case, CaseRound, build_case
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import CORPUS_DIR, read_vectors, replay
from croupier.oracle.clauses import Game
from croupier.oracle.errors import ProfileError
from croupier.oracle.money import Odds, Rounding
from croupier.oracle.parameters import SPECS, Kind, ParamSpec
from croupier.oracle.profile import (
    SHIPPED_IDS,
    Parameter,
    Profile,
    load_profile_text,
    shipped_profile,
)

Raw = bool | int | str | tuple[str, ...]


def _decimal(value: Fraction) -> str:
    """An exact decimal text of a fraction with a finite decimal form (``0.06``, ``4``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


def _toml(value: Raw) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(word) for word in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)  # a TOML basic string for the plain words and odds used here


def _shown(value: Raw) -> str:
    """A test id's form of a value: TOML's ``true``, ``13``, ``half-even``; a set by its size."""
    if isinstance(value, tuple):
        every = SPECS[Game.ROULETTE]["bets_offered"].choices
        missing = [word for word in every if word not in value]
        return (
            "+".join(word for word in value)
            if len(value) < len(missing)
            else ("every-kind-but-" + "+".join(missing) if missing else "every-kind")
        )
    return value if isinstance(value, str) else _toml(value)


def _legal(profile: Profile, param: Parameter, raw: Raw) -> bool:
    spec = SPECS[profile.game][param.name]
    try:
        spec.convert(raw)
    except ValueError:
        return False
    return True


def alternatives(profile: Profile, param: Parameter) -> list[Raw]:
    """The other legal values the coverage rule tries for one listed parameter."""
    spec = SPECS[profile.game][param.name]
    value = param.value
    match spec.kind:
        case Kind.BOOL:
            return [not value]
        case Kind.CHOICE:
            return [c for c in spec.choices if c != value]
        case Kind.INT:
            assert isinstance(value, int)
            if param.name == "history_length":
                return [v for v in (value - 1, value + 1) if _legal(profile, param, v)]
            return [value - 1 if _legal(profile, param, value - 1) else value + 1]
        case Kind.ODDS:
            assert isinstance(value, Odds)
            return [f"{_decimal(value.win + 1)}:{value.per}"]
        case Kind.FRACTION:
            assert isinstance(value, Fraction)
            return [_decimal(value + Fraction(1, 100))]
        case Kind.ROUNDING:
            return [r.value for r in Rounding if r is not value]


def flipped_profile(profile_id: str, name: str, raw: Raw) -> Profile:
    """The shipped profile with one parameter changed, as a lab would write it.

    The parameter's clauses are written as the shipped profile lists them, so that a value
    choosing a variant (``ParamSpec.variant``) changes what is played, not what is cited.
    """
    listed = shipped_profile(profile_id).parameter(name)
    assert listed is not None, f"{profile_id} does not list {name}"
    clauses = ", ".join(f'"{c}"' for c in listed.clauses)
    return load_profile_text(
        f'id = "flip"\nextends = "{profile_id}"\n[parameters]\n'
        f"{name} = {{ value = {_toml(raw)}, clauses = [{clauses}] }}\n"
    )


@cache
def corpus_vectors(profile_id: str, part: str) -> tuple[vector_pb2.Vector, ...]:
    """One part (``hand`` or ``campaign``) of a profile's shipped corpus."""
    path = CORPUS_DIR / f"{profile_id}.{part}.binpb.gz"
    return tuple(loaded.vector for loaded in read_vectors(path))


def _bytes(vector: vector_pb2.Vector) -> bytes:
    return vector.SerializeToString(deterministic=True)


def first_changed(profile: Profile, profile_id: str) -> str | None:
    """The id of the first vector whose expected result changes under ``profile``."""
    for part in ("hand", "campaign"):
        for vector in corpus_vectors(profile_id, part):
            if _bytes(replay(vector, profile)) != _bytes(vector):
                return vector.id
    return None


#: One test per (profile, listed parameter, alternative value).
FLIPS = [
    pytest.param(profile_id, param.name, raw, id=f"{profile_id}:{param.name}={_shown(raw)}")
    for profile_id in SHIPPED_IDS
    for param in shipped_profile(profile_id).parameters
    for raw in alternatives(shipped_profile(profile_id), param)
]


@pytest.mark.parametrize(("profile_id", "name", "raw"), FLIPS)
def test_flipping_a_parameter_changes_some_vector(profile_id: str, name: str, raw: Raw) -> None:
    shipped = shipped_profile(profile_id)
    flipped = flipped_profile(profile_id, name, raw)
    assert flipped[name] != shipped[name], "the alternative is the shipped value"
    changed = [p.name for p in flipped.parameters if p.value != shipped[p.name]]
    assert changed == [name], "the flip must change this one parameter alone"
    assert first_changed(flipped, profile_id) is not None, (
        f"no {profile_id} vector notices {name} = {raw!r} instead of {shipped[name]!r}: "
        "add a hand-written case whose outcome depends on it"
    )


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_an_unchanged_copy_of_the_profile_changes_nothing(profile_id: str) -> None:
    """The flips' control: extending a profile without changing it reproduces every vector.

    So a difference found above comes from the flipped value, not from the copy's id.
    """
    same = load_profile_text(f'id = "flip"\nextends = "{profile_id}"\n')
    for vector in corpus_vectors(profile_id, "hand"):
        assert _bytes(replay(vector, same)) == _bytes(vector), vector.id


def test_every_listed_parameter_has_an_alternative() -> None:
    for profile in (shipped_profile(pid) for pid in SHIPPED_IDS):
        for param in profile.parameters:
            alts = alternatives(profile, param)
            assert alts, f"{profile.id}: {param.name} has no alternative to try"
            for raw in alts:
                assert _legal(profile, param, raw), f"{profile.id}: {param.name} = {raw!r}"


def _listed(profile: Profile, name: str) -> Parameter:
    param = profile.parameter(name)
    assert param is not None, f"{profile.id} does not list {name}"
    return param


def test_alternatives_follow_the_rule() -> None:
    """Spot checks of the alternatives themselves, worked out by hand."""
    a = shipped_profile("blackjack-a")
    assert alternatives(a, _listed(a, "decks")) == [5]
    assert alternatives(a, _listed(a, "max_hands")) == [3]  # 1 is below the minimum of 2
    assert alternatives(a, _listed(a, "min_bet")) == [2]  # 0 is below the minimum of 1
    assert alternatives(a, _listed(a, "max_bet")) == [999999]
    assert alternatives(a, _listed(a, "surrender")) == [True]
    assert alternatives(a, _listed(a, "blackjack_pays")) == ["4:2"]
    assert alternatives(a, _listed(a, "split_pairs")) == ["same-rank", "same-value"]
    assert alternatives(a, _listed(a, "rounding")) == ["up", "half-up", "half-even"]
    b = shipped_profile("baccarat-b")
    assert alternatives(b, _listed(b, "banker_commission")) == ["0.06"]
    assert alternatives(b, _listed(b, "tableau")) == ["standard"]
    r = shipped_profile("roulette-c")
    assert alternatives(r, _listed(r, "history_length")) == [12, 14]
    assert alternatives(r, _listed(r, "wheel")) == ["american"]
    assert alternatives(r, _listed(r, "straight_pays")) == ["36:1"]


# --- every value a lab may choose -----------------------------------------------------------
#
# Labs extend a shipped profile and set any legal value, so the rule reaches past the shipped
# values: walking oracle/parameters.py, every two values a parameter may take are told apart,
# by a shipped hand-written vector replayed under both (the profiles of the parameter's game,
# each with CONTEXT's settings), or by a hand-computed round below. Finite kinds take every
# pair; numbers take neighbours among the values below (every deck count, every hand count;
# elsewhere the shipped values and the values next to them).


def lab_values(game: Game, spec: ParamSpec) -> tuple[Raw, ...]:
    """The values of one parameter the rule tells apart, in order."""
    shipped = [
        p[spec.name] for p in (shipped_profile(pid) for pid in SHIPPED_IDS) if p.game is game
    ]
    match spec.kind:
        case Kind.BOOL:
            return (False, True)
        case Kind.CHOICE | Kind.ROUNDING:
            return spec.choices
        case Kind.INT:
            low = spec.minimum if spec.minimum is not None else 1
            high = spec.maximum if spec.maximum is not None and spec.maximum <= 8 else None
            if high is not None:  # decks, max_hands: every value
                return tuple(range(low, high + 1))
            ints = {low, low + 1} | {
                n + d for n in shipped if isinstance(n, int) for d in (-1, 0, 1)
            }
            top = spec.maximum if spec.maximum is not None else max(ints)
            return tuple(sorted(n for n in ints if low <= n <= top))
        case Kind.ODDS:
            odds = {o for o in shipped if isinstance(o, Odds)}
            odds |= {Odds(win=o.win + 1, per=o.per) for o in set(odds)}
            return tuple(f"{_decimal(o.win)}:{o.per}" for o in sorted(odds, key=lambda o: o.ratio))
        case Kind.ODDS_OR_NONE:
            # The usual variant's odds (1:2 on a banker 6) and the next, beside "none".
            return ("none", "1:2", "2:2")
        case Kind.WORDS:
            return spec.choices
        case Kind.FRACTION:
            fractions = {f for f in shipped if isinstance(f, Fraction)} | {Fraction(0)}
            fractions |= {f + Fraction(1, 100) for f in set(fractions)}
            return tuple(_decimal(f) for f in sorted(fractions))
    raise AssertionError(spec.kind)


#: The European layout's kinds: a set of bet kinds is checked on the first roulette base,
#: roulette-c, whose layout has no top line (a lab may not offer a kind its wheel lacks).
_EUROPEAN_KINDS = tuple(k for k in SPECS[Game.ROULETTE]["bets_offered"].choices if k != "top-line")


def value_pairs(game: Game, spec: ParamSpec) -> list[tuple[Raw, Raw]]:
    if spec.kind is Kind.WORDS:
        # A set tells each word apart: with it, and without it (a bet of that kind taken, or
        # refused). Every kind, on the European layout; the top line from the default set.
        every = spec.choices
        return [(every, _EUROPEAN_KINDS)] + [
            (_EUROPEAN_KINDS, tuple(k for k in _EUROPEAN_KINDS if k != word))
            for word in _EUROPEAN_KINDS
        ]
    values = lab_values(game, spec)
    if spec.kind in (Kind.BOOL, Kind.CHOICE, Kind.ROUNDING, Kind.ODDS_OR_NONE):
        return list(itertools.combinations(values, 2))
    return list(itertools.pairwise(values))


#: Settings under which a parameter can matter on the shipped profiles' vectors, tried in
#: turn after the shipped settings themselves.
CONTEXT: dict[tuple[Game, str], tuple[dict[str, Raw], ...]] = {
    # 3:2 on whole stakes leaves at most a half, where up and half-up agree; 6:5 leaves fifths.
    (Game.BLACKJACK, "rounding"): ({"blackjack_pays": "6:5"},),
    # Only the half back of an even chance can leave a fraction on a roulette table.
    (Game.ROULETTE, "rounding"): ({"zero_rule": "half-back"},),
    # No-commission play takes no commission (VAR.bac.ez); the shipped profiles take 5%.
    (Game.BACCARAT, "no_commission"): ({"banker_commission": "0"},),
}

#: Pairs of values no round can tell apart, and why: the rule's only exceptions.
SAME_EFFECT: dict[tuple[Game, str, Raw, Raw], str] = {
    (Game.BLACKJACK, "half_stake_rounding", "up", "half-up"): (
        "a half stake is whole or ends in .5, and up and half-up both raise a half"
    ),
    (Game.ROULETTE, "rounding", "up", "half-up"): (
        "half of a whole stake is whole or ends in .5, and up and half-up both raise a half"
    ),
}


def _shoe_with(copies: int, game: Game) -> str:
    """A shoe that plays one short round (player 200 back) and holds ``copies`` aces of spades."""
    # Blackjack: player TS 9D = 19 stands, dealer 7H TC = 17: 200. Baccarat: player 7S 9D =
    # 6 stands, banker 4H 6C = 0 draws 3C: 3; player 200. Neither deals the AS.
    round_cards = "TS 7H 9D TC" if game is Game.BLACKJACK else "7S 4H 9D 6C 3C"
    return f"{round_cards} {' '.join(['AS'] * copies)}"


def _seats_scenario(game: Game, a: int, b: int) -> tuple[CaseRound, CaseRound]:
    """As many seats as the larger limit: refused under the smaller (TABLE.seats), else played."""
    seats = max(a, b)
    if game is Game.BLACKJACK:
        # Seat i: a ten-valued card (16 different ones), then a nine: 19 stands. Dealer 7H TC
        # = 17 stands: each seat 200 back. Six decks hold every card the shoe repeats.
        tens = [f"{rank}{suit}" for rank in "TJQK" for suit in "CDHS"][:seats]
        nines = [f"9{suit}" for suit in "CDHS" * 4][:seats]
        shoe = " ".join([*tens, "7H", *nines, "TC"])
        played = CaseRound(
            seats=("1000:100",) * seats,
            shoe=shoe,
            decisions=" ".join(["stand"] * seats),
            returns=(200,) * seats,
        )
    elif game is Game.BACCARAT:
        # Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C: 3; every player bet 200 back.
        played = CaseRound(
            seats=("1000:player=100",) * seats, shoe="7S 4H 9D 6C 3C", returns=(200,) * seats
        )
    else:
        played = CaseRound(seats=("1000:red=100",) * seats, pocket="1", returns=(200,) * seats)
    refused = CaseRound(
        seats=played.seats, shoe=played.shoe, pocket=played.pocket, error="TOO_MANY_SEATS"
    )
    return (refused, played) if a < b else (played, refused)


#: One bet of each kind of the European layout and what a stake of 10 returns on pocket 1
#: (C.rou.wheel: 1 is red, odd, low, in column 1 and dozen 1).
_ON_POCKET_ONE: dict[str, tuple[str, int | None]] = {
    "straight": ("straight 1", 360),
    "split": ("split 1-2", 180),
    "street": ("street 1-2-3", 120),
    "corner": ("corner 1-2-4-5", 90),
    "first-four": ("first-four 0-1-2-3", 90),
    # No shape of the European layout: refused by C.rou.geometry where offered at all.
    "top-line": ("top-line 0-00-1-2-3", None),
    "line": ("line 1-2-3-4-5-6", 60),
    "column": ("column 1", 30),
    "dozen": ("dozen 1", 30),
    "red": ("red", 20),
    "black": ("black", 0),
    "even": ("even", 0),
    "odd": ("odd", 20),
    "low": ("low", 20),
    "high": ("high", 0),
}


def _offered_scenario(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[CaseRound, CaseRound]:
    """A bet of the one kind ``a`` and ``b`` disagree on: taken where offered, else refused."""
    (word,) = set(a) ^ set(b)
    bet, back = _ON_POCKET_ONE[word]
    seat = (f"1000:{bet}=10",)
    refused = CaseRound(seats=seat, pocket="1", error="BET_NOT_OFFERED")
    if back is None:
        taken = CaseRound(seats=seat, pocket="1", error="INVALID_BET_LAYOUT")
    else:
        taken = CaseRound(seats=seat, pocket="1", returns=(back,))
    return (taken, refused) if word in a else (refused, taken)


def scenario(game: Game, name: str, a: Raw, b: Raw) -> tuple[CaseRound, CaseRound] | None:
    """A hand-computed round under ``a`` and under ``b``, for values no shipped vector meets."""
    if name == "decks":
        assert isinstance(a, int)
        assert isinstance(b, int)
        more = max(a, b)  # one copy more than the smaller shoe holds
        seat = "1000:100" if game is Game.BLACKJACK else "1000:player=100"
        decisions = "stand" if game is Game.BLACKJACK else ""
        shoe = _shoe_with(more, game)
        refused = CaseRound(seats=(seat,), shoe=shoe, error="SHOE_NOT_IN_PROFILE")
        played = CaseRound(seats=(seat,), shoe=shoe, decisions=decisions, returns=(200,))
        return (refused, played) if a < b else (played, refused)
    if name in ("min_bet", "max_bet"):
        assert isinstance(a, int)
        assert isinstance(b, int)
        # min_bet: a stake of the smaller value, refused under the larger minimum. max_bet: a
        # stake of the larger value, refused under the smaller maximum.
        low, high = min(a, b), max(a, b)
        stake, refused_under = (low, high) if name == "min_bet" else (high, low)
        seat, shoe, pocket, decisions = {
            # Player TS 9D = 19 stands against 7H TC = 17.
            Game.BLACKJACK: (f"{3 * stake}:{stake}", "TS 7H 9D TC", "", "stand"),
            # Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C: 3.
            Game.BACCARAT: (f"{3 * stake}:player={stake}", "7S 4H 9D 6C 3C", "", ""),
            # 1 is red.
            Game.ROULETTE: (f"{3 * stake}:red={stake}", "", "1", ""),
        }[game]
        won = CaseRound(
            seats=(seat,), shoe=shoe, pocket=pocket, decisions=decisions, returns=(2 * stake,)
        )
        refused = CaseRound(seats=(seat,), shoe=shoe, pocket=pocket, error="BET_OUT_OF_LIMITS")
        return (refused, won) if refused_under == a else (won, refused)
    if name == "max_seats":
        assert isinstance(a, int)
        assert isinstance(b, int)
        return _seats_scenario(game, a, b)
    if name == "bets_offered":
        assert isinstance(a, tuple)
        assert isinstance(b, tuple)
        return _offered_scenario(a, b)
    if game is Game.BLACKJACK and name == "max_hands" and isinstance(a, int) and a >= 3:
        # From three hands on, a re-split of eights to the larger count (two hands are told
        # apart by the shipped vectors' splits).
        assert isinstance(b, int)
        refused, played = _resplits(min(a, b))
        return (refused, played) if a < b else (played, refused)
    if game is Game.BLACKJACK and name == "double_on":
        return _double_on(str(a), str(b))
    if (game, name) == (Game.BLACKJACK, "resplit_aces"):
        # AS AD against 6H, hole TC; split; hand 0 takes AC: aces again. Re-split (max_hands
        # 3 by SCENARIO_CONTEXT): the hands AS AD AC take TD TH TS, three plain 21s (split 21
        # is not a blackjack); the dealer's 16 draws 6S: 22; each hand 200 back.
        shoe = "AS 6H AD TC AC TD TH TS 6S"
        refused = CaseRound(seats=("1000:100",), shoe=shoe, decisions="split split", error=ILLEGAL)
        resplit = CaseRound(
            seats=("1000:100",), shoe=shoe, decisions="split split", returns=(200, 200, 200)
        )
        return (refused, resplit) if a is False else (resplit, refused)
    if (game, name) == (Game.BLACKJACK, "surrender_timing"):
        # Document A peeks under a ten: TS 6D against KH, hole AC. Late: the look ends the
        # round, 0 back. Early: asked before the look, the hand surrenders: 50 back.
        shoe = "TS KH 6D AC"
        late = CaseRound(seats=("1000:100",), shoe=shoe, returns=(0,))
        early = CaseRound(seats=("1000:100",), shoe=shoe, decisions="surrender", returns=(50,))
        return (late, early) if a == "late" else (early, late)
    if (game, name) == (Game.BLACKJACK, "double_for_less"):
        # 5S 6D = 11 against 7H, hole TC (17): double for 50, TS: 21; the stake 150 wins:
        # 300. Without the variant the amount is refused.
        shoe, decisions = "5S 7H 6D TC TS", "double=50"
        less = CaseRound(seats=("1000:100",), shoe=shoe, decisions=decisions, returns=(300,))
        refused = CaseRound(seats=("1000:100",), shoe=shoe, decisions=decisions, error=ILLEGAL)
        return (refused, less) if a is False else (less, refused)
    if (game, name) == (Game.BLACKJACK, "insurance_stake"):
        # 9S 8D against AH, hole KC: insure for 20; the blackjack takes the hand (0) and pays
        # the insurance 2:1 (60). Half only: the amount is refused.
        shoe, decisions = "9S AH 8D KC", "insurance=20"
        less = CaseRound(seats=("1000:100",), shoe=shoe, decisions=decisions, returns=(0, 60))
        refused = CaseRound(seats=("1000:100",), shoe=shoe, decisions=decisions, error=ILLEGAL)
        return (refused, less) if a == "half" else (less, refused)
    if (game, name) == (Game.BLACKJACK, "hole_card"):
        # TS 6D = 16 against 7H, hole TC, hits 9C: 25, bust, 0 back. Only the state differs:
        # the hole card turned (always) or face down, no hand being compared (showdown).
        bust = CaseRound(seats=("1000:100",), shoe="TS 7H 6D TC 9C", decisions="hit", returns=(0,))
        return bust, bust
    return None


ILLEGAL = "ILLEGAL_DECISION"


def _resplits(hands: int) -> tuple[CaseRound, CaseRound]:
    """Eights split ``hands`` times: refused at the last split under ``hands``, played under one more.

    8S 8D against 6H, hole TC. Each split leaves hand 0 one eight, and its next card is another
    eight, until the last split; then every hand takes a ten: 18s. The dealer's 16 draws 6S:
    22, bust; each hand 200 back.
    """
    suits = "SDCH"
    eights = [f"8{suits[i % 4]}" for i in range(2, hands + 1)]
    tens = [f"T{suits[i % 4]}" for i in range(hands + 1)]
    shoe = " ".join(["8S", "6H", "8D", "TC", *eights, *tens, "6S"])
    splits = " ".join(["split"] * hands)
    seats = ("1000:100",)
    refused = CaseRound(seats=seats, shoe=shoe, decisions=splits, error=ILLEGAL)
    played = CaseRound(
        seats=seats,
        shoe=shoe,
        decisions=" ".join([splits, *["stand"] * (hands + 1)]),
        returns=(200,) * (hands + 1),
    )
    return refused, played


def _double_on(a: str, b: str) -> tuple[CaseRound, CaseRound]:
    """A double one value takes and the other refuses (VAR.bj.double-on).

    Against 7H, hole TC (17, stands), the double's card TS: a two-card 8 (5S 3D) doubles to 18
    under any-two or any-cards; a two-card 9 (5S 4D) to 19 under nine-to-eleven; a three-card
    9 (2S 3D, hit 4C) to 19 under any-cards only. Each beats 17: the doubled 200 returns 400.
    """
    pair = {a, b}
    if pair == {"nine-to-eleven", "ten-eleven"}:
        shoe, decisions, takes = "5S 7H 4D TC TS", "double", "nine-to-eleven"
    elif pair == {"any-two", "any-cards"}:
        shoe, decisions, takes = "2S 7H 3D TC 4C TS", "hit double", "any-cards"
    else:
        shoe, decisions, takes = "5S 7H 3D TC TS", "double", a if a.startswith("any") else b
    seats = ("1000:100",)
    won = CaseRound(seats=seats, shoe=shoe, decisions=decisions, returns=(400,))
    refused = CaseRound(seats=seats, shoe=shoe, decisions=decisions, error=ILLEGAL)
    return (won, refused) if a == takes else (refused, won)


#: Settings a scenario's value needs beside it (re-split aces need a third hand).
SCENARIO_CONTEXT: dict[tuple[Game, str], dict[str, Raw]] = {
    (Game.BLACKJACK, "resplit_aces"): {"max_hands": 3},
    (Game.BLACKJACK, "surrender_timing"): {"surrender": True},
}


def lab_profile(base: str, settings: dict[str, Raw]) -> Profile:
    """A lab's profile: a shipped one with some parameters set.

    A parameter the shipped profile does not list needs its clauses and a status too; one it
    lists keeps its clauses as written (a value that chooses a variant would cite it first).
    """
    parent = shipped_profile(base)
    lines = []
    for name, raw in settings.items():
        listed = parent.parameter(name)
        cited = SPECS[parent.game][name].clauses if listed is None else listed.clauses
        clauses = ", ".join(f'"{c}"' for c in cited)
        extra = f", clauses = [{clauses}]" + (', status = "assumed"' if listed is None else "")
        lines.append(f"{name} = {{ value = {_toml(raw)}{extra} }}")
    body = "\n".join(lines)
    return load_profile_text(f'id = "lab"\nextends = "{base}"\n[parameters]\n{body}\n')


def told_apart(game: Game, name: str, a: Raw, b: Raw) -> str | None:
    """What tells ``a`` from ``b``: a vector id, or ``scenario``; None if nothing does."""
    bases = [pid for pid in SHIPPED_IDS if shipped_profile(pid).game is game]
    found = scenario(game, name, a, b)
    if found is not None:
        built = []
        for value, cround in zip((a, b), found, strict=True):
            case = Case(
                id="lab-h000",
                name=f"lab/{name}/{_shown(value)}",
                profile="lab",
                clauses=SPECS[game][name].clauses,
                description="A lab's value told apart.",
                rounds=(cround,),
            )
            # build_case checks the hand-computed outcome against the oracle under the value.
            settings = {**SCENARIO_CONTEXT.get((game, name), {}), name: value}
            built.append(_bytes(build_case(case, lab_profile(bases[0], settings))))
        return "scenario" if built[0] != built[1] else None
    for context in ({}, *CONTEXT.get((game, name), ())):
        for base in bases:
            try:
                under_a = lab_profile(base, {**context, name: a})
                under_b = lab_profile(base, {**context, name: b})
            except ProfileError:
                continue  # values this base cannot take together (no commission with 5%)
            for vector in corpus_vectors(base, "hand"):
                if _bytes(replay(vector, under_a)) != _bytes(replay(vector, under_b)):
                    return vector.id
    return None


LAB_PAIRS = [
    pytest.param(game, name, a, b, id=f"{game.value}:{name}:{_shown(a)}~{_shown(b)}")
    for game, specs in SPECS.items()
    for name, spec in specs.items()
    for a, b in value_pairs(game, spec)
    if (game, name, a, b) not in SAME_EFFECT
]


@pytest.mark.parametrize(("game", "name", "a", "b"), LAB_PAIRS)
def test_every_two_values_a_lab_may_choose_are_told_apart(
    game: Game, name: str, a: Raw, b: Raw
) -> None:
    assert told_apart(game, name, a, b) is not None, (
        f"{game.value}: nothing tells {name} = {a!r} from {b!r}: add a hand-written case whose "
        "outcome depends on it, or a scenario in this module"
    )


def test_the_exceptions_are_pairs_the_walk_meets() -> None:
    for game, name, a, b in SAME_EFFECT:
        assert (a, b) in value_pairs(game, SPECS[game][name]), (game, name, a, b)


def test_lab_values_follow_the_rule() -> None:
    """Spot checks of the walk itself, worked out by hand from oracle/parameters.py."""
    bj, bac, rou = SPECS[Game.BLACKJACK], SPECS[Game.BACCARAT], SPECS[Game.ROULETTE]
    assert lab_values(Game.BLACKJACK, bj["decks"]) == (1, 2, 3, 4, 5, 6, 7, 8)
    assert lab_values(Game.BLACKJACK, bj["max_hands"]) == (2, 3, 4, 5, 6, 7, 8)
    assert lab_values(Game.BLACKJACK, bj["double_on"]) == (
        "any-two",
        "nine-to-eleven",
        "ten-eleven",
        "any-cards",
    )
    assert lab_values(Game.BLACKJACK, bj["split_pairs"]) == (
        "same-rank",
        "same-rank-or-pictures",
        "same-value",
    )
    assert lab_values(Game.ROULETTE, rou["history_length"]) == (1, 2, 12, 13, 14)
    assert lab_values(Game.BACCARAT, bac["banker_commission"]) == ("0", "0.01", "0.05", "0.06")
    assert len(value_pairs(Game.BLACKJACK, bj["rounding"])) == 6
