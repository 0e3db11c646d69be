"""Generators of the roulette parameters: the deciding spins and bets of each.

Bets in the cases' text form (``"1000:straight 17=10,red=20"``); pocket 1 is red, odd, low, in
column 1 and dozen 1 (C.rou.wheel). A bet of a kind the table does not offer is refused
(VAR.rou.bets-offered), so a generator bets only what the table offers, but where the kind
offered is what it decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.conformance.targeted._table import (
    ON_POCKET_ONE,
    offered_bet,
    rounding_reason,
    small_stakes,
)
from croupier.conformance.targeted.probe import Probe, ProbeRound, probe
from croupier.oracle.parameters import EVEN_CHANCE_KINDS
from croupier.oracle.profile import Profile

#: A bet of every kind, the ones pocket 1 does not win too (black, even, high).
_ANY_BET = {**ON_POCKET_ONE, "black": "black", "even": "even", "high": "high"}

#: The kind each payout parameter pays.
_PAYS = {
    "straight_pays": "straight",
    "split_pays": "split",
    "street_pays": "street",
    "corner_pays": "corner",
    "first_four_pays": "first-four",
    "top_line_pays": "top-line",
    "line_pays": "line",
    "column_pays": "column",
    "dozen_pays": "dozen",
    "even_chance_pays": "red",
}


def _round(pocket: str, *seats: str) -> ProbeRound:
    return ProbeRound(seats=seats, pocket=pocket)


def _on_layout(profile: Profile, kind: str) -> bool:
    missing = "top-line" if profile.choice("wheel") == "european" else "first-four"
    return kind != missing


def _wheel(profile: Profile, _other: Profile) -> Sequence[Probe]:
    bet = offered_bet(profile, 10)
    return [
        probe("a spin of 00", _round("00", f"1000:{bet}")),
        probe("a spin of 0", _round("0", f"1000:{bet}")),
    ]


def _even_chance(profile: Profile) -> str | None:
    offered = profile.words("bets_offered")
    return next((k for k in EVEN_CHANCE_KINDS if k in offered), None)


def _zero_rule(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
    kind = _even_chance(profile)
    if kind is None:
        return "the table offers no even-money bet"
    bet = _ANY_BET[kind]
    # An even-money bet on a zero, then the seat's next spin: 1 (red, odd, low) and 2.
    return [
        probe(
            f"{bet} on a zero, then on {' and '.join(after)}",
            _round("0", f"1000:{bet}=100"),
            *(_round(pocket, f"1000:{bet}=10") for pocket in after),
        )
        for after in (("1",), ("2",), ("0", "1"))
    ]


def _bets_offered(profile: Profile, other: Profile) -> Sequence[Probe]:
    (kind,) = set(profile.words("bets_offered")) ^ set(other.words("bets_offered"))
    return [probe(f"a bet of kind {kind}", _round("1", f"1000:{_ANY_BET[kind]}=10"))]


def _history(profile: Profile, other: Profile) -> Sequence[Probe]:
    spins = max(profile.integer("history_length"), other.integer("history_length")) + 1
    seat = f"1000:{offered_bet(profile, 10)}"
    rounds = [_round(str(k % 36 + 1), seat) for k in range(spins)]
    return [probe(f"{spins} spins at one table", *rounds)]


def _pays(name: str) -> Callable[[Profile, Profile], Sequence[Probe] | str]:
    kind = _PAYS[name]

    def generate(profile: Profile, _other: Profile) -> Sequence[Probe] | str:
        kinds = EVEN_CHANCE_KINDS if kind == "red" else (kind,)
        offered = [k for k in kinds if k in profile.words("bets_offered")]
        if not _on_layout(profile, kind):
            return f"the {profile.choice('wheel')} layout has no {kind} bet"
        if not offered:
            return f"the table offers no {kind} bet"
        return [
            probe(f"a winning {k} bet", _round(_pocket(k), f"1000:{_ANY_BET[k]}=10"))
            for k in offered
        ]

    return generate


def _pocket(kind: str) -> str:
    """A pocket the kind's bet of ``_ANY_BET`` wins."""
    return {"black": "2", "even": "2", "high": "19"}.get(kind, "1")


def _rounding(profile: Profile, other: Profile) -> Sequence[Probe] | str:
    ratios = [profile.odds(name).ratio for name in _PAYS]
    halves = {2} if profile.choice("zero_rule") == "half-back" else set()
    reason = rounding_reason(profile, other, "rounding", {r.denominator for r in ratios} | halves)
    if reason:
        return reason
    offered = [k for k in profile.words("bets_offered") if _on_layout(profile, k)]
    found = []
    for stake in small_stakes(profile, 12):
        bets = ",".join(f"{_ANY_BET[k]}={stake}" for k in offered)
        balance = (len(offered) + 1) * stake
        found.append(
            probe(f"a zero on stakes of {stake}", _round("0", f"{balance}:{bets}"), exact=True)
        )
        found.extend(
            probe(
                f"a {k} win on {stake}",
                _round(_pocket(k), f"{3 * stake}:{_ANY_BET[k]}={stake}"),
                exact=True,
            )
            for k in offered
        )
    return found


GENERATORS: dict[str, Callable[[Profile, Profile], Sequence[Probe] | str]] = {
    "wheel": _wheel,
    "zero_rule": _zero_rule,
    "bets_offered": _bets_offered,
    "history_length": _history,
    **{name: _pays(name) for name in _PAYS},
    "rounding": _rounding,
}
