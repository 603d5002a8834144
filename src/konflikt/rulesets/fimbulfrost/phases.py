"""The phases of a Fimbulfrost conflict, as small ints (they go into ``key()``)."""

from __future__ import annotations

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
    PRESENT: "runde (round) 1: præsentation (presenting)",
    R1_ROLL: "runde (round) 1: Omdømme-slag (reputation roll)",
    R1_SPLIT: "runde (round) 1: fordeling (splitting successes)",
    R1_ANSWER: "runde (round) 1: modstanderens Omdømme (the opponent's answer)",
    HIT: "modstanderen fordeler (the opponent splits its successes)",
    CHECK: "udfald (outcome of the round)",
    R2_DESCRIBE: "runde (round) 2: Stil, Stunt og Snak (describing)",
    R2_WEAPON: "runde (round) 2: våbenpulje (weapon pool)",
    R2_ROLL: "runde (round) 2: slag (rolls)",
    R2_KAMP: "runde (round) 2: modstanderens Kamp (the opponent's fight roll)",
    R3_TURN: "runde (round) 3: Ressourcer (resource turns)",
    R3_ROLL: "runde (round) 3: det sidste slag (the final roll)",
    END: "slut (over)",
}

CURSOR_PHASES = frozenset({PRESENT, R1_ROLL, R1_SPLIT, R2_DESCRIBE, R2_WEAPON, R2_ROLL, R3_TURN, R3_ROLL})
"""Phases in which the cursor (whose turn it is) matters."""
