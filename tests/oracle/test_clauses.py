"""The clause IDs of oracle/clauses.py are exactly those of docs/RULES.md."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from croupier.oracle.clauses import BY_ID, CLAUSES, CONTRACT, Game, clause
from croupier.oracle.errors import OracleError, ProfileError
from croupier.oracle.profile import Profile, load_profile_file, shipped_profiles

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "RULES.md"
SHARED_RULES = ROOT.parent / "shared" / "spec" / "RULES.md"

# A clause ID: a document or game prefix, then dotted lower-case words (BJ.values, C.bj.split).
CLAUSE_SHAPE = re.compile(r"[A-Z]+(?:\.[a-z]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*")

# Clauses that no profile parameter configures: the code applies them as fixed rules.
ENFORCED_IN_CODE = {
    # Card values of blackjack (ace 11 or 1, pictures 10): the game itself, no variant in A or C.
    "BJ.values",
    # The dealing order is fixed by the conformance contract (DESIGN.md "Forced outcomes");
    # an engine that deals otherwise maps it in its adapter, so it is not a profile choice.
    "BJ.deal-order",
    # A hand over 21 loses at once: the definition of a bust, same in A and C.
    "BJ.bust",
    # What a blackjack is (ace + ten-valued, first two cards): fixed; the split case is the
    # split_21_is_blackjack parameter, which cites A.split / C.bj.split.
    "BJ.natural",
    # Comparing totals, dealer bust, push on equal totals: the core settlement, no variant.
    "BJ.compare",
    # Stakes cannot be withdrawn: the contract offers no withdraw decision at all.
    "C.bj.no-withdraw",
    # Baccarat card values and modulo 10: the game itself, the same in B, C and D.
    "BAC.values",
    # Baccarat dealing order (player, banker, ...): fixed by the contract like BJ.deal-order.
    "BAC.deal",
    # Naturals (8 or 9) stand: common to B, C and D, no variant.
    "BAC.natural",
    # The player draws on 0-5, stands on 6-7: common to B, C and D, no variant.
    "BAC.player-draw",
    # Banker after a player who stood: common to B, C and D (the tableau parameter covers
    # only the case where the player drew).
    "BAC.banker-stood",
    # Higher value wins, equal values tie: the outcome rule, no variant.
    "BAC.outcome",
    # Refusing a bet that is not a shape of the layout is input validation, not a setting.
    "C.rou.geometry",
    # One currency per round: checked on every amount of a request, no variant.
    "TABLE.currency",
}


def _bold_clause_ids(text: str) -> list[str]:
    """Every ``**ID**`` of the text that looks like a clause ID (no space, a dot inside)."""
    found = []
    for token in re.findall(r"\*\*([^*]+)\*\*", text):
        if re.search(r"\s", token) or "." not in token.strip("."):
            continue  # **assumed**, **A**, a bold sentence ending in a full stop
        found.append(token)
    return found


#: Where the project's own additions to the shared spec begin in docs/RULES.md: contract
#: rules (``CONTRACT.*`` labels), not rule clauses of the documents.
ADDITIONS = "\n---------------------------------------------------------------------------\n\n## Contract additions of this project"


def _rules_text() -> str:
    """docs/RULES.md up to the project's additions: the shared spec's text."""
    return RULES.read_text(encoding="utf-8").split(ADDITIONS, 1)[0]


def _additions_text() -> str:
    """The project's additions to the shared spec (contract labels)."""
    text = RULES.read_text(encoding="utf-8")
    assert ADDITIONS in text, "docs/RULES.md lost its contract additions section"
    return text.split(ADDITIONS, 1)[1]


def test_bold_tokens_parse_as_expected() -> None:
    sample = "**BJ.values** x **assumed** **A**, **C.bj.split** **Do not split.** **B.decks**"
    assert _bold_clause_ids(sample) == ["BJ.values", "C.bj.split", "B.decks"]


def test_every_bold_id_has_the_clause_shape() -> None:
    for cid in _bold_clause_ids(_rules_text()):
        assert CLAUSE_SHAPE.fullmatch(cid), cid


def test_clauses_are_exactly_the_bold_ids_of_rules_md() -> None:
    in_rules = _bold_clause_ids(_rules_text())
    assert len(in_rules) == len(set(in_rules)), "a clause ID is defined twice in RULES.md"
    ids = [c.id for c in CLAUSES]
    assert len(ids) == len(set(ids)), "a clause ID is listed twice in oracle/clauses.py"
    assert set(ids) == set(in_rules)
    assert set(BY_ID) == set(in_rules)
    # And in the order RULES.md defines them.
    assert ids == in_rules


#: In the variants section, a clause's game is named by its prefix (VAR.bj.*); TABLE.* is
#: every game's.
VARIANT_PREFIX_GAME = {
    "VAR.bj.": Game.BLACKJACK,
    "VAR.bac.": Game.BACCARAT,
    "VAR.rou.": Game.ROULETTE,
    "TABLE.": None,
}


def _variant_game(cid: str) -> Game | None:
    prefix = next((p for p in VARIANT_PREFIX_GAME if cid.startswith(p)), None)
    assert prefix is not None, f"{cid}: a variant's ID starts with VAR.bj/bac/rou or TABLE"
    return VARIANT_PREFIX_GAME[prefix]


