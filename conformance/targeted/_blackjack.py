"""Generators of the blackjack parameters: the deciding shoe and plan of each.

Shoes are in contract order (BJ.deal-order): a card to each seat, the up card, a second card
to each seat, the hole card, then every card as it is drawn. One seat of balance 1000
staking 100 unless said. Each generator proposes a few rounds; the builder keeps the first
whose expectations change under the other value, so a generator may offer a round that
decides only some of the values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.conformance.targeted._table import rounding_reason, small_stakes
from croupier.conformance.targeted.probe import Probe, ProbeRound, probe
from croupier.oracle.profile import Profile

_SEAT = ("1000:100",)


def _p(topic: str, shoe: str, plan: str = "", seats: tuple[str, ...] = _SEAT) -> Probe:
    return probe(topic, ProbeRound(seats=seats, shoe=shoe, plan=plan))


def _always(*probes: Probe) -> Callable[[Profile, Profile], Sequence[Probe]]:
    """The generator of a parameter whose deciding rounds are the same whatever the profiles."""

    def generate(_profile: Profile, _other: Profile) -> Sequence[Probe]:
        return list(probes)

    return generate


_soft_17 = _always(
    # TS 8D = 18 against 6H AC, a soft 17: standing, 18 wins; drawing 2C, 19 beats it.
    _p("an 18 against a soft 17", "TS 6H 8D AC 2C", "stand"),
    _p("a 17 against a soft 17", "TS 6H 7D AC 3C", "stand"),
)


_blackjack_pays = _always(
    _p("a player blackjack against 7H TC", "AS 7H KD TC"),
)


_insurance = _always(
    # TS 9D against AH: insurance asked for against the ace, offered or refused.
    _p("insurance against an ace, hole 7C", "TS AH 9D 7C", "insurance stand"),
    _p("insurance against a blackjack", "TS AH 9D KC", "insurance"),
)


def _insured(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if not profile.flag("insurance"):
        return "the profile offers no insurance"
    return [
        _p("insurance against a blackjack", "TS AH 9D KC", "insurance"),
        _p("insurance lost, hole 7C", "TS AH 9D 7C", "insurance stand"),
    ]


_insurance_stake = _always(
    _p("insurance of 20 against a blackjack", "TS AH 9D KC", "insurance=20"),
    _p("insurance of 20, hole 7C", "TS AH 9D 7C", "insurance=20 stand"),
    _p("insurance of 1 against a blackjack", "TS AH 7D KD", "insurance=1"),
    _p("insurance of 49 against a blackjack", "9S AH 8D QC", "insurance=49"),
)


def _blackjack_vs_ace(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    pair = {profile.choice("blackjack_vs_ace"), other.choice("blackjack_vs_ace")}
    if pair == {"insurance", "nothing"} and not profile.flag("insurance"):
        return "the profile offers no insurance, to a blackjack or any other hand"
    # AS KD, a player blackjack, against AH.
    return [
        _p(f"a blackjack against an ace: {plan or 'no answer'}", f"AS AH KD {hole}", plan)
        for hole in ("7C", "KC")
        for plan in ("even-money", "insurance", "decline-even-money", "decline-insurance", "")
    ]


def _after_insurance(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if not profile.flag("insurance"):
        return "the profile offers no insurance, so none is taken before a double or a split"
    return [
        _p("a split after insurance", "8S AH 8D 7C TS TD", "insurance split"),
        _p("a double after insurance", "5S AH 6D 7C TS", "insurance double"),
    ]


_peek = _always(
    _p("a dealer blackjack under a ten", "TS KH 6D AC 5C", "stand"),
    _p("a dealer blackjack under an ace", "TS AH 6D KC 5C", "stand"),
)


def _paid_at_once(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if profile.choice("hole_card") == "showdown":
        # A blackjack paid at once leaves the hole card down; so does one paid at the end
        # with no other hand to compare (VAR.bj.hole-card).
        return "the hole card is shown only at a showdown, which a blackjack never is"
    if profile.flag("dealer_draws_when_not_needed"):
        # Paid at once, a blackjack only spares the hole card's turn, which this dealer
        # makes anyway (BJ.dealer-needed).
        return "the dealer turns the hole card and draws whether or not a hand waits"
    return [
        _p("a player blackjack against 7H", "AS 7H KD TC"),
        _p("a player blackjack against 9H", "AS 9H KD 8C"),
        # Seat 0 AS KD beside seat 1's 19 (9C TS), which plays on against 7H TC.
        _p("a blackjack beside a hand that plays", "AS 9C 7H KD TS TC", "stand", _SEAT * 2),
    ]


def _late_blackjack(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if profile.choice("peek") == "ace-or-ten":
        return "the dealer looks under an ace and a ten before play: no blackjack is found later"
    return [
        _p("a double, then a dealer blackjack under a ten", "5S KH 5D AC 9C", "double"),
        _p("a split, then a dealer blackjack under a ten", "8S KH 8D AC TC TD", "split"),
        _p("a double, then a dealer blackjack under an ace", "5S AH 5D KC 9C", "double"),
    ]


_double_on = _always(
    # Against 7H TC (17, stands); the double's card TS.
    _p("a double on a two-card 8", "5S 7H 3D TC TS", "double"),
    _p("a double on a two-card 9", "5S 7H 4D TC TS", "double"),
    _p("a double on a two-card 10", "6S 7H 4D TC TS", "double"),
    _p("a double on a two-card 11", "5S 7H 6D TC TS", "double"),
    _p("a double on a two-card 12", "TS 7H 2D TC 5C", "double"),
    _p("a double on a soft 19", "AS 7H 8D TC TS", "double"),
    _p("a double on three cards", "2S 7H 3D TC 4C TS", "hit double"),
)


_double_for_less = _always(
    _p("a double for 50 on 11", "5S 7H 6D TC TS", "double=50"),
    _p("a double for 50 on 10", "6S 7H 4D TC TS", "double=50"),
    _p("a double for 25 on 10", "5S 7H 5D TC 9S", "double=25"),
    _p("a double for 75 on 11, lost", "5S 7H 6D TC 2S", "double=75"),
)


_double_after_split = _always(
    # Eights split against 6H TC; hand 0 takes 3C: 11, doubles.
    _p("a double after a split", "8S 6H 8D TC 3C TS 2C TH", "split double"),
)


_split_pairs = _always(
    _p("a split of two pictures", "JS 7H QD TC 9C 8C", "split"),
    _p("a split of a ten and a jack", "TS 7H JD TC 9C 8C", "split"),
    _p("a split of eights", "8S 7H 8D TC TS TD", "split"),
)


def _resplits(hands: int, up: str = "6H") -> Probe:
    """Eights split ``hands`` times against ``up`` KC: refused at the last under ``hands`` at most.

    Each split leaves hand 0 one eight, whose next card is another eight, until the last
    split; then every hand takes a ten: 18s. The dealer draws 6S.
    """
    suits = "SDCH"
    eights = [f"8{suits[i % 4]}" for i in range(2, hands + 1)]
    # Ten-valued cards all different, and none the hole card's: a single deck holds them.
    tens = [f"{rank}{suit}" for rank in "TJQ" for suit in suits][: hands + 1]
    shoe = " ".join(["8S", up, "8D", "KC", *eights, *tens, "6S"])
    return _p(f"eights split {hands} times against {up}", shoe, " ".join(["split"] * hands))


def _max_hands(profile: Profile, other: Profile) -> Sequence[Probe]:
    hands = min(profile.integer("max_hands"), other.integer("max_hands"))
    return [_resplits(hands, up) for up in ("6H", "5H", "4H")]


_resplit_aces = _always(
    # AS AD against 6H TC; hand 0 takes AC: aces again.
    _p("aces split again", "AS 6H AD TC AC TD TH TS 6S", "split split"),
    _p("aces split again against a 5", "AS 5H AD TC AC JD JH JS 6S", "split split"),
    _p("aces split again against a 4", "AS 4H AD TC AC QD QH QS 6S", "split split"),
)


_hit_split_aces = _always(
    _p("a hit on split aces", "AS 6H AD TC 2C 5D TH TS 6S", "split hit"),
)


_split_21 = _always(
    _p("split aces that make 21", "AS 7H AD TC KC QD", "split"),
)


_surrender = _always(
    _p("a surrender of 16 against a 9", "TS 9H 6D 8C", "surrender"),
)


def _surrender_timing(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if profile.choice("peek") == "none":
        return "the dealer never looks before play: early and late surrender come alike"
    return [
        _p("a surrender against a dealer blackjack under a ten", "TS KH 6D AC", "surrender"),
        _p("a surrender against a dealer blackjack under an ace", "TS AH 6D KC", "surrender"),
        _p("a surrender against a 9", "TS 9H 6D 8C", "surrender"),
    ]


def _surrender_after_split(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    if not profile.flag("surrender"):
        return "the profile offers no surrender"
    return [_p("a surrender after a split", "8S 9H 8D 8C TC TD", "split surrender")]


def _half_stakes(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    if not profile.flag("surrender") and not profile.flag("insurance"):
        return "the profile takes no half stake: neither insurance nor surrender"
    reason = rounding_reason(profile, other, "half_stake_rounding", {2})
    if reason:
        return reason.replace("every amount this profile pays", "a half stake")
    # Four odd stakes in a row: halves ending in .5 on each side of an even number.
    return [
        probe(
            f"a {kind} of a stake of {stake}",
            ProbeRound(seats=(f"{3 * stake}:{stake}",), shoe=shoe, plan=kind),
            exact=True,
        )
        for stake in [s for s in small_stakes(profile, 8, start=101) if s % 2][:4]
        for kind, shoe in (("surrender", "TS 9H 6D 8C"), ("insurance", "TS AH 9D KC"))
    ]


_auto_stand = _always(
    _p("a hit to 21, then a stand", "TS 7H 5D TC 6C 9C", "hit stand"),
    _p("a hit to 21, then a hit", "TS 7H 5D TC 6C 9C", "hit hit"),
)


_not_needed = _always(
    _p("a bust against a 16", "TS 6H 6D TC 9C 5C", "hit"),
    _p("a surrender against a 16", "TS 6H 6D TC 5C", "surrender"),
)


_hole_card = _always(
    _p("a bust against 7H TC", "TS 7H 6D TC 9C", "hit"),
    _p("a stand on 18 against 7H TC", "TS 7H 8D TC", "stand"),
    _p("a bust against 5H TC", "TS 5H 5D TC 8C", "hit"),
    _p("a bust after two hits against 9H 8C", "TS 9H 2D 8C 3C KC", "hit hit"),
)


def _funds(_profile: Profile, _other: Profile) -> Sequence[Probe]:
    bare = ("100:100",)
    return [
        _p("a double without free funds", "5S 7H 6D TC TS", "double", bare),
        _p("a split without free funds", "8S 7H 8D TC TS TD", "split", bare),
        _p("insurance without free funds", "TS AH 9D 7C", "insurance stand", bare),
    ]


def _rounding(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    odds = [profile.odds("blackjack_pays"), profile.odds("insurance_pays")]
    reason = rounding_reason(profile, other, "rounding", {o.ratio.denominator for o in odds})
    if reason:
        return reason
    stakes = small_stakes(profile, 12)
    naturals = [
        probe(
            f"a blackjack on a stake of {stake}",
            ProbeRound(seats=(f"{3 * stake}:{stake}",), shoe="AS 7H KD TC"),
            exact=True,
        )
        for stake in stakes
    ]
    insured = [
        probe(
            f"insurance of {stake} won",
            ProbeRound(
                seats=(f"{6 * stake}:{2 * stake}",), shoe="TS AH 9D KC", plan=f"insurance={stake}"
            ),
            exact=True,
        )
        for stake in stakes
    ]
    return naturals + insured


GENERATORS: dict[str, Callable[[Profile, Profile], Sequence[Probe] | str]] = {
    "dealer_hits_soft_17": _soft_17,
    "blackjack_pays": _blackjack_pays,
    "insurance": _insurance,
    "insurance_pays": _insured,
    "insurance_stake": _insurance_stake,
    "blackjack_vs_ace": _blackjack_vs_ace,
    "no_double_split_after_insurance": _after_insurance,
    "peek": _peek,
    "natural_paid_at_once": _paid_at_once,
    "dealer_blackjack_takes": _late_blackjack,
    "double_on": _double_on,
    "double_for_less": _double_for_less,
    "double_after_split": _double_after_split,
    "split_pairs": _split_pairs,
    "max_hands": _max_hands,
    "resplit_aces": _resplit_aces,
    "hit_split_aces": _hit_split_aces,
    "split_21_is_blackjack": _split_21,
    "surrender": _surrender,
    "surrender_timing": _surrender_timing,
    "surrender_after_split": _surrender_after_split,
    "half_stake_rounding": _half_stakes,
    "auto_stand_21": _auto_stand,
    "dealer_draws_when_not_needed": _not_needed,
    "hole_card": _hole_card,
    "extra_stakes_need_funds": _funds,
    "rounding": _rounding,
}
