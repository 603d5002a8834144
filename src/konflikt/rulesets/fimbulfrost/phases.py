"""The phases of a Fimbulfrost conflict, as small ints (they go into ``key()``)."""

from __future__ import annotations

from konflikt.rulesets.fimbulfrost.i18n import N_

PRESENT = 0
"""Round 1, step 1: who presents whom."""
R1_ROLL = 1
"""Round 1, step 2: each hero rolls Omdømme dice."""
R1_SPLIT = 2
"""Round 1, step 3: each hero splits successes between the opponent's Status and friends' morale."""
R1_ANSWER = 3
"""Round 1, step 4B: the opponent rolls its full Omdømme."""
HIT = 4
"""Steps 4B / 3B: the opponent splits its successes among the heroes still standing."""
CHECK = 5
"""Steps 4D / 3D: does everyone still stand? on to the next round."""
R2_DESCRIBE = 6
"""Round 2, step 1: each hero describes Stil, Stunt, Snak (one die each)."""
R2_WEAPON = 7
"""Round 2 (option weapon_pool): dice from the våbenpulje."""
R2_ROLL = 8
"""Round 2, step 2: each hero rolls."""
R2_KAMP = 9
"""Round 2, step 3B: the opponent rolls its Kamp pool."""
R3_TURN = 10
"""Round 3, step 1: turns of resource options."""
R3_ROLL = 11
"""Round 3, step 2: each hero rolls the gathered dice."""
END = 12

CHANCE_PHASES = frozenset({R1_ROLL, R1_ANSWER, R2_ROLL, R2_KAMP, R3_ROLL})

NAMES = {
    PRESENT: N_("round 1: presenting"),
    R1_ROLL: N_("round 1: Reputation roll"),
    R1_SPLIT: N_("round 1: splitting successes"),
    R1_ANSWER: N_("round 1: the opponent's Reputation (its answer)"),
    HIT: N_("the opponent splits its successes"),
    CHECK: N_("outcome of the round"),
    R2_DESCRIBE: N_("round 2: Style, Stunt and Talk (describing)"),
    R2_WEAPON: N_("round 2: weapon pool"),
    R2_ROLL: N_("round 2: rolls"),
    R2_KAMP: N_("round 2: the opponent's Fight roll"),
    R3_TURN: N_("round 3: Resources (turns)"),
    R3_ROLL: N_("round 3: the final roll"),
    END: N_("over"),
}
"""Each phase in words (English, for the catalogs: translate with ``_`` where shown)."""

CURSOR_PHASES = frozenset({PRESENT, R1_ROLL, R1_SPLIT, R2_DESCRIBE, R2_WEAPON, R2_ROLL, R3_TURN, R3_ROLL})
"""Phases in which the cursor (whose turn it is) matters."""