def test_clause_game_is_the_rules_md_section() -> None:
    games = {"Blackjack": Game.BLACKJACK, "Baccarat": Game.BACCARAT, "Roulette": Game.ROULETTE}
    section: Game | None = None
    every_game = variants = False
    seen = 0
    for line in _rules_text().splitlines():
        if line.startswith("## "):
            section = next((g for word, g in games.items() if word in line), None)
            every_game = "(every game)" in line
            variants = line.startswith("## Variants a lab may choose")
        for cid in _bold_clause_ids(line):
            if variants:
                assert BY_ID[cid].game is _variant_game(cid), cid
            else:
                assert section is not None or every_game, cid
                assert BY_ID[cid].game is section, cid
            seen += 1
    assert seen == len(CLAUSES)


def test_every_clause_has_a_title() -> None:
    for c in CLAUSES:
        assert c.title.strip(), c.id


def test_clause_lookup() -> None:
    assert clause("C.bj.split") is BY_ID["C.bj.split"]
    assert clause("BJ.nat-pays").game is Game.BLACKJACK
    assert clause("D.decks").game is Game.BACCARAT
    assert clause("C.rou.history").game is Game.ROULETTE


@pytest.mark.parametrize("cid", ["BJ.nope", "bj.values", "BJ.values ", "", "A", "**BJ.values**"])
def test_unknown_clause_lookup(cid: str) -> None:
    with pytest.raises(ProfileError) as info:
        clause(cid)
    assert isinstance(info.value, OracleError)
    assert info.value.reason == "INVALID_PROFILE"
    assert info.value.metadata == {"clause": cid}


#: SHA-256 of the shared spec's RULES.md this oracle implements: a clean clone has no shared
#: spec beside it, so the copy in docs/ is checked against the digest of the spec it came from.
RULES_SHA256 = "98e625db69858472a1d0f2d68d4dc27c019597f25997d37614a43d576ab8c27f"


def test_rules_md_is_the_shared_spec() -> None:
    # The spec's text, then the project's additions: the spec part is the spec, byte for byte.
    spec = _rules_text().encode("utf-8")
    assert hashlib.sha256(spec).hexdigest() == RULES_SHA256
    # Where the shared spec sits beside the project, it must still be that spec: a changed
    # spec is new work, not something to copy over silently.
    if SHARED_RULES.is_file():
        assert SHARED_RULES.read_bytes() == spec


def test_additions_are_contract_labels() -> None:
    added = _bold_clause_ids(_additions_text())
    assert added == ["CONTRACT.recovery"]
    for cid in added:
        assert CLAUSE_SHAPE.fullmatch(cid), cid
        assert cid in CONTRACT, f"{cid} is in RULES.md's additions but not oracle.clauses.CONTRACT"
        assert cid not in BY_ID, f"{cid} is a contract label, not a rule clause"


#: Variant clauses (RULES.md "Variants a lab may choose") whose parameter is not built yet
#: (issue 24). No shipped profile chooses a variant: the lab profiles of docs/examples/ that
#: choose one cite it. Each leaves this set when its parameter lands with such a profile.
VARIANTS_NOT_YET_PARAMETERS: set[str] = set()

EXAMPLES = ROOT / "docs" / "examples"


def _example_profiles() -> list[Profile]:
    return [load_profile_file(path) for path in sorted(EXAMPLES.glob("*.toml"))]


def test_variants_are_the_variants_section() -> None:
    variants = {c.id for c in CLAUSES if c.variant}
    section = _rules_text().split("## Variants a lab may choose", 1)[1]
    assert variants == set(_bold_clause_ids(section))
    assert variants >= VARIANTS_NOT_YET_PARAMETERS


def test_no_shipped_profile_chooses_a_variant() -> None:
    cited = set().union(*(p.clause_ids() for p in shipped_profiles()))
    assert not {cid for cid in cited if BY_ID[cid].variant}


def test_every_clause_is_configured_or_enforced_in_code() -> None:
    cited = set().union(*(p.clause_ids() for p in shipped_profiles()))
    rules = {cid for cid, c in BY_ID.items() if not c.variant}
    missing = rules - cited - ENFORCED_IN_CODE
    assert not missing, f"clauses neither cited by a profile nor allow-listed: {sorted(missing)}"


def test_every_variant_is_chosen_by_an_example_lab_profile() -> None:
    cited = set().union(set(), *(p.clause_ids() for p in _example_profiles()))
    variants = {cid for cid, c in BY_ID.items() if c.variant}
    missing = variants - cited - VARIANTS_NOT_YET_PARAMETERS
    assert not missing, f"variants no profile of docs/examples/ chooses: {sorted(missing)}"
    built = VARIANTS_NOT_YET_PARAMETERS & cited
    assert not built, f"built variants still listed as not built: {sorted(built)}"


def test_allow_list_is_minimal_and_real() -> None:
    assert not ENFORCED_IN_CODE - set(BY_ID), "an allow-listed ID is not a clause"
    cited = set().union(*(p.clause_ids() for p in shipped_profiles()))
    assert not ENFORCED_IN_CODE & cited, "an allow-listed clause is cited by a profile: drop it"
