"""Every ``croupier`` command's numeric options refuse NaN, infinity and values out of range.

Over the whole command tree: each option that takes a number is parsed (its type and
its callback, as click parses it; the command never runs) with NaN, infinity, negative, huge, empty and non-UTF-8
values. Each is refused as bad usage (exit 2, naming the option), or taken as a finite
number the option allows; nothing raises anything else. Then the commands whose odd
values were tracebacks before, run end to end.
"""

from __future__ import annotations

import math
from pathlib import Path

import click
import pytest

from tests.audit.support import invoke
from tests.conformance.cli_tree import command, commands


def _numeric_options() -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, param.opts[0])
        for path in commands()
        for param in command(path).params
        if isinstance(param, click.Option)
        and isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))
    ]


NUMERIC = _numeric_options()
ODD = ("nan", "-nan", "inf", "-inf", "1e309", "-1", "-0", "0", "", " ", "1" * 40, "\udcff")


def test_there_are_numeric_options_to_drive() -> None:
    names = {option for _, option in NUMERIC}
    assert {"--band", "--fairness-p", "--workers", "--timeout", "--port"} <= names


@pytest.mark.parametrize("value", ODD)
@pytest.mark.parametrize("where", NUMERIC, ids=lambda w: f"{' '.join(w[0])} {w[1]}")
def test_a_numeric_option_takes_a_finite_number_in_range_or_is_bad_usage(
    where: tuple[tuple[str, ...], str], value: str
) -> None:
    path, option = where
    found = command(path)
    param = next(p for p in found.params if isinstance(p, click.Option) and option in p.opts)
    refused: click.BadParameter | None = None
    taken = None
    try:
        # What parsing the option does (its type, then its callback), and no more.
        taken = param.process_value(click.Context(found, info_name="croupier"), value)
    except click.BadParameter as exc:
        refused = exc
    if refused is not None:
        assert refused.param is param, (path, option, value, refused)
    else:
        assert taken is None or math.isfinite(taken), (path, option, value, taken)


def _parse(path: tuple[str, ...], option: str, value: str) -> object:
    """What parsing ``option`` of the command at ``path`` makes of ``value`` (the command never runs)."""
    found = command(path)
    param = next(p for p in found.params if isinstance(p, click.Option) and option in p.opts)
    return param.process_value(click.Context(found, info_name="croupier"), value)


@pytest.mark.parametrize("value", ["1" * 40, "1e300", str(2**63)])
@pytest.mark.parametrize("where", NUMERIC, ids=lambda w: f"{' '.join(w[0])} {w[1]}")
def test_a_huge_number_is_bad_usage_naming_its_bound(
    where: tuple[tuple[str, ...], str], value: str
) -> None:
    # A count of 10**40 rounds, or a deadline past the platform's time, is refused at once.
    path, option = where
    with pytest.raises(click.BadParameter) as refused:
        _parse(path, option, value)
    assert refused.value.param is not None
    assert option in refused.value.param.opts


def test_a_huge_count_is_refused_with_its_range() -> None:
    result = invoke("spins", "--seed", "s", "--count", "1" * 40)
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--count'" in result.output
    assert "1<=x<=10000000" in result.output
    result = invoke("explore", "--target", "127.0.0.1:9", "--minutes", "1e40")
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--minutes'" in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["certify", "--launch", ""], "--launch: the command is empty"),
        (["certify", "--launch", 'python "x'], "--launch 'python \"x': No closing quotation"),
        (["certify", "--target", ""], "--target: give HOST:PORT, not an empty string"),
        (
            ["vectors", "build", "--profile", "baccarat-c", "--seed", "\udcff"],
            "Invalid value for '--seed': not valid UTF-8 text",
        ),
        (["shoe", "--seed", "\udcff\udcfe"], "Invalid value for '--seed': not valid UTF-8 text"),
        (
            [
                *("vectors", "build", "--profile", "baccarat-c", "--seed", "s", "--count", "2"),
                "--out",
                "/dev/full",
            ],
            "cannot write /dev/full: No space left on device",
        ),
    ],
)
def test_odd_values_that_were_tracebacks_are_usage_errors(args: list[str], said: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert said in result.output


def test_a_profile_nested_too_deep_is_named(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("id = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = invoke("profiles", "show", deep)
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"{deep}: not a profile: nested too deep" in result.output
