"""The bundled weapon sweep compares weapons at equal skill, and a mirror match is an even fight."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from konflikt.core.scenario import bundled_examples, scenario_from_document
from konflikt.rulesets.levald.fighters import fighters_of
from konflikt.rulesets.levald.options import OPTIONS
from konflikt.sim.sweep import cell_job, load_spec, run_cell, set_path

SPEC = bundled_examples() / "sweeps" / "levald_weapons.toml"
Z = 4.0


def test_the_bundled_and_the_repository_sweeps_are_the_same() -> None:
    repository = Path(__file__).resolve().parents[3] / "examples" / "sweeps"
    for name in ("levald_weapons.toml", "levald_weapons_duel.toml"):
        assert (repository / name).read_bytes() == (bundled_examples() / "sweeps" / name).read_bytes()


def test_every_cell_of_the_weapon_sweep_is_at_equal_skill() -> None:
    from konflikt.core.scenario import read_toml

    spec = load_spec(SPEC)
    base = read_toml(SPEC.parent / spec.scenario)
    (a_axis, b_axis) = spec.axis
    for a_weapon in a_axis.values:
        for b_weapon in b_axis.values:
            document = dict(base)
            document["setup"] = {**base["setup"], "wield": dict(base["setup"]["wield"])}
            set_path(document, str(a_axis.path), a_weapon)
            set_path(document, str(b_axis.path), b_weapon)
            scenario = scenario_from_document(document, "sweep cell")
            first, second = fighters_of(scenario, OPTIONS.resolve({}, {}))
            assert (first.weapon.name, second.weapon.name) == (a_weapon, b_weapon)
            assert first.skill == second.skill == 60
            same = (first.stridsvana, first.gard_max, first.limits)
            assert same == (second.stridsvana, second.gard_max, second.limits)


@pytest.mark.parametrize("weapon", ["Spjut", "Svärd", "Sköld"])
def test_a_mirror_match_of_the_weapon_sweep_is_even(weapon: str) -> None:
    """Same weapon on both sides: A wins as often as B, within 4 standard errors of the difference (n = 20,000)."""
    from konflikt.core.scenario import read_toml

    spec = load_spec(SPEC)
    spec.n = 20_000
    base = read_toml(SPEC.parent / spec.scenario)
    row = run_cell(cell_job(spec, base, str(SPEC.parent / spec.scenario), {"a_weapon": weapon, "b_weapon": weapon}))
    a_wins, b_wins, n = row["win_side_a"], row["win_side_b"], row["n"]
    spread = math.sqrt((a_wins + b_wins - (a_wins - b_wins) ** 2) / n)
    assert abs(a_wins - b_wins) <= Z * spread, (weapon, a_wins, b_wins)
    assert a_wins > 0.3 and b_wins > 0.3
