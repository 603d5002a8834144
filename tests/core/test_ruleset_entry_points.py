"""Rulesets and the search policies are found through entry points, so ``core`` names none of them and a fifth
system can live in a package of its own: here one is installed into a temporary folder on ``sys.path`` (a real
distribution: a package and its ``dist-info`` with ``entry_points.txt``) and played through the command line."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.ruleset import POLICIES, RULESETS, entry_points, get_ruleset, ruleset_ids
from tests.conftest import Result

PACKAGE = '''
"""A fifth system in a package of its own: the core tests' toy duel under another id."""
from dataclasses import dataclass

from konflikt.core.ruleset import Ruleset, register
from konflikt.dice.opposed import Judge
from tests.core.toy import OPTIONS, ToyCharacter, ToySetup, ToyState


@dataclass(frozen=True)
class Doubled:
    """The fifth system's opposed roll: A wins when it rolls at least twice what B rolls."""

    name: str = "doubled"
    doc: str = "fifth: A vs B, A wins when it rolls at least twice B"

    def bind(self, a, b):
        return Judge(lambda x, y: "A wins" if x >= 2 * y else "A does not", ("A wins", "A does not"), "doubled")

register(
    Ruleset(
        id="fifth",
        name="A fifth system (tests only)",
        language="en",
        source="-",
        summary="The toy duel, installed as a package of its own.",
        options=OPTIONS,
        character=ToyCharacter,
        setup=ToySetup,
        new_state=ToyState,
        opposed=lambda overrides: (Doubled(),),
    )
)
'''
SCENARIO = """ruleset = "fifth"
title = "Two duellists of the fifth system"
[[sides]]
id = "north"
[[sides.participants]]
id = "ada"
points = 2
[[sides]]
id = "south"
[[sides.participants]]
id = "bo"
points = 3
"""


def test_the_bundled_rulesets_and_policies_are_entry_points() -> None:
    assert set(ruleset_ids()) >= {"presja", "levald", "fimbulfrost", "pwge"}
    assert set(entry_points(POLICIES)) >= {"mcts", "optimal", "rollout"}
    assert get_ruleset("pwge").policy("mcts:5").name.startswith("mcts")


def test_a_fifth_system_installed_as_its_own_package_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Result]
) -> None:
    (tmp_path / "fifth_system").mkdir()
    (tmp_path / "fifth_system" / "__init__.py").write_text(PACKAGE)
    info = tmp_path / "fifth_system-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fifth-system\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{RULESETS}]\nfifth = fifth_system\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    assert "fifth" in ruleset_ids()
    assert get_ruleset("fifth").name == "A fifth system (tests only)"
    scenario = tmp_path / "duel.toml"
    scenario.write_text(SCENARIO)
    result = cli("run", str(scenario), "--seed", "1", "--json")
    assert result.code == 0, result.err
    assert '"ending"' in result.out
    # its opposed roll joins the dice language: 1d6 at least twice 1d6 in 5 + 3 + 1 of the 36 pairs
    doubled = cli("odds", "1d6 vs 1d6 by doubled", "--json")
    assert doubled.code == 0, doubled.err
    assert json.loads(doubled.out)["outcomes"] == {"A wins": "1/4", "A does not": "3/4"}


def test_an_unknown_ruleset_names_the_installed_ones() -> None:
    from konflikt.errors import KonfliktError

    with pytest.raises(KonfliktError, match=r"unknown ruleset 'sixth' \(known: fimbulfrost, levald, presja, pwge"):
        get_ruleset("sixth")
