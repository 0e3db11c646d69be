"""``evolve`` is ``dataclasses.replace`` for the rules' records; ``Choice`` hashes by identity."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil

import pytest

from croupier import oracle
from croupier.oracle.blackjack import BlackjackSeat, Hand, HandStatus, Option
from croupier.oracle.build import COMPILED
from croupier.oracle.cards import Card, Rank, Suit, parse_cards
from croupier.oracle.decision import Action, Decision
from croupier.oracle.immutable import evolve
from croupier.oracle.rounds import BlackjackWager, RoundRequest, SeatRequest


def test_evolve_changes_what_it_is_told_and_keeps_the_rest() -> None:
    hand = Hand(cards=parse_cards("TH 6S"), stake=10, from_split=True)
    changed = evolve(hand, status=HandStatus.STOOD, why=("BJ.compare",))
    assert changed == dataclasses.replace(hand, status=HandStatus.STOOD, why=("BJ.compare",))
    assert changed.cards == hand.cards
    assert changed.from_split
    assert hand.status is HandStatus.PLAYING  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.stake = 20  # type: ignore[misc]


def test_evolve_refuses_a_name_that_is_not_a_field() -> None:
    hand = Hand(cards=parse_cards("TH 6S"), stake=10)
    with pytest.raises(TypeError, match="no field statu"):
        evolve(hand, statu=HandStatus.STOOD)


def test_choices_hash_as_dict_keys_by_member() -> None:
    pips = {rank: rank.pip for rank in Rank}
    assert pips[Rank.KING] == 10
    assert pips[Rank("A")] == 1
    assert len({Rank.ACE, Rank("A")}) == 1


def test_evolve_builds_a_class_that_writes_its_init_out_through_it() -> None:
    # Decision writes its __init__ out (init=False): evolve builds it by keyword, in either build.
    double = Decision(seat=1, hand=0, action=Action.DOUBLE, amount=5)
    assert evolve(double, hand=2) == Decision(seat=1, hand=2, action=Action.DOUBLE, amount=5)
    with pytest.raises(TypeError, match="no field stake"):
        evolve(double, stake=5)
    # A card writes its __init__ out too, and works its place out from its rank and suit.
    ace = Card.parse("AS")
    assert evolve(ace, suit=Suit.HEARTS) == Card.parse("AH")
    assert evolve(ace, suit=Suit.HEARTS).place == Card.parse("AH").place == 2 * 13
    with pytest.raises(TypeError, match="no field place"):
        evolve(ace, place=0)


def test_a_written_init_keeps_the_dataclass_contract() -> None:
    request = RoundRequest(
        round_id="r-1",
        profile_id="blackjack-a",
        table_id="t",
        currency="EUR",
        seats=(SeatRequest(balance=100, wagers=(BlackjackWager(amount=10),)),),
    )
    # The defaults of the fields, keyword-only arguments, and frozen instances.
    assert (request.shoe, request.pocket) == (None, None)
    assert Decision(seat=0, hand=0, action=Action.HIT).amount is None
    with pytest.raises(TypeError):
        Decision(0, 0, Action.HIT)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.round_id = "r-2"  # type: ignore[misc]
    seat, option = BlackjackSeat(balance=100, stake=10), Option(open=True, why=("BJ.values",))
    card = Card.parse("9D")
    for value in (request, seat, option, Decision(seat=0, hand=1, action=Action.STAND), card):
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value  # noqa: S301 - bytes it just made
        assert dataclasses.replace(value) == value
    # A card copied keeps its place (the 9 of diamonds: 13 + 8).
    assert copy.deepcopy(card).place == pickle.loads(pickle.dumps(card)).place == 21  # noqa: S301
    assert dataclasses.replace(card, suit=Suit.CLUBS).place == 8
    assert dataclasses.replace(seat, stake=20) == BlackjackSeat(balance=100, stake=20)


def _written_inits() -> list[type]:
    """Every record of the rules core that writes its ``__init__`` out (``init=False``)."""
    found: list[type] = []
    for info in pkgutil.iter_modules(oracle.__path__):
        if info.name.startswith("_") or info.name in ("build", "service"):
            continue
        module = importlib.import_module(f"croupier.oracle.{info.name}")
        for value in vars(module).values():
            params = getattr(value, "__dataclass_params__", None)
            if params is not None and value.__module__ == module.__name__ and not params.init:
                found.append(value)
    return found


def test_the_records_that_write_their_init_out_are_found() -> None:
    names = {cls.__name__ for cls in _written_inits()}
    assert {"Decision", "Round", "RoundRequest", "BlackjackSeat", "Option", "Card"} <= names


@pytest.mark.parametrize("cls", _written_inits(), ids=lambda cls: cls.__name__)
def test_a_written_init_takes_the_fields_as_the_generated_one_would(cls: type) -> None:
    if oracle.BUILD == COMPILED:
        pytest.skip("a compiled __init__ shows no signature: the pure build checks it")
    signature = inspect.signature(cls.__init__)
    parameters = list(signature.parameters.values())[1:]
    # The fields it takes: one it works out (``Card.place``) says init=False, as it would.
    fields = [field for field in dataclasses.fields(cls) if field.init]
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        # As the generated one would: by keyword where the dataclass says kw_only.
        kind = (
            inspect.Parameter.KEYWORD_ONLY
            if field.kw_only
            else inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
        assert parameter.kind is kind, parameter.name
        assert field.default_factory is dataclasses.MISSING, field.name
        default = inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        assert parameter.default == default, field.name
