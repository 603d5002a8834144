"""Fimbulfrost's rule options: every gap of the digest and every rule the text marks "til overvejelse" / "valgfri".

Defaults follow the Danish text (where the digest ``shared/rules/fimbulfrost.md`` read it otherwise, the digest's
reading is kept as a choice); ``source`` quotes the text's own words, and an option the text does not give is
konflikt's own, says so, and has no source.
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
        "status_pool",
        "how long morale bonus lasts: status_pool (added to the friend's Status pool, as written: it stays until "
        "damage uses it), next_hit (absorbs the next damage taken, then the rest is gone: the digest's reading), "
        "round1 (gone after round 1)",
        source="man føjer dem som morale-bonus til en vens Status-pulje … kommer de point i brug her",
        choices=("status_pool", "next_hit", "round1"),
    ),
    RuleOption(
        "mishaps",
        str,
        "defeating_roll",
        "when a hero's 1s cost consequences: defeating_roll (only in the round-2/3 roll that defeats the "
        "opponent, as written) or always (every round-2/3 roll)",
        source="For hver 1’er, der er rullet, skal helten desuden købe en konsekvens til sig selv",
        choices=("defeating_roll", "always"),
    ),
    RuleOption(
        "points_per_consequence",
        int,
        1,
        "how many points one list entry pays for (consequences = points ÷ this, rounded up); 1 is the text's one "
        "entry per point, any other value is konflikt's own balancing knob",
        source="for hvert point under 0, må der købes konsekvenser",
        minimum=1,
        maximum=10,
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
        True,
        "death is on the round-1 list too, as on every list (forced when nothing else is left); false: konflikt's "
        "old reading that losing to reputation is fleeing or yielding: no death in round 1, and points the "
        "round-1 list cannot cover are not paid",
        source="Konsekvenslisten indeholder en række forskellige ubehagelige ting for heltene … Det inkluderer "
        "blandt “død”",
    ),
    RuleOption(
        "consequence_must_cost",
        bool,
        False,
        "konflikt's own reading, off by default: a consequence must cost something, so an entry whose every "
        "mechanical effect is already true of the hero (gear lost with an empty gear pool, armour torn with the "
        "armour spent, −1 Omdømme at Omdømme 0) is not offered, and death comes that much sooner; the text keeps "
        "every unchosen entry on the list and forces death only 'hvis der ikke er flere valgmuligheder tilbage på "
        "listen'",
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
        "– i denne kamprunde, eller gemmes denne også til runde 3?",
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
    RuleOption(
        "borrowed_time_dice",
        int,
        2,
        "dice gained by living on borrowed time (konflikt's own number: the text says only 'ekstra terninger')",
        minimum=1,
        maximum=10,
    ),
    RuleOption(
        "questions",
        bool,
        False,
        "round 3 option: questions and answers (spørgsmål og svar): answering gives extra dice",
        source="(valgfri) spørgsmål og svar – helten kommer med et svar … og helten erhverver sig ekstra terninger",
    ),
    RuleOption(
        "question_dice",
        int,
        2,
        "dice gained by answering a question (konflikt's own number: the text says only 'ekstra terninger')",
        minimum=1,
        maximum=10,
    ),
    RuleOption(
        "round3_loss",
        str,
        "every",
        "who pays a lost round 3: every (all the heroes, those already out too, each buy the remaining Status, as "
        "written), each (only the heroes still in the fight: the digest's reading), or shared (the standing heroes "
        "share that total, the first paying any remainder: konflikt's own)",
        source="skal alle heltene købe sig negative konsekvenser for modstanderens tilbageværende Status-værdi",
        choices=("every", "each", "shared"),
    ),
    RuleOption(
        "pools_spent",
        bool,
        True,
        "pool dice taken in round 3 are gone from the pool after the conflict (carry_over)",
        source="Ressourcer, hvor man spenderer ressourcer for at afslutte kampen",
    ),
)
