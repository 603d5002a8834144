"""The table ``play`` and the browser show for PWGE: each cell in words a game master reads, not code names."""

from __future__ import annotations

import re

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.transcript import recorded_steps
from tests.examples import golden_path

SCENARIOS = ["pwge/ball", "pwge/chase", "pwge/duel", "pwge/negotiation", "pwge/shootout"]


def test_the_phase_is_said_in_words_at_every_step_of_every_golden() -> None:
    """The phase cell was the engine's own name (``counter_response``, ``contest``): every phase the bundled
    conflicts pass through is said in the text's words (handling, svarshandling, mothandling, turordning…) with
    the English beside them."""
    seen: set[str] = set()
    for name in SCENARIOS:
        state = new_state(load_scenario(name))
        for step in [None, *recorded_steps(golden_path(name).read_text(encoding="utf-8"))]:
            if step is not None:
                state.apply_step(step)
            seen.add(state.status()["table"]["phase"])
    codes = {p for p in seen if re.fullmatch(r"[a-z_]+", p)}
    assert not codes, f"phases shown as code names: {sorted(codes)}"
