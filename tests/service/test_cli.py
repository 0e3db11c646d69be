"""The ``croupier`` command's profile, shoe and spin subcommands (click's CliRunner)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from google.protobuf import json_format

from croupier.conformance.cli import main
from croupier.oracle.profile import shipped_profile
from croupier.v1 import oracle_service_pb2, oracle_service_pb2_grpc
from tests.service.support import PROFILE_IDS


def run(*args: str) -> Result:
    # Wide enough that rich never folds a clause id or a value across lines.
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "240"})


def rows(output: str) -> dict[str, list[str]]:
    """A rich table's body rows by their first cell: cells split on the box's bars."""
    found = {}
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line)[1:-1]]
        if cells and cells[0]:
            found[cells[0]] = cells[1:]
    return found


def test_profiles_lists_the_seven() -> None:
    result = run("profiles")
    assert result.exit_code == 0, result.output
    table = rows(result.output)
    for profile_id in PROFILE_IDS:
        assert profile_id in table
    assert table["roulette-american"][:2] == ["roulette", "C"]
    assert table["baccarat-b"][:2] == ["baccarat", "B"]
    # blackjack-c lists 24 parameters; 12 of them are assumed (the TOML says so).
    assert table["blackjack-c"][-1] == "12/24"


def test_profiles_show_gives_values_status_and_clauses() -> None:
    result = run("profiles", "show", "blackjack-a")
    assert result.exit_code == 0, result.output
    assert "blackjack-a" in result.output
    table = rows(result.output)
    assert table["blackjack_pays"][:3] == ["3:2", "documented", "BJ.nat-pays"]
    assert table["decks"][:3] == ["6", "assumed", "BJ.deal"]
    assert table["peek"][:3] == ["ace-or-ten", "assumed", "A.peek A.nat-vs-ten"]
    assert table["surrender"][:3] == ["false", "documented", "A.surrender"]
    assert table["extra_stakes_need_funds"][2] == "BJ.funds A.split"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_profiles_show_json_is_what_get_profile_answers(
    profile_id: str, oracle_stub: oracle_service_pb2_grpc.OracleServiceStub
) -> None:
    result = run("profiles", "show", profile_id, "--json")
    assert result.exit_code == 0, result.output
    printed = json_format.Parse(result.output, oracle_service_pb2.GetProfileResponse())
    served = oracle_stub.GetProfile(
        oracle_service_pb2.GetProfileRequest(profile_id=profile_id), timeout=10
    )
    assert printed == served


def test_profiles_show_json_has_the_numbers_an_engine_needs() -> None:
    def values(profile_id: str) -> dict[str, str]:
        output = run("profiles", "show", profile_id, "--json").output
        return {p["name"]: p["value"] for p in json.loads(output)["profile"]["parameters"]}

    # B.decks: eight decks; C.rou.history: the board shows 13 numbers; TABLE.limits and
    # MONEY.rounding on every card game.
    assert values("baccarat-b")["decks"] == "8"
    assert values("roulette-c")["history_length"] == "13"
    for profile_id in ("blackjack-a", "blackjack-c", "baccarat-c", "baccarat-d"):
        listed = values(profile_id)
        assert {"decks", "min_bet", "max_bet", "rounding"} <= set(listed), profile_id


def test_profiles_diff_shows_only_what_differs() -> None:
    result = run("profiles", "diff", "blackjack-a", "blackjack-c")
    assert result.exit_code == 0, result.output
    table = rows(result.output)
    # Values that differ (RULES.md, documents A and C).
    assert table["surrender"] == ["false (documented)", "true (documented)"]
    assert table["peek"] == ["ace-or-ten (assumed)", "ace (documented)"]
    assert table["split_pairs"] == ["same-rank-or-pictures (documented)", "same-rank (documented)"]
    assert table["blackjack_vs_ace"] == ["even-money (documented)", "insurance (assumed)"]
    assert table["natural_paid_at_once"] == ["true (documented)", "false (documented)"]
    # Same value, different status: still a difference.
    assert table["dealer_hits_soft_17"] == ["false (assumed)", "false (documented)"]
    # The same value and status on both sides is not listed.
    for same in ("decks", "blackjack_pays", "insurance_pays", "max_hands", "rounding"):
        assert same not in table


def test_profiles_diff_of_two_games_is_refused() -> None:
    result = run("profiles", "diff", "blackjack-a", "roulette-c")
    assert result.exit_code == 2
    assert "nothing to compare" in result.output


def test_shoe_prints_the_design_vector() -> None:
    result = run("shoe", "--seed", "croupier", "--decks", "1", "--count", "12")
    assert result.exit_code == 0, result.output
    assert result.output == "KS 5H 5S 7S 8H KC 9S 2D 8D JS 5D 3S\n"


def test_shoe_prints_a_whole_shoe() -> None:
    result = run("shoe", "--seed", "croupier", "--decks", "6")
    cards = result.output.split()
    assert cards[:12] == ["QH", "AD", "AS", "4H", "TC", "2C", "KH", "QD", "9C", "7S", "6C", "TD"]
    assert len(cards) == 312
    assert len(set(cards)) == 52


def test_spins_print_the_design_vector() -> None:
    result = run("spins", "--seed", "croupier")
    assert result.exit_code == 0, result.output
    assert result.output == "28 34 12 14 27 34 31 20 0 36 33 2 14\n"


@pytest.mark.parametrize(
    "args",
    [
        ("profiles", "show", "blackjack-z"),
        ("profiles", "diff", "blackjack-a", "blackjack-z"),
    ],
)
def test_an_unknown_profile_exits_2_with_a_clear_message(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "blackjack-z" in result.output
    assert "unknown profile" in result.output.lower()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("serve", "--port", "0", "--profile", "blackjack-z"), "--profile"),
        (("vectors", "check", "--profile-file", "blackjack-z"), "--profile-file"),
        (("vectors", "build", "--profile", "blackjack-z", "--out", "OUT"), "--profile"),
        (("explore", "--profile", "blackjack-z", "--target", "127.0.0.1:1"), "--profile"),
        (("audit", "verify", "--profile-file", "blackjack-z", "LOG"), "--profile-file"),
    ],
)
def test_a_profile_option_that_names_no_profile_is_named_in_the_error(
    args: tuple[str, ...], option: str, tmp_path: Path
) -> None:
    # A command with several inputs says which of its options held the unknown profile.
    log = tmp_path / "audit.log"
    log.write_bytes(b"")
    named = {"LOG": str(log), "OUT": str(tmp_path / "out.binpb.gz")}
    result = run(*(named.get(arg, arg) for arg in args))
    assert result.exit_code == 2
    assert f"{option}: unknown profile 'blackjack-z'" in " ".join(result.output.split())


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_profiles_show_at_80_columns_never_breaks_a_name(profile_id: str) -> None:
    # Before: rich folded "dealer_hits_soft_17" into "dealer_hits_sof" / "t_17" at 80 columns.
    result = CliRunner().invoke(main, ["profiles", "show", profile_id], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())
    # Each row with the lines it wraps onto (their first cell is empty).
    table: dict[str, list[str]] = {}
    name = ""
    for line in result.output.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line)[1:-1]]
        if len(cells) != 4:
            continue
        name = cells[0] or name
        words = table.setdefault(name, ["", "", ""])
        for i in range(3):
            words[i] = f"{words[i]} {cells[i + 1]}".strip()
    profile = json.loads(run("profiles", "show", profile_id, "--json").output)["profile"]
    for parameter in profile["parameters"]:
        assert parameter["name"] in table, parameter["name"]
        clauses = table[parameter["name"]][2].split()
        assert clauses == parameter.get("clauses", []), parameter["name"]
    # The notes follow the table, each after its parameter's name.
    lines = result.output.splitlines()
    for param in shipped_profile(profile_id).parameters:
        if param.note:
            assert any(ln.startswith(f"{param.name}: {param.note[:20]}") for ln in lines)


@pytest.mark.parametrize("args", [("serve", "--help"), ("--version",), ("profiles", "list")])
def test_a_command_imports_only_what_it_needs(args: tuple[str, ...]) -> None:
    # The group imports each command when named: serving, or asking the version, does not
    # pay for explore's Hypothesis or the audit (about a second of start-up).
    program = (
        "import sys\n"
        "from croupier.conformance.cli import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print([m for m in ('hypothesis', 'dask', 'croupier.conformance.explore',"
        " 'croupier.conformance.audit') if m in sys.modules])\n"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_every_command_is_listed_and_each_loads() -> None:
    # The lazy group lists its commands without importing them, and each name loads.
    result = run("--help")
    assert result.exit_code == 0
    listed = {
        line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()
    }
    assert listed == {
        "audit",
        "certify",
        "completion",
        "explore",
        "profiles",
        "proto",
        "report",
        "serve",
        "shoe",
        "spins",
        "vectors",
    }
    for name in sorted(listed):
        assert run(name, "--help").exit_code == 0, name
