"""The parameters a rule profile may set, per game: type, legal values, default.

A profile file lists the parameters that matter to it; a parameter it does
not list takes the default below. The default is never silently documented:
a profile that relies on a rule must list the parameter with its status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from croupier.oracle.clauses import Game
from croupier.oracle.immutable import Choice
from croupier.oracle.money import Odds, Rounding, exact_text

ParamValue = bool | int | str | Odds | Fraction | Rounding | tuple[str, ...] | None

#: A parameter's value as TOML writes it: a list is a set of words (``bets_offered``).
RawValue = bool | int | str | tuple[str, ...]


class Kind(Choice):
    """The type of a parameter's value in TOML."""

    BOOL = "bool"
    INT = "int"
    CHOICE = "choice"
    ODDS = "odds"
    FRACTION = "fraction"
    ROUNDING = "rounding"
    #: Net odds, or the word ``none`` for a rule that does not apply (VAR.bac.banker-six).
    ODDS_OR_NONE = "odds-or-none"
    #: A set of words from ``choices``, written as a TOML list, each once (VAR.rou.bets-offered).
    WORDS = "words"


@dataclass(frozen=True, slots=True, kw_only=True)
class ParamSpec:
    """What one parameter may hold."""

    name: str
    kind: Kind
    default: RawValue
    help: str
    #: The clauses the parameter's rule is cited by when a profile does not list it.
    clauses: tuple[str, ...]
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    #: The variant (RULES.md "Variants a lab may choose") that some values of a parameter
    #: cited by a documents' clause choose: a profile that sets such a value without naming
    #: clauses cites the variant first (``oracle.profile``).
    variant: str = ""
    #: The values that choose ``variant``; none listed: every value but the default.
    variant_values: tuple[RawValue, ...] = ()

    def chooses_variant(self, value: ParamValue) -> bool:
        """Whether a value (typed, as ``convert`` gives it) is one the variant stands for."""
        if not self.variant:
            return False
        if self.variant_values:
            return value in {self.convert(raw) for raw in self.variant_values}
        return value != self.convert(self.default)

    def convert(self, raw: object) -> ParamValue:
        """Check a raw TOML value and turn it into its typed form; ``ValueError`` if impossible."""
        match self.kind:
            case Kind.BOOL:
                if not isinstance(raw, bool):
                    raise ValueError(f"expected true or false, got {raw!r}")
                return raw
            case Kind.INT:
                if isinstance(raw, bool) or not isinstance(raw, int):
                    raise ValueError(f"expected an integer, got {raw!r}")
                if self.minimum is not None and raw < self.minimum:
                    raise ValueError(f"must be at least {self.minimum}, got {raw}")
                if self.maximum is not None and raw > self.maximum:
                    raise ValueError(f"must be at most {self.maximum}, got {raw}")
                return raw
            case Kind.CHOICE:
                if not isinstance(raw, str) or raw not in self.choices:
                    raise ValueError(f"expected one of {', '.join(self.choices)}; got {raw!r}")
                return raw
            case Kind.ODDS:
                if not isinstance(raw, str):
                    raise ValueError(f"expected odds as a string like '3:2', got {raw!r}")
                return Odds.parse(raw)
            case Kind.ODDS_OR_NONE:
                if raw == "none":
                    return None
                if not isinstance(raw, str):
                    raise ValueError(f"expected odds like '1:2' or 'none', got {raw!r}")
                return Odds.parse(raw)
            case Kind.WORDS:
                return self._words(raw)
            case Kind.FRACTION:
                if not isinstance(raw, str):
                    raise ValueError(f"expected an exact decimal string like '0.05', got {raw!r}")
                try:
                    value = Fraction(raw)
                except ValueError:
                    raise ValueError(
                        f"expected an exact decimal like '0.05', got {raw!r}"
                    ) from None
                if not 0 <= value < 1:
                    raise ValueError(f"must be at least 0 and below 1, got {raw!r}")
                return value
            case Kind.ROUNDING:
                try:
                    return Rounding(raw)
                except ValueError:
                    names = ", ".join(r.value for r in Rounding)
                    raise ValueError(f"expected one of {names}; got {raw!r}") from None

    def _words(self, raw: object) -> tuple[str, ...]:
        if not isinstance(raw, list | tuple) or not all(isinstance(w, str) for w in raw):
            raise ValueError(f"expected a list of words, got {raw!r}")
        if not raw:
            raise ValueError("expected at least one word")
        unknown = [w for w in raw if w not in self.choices]
        if unknown:
            raise ValueError(
                f"{', '.join(map(repr, unknown))}: expected words of {', '.join(self.choices)}"
            )
        if len(set(raw)) != len(raw):
            raise ValueError("names a word twice")
        # One order, the choices', so that two lists of the same words are the same value.
        return tuple(w for w in self.choices if w in raw)


