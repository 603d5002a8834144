"""Issue 46's first measure at the terminal: a whole conflict of each ruleset, narrated in each of the four
languages, finds every message in its catalog (``KONFLIKT_STRICT_CATALOG=1``: a miss in any domain raises) and, in
Swedish, Danish and Polish, no English word outside proper names. The same conflict (seed 1) in every language, so
the outcome is the same too."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.conftest import Result
from tests.languages import english_words

SCENARIOS = {
    "presja": "presja/knife_fight",
    "levald": "levald/duel",
    "fimbulfrost": "fimbulfrost/robbers",
    "pwge": "pwge/duel",
}
PROPER_NAMES = frozenset(
    {"Snurre", "Hedda", "Belzee", "Massimo", "Budolf", "Rudolf", "Nova", "Zorak", "Kerberos", "FATE", "PWGE"}
    | {"Parallel", "Worlds", "Gamist", "Edition", "Biblioteksvärlden", "Fimbulfrost"}
)


@pytest.mark.parametrize("language", ["sv", "da", "pl", "en"])
@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_whole_conflict_speaks_the_language(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, ruleset: str, language: str
) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "1")
    result = cli("--lang", language, "run", SCENARIOS[ruleset], "--seed", "1")
    assert result.code == 0, result.err
    assert "MissingTranslation" not in result.err
    if language != "en":
        assert english_words(result.out, language, PROPER_NAMES) == [], result.out


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_the_same_conflict_in_every_language(cli: Callable[..., Result], ruleset: str) -> None:
    """Words change, the conflict does not: the same seed gives the same steps, winners and ending in each
    language."""
    played = {}
    for language in ("both", "sv", "pl"):
        run = cli("--lang", language, "run", SCENARIOS[ruleset], "--seed", "1", "--json")
        assert run.code == 0, run.err
        played[language] = json.loads(run.out)
    for language in ("sv", "pl"):
        assert played[language]["steps"] == played["both"]["steps"]
        assert played[language]["outcome"]["winners"] == played["both"]["outcome"]["winners"]
        assert played[language]["outcome"]["ending"] == played["both"]["outcome"]["ending"]
