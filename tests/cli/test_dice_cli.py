"""``konflikt roll`` and ``konflikt odds EXPR``: exact JSON, agreement with icepool, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest

from tests.conftest import Result


def test_odds_4df_json_is_exact(cli: Callable[..., Result]) -> None:
    result = cli("odds", "4dF", "--json")
    assert result.code == 0
    outcomes = json.loads(result.out)["outcomes"]
    assert outcomes == {
        "-4": "1/81", "-3": "4/81", "-2": "10/81", "-1": "16/81", "0": "19/81",
        "1": "16/81", "2": "10/81", "3": "4/81", "4": "1/81",
    }  # fmt: skip


def test_odds_3d6_agrees_with_icepool(cli: Callable[..., Result]) -> None:
    outcomes = json.loads(cli("odds", "3d6", "--json").out)["outcomes"]
    die = 3 @ icepool.d6
    expected = {str(k): Fraction(q, die.denominator()) for k, q in die.items()}
    assert {k: Fraction(v) for k, v in outcomes.items()} == expected


def test_odds_6d6_success_pool_agrees_with_icepool(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("odds", "6d6 pool", "--json").out)
    successes = icepool.d6.pool(6).keep_outcomes([4, 5, 6]).size()
    expected = {str(k): Fraction(q, successes.denominator()) for k, q in successes.items()}
    assert {k: Fraction(v) for k, v in data["outcomes"].items()} == expected
    joint = data["distributions"]["successes,ones"]
    assert sum(Fraction(v) for v in joint.values()) == 1
    assert Fraction(joint["0,6"]) == Fraction(1, 6**6)


def test_odds_table_shows_every_outcome_with_a_bar(cli: Callable[..., Result]) -> None:
    result = cli("odds", "4dF")
    assert result.code == 0
    assert "19/81" in result.out
    assert "█" in result.out


def test_roll_is_repeatable_with_a_seed(cli: Callable[..., Result]) -> None:
    first = json.loads(cli("roll", "3T6", "--seed", "42", "--times", "5", "--json").out)
    second = json.loads(cli("roll", "3T6", "--seed", "42", "--times", "5", "--json").out)
    assert first == second
    assert all(3 <= r <= 18 for r in first["results"])


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("odds", "3dx"), "cannot read dice expression '3dx'"),
        (("odds", "0d6"), "must roll 1 to 200 dice"),
        (("roll", "4dF", "--seed", "-5"), "seed -5"),
        (("roll", "4dF", "--seed", "abc"), "--seed"),
        (("roll", "4dF", "--times", "0"), "--times"),
        (("odds",), "name what to compute"),
        (("rules", "--bogus"), "no such option"),
        (("rules", "chess"), "unknown ruleset 'chess'"),
        (("odds", "4dF", "extra"), "unexpected 'extra'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli: Callable[..., Result], args: tuple[str, ...], fragment: str) -> None:
    result = cli(*args)
    assert result.code == 2
    assert fragment.lower() in result.err.lower()
    assert result.err.count("\n") == 1, result.err
    assert "Traceback" not in result.err


def test_the_installed_command_prints_no_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "konflikt.cli.main", "odds", "4dX"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("konflikt: error: cannot read dice expression '4dX'")
    assert "Traceback" not in proc.stderr


def test_a_roll_shows_each_die_where_the_dice_have_faces(cli: Callable[..., Result]) -> None:
    """``konflikt roll 4dF`` said only ``+1``: a GM rolling for the table reads the dice as they fell, as ``play``
    shows them (``konflikt rolls + 0 - + → …``). The same seed gives the same total as before, and ``--json``."""
    import numpy as np

    from konflikt.dice import parse_dice

    for expression in ("4dF", "3d6", "6d6 pool"):
        dice = parse_dice(expression)
        sampled, faces = dice.roll(np.random.default_rng(3))
        assert faces is not None
        shown = cli("roll", *expression.split(), "--seed", "3")
        assert shown.code == 0, shown.err
        assert shown.out == f"{dice.notation}: {dice.faces_text(faces)} → {dice.describe(sampled)}\n", shown.out
        assert dice.describe(sampled) == dice.describe(dice.sample(np.random.default_rng(3)))
    kept = parse_dice("4d6kh3")  # no faces kept by the expression: the total alone, as before
    total = kept.describe(kept.sample(np.random.default_rng(3)))
    assert cli("roll", "4d6kh3", "--seed", "3").out == f"4d6kh3: {total}\n"


def test_a_roll_of_many_dice_shows_the_result_alone(cli: Callable[..., Result]) -> None:
    """Faces up to a table's handful (``FACES_SHOWN``, 20 dice); ``roll 200d1000`` is its total, not 200 numbers."""
    from konflikt.cli.dice_commands import FACES_SHOWN

    handful = cli("roll", f"{FACES_SHOWN}d6", "--seed", "1").out
    assert handful.count(" ") == FACES_SHOWN + 2 and " → " in handful, handful  # "20d6: f1 … f20 → total"
    many = cli("roll", f"{FACES_SHOWN + 1}d6", "--seed", "1").out
    assert " → " not in many and 21 <= int(many.split(":")[1]) <= 126, many