def _rounding(help_text: str) -> ParamSpec:
    return ParamSpec(
        name="rounding",
        clauses=("MONEY.rounding",),
        kind=Kind.ROUNDING,
        default="down",
        choices=tuple(r.value for r in Rounding),
        help=help_text,
    )


_LIMITS = (
    ParamSpec(
        name="min_bet",
        clauses=("TABLE.limits",),
        kind=Kind.INT,
        default=1,
        minimum=1,
        help="Smallest stake, in minor units.",
    ),
    ParamSpec(
        name="max_bet",
        clauses=("TABLE.limits",),
        kind=Kind.INT,
        default=10**12,
        minimum=1,
        help="Largest stake, in minor units.",
    ),
    ParamSpec(
        name="max_seats",
        clauses=("TABLE.seats",),
        kind=Kind.INT,
        default=16,
        minimum=1,
        maximum=16,
        help="Most seats a round may have at the table (16 is the contract's own bound).",
    ),
)

BLACKJACK: tuple[ParamSpec, ...] = (
    ParamSpec(
        name="decks",
        clauses=("BJ.deal",),
        kind=Kind.INT,
        default=6,
        minimum=1,
        maximum=8,
        help="Decks in the shoe.",
    ),
    ParamSpec(
        name="dealer_hits_soft_17",
        clauses=("C.bj.dealer-draw",),
        kind=Kind.BOOL,
        default=False,
        help="The dealer draws on a soft 17.",
    ),
    ParamSpec(
        name="blackjack_pays",
        clauses=("BJ.nat-pays",),
        kind=Kind.ODDS,
        default="3:2",
        help="Net odds of a player blackjack.",
    ),
    ParamSpec(
        name="insurance",
        clauses=("A.insurance",),
        kind=Kind.BOOL,
        default=True,
        help="Insurance is offered against a dealer ace.",
    ),
    ParamSpec(
        name="insurance_pays",
        clauses=("A.insurance",),
        kind=Kind.ODDS,
        default="2:1",
        help="Net odds of insurance.",
    ),
    ParamSpec(
        name="insurance_stake",
        clauses=("VAR.bj.insurance-stake",),
        kind=Kind.CHOICE,
        default="half",
        choices=("half", "up-to-half"),
        help="The insurance stake: half the original stake, or any whole amount up to that half.",
    ),
    ParamSpec(
        name="blackjack_vs_ace",
        clauses=("A.even-money",),
        kind=Kind.CHOICE,
        default="even-money",
        choices=("even-money", "insurance", "nothing"),
        help="What a player blackjack is offered against a dealer ace.",
    ),
    ParamSpec(
        name="no_double_split_after_insurance",
        clauses=("C.bj.insurance",),
        kind=Kind.BOOL,
        default=False,
        help="A seat that took insurance may neither double nor split.",
    ),
    ParamSpec(
        name="peek",
        clauses=("A.peek",),
        kind=Kind.CHOICE,
        default="ace-or-ten",
        choices=("none", "ace", "ace-or-ten"),
        help="Up cards under which the dealer looks for a blackjack before play.",
    ),
    ParamSpec(
        name="natural_paid_at_once",
        clauses=("A.nat-immediate",),
        kind=Kind.BOOL,
        default=True,
        help="A blackjack that cannot be tied is paid at once, without turning the hole card.",
    ),
    ParamSpec(
        name="dealer_blackjack_takes",
        clauses=("C.bj.peek",),
        kind=Kind.CHOICE,
        default="all-stakes",
        choices=("all-stakes", "original-stake"),
        help="What a dealer blackjack found after play takes: every stake, or the original only.",
    ),
    ParamSpec(
        name="double_on",
        clauses=("VAR.bj.double-on",),
        kind=Kind.CHOICE,
        default="any-two",
        choices=("any-two", "nine-to-eleven", "ten-eleven", "any-cards"),
        help="Which hands may double: any two cards, a two-card 9-11 or 10-11, or any hand.",
    ),
    ParamSpec(
        name="double_for_less",
        clauses=("VAR.bj.double-for-less",),
        kind=Kind.BOOL,
        default=False,
        help="A double's extra stake may be any whole amount up to the hand's stake.",
    ),
    ParamSpec(
        name="double_after_split",
        clauses=("C.bj.double",),
        kind=Kind.BOOL,
        default=True,
        help="A two-card hand formed by a split may double.",
    ),
    ParamSpec(
        name="split_pairs",
        clauses=("C.bj.split",),
        kind=Kind.CHOICE,
        default="same-rank",
        choices=("same-rank", "same-rank-or-pictures", "same-value"),
        help="Which two cards form a pair that may be split.",
    ),
    ParamSpec(
        name="max_hands",
        clauses=("C.bj.split",),
        kind=Kind.INT,
        default=2,
        minimum=2,
        maximum=8,
        help="Most hands a seat may hold through splits (2 means no re-split; VAR.bj.resplit).",
        variant="VAR.bj.resplit",
    ),
    ParamSpec(
        name="resplit_aces",
        clauses=("VAR.bj.resplit",),
        kind=Kind.BOOL,
        default=False,
        help="Split aces that again make a pair may be split again.",
    ),
    ParamSpec(
        name="hit_split_aces",
        clauses=("C.bj.split",),
        kind=Kind.BOOL,
        default=True,
        help="Split aces may take more cards.",
    ),
    ParamSpec(
        name="split_21_is_blackjack",
        clauses=("C.bj.split",),
        kind=Kind.BOOL,
        default=False,
        help="An ace and a ten on a split hand count as a blackjack.",
    ),
    ParamSpec(
        name="surrender",
        clauses=("C.bj.surrender",),
        kind=Kind.BOOL,
        default=False,
        help="Surrender is offered on the first two cards.",
    ),
    ParamSpec(
        name="surrender_timing",
        clauses=("VAR.bj.surrender",),
        kind=Kind.CHOICE,
        default="late",
        choices=("late", "early"),
        help="Surrender after the dealer's look for a blackjack, or before it (early).",
    ),
    ParamSpec(
        name="surrender_after_split",
        clauses=("C.bj.surrender",),
        kind=Kind.BOOL,
        default=False,
        help="A hand formed by a split may surrender.",
    ),
    ParamSpec(
        name="half_stake_rounding",
        clauses=("BJ.half-stakes",),
        kind=Kind.ROUNDING,
        default="down",
        choices=tuple(r.value for r in Rounding),
        help="Rounding of the insurance stake and the surrender refund.",
    ),
    ParamSpec(
        name="auto_stand_21",
        clauses=("BJ.auto-stand",),
        kind=Kind.BOOL,
        default=True,
        help="A hand that reaches 21 stands.",
    ),
    ParamSpec(
        name="dealer_draws_when_not_needed",
        clauses=("BJ.dealer-needed",),
        kind=Kind.BOOL,
        default=False,
        help="The dealer draws even when no hand waits for the dealer's total.",
    ),
    ParamSpec(
        name="hole_card",
        clauses=("VAR.bj.hole-card",),
        kind=Kind.CHOICE,
        default="always",
        choices=("always", "showdown"),
        help="The hole card is turned when the round completes, or only if a hand is compared.",
    ),
    ParamSpec(
        name="extra_stakes_need_funds",
        clauses=("BJ.funds",),
        kind=Kind.BOOL,
        default=True,
        help="Split, double and insurance need the seat's uncommitted funds.",
    ),
    _rounding("Rounding of a payout that is not whole (3:2 on an odd stake)."),
    *_LIMITS,
)

