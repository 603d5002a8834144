"""The table ``play`` and the browser show for Presja: each cell in words a game master reads, not code names."""

from __future__ import annotations

import re

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.transcript import recorded_steps
from tests.examples import golden_path


def test_the_phase_is_said_in_words_at_every_step_of_both_goldens() -> None:
    """The phase cell was the engine's own name (``edge``, ``compel_answer``): every phase the two bundled
    conflicts pass through is said in words, a Polish term of the text with its English, or English."""
    seen: set[str] = set()
    for name in ("presja/knife_fight", "presja/skirmish"):
        state = new_state(load_scenario(name))
        for step in [None, *recorded_steps(golden_path(name).read_text(encoding="utf-8"))]:
            if step is not None:
                state.apply_step(step)
            seen.add(state.status()["table"]["phase"])
    codes = {p for p in seen if re.fullmatch(r"[a-z_]+", p)}
    assert not codes, f"phases shown as code names: {sorted(codes)}"
    assert "deklaracje (declarations)" in seen
