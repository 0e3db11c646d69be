"""Generators of the baccarat parameters: the deciding coup of each.

Shoes in the contract's order (BAC.deal): player, banker, player, banker, then the player's
third card and the banker's. One seat of balance 1000 unless said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from croupier.conformance.targeted._table import rounding_reason, small_stakes
from croupier.conformance.targeted.probe import Probe, ProbeRound, probe
from croupier.oracle.money import exact_text
from croupier.oracle.profile import Profile

#: Player 7S 9D = 6 stands; banker 4H 6C = 0 draws 3C: 3. The player wins.
PLAYER_WINS = "7S 4H 9D 6C 3C"
#: Player 2S 4D = 6 stands; banker 3C 4H = 7 stands. The banker wins on two cards.
BANKER_SEVEN = "2S 3C 4D 4H"
#: Player 2S 3D = 5, banker 4C 5H = 9: a banker natural.
BANKER_NINE = "2S 4C 3D 5H"
#: Player 2S 2D = 4 draws TH: 4; banker 3C KD = 3 draws 4C: 7 on three cards.
THREE_CARD_SEVEN = "2S 3C 2D KD TH 4C"
#: Player 2S 2D = 4 draws TH: 4; banker 3C 3H = 6 stands on a third card of 0.
BANKER_SIX = "2S 3C 2D 3H TH"
#: Player 3S 4D = 7, banker 3C 4H = 7: a tie.
TIE = "3S 3C 4D 4H"

_EVERY_BET = "1000:player=100,banker=100,tie=100"


def _p(topic: str, shoe: str, seat: str = _EVERY_BET) -> Probe:
    return probe(topic, ProbeRound(seats=(seat,), shoe=shoe))


def _tableau(_profile: Profile, _other: Profile) -> Sequence[Probe]:
    # The player draws an ace (AC) on 5: 6. Document B's banker draws on an ace at 4, 5 and 6,
    # where the standard tableau stands.
    return [
        _p(f"a banker {total} against a player's third card ace", shoe)
        for total, shoe in (
            (4, "2S 2C 3D 2H AC 5S"),
            (5, "2S 2C 3D 3H AC 5S"),
            (6, "2S 3C 3D 3H AC 5S"),
        )
    ]


def _player_pays(_profile: Profile, _other: Profile) -> Sequence[Probe]:
    return [_p("a player win", PLAYER_WINS)]


def _banker_pays(profile: Profile, _other: Profile) -> Sequence[Probe]:
    # Stakes of 100, 1000 and 7, then the smallest in a row: a share of a win that differs
    # by a hundredth rounds alike on many a stake.
    return [
        _p("a banker win on two cards", BANKER_SEVEN),
        _p("a banker natural", BANKER_NINE),
        _p("a banker win of 1000", BANKER_SEVEN, "3000:banker=1000"),
        _p("a banker win of 7", BANKER_SEVEN, "1000:banker=7"),
        *(
            probe(
                f"a banker win of {stake}",
                ProbeRound(seats=(f"{3 * stake}:banker={stake}",), shoe=BANKER_SEVEN),
                exact=True,
            )
            for stake in small_stakes(profile, 100)
        ),
    ]


def _tie(_profile: Profile, _other: Profile) -> Sequence[Probe]:
    return [_p("a tie", TIE)]


def _no_commission(_profile: Profile, _other: Profile) -> Sequence[Probe]:
    # Player 3S 2H = 5 draws 9D: 4; banker 4C 9H = 3 draws 4S: 7. Player 2S 2D = 4 draws KS:
    # 4; banker 2C AH = 3 draws 4C: 7.
    return [
        _p("a banker win on three cards totalling 7", THREE_CARD_SEVEN),
        _p("a banker 7 on three cards after a player's 9", "3S 4C 2H 9H 9D 4S"),
        _p("a banker 7 on three cards from 3", "2S 2C 2D AH KS 4C", "1000:banker=50"),
    ]


def _banker_six(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    paid = [_six_ratio(p) for p in (profile, other)]
    if paid[0] == paid[1]:
        return f"a banker win on 6 pays {exact_text(paid[0])} to 1 either way"
    return [
        _p("a banker win on 6", BANKER_SIX),
        _p("a banker win on 6, an odd stake", BANKER_SIX, "1000:banker=25"),
        # Player 2S 3D = 5 draws KH: 5; banker 2C TS = 2 draws 4D: 6.
        _p("a banker win on 6 of three cards", "2S 2C 3D TS KH 4D"),
    ]


def _six_ratio(profile: Profile) -> Fraction:
    """What a winning banker bet on 6 gains per unit: its own odds, else the banker's."""
    six = profile.optional_odds("banker_six_pays")
    if six is not None:
        return six.ratio
    return profile.odds("banker_pays").ratio * (1 - profile.fraction("banker_commission"))


def _rounding(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    keep = 1 - profile.fraction("banker_commission")
    ratios = [profile.odds(name).ratio for name in ("player_pays", "tie_pays")]
    six = profile.optional_odds("banker_six_pays")
    ratios += [profile.odds("banker_pays").ratio * keep, *([six.ratio] if six else [])]
    reason = rounding_reason(profile, other, "rounding", {r.denominator for r in ratios})
    if reason:
        return reason
    stakes = small_stakes(profile, 20)
    coups = (
        ("banker win", BANKER_SEVEN),
        ("banker 6", BANKER_SIX),
        ("tie", TIE),
        ("player win", PLAYER_WINS),
    )
    return [
        probe(
            f"a {topic} on stakes of {stake}",
            ProbeRound(
                seats=(f"{4 * stake}:player={stake},banker={stake},tie={stake}",), shoe=shoe
            ),
            exact=True,
        )
        for stake in stakes
        for topic, shoe in coups
    ]


GENERATORS: dict[str, Callable[[Profile, Profile], Sequence[Probe] | str]] = {
    "tableau": _tableau,
    "player_pays": _player_pays,
    "banker_pays": _banker_pays,
    "banker_commission": _banker_pays,
    "tie_pays": _tie,
    "tie_pushes": _tie,
    "no_commission": _no_commission,
    "banker_six_pays": _banker_six,
    "rounding": _rounding,
}