BACCARAT: tuple[ParamSpec, ...] = (
    ParamSpec(
        name="decks",
        clauses=("D.decks",),
        kind=Kind.INT,
        default=8,
        minimum=1,
        maximum=8,
        help="Decks in the shoe.",
    ),
    ParamSpec(
        name="tableau",
        clauses=("BAC.banker-tableau",),
        kind=Kind.CHOICE,
        default="standard",
        choices=("standard", "document-b"),
        help="The banker's third-card tableau: the standard one, or document B's as printed.",
    ),
    ParamSpec(
        name="player_pays",
        clauses=("BAC.pay-player",),
        kind=Kind.ODDS,
        default="1:1",
        help="Net odds of a winning player bet.",
    ),
    ParamSpec(
        name="banker_pays",
        clauses=("BAC.pay-banker",),
        kind=Kind.ODDS,
        default="1:1",
        help="Net odds of a winning banker bet, before commission.",
    ),
    ParamSpec(
        name="banker_commission",
        clauses=("BAC.pay-banker",),
        kind=Kind.FRACTION,
        default="0.05",
        help="Share of a winning banker bet's win kept as commission.",
    ),
    ParamSpec(
        name="tie_pays",
        clauses=("BAC.pay-tie",),
        kind=Kind.ODDS,
        default="8:1",
        help="Net odds of a winning tie bet.",
    ),
    ParamSpec(
        name="tie_pushes",
        clauses=("BAC.tie-push",),
        kind=Kind.BOOL,
        default=True,
        help="On a tie, player and banker bets push.",
    ),
    ParamSpec(
        name="no_commission",
        clauses=("VAR.bac.ez",),
        kind=Kind.BOOL,
        default=False,
        help="No commission: a banker win pays in full, but a three-card banker 7 pushes.",
    ),
    ParamSpec(
        name="banker_six_pays",
        clauses=("VAR.bac.banker-six",),
        kind=Kind.ODDS_OR_NONE,
        default="none",
        help="Net odds of a banker win on a total of 6 ('1:2'), or 'none' for the usual payout.",
    ),
    _rounding("Rounding of a payout that is not whole (the banker commission)."),
    *_LIMITS,
)

