"""presja at the table: ``konflikt play presja/knife_fight --dice table`` driven by typed lines on stdin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

KNIFE_FIGHT_TO_THE_FIRST_HIT = [
    "2",  # Belzee invokes no aspect for the order of action
    "attack target=massimo tactic=none",
    "+ + 0 -",  # Gracz wyrzucił + + 0 -
    "fight_on",  # Belzee does not concede before Massimo's roll
    "0 0 + +",  # MG wyrzucił 0 0 + +
    "8",  # Belzee invokes nothing; Massimo invokes his aspect (+2)
    "8",
]
"""The text's exchange typed at the table, up to Belzee's choice of how to take Massimo's presja 6."""


def play_typed(tmp_path: Path, lines: list[str]) -> str:
    """What ``konflikt play presja/knife_fight --dice table`` shows (stdout and stderr) for these typed lines,
    Belzee a human seat, Massimo and the GM the heuristic."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("FORCE_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", "play", "presja/knife_fight", "--dice", "table", "-p", "belzee=human",
         "--db", str(tmp_path / "saves.sqlite")],
        input="\n".join([*lines, "quit"]) + "\n", capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    return done.stdout + done.stderr


def test_the_player_names_the_consequence_at_the_table(tmp_path: Path) -> None:
    """ "Gracz, który bierze konsekwencję, powinien opisać co się stało z jego postacią": the table refused
    ``absorb … name=…`` saying it "does not take presja 6 by the rules". A name for more consequences than taken is
    refused for that reason; the player's own name is then taken and narrated."""
    shown = play_typed(
        tmp_path,
        [
            *KNIFE_FIGHT_TO_THE_FIRST_HIT,
            "absorb boxes= cons=severe name=Złamana_ręka,Odcięte_palce",
            "absorb boxes= cons=severe name=Złamana_ręka",
        ],
    )
    assert "does not take presja" not in shown, shown[-3000:]
    assert "name= gives one name per consequence taken: 2 names for 1 consequence" in shown
    assert "Belzee takes presja 6 (pressure): konsekwencja poważna (severe) 'Złamana ręka'" in shown


def test_the_player_concedes_after_his_roll_before_the_gms_roll_at_the_table(tmp_path: Path) -> None:
    """ "Musisz to uczynić przed rzutem przeciwnika": Belzee rolls - - - - and concedes before Massimo rolls (the
    table asked only at the declarations)."""
    shown = play_typed(tmp_path, ["2", "attack target=massimo tactic=none", "- - - -", "concede"])
    said = "Belzee poddaje się (concedes) before Massimo's roll (przed rzutem przeciwnika), after Belzee's roll"
    assert said in shown
    assert "Massimo wins (they conceded) after 1 exchange(s)" in shown
