"""The bundled sweeps mean what they say: each one's headline figure, checked.

- ``levald_weapons.toml``: every cell at equal skill and a mirror match even (``tests/rulesets/levald/test_sweep.py``).
- ``fimbulfrost_options.toml`` (here): its cells move the heroes' odds against the robbers away from the default
  rules; the cell of the default rules is the baseline a reader compares with, so it must be the text's robbers as
  the exact odds give them (``tests/rulesets/fimbulfrost/test_exact.py`` pins 1058293171/1073741824).
- The knife fight with a cap (``tests/sim/test_sweep.py``): every row sums to 1 and the cap's share is shown.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from konflikt.core.scenario import bundled_examples, load_scenario
from konflikt.sim.sweep import cell_job, load_spec, run_cell

SPEC = bundled_examples() / "sweeps" / "fimbulfrost_options.toml"
HEROES_BEAT_ROBBERS = Fraction(1058293171, 1073741824)


def test_every_bundled_sweep_has_its_headline_test() -> None:
    assert sorted(p.name for p in (bundled_examples() / "sweeps").glob("*.toml")) == [
        "fimbulfrost_options.toml",
        "levald_weapons.toml",
        "levald_weapons_duel.toml",  # the weapon sweep's scenario, not a sweep
    ]


def test_the_default_cell_of_the_fimbulfrost_options_sweep_is_the_exact_robbers() -> None:
    spec = load_spec(SPEC)
    scenario = load_scenario(spec.scenario)
    defaults = {axis.name: scenario.ruleset.options.resolve({})[axis.option] for axis in spec.axis if axis.option}
    assert all(defaults[axis.name] in axis.values for axis in spec.axis), "the default rules are one of the cells"
    row = run_cell(cell_job(spec, scenario.document, scenario.source, defaults))
    assert row["n"] == spec.n == 4000
    p = float(HEROES_BEAT_ROBBERS)
    se = math.sqrt(p * (1 - p) / row["n"])
    assert abs(row["win_helte"] - p) < 4 * se, (row["win_helte"], p)
    assert row["win_helte"] + row["win_roevere"] + row["nobody"] == pytest.approx(1)