#: Every roulette bet kind, in the layout's order (``oracle.roulette.BetKind``).
ROULETTE_BET_KINDS: tuple[str, ...] = (
    "straight",
    "split",
    "street",
    "corner",
    "first-four",
    "top-line",
    "line",
    "column",
    "dozen",
    "red",
    "black",
    "even",
    "odd",
    "low",
    "high",
)

ROULETTE: tuple[ParamSpec, ...] = (
    ParamSpec(
        name="wheel",
        clauses=("C.rou.wheel",),
        kind=Kind.CHOICE,
        default="european",
        choices=("european", "american"),
        help="European (0) or American (0 and 00) wheel and layout.",
    ),
    ParamSpec(
        name="zero_rule",
        clauses=("C.rou.zero-loses",),
        kind=Kind.CHOICE,
        default="loses",
        choices=("loses", "half-back", "en-prison"),
        help=(
            "What a zero does to even-money bets: they lose, return half the stake, or stay "
            "imprisoned until the seat's next spin (VAR.rou.en-prison)."
        ),
        variant="VAR.rou.en-prison",
        variant_values=("en-prison",),
    ),
    ParamSpec(
        name="bets_offered",
        clauses=("VAR.rou.bets-offered",),
        kind=Kind.WORDS,
        default=ROULETTE_BET_KINDS,
        choices=ROULETTE_BET_KINDS,
        help="The bet kinds the table offers; a bet of another kind is refused.",
    ),
    ParamSpec(
        name="history_length",
        clauses=("C.rou.history",),
        kind=Kind.INT,
        default=13,
        minimum=1,
        maximum=500,
        help="Results the board shows.",
    ),
    ParamSpec(
        name="straight_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="35:1",
        help="Net odds of a straight (one number).",
    ),
    ParamSpec(
        name="split_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="17:1",
        help="Net odds of a split (two numbers).",
    ),
    ParamSpec(
        name="street_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="11:1",
        help="Net odds of a street or trio (three numbers).",
    ),
    ParamSpec(
        name="corner_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="8:1",
        help="Net odds of a corner (four numbers).",
    ),
    ParamSpec(
        name="first_four_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="8:1",
        help="Net odds of 0-1-2-3 (European).",
    ),
    ParamSpec(
        name="top_line_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="6:1",
        help="Net odds of 0-00-1-2-3 (American).",
    ),
    ParamSpec(
        name="line_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="5:1",
        help="Net odds of a six line.",
    ),
    ParamSpec(
        name="column_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="2:1",
        help="Net odds of a column.",
    ),
    ParamSpec(
        name="dozen_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="2:1",
        help="Net odds of a dozen.",
    ),
    ParamSpec(
        name="even_chance_pays",
        clauses=("C.rou.wheel",),
        kind=Kind.ODDS,
        default="1:1",
        help="Net odds of red/black, even/odd, low/high.",
    ),
    _rounding("Rounding of a payout that is not whole (half back on an odd stake)."),
    *_LIMITS,
)

#: A profile's value of a parameter by name (its default when it does not list it).
Lookup = Callable[[str], ParamValue]


@dataclass(frozen=True, slots=True, kw_only=True)
class Clash:
    """Values of some parameters that cannot go together: a profile holding them is refused."""

    #: The parameters involved; the first is the key the refusal names.
    names: tuple[str, ...]
    #: What is wrong with the profile's values, or None when they go together.
    check: Callable[[Lookup], str | None]


