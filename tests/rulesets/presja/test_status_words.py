"""The table ``play`` and the browser show for Presja: each cell in words a game master reads, not code names."""

from __future__ import annotations

from tests.examples import phases_of_goldens


def test_the_phase_is_said_in_words_at_every_step_of_both_goldens() -> None:
    """The phase cell was the engine's own name (``edge``, ``compel_answer``): every phase the two bundled
    conflicts pass through is said in words, a Polish term of the text with its English, or English."""
    seen, codes = phases_of_goldens(["presja/knife_fight", "presja/skirmish"])
    assert not codes, f"phases shown as code names: {sorted(codes)}"
    assert "deklaracje (declarations)" in seen
