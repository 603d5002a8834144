"""Every named rule option of PWGE: the text's optional rules, its silences, and the stand-ins for Parallel Worlds.

PWGE modifies Parallel Worlds (PW), whose own rules (the roll, damage, wounds, body points) are not in the source.
The options marked "PW stand-in" replace those base-game rules with the digest's defaults; they are konflikt's
stand-ins, not Parallel Worlds' own rules.
"""

from __future__ import annotations

from konflikt.core.options import OptionSet, RuleOption

OPTIONS = OptionSet(
    RuleOption(
        "experience_dice",
        bool,
        False,
        "optional rule: unspent experience dice may be spent instead of tokens while at least one token remains",
        source="Erfarenhetstärningar som inte har spenderats kan användas som bonusmarker i precis vilken "
        "handlingspöl som helst. [...] Är pölen tom så är man dock körd",
    ),
    RuleOption(
        "social_damage",
        bool,
        False,
        "optional rule: diplomatic/social conflicts use separate body points and 1T + ammunition damage",
        source="Varje part i en diplomatisk eller social konflikt har ett antal diplomatiska och sociala "
        "”kroppspoäng” [...] Skada bestäms som vanligt med 1T plus modifikationer.",
    ),
    RuleOption(
        "relation_distance_moves",
        bool,
        True,
        "in diplomatic/social conflicts, 'change distance' moves the pair's 0–10 distance one step",
        source="Sociala och diplomatiska avstånd kvarstår mellan varje konflikt, och mäts bara på skalan 0-10.",
    ),
    RuleOption(
        "diplomatic_distance_penalty",
        bool,
        True,
        "PW stand-in: diplomatic action rolls get −(distance ÷ 2, rounded down)",
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
        "PW stand-in: a dodge against a ranged attack at range ≥ 1 adds the range difficulty (+2 / +4) to the roll",
        source="Om avståndet är 1 eller större samt mindre än eller lika med Kort så är svårighetsgraden för "
        "anfallet 2T+2.",
    ),
    RuleOption(
        "skrama_from",
        int,
        2,
        "PW stand-in: damage points from which one hit is a Skråma (scratch)",
        minimum=1,
    ),
    RuleOption(
        "sarad_from",
        int,
        4,
        "PW stand-in: damage points from which one hit is Sårad (wounded)",
        minimum=1,
    ),
    RuleOption(
        "allvarligt_from",
        int,
        6,
        "PW stand-in: damage points from which one hit is Allvarligt skadad (seriously wounded)",
        minimum=1,
    ),
    RuleOption(
        "max_tops_per_roll",
        int,
        0,
        "the most tops (or counter-tops) one person may put into one roll; 0 = no limit but the tokens",
        source="Du kan toppa ett slag flera gånger om du vill, men varje toppning kostar en marker.",
        minimum=0,
    ),
    RuleOption(
        "free_attack",
        bool,
        True,
        "a surprised opponent suffers a free attack (frislag): no token, no response allowed",
        source="Dessutom kan man få ett frislag, dvs en anfallshandling som inte kostar en marker från "
        "handlingspölen och som motståndaren inte får göra någon svarshandling på.",
    ),
)
