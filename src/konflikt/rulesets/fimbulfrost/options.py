"""Fimbulfrost's rule options: every gap of the digest and every rule the text marks "til overvejelse" / "valgfri".

Defaults follow ``shared/rules/fimbulfrost.md``; ``source`` quotes the Danish text where it speaks.
"""

from __future__ import annotations

from konflikt.core.options import OptionSet, RuleOption

OPTIONS = OptionSet(
    RuleOption(
        "presenters",
        str,
        "one_each",
        "one_each: every hero presents exactly one hero (himself or a friend); any: a hero may present many friends",
        source="I runde 1 præsenterer Budolf Rudolf for røverne, og derefter præsenterer Rudolf Budolf",
        choices=("one_each", "any"),
    ),
    RuleOption(
        "morale",
        str,
        "next_hit",
        "how long morale bonus lasts: next_hit (absorbs the next damage taken, then gone), round1 (gone after "
        "round 1), conflict (stays until absorbed)",
        source="man føjer dem som morale-bonus til en vens Status-pulje",
        choices=("next_hit", "round1", "conflict"),
    ),
    RuleOption(
        "mishaps",
        str,
        "defeating_roll",
        "when a hero's 1s cost consequences: defeating_roll (only in the round-2/3 roll that defeats the "
        "opponent, as written) or always (every round-2/3 roll)",
        source="For hver 1'er, der er rullet, skal helten desuden købe en konsekvens til sig selv",
        choices=("defeating_roll", "always"),
    ),
    RuleOption(
        "points_per_consequence",
        int,
        1,
        "how many points one list entry pays for (consequences = points ÷ this, rounded up)",
        source="for hvert point under 0, må der købes konsekvenser",
        minimum=1,
    ),
    RuleOption(
        "carried_consequences_count",
        bool,
        True,
        "a consequence a hero carries from an earlier conflict cannot be chosen again",
        source="som hver må vælges en enkelt gang",
    ),
    RuleOption(
        "round1_death",
        bool,
        False,
        "may death be bought in round 1 (losing to reputation means fleeing or yielding, so off)",
        source="Konsekvenslisten for runde 1 (at tabe kampen pga modstanders omdømme)",
    ),
    RuleOption(
        "buy_back",
        bool,
        False,
        "a hero who is out may buy off the negative points plus one extra consequence and return at Status 1",
        source="(til overvejelse: En helt kan købe sig ind i kamp igen ved at købe de negative point bort for "
        "konsekvenser, så dennes Status-pulje er 1 point)",
    ),
    RuleOption(
        "weapon_pool",
        bool,
        False,
        "heroes may roll some of their våbenpulje (weapon pool) in round 2 and the rest in round 3",
        source="(Til overvejelse: Heltene ruller desuden også deres våbenpulje – hvis de vil spendere noget af den "
        "– i denne kamprunde, eller gemmes denne også til runde 3?)",
    ),
    RuleOption(
        "wilder_needs_round2",
        bool,
        True,
        "'even wilder' needs at least one area the hero described in round 2 to re-describe",
        source="spilleren udpeger en ven til at beskrive sine handlinger fra runde 2 nu bare vildere",
    ),
    RuleOption(
        "borrowed_time",
        bool,
        False,
        "round 3 option: live on borrowed time (leve på lånt tid) for extra dice; the GM may set a death scene later",
        source="(til overvejelse) leve på lånt tid – helten erhverver sig ekstra terninger mod at leve på lånt tid",
    ),
    RuleOption("borrowed_time_dice", int, 2, "dice gained by living on borrowed time", minimum=1),
    RuleOption(
        "questions",
        bool,
        False,
        "round 3 option: questions and answers (spørgsmål og svar): answering gives extra dice",
        source="(valgfri) spørgsmål og svar – helten kommer med et svar ..., og helten erhverver sig ekstra terninger",
    ),
    RuleOption("question_dice", int, 2, "dice gained by answering a question", minimum=1),
    RuleOption(
        "round3_loss",
        str,
        "each",
        "who pays a lost round 3: each (every hero still in the fight buys the remaining Status), every (also "
        "the heroes already out), or shared (the standing heroes share that total, the first paying any remainder)",
        source="skal alle heltene købe sig negative konsekvenser for modstanderens tilbageværende Status-værdi",
        choices=("each", "every", "shared"),
    ),
    RuleOption(
        "pools_spent",
        bool,
        True,
        "pool dice taken in round 3 are gone from the pool after the conflict (carry_over)",
        source="Ressourcer, hvor man spenderer ressourcer for at afslutte kampen",
    ),
)
