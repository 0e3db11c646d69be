"""Rule profiles (DESIGN.md "Rule profiles"): the shipped seven, lab profiles, strict loading."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from croupier.oracle.clauses import BY_ID, Game
from croupier.oracle.errors import OracleError, ProfileError, UnknownProfileError
from croupier.oracle.money import Odds, Rounding
from croupier.oracle.parameters import SPECS
from croupier.oracle.profile import (
    SHIPPED_IDS,
    Profile,
    Status,
    load_profile_file,
    load_profile_text,
    resolve_profile,
    shipped_profile,
    shipped_profiles,
)

# DESIGN.md: "Seven ship: blackjack A and C, baccarat B, C and D, roulette C (European) and an
# American roulette profile." RULES.md's table gives each one's document.
SHIPPED = {
    "blackjack-a": (Game.BLACKJACK, "A"),
    "blackjack-c": (Game.BLACKJACK, "C"),
    "baccarat-b": (Game.BACCARAT, "B"),
    "baccarat-c": (Game.BACCARAT, "C"),
    "baccarat-d": (Game.BACCARAT, "D"),
    "roulette-c": (Game.ROULETTE, "C"),
    "roulette-american": (Game.ROULETTE, "C"),
}


def test_seven_profiles_ship() -> None:
    assert set(SHIPPED_IDS) == set(SHIPPED)
    assert len(SHIPPED_IDS) == 7
    assert [p.id for p in shipped_profiles()] == list(SHIPPED_IDS)
    files = {
        entry.name
        for entry in resources.files("croupier.oracle.profiles").iterdir()
        if entry.name.endswith(".toml")
    }
    assert files == {f"{pid}.toml" for pid in SHIPPED}


@pytest.mark.parametrize(("profile_id", "game_source"), SHIPPED.items())
def test_shipped_profile_loads(profile_id: str, game_source: tuple[Game, str]) -> None:
    profile = shipped_profile(profile_id)
    assert isinstance(profile, Profile)
    assert profile.id == profile_id
    assert (profile.game, profile.source) == game_source
    assert profile.extends is None
    assert profile.title
    assert profile.origin == f"oracle/profiles/{profile_id}.toml"
    assert profile.parameters


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_every_listed_parameter_has_clauses_and_status(profile_id: str) -> None:
    profile = shipped_profile(profile_id)
    specs = SPECS[profile.game]
    names = [p.name for p in profile.parameters]
    assert len(names) == len(set(names))
    # Listed in the spec's order.
    assert names == [n for n in specs if n in names]
    for param in profile.parameters:
        assert param.name in specs
        assert param.clauses, param.name
        assert len(set(param.clauses)) == len(param.clauses), param.name
        for cid in param.clauses:
            assert cid in BY_ID, (param.name, cid)
            # A parameter cites its own game's clauses or a clause of every game (money,
            # limits); no profile borrows another game's clause by analogy any more.
            assert BY_ID[cid].game in (profile.game, None), (param.name, cid)
        assert isinstance(param.status, Status)
        assert profile[param.name] == param.value


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_shipped_files_state_clauses_and_status_explicitly(profile_id: str) -> None:
    text = (
        resources.files("croupier.oracle.profiles")
        .joinpath(f"{profile_id}.toml")
        .read_text("utf-8")
    )
    data = tomllib.loads(text)
    assert "extends" not in data
    for name, table in data["parameters"].items():
        assert set(table) >= {"value", "clauses", "status"}, name
        assert table["status"] in {"documented", "assumed"}, name


# Marks and values read from RULES.md, clause by clause.
KEY_PARAMETERS = [
    # A.dealer-draw: "Parameter `dealer_hits_soft_17=false`, assumed."
    ("blackjack-a", "dealer_hits_soft_17", False, Status.ASSUMED, "A.dealer-draw"),
    # C.bj.dealer-draw: "stands on 17 to 21 (every 17, soft too)".
    ("blackjack-c", "dealer_hits_soft_17", False, Status.DOCUMENTED, "C.bj.dealer-draw"),
    # BJ.nat-pays: 3:2 (A, C), example A1.
    ("blackjack-a", "blackjack_pays", "3:2", Status.DOCUMENTED, "BJ.nat-pays"),
    ("blackjack-c", "blackjack_pays", "3:2", Status.DOCUMENTED, "BJ.nat-pays"),
    # A.split: two pictures that differ may be split; 10-J may not.
    ("blackjack-a", "split_pairs", "same-rank-or-pictures", Status.DOCUMENTED, "A.split"),
    # C.bj.split: only the same rank.
    ("blackjack-c", "split_pairs", "same-rank", Status.DOCUMENTED, "C.bj.split"),
    # Re-splitting: "not mentioned; assumed not allowed" in both.
    ("blackjack-a", "max_hands", 2, Status.ASSUMED, "A.split"),
    ("blackjack-c", "max_hands", 2, Status.ASSUMED, "C.bj.split"),
    # A.double: "assumed: double after split allowed"; C.bj.double states it.
    ("blackjack-a", "double_after_split", True, Status.ASSUMED, "A.double"),
    ("blackjack-c", "double_after_split", True, Status.DOCUMENTED, "C.bj.double"),
    # A.surrender: "Not offered." C.bj.surrender: offered; "Not on a split hand (assumed)".
    ("blackjack-a", "surrender", False, Status.DOCUMENTED, "A.surrender"),
    ("blackjack-c", "surrender", True, Status.DOCUMENTED, "C.bj.surrender"),
    ("blackjack-c", "surrender_after_split", False, Status.ASSUMED, "C.bj.surrender"),
    # A.peek: under an ace or a ten. C.bj.peek: only under an ace.
    # A states the look under a ten only for a player blackjack (A.nat-vs-ten); the rest is assumed.
    ("blackjack-a", "peek", "ace-or-ten", Status.ASSUMED, "A.peek"),
    ("blackjack-c", "peek", "ace", Status.DOCUMENTED, "C.bj.peek"),
    # C.bj.peek: "parameter `dealer_blackjack_takes=all_stakes`, assumed".
    ("blackjack-c", "dealer_blackjack_takes", "all-stakes", Status.ASSUMED, "C.bj.peek"),
    # C.bj.insurance: bold "After taking insurance the player may neither double nor split."
    ("blackjack-c", "no_double_split_after_insurance", True, Status.DOCUMENTED, "C.bj.insurance"),
    ("blackjack-c", "insurance_pays", "2:1", Status.DOCUMENTED, "C.bj.insurance"),
    ("blackjack-a", "insurance_pays", "2:1", Status.DOCUMENTED, "A.insurance"),
    # A.even-money: a blackjack against an ace is offered even money.
    ("blackjack-a", "blackjack_vs_ace", "even-money", Status.DOCUMENTED, "A.even-money"),
    # BJ.half-stakes: "(assumed, both) ... rounded down".
    ("blackjack-a", "half_stake_rounding", "down", Status.ASSUMED, "BJ.half-stakes"),
    ("blackjack-c", "half_stake_rounding", "down", Status.ASSUMED, "BJ.half-stakes"),
    # B.tableau: as printed, a documented deviation.
    ("baccarat-b", "tableau", "document-b", Status.DOCUMENTED, "B.tableau"),
    ("baccarat-c", "tableau", "standard", Status.DOCUMENTED, "BAC.banker-tableau"),
    ("baccarat-d", "tableau", "standard", Status.DOCUMENTED, "BAC.banker-tableau"),
    # B.decks eight; C.bac.decks six; D.decks "Not stated; assumed eight."
    ("baccarat-b", "decks", 8, Status.DOCUMENTED, "B.decks"),
    ("baccarat-c", "decks", 6, Status.DOCUMENTED, "C.bac.decks"),
    ("baccarat-d", "decks", 8, Status.ASSUMED, "D.decks"),
    # BAC.tie-push: documented by D, "assumed for B and C, which are silent".
    ("baccarat-b", "tie_pushes", True, Status.ASSUMED, "BAC.tie-push"),
    ("baccarat-c", "tie_pushes", True, Status.ASSUMED, "BAC.tie-push"),
    ("baccarat-d", "tie_pushes", True, Status.DOCUMENTED, "BAC.tie-push"),
    # BAC.pay-tie 8:1; BAC.pay-banker 5% commission.
    ("baccarat-b", "tie_pays", "8:1", Status.DOCUMENTED, "BAC.pay-tie"),
    ("baccarat-c", "banker_commission", "0.05", Status.DOCUMENTED, "BAC.pay-banker"),
    # C.rou.wheel table: dozen 2:1 ("2 : 2" is a misprint), straight 35:1, first four 8:1.
    ("roulette-c", "dozen_pays", "2:1", Status.DOCUMENTED, "C.rou.wheel"),
    ("roulette-c", "straight_pays", "35:1", Status.DOCUMENTED, "C.rou.wheel"),
    ("roulette-c", "first_four_pays", "8:1", Status.DOCUMENTED, "C.rou.wheel"),
    ("roulette-c", "wheel", "european", Status.DOCUMENTED, "C.rou.wheel"),
    ("roulette-c", "zero_rule", "loses", Status.DOCUMENTED, "C.rou.zero-loses"),
    ("roulette-c", "history_length", 13, Status.DOCUMENTED, "C.rou.history"),
    # American roulette: "assumed standard", top line 0-00-1-2-3 at 6:1.
    ("roulette-american", "wheel", "american", Status.ASSUMED, "US.rou.wheel"),
    ("roulette-american", "top_line_pays", "6:1", Status.ASSUMED, "US.rou.geometry"),
    ("roulette-american", "zero_rule", "loses", Status.ASSUMED, "US.rou.zero-loses"),
]


@pytest.mark.parametrize(("profile_id", "name", "raw", "status", "clause"), KEY_PARAMETERS)
def test_key_parameter_marks_match_rules_md(
    profile_id: str, name: str, raw: object, status: Status, clause: str
) -> None:
    param = shipped_profile(profile_id).parameter(name)
    assert param is not None
    assert param.raw == raw
    assert type(param.raw) is type(raw)
    assert param.status is status
    assert clause in param.clauses


def test_key_parameter_typed_values() -> None:
    assert shipped_profile("roulette-c").odds("dozen_pays").ratio == 2
    assert shipped_profile("blackjack-a").odds("blackjack_pays").ratio == Fraction(3, 2)
    assert shipped_profile("baccarat-c").fraction("banker_commission") == Fraction(1, 20)
    assert shipped_profile("baccarat-d").integer("decks") == 8
    assert shipped_profile("baccarat-c").integer("decks") == 6
    assert shipped_profile("baccarat-b").choice("tableau") == "document-b"
    assert shipped_profile("blackjack-c").flag("surrender") is True
    assert shipped_profile("blackjack-a").flag("dealer_hits_soft_17") is False


@pytest.mark.parametrize("profile_id", SHIPPED_IDS)
def test_payout_rounding_is_down_and_assumed(profile_id: str) -> None:
    # RULES.md "Money": rounded by the profile's rule, "assumed: down, in the house's favour".
    profile = shipped_profile(profile_id)
    assert profile.rounding() is Rounding.DOWN
    param = profile.parameter("rounding")
    if param is not None:
        assert param.status is Status.ASSUMED


def test_unlisted_parameter_takes_the_spec_default() -> None:
    bj_a = shipped_profile("blackjack-a")
    assert bj_a.parameter("surrender_after_split") is None
    assert bj_a["surrender_after_split"] is False
    assert bj_a.parameter("dealer_blackjack_takes") is None
    assert bj_a["dealer_blackjack_takes"] == "all-stakes"
    rou_c = shipped_profile("roulette-c")
    assert rou_c.parameter("top_line_pays") is None
    assert rou_c["top_line_pays"] == Odds(win=Fraction(6), per=1)
    # An unlisted parameter's rule is cited by its spec's clause; a listed one by its own.
    assert rou_c.citations()("top_line_pays") == ("C.rou.wheel",)
    assert bj_a.citations()("surrender_after_split") == ("C.bj.surrender",)
    assert bj_a.citations()("extra_stakes_need_funds", "rounding") == (
        "BJ.funds",
        "A.split",
        "MONEY.rounding",
    )
    assert shipped_profile("roulette-american")["first_four_pays"] == Odds(win=Fraction(8), per=1)


def test_unknown_parameter_name_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="no_such"):
        shipped_profile("blackjack-a")["no_such"]
    with pytest.raises(KeyError):
        shipped_profile("roulette-c")["decks"]


def test_typed_accessors_refuse_the_wrong_type() -> None:
    bj = shipped_profile("blackjack-a")
    with pytest.raises(TypeError):
        bj.flag("decks")
    with pytest.raises(TypeError):
        bj.odds("decks")
    with pytest.raises(TypeError):
        bj.choice("blackjack_pays")
    with pytest.raises(TypeError):
        bj.rounding("peek")
    # bool is an int in Python; a true/false parameter must still not pass as an integer.
    with pytest.raises(TypeError):
        bj.integer("surrender")


def test_clause_ids() -> None:
    assert shipped_profile("baccarat-b").clause_ids() == {
        "B.decks",
        "B.tableau",
        "BAC.banker-tableau",
        "BAC.pay-player",
        "BAC.pay-banker",
        "BAC.pay-tie",
        "BAC.tie-push",
        "MONEY.rounding",
        "TABLE.limits",
        "B.limits",
    }


# --- unknown profiles and resolution ---


@pytest.mark.parametrize("profile_id", ["blackjack-z", "", "Blackjack-A", "blackjack-a.toml"])
def test_unknown_profile_id(profile_id: str) -> None:
    with pytest.raises(UnknownProfileError) as info:
        shipped_profile(profile_id)
    assert isinstance(info.value, OracleError)
    assert info.value.reason == "UNKNOWN_PROFILE"
    assert info.value.metadata == {"profile": profile_id}


def test_resolve_unknown_id() -> None:
    with pytest.raises(UnknownProfileError) as info:
        resolve_profile("poker-x")
    assert info.value.reason == "UNKNOWN_PROFILE"


def test_resolve_by_id() -> None:
    assert resolve_profile("baccarat-d") == shipped_profile("baccarat-d")


def test_resolve_by_path(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text('id = "lab"\nextends = "roulette-c"\n', encoding="utf-8")
    profile = resolve_profile(str(path))
    assert profile.id == "lab"
    assert profile.origin == str(path)
    assert profile.parameters == shipped_profile("roulette-c").parameters


def test_resolve_a_missing_toml_path_is_a_profile_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as info:
        resolve_profile(str(tmp_path / "missing.toml"))
    assert info.value.reason == "INVALID_PROFILE"


@pytest.mark.parametrize(
    ("content", "said"),
    [(b'id = "caf\xe9"\n', "not UTF-8 text"), (b"id = [\n", "not valid TOML")],
    ids=["latin-1", "not-toml"],
)
def test_a_lab_file_that_cannot_be_read_is_a_profile_error(
    tmp_path: Path, content: bytes, said: str
) -> None:
    path = tmp_path / "lab.toml"
    path.write_bytes(content)
    with pytest.raises(ProfileError) as info:
        resolve_profile(str(path))
    assert info.value.reason == "INVALID_PROFILE"
    assert str(info.value).startswith(f"{path}: {said}")


# --- extending ---


def test_extends_overrides_one_value_keeps_clauses_and_becomes_assumed() -> None:
    base = shipped_profile("blackjack-c")
    lab = load_profile_text(
        'id = "lab-h17"\nextends = "blackjack-c"\n\n'
        "[parameters]\ndealer_hits_soft_17 = { value = true }\n"
    )
    assert lab.id == "lab-h17"
    assert lab.extends == "blackjack-c"
    assert (lab.game, lab.title, lab.source) == (base.game, base.title, base.source)
    assert lab.flag("dealer_hits_soft_17") is True
    assert base.flag("dealer_hits_soft_17") is False
    param = lab.parameter("dealer_hits_soft_17")
    base_param = base.parameter("dealer_hits_soft_17")
    assert param is not None
    assert base_param is not None
    assert param.clauses == base_param.clauses == ("C.bj.dealer-draw",)
    # The value changed, so it is no longer what document C states.
    assert base_param.status is Status.DOCUMENTED
    assert param.status is Status.ASSUMED
    assert param.note == "Changed from False by this profile."
    others = [p for p in lab.parameters if p.name != "dealer_hits_soft_17"]
    assert others == [p for p in base.parameters if p.name != "dealer_hits_soft_17"]
    assert len(lab.parameters) == len(base.parameters)


def _override(base: str, line: str) -> Profile:
    return load_profile_text(f'id = "lab"\nextends = "{base}"\n[parameters]\n{line}\n')


def _clauses(profile: Profile, name: str) -> tuple[str, ...]:
    param = profile.parameter(name)
    assert param is not None
    return param.clauses


def test_a_value_that_chooses_a_variant_cites_the_variant_first() -> None:
    """Four hands where A.split says two: the re-split is VAR.bj.resplit's rule (issue 24).

    A value-only override keeps the inherited clause, after the variant's; a value the
    inherited clause states, or clauses the lab writes itself, are cited as they are.
    """
    four = _override("blackjack-a", "max_hands = { value = 4 }")
    assert _clauses(four, "max_hands") == ("VAR.bj.resplit", "A.split")
    assert four.citations()("max_hands")[0] == "VAR.bj.resplit"
    assert "VAR.bj.resplit" in four.clause_ids()
    assert _clauses(_override("blackjack-a", "max_hands = { value = 2 }"), "max_hands") == (
        "A.split",
    )
    written = _override("blackjack-a", 'max_hands = { value = 4, clauses = ["A.split"] }')
    assert _clauses(written, "max_hands") == ("A.split",)
    prison = _override("roulette-c", 'zero_rule = { value = "en-prison" }')
    assert _clauses(prison, "zero_rule") == ("VAR.rou.en-prison", "C.rou.zero-loses")
    # La partage is no variant of RULES.md's list: the documents' clause alone.
    half = _override("roulette-c", 'zero_rule = { value = "half-back" }')
    assert _clauses(half, "zero_rule") == ("C.rou.zero-loses",)


def test_a_variant_already_cited_is_not_cited_twice(tmp_path: Path) -> None:
    parent = tmp_path / "four.toml"
    parent.write_text(
        'id = "four"\nextends = "blackjack-a"\n[parameters]\n'
        'max_hands = { value = 4, clauses = ["VAR.bj.resplit"], status = "documented" }\n',
        encoding="utf-8",
    )
    child = tmp_path / "three.toml"
    child.write_text(
        'id = "three"\nextends = "four.toml"\n[parameters]\nmax_hands = { value = 3 }\n',
        encoding="utf-8",
    )
    assert _clauses(load_profile_file(child), "max_hands") == ("VAR.bj.resplit",)


def test_extends_may_override_clauses_status_and_note() -> None:
    lab = load_profile_text(
        'id = "lab"\nextends = "baccarat-d"\n[parameters]\n'
        'decks = { value = 6, clauses = ["C.bac.decks"], status = "documented", note = "ours" }\n'
    )
    param = lab.parameter("decks")
    assert param is not None
    assert (param.value, param.clauses, param.status, param.note) == (
        6,
        ("C.bac.decks",),
        Status.DOCUMENTED,
        "ours",
    )


def test_extends_may_add_a_parameter() -> None:
    lab = load_profile_text(
        'id = "lab"\nextends = "blackjack-a"\n[parameters]\n'
        'surrender_after_split = { value = true, clauses = ["A.surrender"], status = "assumed" }\n'
    )
    param = lab.parameter("surrender_after_split")
    assert param is not None
    assert param.value is True
    assert len(lab.parameters) == len(shipped_profile("blackjack-a").parameters) + 1


def test_a_profile_without_extends() -> None:
    lab = load_profile_text(
        'id = "mine"\ngame = "roulette"\ntitle = "Mine"\nsource = "lab"\n[parameters]\n'
        'wheel = { value = "american", clauses = ["C.rou.wheel"], status = "assumed" }\n'
    )
    assert lab.game is Game.ROULETTE
    assert lab.choice("wheel") == "american"
    assert lab["straight_pays"] == Odds(win=Fraction(35), per=1)


def test_load_profile_file_extends_a_shipped_profile(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text(
        'id = "lab"\nextends = "baccarat-b"\n[parameters]\ntableau = { value = "standard" }\n',
        encoding="utf-8",
    )
    lab = load_profile_file(path)
    assert lab.origin == str(path)
    assert lab.choice("tableau") == "standard"
    param = lab.parameter("tableau")
    assert param is not None
    assert param.clauses == ("B.tableau", "BAC.banker-tableau")
    # B prints its own tableau; switching to the standard one is an assumption of the lab.
    assert param.status is Status.ASSUMED


def test_extends_a_file_relative_to_the_lab_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "profiles"
    (folder / "bases").mkdir(parents=True)
    (folder / "bases" / "house.toml").write_text(
        'id = "house"\nextends = "blackjack-a"\n[parameters]\ndecks = { value = 8 }\n',
        encoding="utf-8",
    )
    (folder / "lab.toml").write_text(
        'id = "lab"\nextends = "bases/house.toml"\n[parameters]\n'
        "dealer_hits_soft_17 = { value = true }\n",
        encoding="utf-8",
    )
    # The working directory is elsewhere: "bases/house.toml" is relative to lab.toml.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    lab = load_profile_file(folder / "lab.toml")
    assert lab.extends == "bases/house.toml"
    assert lab.integer("decks") == 8
    assert lab.flag("dealer_hits_soft_17") is True
    assert lab.game is Game.BLACKJACK
    assert lab.choice("split_pairs") == "same-rank-or-pictures"
    param = lab.parameter("dealer_hits_soft_17")
    assert param is not None
    assert param.clauses == ("A.dealer-draw",)
    assert param.status is Status.ASSUMED


def test_load_profile_text_cannot_extend_a_file(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text('id = "b"\nextends = "roulette-c"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile_text('id = "lab"\nextends = "base.toml"\n', origin="lab-text")
    assert info.value.metadata == {"file": "lab-text", "key": "extends"}


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('id = "a"\nextends = "b.toml"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('id = "b"\nextends = "a.toml"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile_file(tmp_path / "a.toml")
    assert info.value.reason == "INVALID_PROFILE"
    assert info.value.metadata["key"] == "extends"


# --- strict loading: every error names the file and the key ---

BJ = 'id = "lab"\nextends = "blackjack-a"\n'
BAC = 'id = "lab"\nextends = "baccarat-c"\n'
NEW_ROU = 'id = "lab"\ngame = "roulette"\ntitle = "t"\nsource = "s"\n'

STRICT_ERRORS = [
    pytest.param(BJ + 'colour = "red"\n', "colour", id="unknown-top-level-key"),
    pytest.param(
        BJ + "[parameters]\nsoft_17 = { value = true }\n",
        "parameters.soft_17",
        id="unknown-parameter",
    ),
    pytest.param(
        BAC + "[parameters]\ndecks = { value = 8 }\n[parameters.wheel]\nvalue = 'european'\n",
        "parameters.wheel",
        id="parameter-of-another-game",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 6, source = 'A' }\n",
        "parameters.decks.source",
        id="unknown-key-in-parameter",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 6, clauses = ['BJ.deal', 'BJ.nope'] }\n",
        "parameters.decks.clauses",
        id="unknown-clause",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 6, clauses = [] }\n",
        "parameters.decks.clauses",
        id="empty-clauses",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 6, status = 'guessed' }\n",
        "parameters.decks.status",
        id="bad-status",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = '6' }\n", "parameters.decks.value", id="int-as-string"
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = true }\n", "parameters.decks.value", id="int-as-bool"
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 6.0 }\n", "parameters.decks.value", id="int-as-float"
    ),
    pytest.param(
        BJ + "[parameters]\nsurrender = { value = 1 }\n",
        "parameters.surrender.value",
        id="bool-as-int",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 0 }\n", "parameters.decks.value", id="decks-0"
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { value = 9 }\n", "parameters.decks.value", id="decks-9"
    ),
    pytest.param(
        BJ + "[parameters]\nmax_hands = { value = 1 }\n",
        "parameters.max_hands.value",
        id="max-hands-1",
    ),
    pytest.param(
        BJ + "[parameters]\npeek = { value = 'ten' }\n", "parameters.peek.value", id="bad-choice"
    ),
    pytest.param(
        BJ + "[parameters]\nblackjack_pays = { value = '3/2' }\n",
        "parameters.blackjack_pays.value",
        id="bad-odds",
    ),
    pytest.param(
        BJ + "[parameters]\nblackjack_pays = { value = '3:0' }\n",
        "parameters.blackjack_pays.value",
        id="odds-zero-base",
    ),
    pytest.param(
        BJ + "[parameters]\nblackjack_pays = { value = 1.5 }\n",
        "parameters.blackjack_pays.value",
        id="odds-as-number",
    ),
    pytest.param(
        BAC + "[parameters]\nbanker_commission = { value = 0.05 }\n",
        "parameters.banker_commission.value",
        id="fraction-as-float",
    ),
    pytest.param(
        BAC + "[parameters]\nbanker_commission = { value = '1' }\n",
        "parameters.banker_commission.value",
        id="fraction-not-below-1",
    ),
    pytest.param(
        BJ + "[parameters]\nrounding = { value = 'nearest' }\n",
        "parameters.rounding.value",
        id="bad-rounding",
    ),
    pytest.param(
        BJ + "[parameters]\nmax_bet = { value = 10 }\nmin_bet = { value = 11 }\n",
        "parameters.max_bet",
        id="max-below-min",
    ),
    pytest.param(
        BJ + "[parameters]\nmin_bet = { value = 1000001 }\n",
        "parameters.max_bet",
        id="min-above-inherited-max",
    ),
    pytest.param(BJ + 'game = "baccarat"\n', "game", id="game-mismatch"),
    pytest.param('id = "lab"\nextends = "blackjack-z"\n', "extends", id="extends-missing-profile"),
    pytest.param('id = "lab"\nextends = "nowhere.toml"\n', "extends", id="extends-missing-file"),
    pytest.param(
        NEW_ROU + "[parameters]\nwheel = { value = 'european', status = 'assumed' }\n",
        "parameters.wheel",
        id="new-parameter-missing-clauses",
    ),
    pytest.param(
        NEW_ROU + "[parameters]\nwheel = { value = 'european', clauses = ['C.rou.wheel'] }\n",
        "parameters.wheel",
        id="new-parameter-missing-status",
    ),
    pytest.param(
        BJ + "[parameters]\nsurrender_after_split = { value = true }\n",
        "parameters.surrender_after_split",
        id="added-parameter-missing-clauses",
    ),
    pytest.param(
        BJ + "[parameters]\ndecks = { clauses = ['BJ.deal'] }\n",
        "parameters.decks",
        id="missing-value",
    ),
    pytest.param(BJ + "[parameters]\ndecks = 6\n", "parameters.decks", id="parameter-not-a-table"),
    pytest.param(BJ + "parameters = 6\n", "parameters", id="parameters-not-a-table"),
    pytest.param('extends = "blackjack-a"\n', "id", id="missing-id"),
    pytest.param('id = ""\nextends = "blackjack-a"\n', "id", id="empty-id"),
    pytest.param('id = "lab"\ntitle = "t"\nsource = "s"\n', "game", id="missing-game"),
    pytest.param('id = "lab"\ngame = "poker"\ntitle = "t"\nsource = "s"\n', "game", id="bad-game"),
    pytest.param('id = "lab"\ngame = "roulette"\nsource = "s"\n', "title", id="missing-title"),
]


def _check_error(error: ProfileError, origin: str, key: str) -> None:
    assert isinstance(error, OracleError)
    assert error.reason == "INVALID_PROFILE"
    assert origin in str(error)
    assert key in str(error)
    assert error.metadata["file"] == origin
    assert error.metadata["key"] == key


@pytest.mark.parametrize(("text", "key"), STRICT_ERRORS)
def test_strict_errors_in_a_file(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "lab.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile_file(path)
    _check_error(info.value, str(path), key)


@pytest.mark.parametrize(("text", "key"), STRICT_ERRORS)
def test_strict_errors_in_text(text: str, key: str) -> None:
    with pytest.raises(ProfileError) as info:
        load_profile_text(text, origin="lab-profile")
    _check_error(info.value, "lab-profile", key)


def test_unknown_clause_is_named() -> None:
    with pytest.raises(ProfileError, match=r"BJ\.nope"):
        load_profile_text(BJ + "[parameters]\ndecks = { value = 6, clauses = ['BJ.nope'] }\n")


def test_out_of_range_message_names_the_bound() -> None:
    with pytest.raises(ProfileError, match="at most 8"):
        load_profile_text(BJ + "[parameters]\ndecks = { value = 9 }\n")
    with pytest.raises(ProfileError, match="at least 1"):
        load_profile_text(BJ + "[parameters]\ndecks = { value = 0 }\n")


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('id = "lab"\nextends = \n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile_file(path)
    assert info.value.reason == "INVALID_PROFILE"
    assert str(path) in str(info.value)
    assert "TOML" in str(info.value)
    assert info.value.metadata["file"] == str(path)
    with pytest.raises(ProfileError) as text_info:
        load_profile_text("[parameters\n", origin="lab-text")
    assert "lab-text" in str(text_info.value)
    assert text_info.value.metadata["file"] == "lab-text"


def test_invalid_toml_in_an_extended_file_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_text("id = = 3\n", encoding="utf-8")
    (tmp_path / "lab.toml").write_text('id = "lab"\nextends = "base.toml"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile_file(tmp_path / "lab.toml")
    assert info.value.metadata["file"] == str(tmp_path / "base.toml")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(ProfileError) as info:
        load_profile_file(path)
    assert info.value.reason == "INVALID_PROFILE"
    assert info.value.metadata["file"] == str(path)


def test_every_problem_of_a_profile_is_named() -> None:
    """An unknown parameter, a value out of range and a clash: one refusal names all three."""
    text = (
        BJ + "[parameters]\n"
        "decks = { value = 9 }\n"
        "dealer_peeks_twice = { value = true }\n"
        "max_bet = { value = 10 }\nmin_bet = { value = 11 }\n"
    )
    with pytest.raises(ProfileError) as info:
        load_profile_text(text, origin="lab-profile")
    message = str(info.value)
    assert message.startswith("lab-profile: 3 problems: ")
    assert "parameters.decks.value: must be at most 8, got 9" in message
    assert "parameters.dealer_peeks_twice: unknown blackjack parameter" in message
    assert "parameters.max_bet: is 10, below min_bet 11" in message
    assert info.value.metadata["file"] == "lab-profile"
    assert info.value.metadata["keys"] == (
        "parameters.decks.value,parameters.dealer_peeks_twice,parameters.max_bet"
    )
    assert info.value.metadata["key"] == "parameters.decks.value"


def test_a_clash_with_a_refused_value_is_not_judged() -> None:
    """max_bet's own value is refused: min_bet is not compared with the inherited 1000000."""
    text = BJ + "[parameters]\nmax_bet = { value = 0 }\nmin_bet = { value = 2000000 }\n"
    with pytest.raises(ProfileError) as info:
        load_profile_text(text, origin="lab-profile")
    assert info.value.metadata["key"] == "parameters.max_bet.value"
    assert "keys" not in info.value.metadata
    assert "problems" not in str(info.value)
