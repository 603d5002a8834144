"""Le våld's gap rows reviewed against the text (issue 43): what konflikt does where no sentence of
001_e8170c3b64f9e9a4.txt gives a rule. Each state is driven step by step and replayed at ``konflikt play``
(``through_cli``)."""

from __future__ import annotations

import pytest

from tests.rulesets.levald.test_command_line_rules import _duel, _fighter_view, _hit, _ticked


@pytest.mark.through_cli
def test_stryktalighet_is_never_worn_down_and_no_weapon_breaks() -> None:
    """ "stryktålighet visar hur hållbart vapnet är innan det går jättesönder" says what the column measures, not
    what wears it down or what a broken weapon does (row weapon-wear, konflikt's own): six blows of a Kortsvärd
    (Stryktålighet 4) against a spearman (Spjut, 2) who defends every one and fails, each an open 2 + 3 = 5, a
    Skråma, leave both weapons at the table's Stryktålighet, and the sixth blow is struck with the same sword."""
    state = _duel("Kortsvärd", "Spjut", "Svärd", b={"gard_now": 0})
    for _ in range(6):
        _hit(state, 20, 3)
        sword = _fighter_view(state, "@gm", "a")["weapon"]
        spear = _fighter_view(state, "@gm", "b")["weapon"]
        assert (sword["name"], sword["durability"]) == ("Kortsvärd", 4)
        assert (spear["name"], spear["durability"]) == ("Spjut", 2)
    assert _ticked(state, "b") == ["Skråma"] * 6