def _limits_clash(value: Lookup) -> str | None:
    low, high = value("min_bet"), value("max_bet")
    assert isinstance(low, int)  # noqa: S101 - an INT parameter by its spec
    assert isinstance(high, int)  # noqa: S101 - an INT parameter by its spec
    return f"is {high}, below min_bet {low}" if high < low else None


_LIMITS_CLASH = Clash(names=("max_bet", "min_bet"), check=_limits_clash)


def _resplit_aces_clash(value: Lookup) -> str | None:
    if value("resplit_aces") is True and value("max_hands") == 2:
        return "re-splitting aces needs max_hands above 2 (VAR.bj.resplit)"
    return None


def _showdown_clash(value: Lookup) -> str | None:
    if value("hole_card") == "showdown" and value("dealer_draws_when_not_needed") is True:
        return (
            "a hole card turned only at a showdown leaves the dealer nothing to draw for "
            "(VAR.bj.hole-card): dealer_draws_when_not_needed must be false"
        )
    return None


def _early_surrender_clash(value: Lookup) -> str | None:
    if value("surrender_timing") == "early" and value("surrender") is False:
        return "early surrender needs surrender = true (VAR.bj.surrender)"
    return None


def _insurance_stake_clash(value: Lookup) -> str | None:
    if value("insurance_stake") == "up-to-half" and value("insurance") is False:
        return "an insurance stake up to half needs insurance = true (VAR.bj.insurance-stake)"
    return None


BLACKJACK_CLASHES: tuple[Clash, ...] = (
    _LIMITS_CLASH,
    Clash(names=("resplit_aces", "max_hands"), check=_resplit_aces_clash),
    Clash(names=("hole_card", "dealer_draws_when_not_needed"), check=_showdown_clash),
    Clash(names=("surrender_timing", "surrender"), check=_early_surrender_clash),
    Clash(names=("insurance_stake", "insurance"), check=_insurance_stake_clash),
)

SPECS: dict[Game, dict[str, ParamSpec]] = {
    Game.BLACKJACK: {s.name: s for s in BLACKJACK},
    Game.BACCARAT: {s.name: s for s in BACCARAT},
    Game.ROULETTE: {s.name: s for s in ROULETTE},
}


def _commission_with_no_commission(value: Lookup) -> str | None:
    commission = value("banker_commission")
    if value("no_commission") is True and commission != 0:
        return (
            f"no_commission is true but banker_commission is {_shown(commission)}; "
            "no-commission play takes none (VAR.bac.ez)"
        )
    return None


def _shown(value: ParamValue) -> str:
    return exact_text(value) if isinstance(value, Fraction) else str(value)


def _prison_without_even_chances(value: Lookup) -> str | None:
    offered = value("bets_offered")
    if value("zero_rule") != "en-prison" or not isinstance(offered, tuple):
        return None
    if not set(offered) & set(EVEN_CHANCE_KINDS):
        return (
            "zero_rule is en-prison but bets_offered holds no even-money bet "
            f"({', '.join(EVEN_CHANCE_KINDS)}): nothing could be imprisoned (VAR.rou.en-prison)"
        )
    return None


def _kinds_off_the_wheel(value: Lookup) -> str | None:
    offered = value("bets_offered")
    wheel = value("wheel")
    if not isinstance(offered, tuple) or offered == ROULETTE_BET_KINDS:
        return None
    missing = "top-line" if wheel == "european" else "first-four"
    if missing in offered:
        return (
            f"bets_offered names {missing}, which the {wheel} layout does not have "
            "(VAR.rou.bets-offered: the kinds the wheel allows)"
        )
    return None


#: The even-money bets of C.rou.wheel's table: what a half-back or en-prison zero rule keeps.
EVEN_CHANCE_KINDS: tuple[str, ...] = ("red", "black", "even", "odd", "low", "high")

BACCARAT_CLASHES: tuple[Clash, ...] = (
    _LIMITS_CLASH,
    Clash(names=("no_commission", "banker_commission"), check=_commission_with_no_commission),
)

ROULETTE_CLASHES: tuple[Clash, ...] = (
    _LIMITS_CLASH,
    Clash(names=("zero_rule", "bets_offered"), check=_prison_without_even_chances),
    Clash(names=("bets_offered", "wheel"), check=_kinds_off_the_wheel),
)

#: The values that cannot go together, per game (``oracle.profile`` refuses them).
CLASHES: dict[Game, tuple[Clash, ...]] = {
    Game.BLACKJACK: BLACKJACK_CLASHES,
    Game.BACCARAT: BACCARAT_CLASHES,
    Game.ROULETTE: ROULETTE_CLASHES,
}
