"""The table ``play`` and the browser show for PWGE: each cell in words a game master reads, not code names."""

from __future__ import annotations

from tests.examples import phases_of_goldens

SCENARIOS = ["pwge/ball", "pwge/chase", "pwge/duel", "pwge/negotiation", "pwge/shootout"]


def test_the_phase_is_said_in_words_at_every_step_of_every_golden() -> None:
    """The phase cell was the engine's own name (``counter_response``, ``contest``): every phase the bundled
    conflicts pass through is said in the text's words (handling, svarshandling, mothandling, turordning…) with
    the English beside them."""
    _, codes = phases_of_goldens(SCENARIOS)
    assert not codes, f"phases shown as code names: {sorted(codes)}"
