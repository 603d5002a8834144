"""Every named rule option of PWGE: the text's optional rules, its silences, and the stand-ins for Parallel Worlds.

PWGE modifies Parallel Worlds (PW), whose own rules (the roll, damage, wounds, body points) are not in the source.
Options that say "konflikt's own stand-in for Parallel Worlds" replace those base-game rules; they are konflikt's,
not Parallel Worlds' own rules, and have no source words.
"""

from __future__ import annotations

from konflikt.core.options import Options, OptionSet, RuleOption
from konflikt.errors import OptionError


def check_wound_thresholds(options: Options) -> None:
    """The stand-in wound thresholds rise: a Skråma needs no more damage than Sårad, Sårad no more than Allvarligt."""
    if not options.skrama_from <= options.sarad_from <= options.allvarligt_from:
        raise OptionError(
            "wound thresholds must rise: skrama_from ≤ sarad_from ≤ allvarligt_from, not "
            f"{options.skrama_from}, {options.sarad_from}, {options.allvarligt_from}"
        )


OPTIONS = OptionSet(
    RuleOption(
        "experience_dice",
        bool,
        False,
        "optional rule ('Liten frivillig regel'): an unspent experience die may be spent instead of a token, by the "
        "spender's choice at each spend, while at least one token remains in the pool",
        source="Erfarenhetstärningar som inte har spenderats kan användas som bonusmarker i precis vilken "
        "handlingspöl som helst. Man kan alltså spendera en erfarenhetstärning istället för en marker ur ens "
        "handlingspöl. Är pölen tom så är man dock körd",
    ),
    RuleOption(
        "social_distance_and_damage",
        bool,
        False,
        "the text's suggestion for diplomatic and social conflicts, whole: the 0–10 distance is in play (it moves, "
        "and hinders diplomatic moves), and each party has separate diplomatic/social body points, as many as its "
        "physical ones, hit by 1T + ammunition; losing them all loses the conflict. Off: no distance, no damage",
        source="Den kreativa spelledaren kan förstås använda avstånd och skada även i diplomatiska och sociala "
        "konflikter. Ett förslag är att göra så här:",
    ),
    RuleOption(
        "diplomatic_distance_penalty",
        bool,
        True,
        "with social_distance_and_damage, diplomatic moves get −(distance ÷ 2, rounded down); how much harder the "
        "text does not say: the amount is konflikt's own",
        source="Ju längre avståndet är desto svårare är det att förhandla",
    ),
    RuleOption(
        "max_is_in_range",
        bool,
        True,
        "a ranged attack at exactly Max is allowed at 2T+4 (the text says 'less than Max' and 'greater than Max')",
        source="Om avståndet är större än Kort men mindre än Max så är svårigheten för anfallet 2T+4.",
    ),
    RuleOption(
        "dodge_keeps_range_difficulty",
        bool,
        True,
        "a dodge against a ranged attack at range ≥ 1 adds the range difficulty (+2 / +4) to the dodge roll; the text "
        "gives the difficulty, not how a counter meets it: konflikt's own stand-in for Parallel Worlds",
        source="Om avståndet är 1 eller större samt mindre än eller lika med Kort så är svårighetsgraden för "
        "anfallet 2T+2.",
    ),
    RuleOption(
        "skrama_from",
        int,
        2,
        "damage points from which one hit is a Skråma (scratch): "
        "konflikt's own stand-in for Parallel Worlds' wound table",
        minimum=1,
        maximum=100,
    ),
    RuleOption(
        "sarad_from",
        int,
        4,
        "damage points from which one hit is Sårad (wounded): konflikt's own stand-in for Parallel Worlds' wound table",
        minimum=1,
        maximum=100,
    ),
    RuleOption(
        "allvarligt_from",
        int,
        6,
        "damage points from which one hit is Allvarligt skadad (seriously wounded): "
        "konflikt's own stand-in for Parallel Worlds' wound table",
        minimum=1,
        maximum=100,
    ),
    RuleOption(
        "healing_per_day",
        int,
        0,
        "physical kroppspoäng (body points) a character regains per day of rest between conflicts "
        "(`konflikt campaign rest --days N`); 0: none, the GM heals by editing damage_taken. Physical damage carries "
        "into the next conflict; how it heals is Parallel Worlds' rule, not in the text: konflikt's own stand-in",
        minimum=0,
        maximum=100,
    ),
    RuleOption(
        "max_tops_per_roll",
        int,
        0,
        "the most tops (or counter-tops) one person may put into one roll; 0 = no limit but the tokens",
        source="Du kan toppa ett slag flera gånger om du vill, men varje toppning kostar en marker.",
        minimum=0,
        maximum=50,
    ),
    RuleOption(
        "first_dry_side_ends",
        bool,
        False,
        "with three or more sides, the conflict ends as soon as a side's pools have run out, read word for word: the "
        "dry sides have lost and every side still able to act wins. Off: a dry side drops out and the others go on "
        "until only one can act (the text's endings speak of two sides). With two sides both are the same",
        source="Detta upprepas tills en eller fler sidor tömmer sina handlingspölar",
    ),
    RuleOption(
        "free_attack",
        bool,
        True,
        "a surprised opponent suffers a free attack (frislag): no token, no response allowed",
        source="Dessutom kan man få ett frislag, dvs en anfallshandling som inte kostar en marker från "
        "handlingspölen och som motståndaren inte får göra någon svarshandling på.",
    ),
    check=lambda options: check_wound_thresholds(options),
)
