"""The bench's figure lines: ratio, median of ratios, pass or short (no timing here)."""

import pytest

from bench.figures import Figure, Goal, amount, header, median_ratio, ratio, repeated


def test_the_median_ratio_is_the_median_of_each_repetitions_ratio() -> None:
    # Ratios 2, 4 and 3: the median is 3, not median(values) / median(anchors) = 2.
    assert median_ratio([20.0, 40.0, 60.0], [10.0, 10.0, 20.0]) == 3.0
    with pytest.raises(ValueError, match="one anchor per value"):
        median_ratio([1.0], [])


def test_repetitions_give_medians_and_the_median_ratio() -> None:
    figure = repeated("x", [20.0, 40.0, 60.0], ("a", [10.0, 10.0, 20.0]), Goal(at_least=3.0))
    assert (figure.value, figure.anchor_value, figure.ratio) == (40.0, 10.0, 3.0)
    assert figure.verdict == "pass"
    assert figure.note == "medians of 3 interleaved runs"


def test_a_ratio_needs_a_positive_anchor() -> None:
    assert ratio(3.0, 2.0) == 1.5
    assert ratio(3.0, 0.0) is None


@pytest.mark.parametrize(
    ("figure", "verdict"),
    [
        (Figure(name="x", value=9.0, unit="/s", ratio=4.9, goal=Goal(at_least=5.0)), "short"),
        (Figure(name="x", value=9.0, unit="/s", ratio=5.0, goal=Goal(at_least=5.0)), "pass"),
        (Figure(name="x", value=199.0, unit="MB", goal=Goal(below=200, on="value")), "pass"),
        (Figure(name="x", value=200.0, unit="MB", goal=Goal(below=200, on="value")), "short"),
        (Figure(name="x", value=9.0, unit="/s", goal=Goal(at_least=0.8)), "short"),
        (Figure(name="x", value=9.0, unit="/s"), "-"),
    ],
)
def test_verdicts(figure: Figure, verdict: str) -> None:
    assert figure.verdict == verdict


def test_a_line_shows_value_anchor_ratio_goal_and_verdict() -> None:
    figure = Figure(
        name="runner calls/s",
        value=1396.4,
        unit="/s",
        anchor="echo",
        anchor_value=2176.0,
        ratio=ratio(1396.4, 2176.0),
        goal=Goal(at_least=0.8, text=">= 0.80x"),
        note="3 runs",
    )
    line = figure.line()
    assert " ".join(line.split()) == (
        "runner calls/s 1,396 /s echo 2,176 /s 0.64x >= 0.80x short (3 runs)"
    )
    assert line.index("1,396") == header().index("value")
    assert line.index("short") == header().index("verdict")


def test_a_goal_no_number_bounds_is_judged_by_met() -> None:
    goal = Goal(text="every cell")
    assert Figure(name="x", value=74, unit="rounds", goal=goal, met=True).verdict == "pass"
    assert Figure(name="x", value=10_000, unit="rounds", goal=goal, met=False).verdict == "short"
    assert Figure(name="x", value=74, unit="rounds", met=False).verdict == "-"


def test_whole_numbers_are_printed_without_decimals() -> None:
    assert amount(74, "rounds") == "74 rounds"
    assert amount(16.5, "rounds") == "16.50 rounds"
    assert amount(1396.4, "/s") == "1,396 /s"
