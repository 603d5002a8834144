"""Le våld's rule options: every gap of the digest and every optional rule, with the text's own words."""

from __future__ import annotations

from konflikt.core.options import OptionSet, RuleOption

OPTIONS = OptionSet(
    RuleOption(
        "step_size",
        int,
        1,
        "how many steps the distance changes when both sides wish the same",
        source="Om båda parterna vill samma sak så ändras avståndet enligt parternas önskemål.",
        minimum=1,
    ),
    RuleOption(
        "exceptional",
        str,
        "fifth",
        "exceptional success: roll ≤ target // 5 (BRP's special), doubles that succeed, or off",
        source="Om slaget lyckades exceptionellt så struntar man i Gard",
        choices=("fifth", "doubles", "off"),
    ),
    RuleOption(
        "effect_breaks_ties",
        bool,
        True,
        "equal success levels are decided by the higher effect (equal effect: the defence holds / nobody wins)",
        source="anfallsslaget lyckas och kvaliteten är högre än försvarsslaget",
    ),
    RuleOption(
        "two_defence_rolls",
        bool,
        False,
        "a defender with a shield makes two defence rolls; the attack must beat both",
        source="Anfallsslag mot två försvarsslag från samma person: Om den som slår anfallsslaget vinner över båda "
        "försvarsslagen så gör denne skada på den andre.",
    ),
    RuleOption(
        "light_threshold_round_up",
        bool,
        False,
        "round Kraft / 2 (the Lätt threshold) up instead of down",
        source="(Lätt skada) Kraft / 2",
    ),
    RuleOption(
        "empty_gard_scratch",
        bool,
        False,
        "damage that exactly empties Gard compares its 0 overflow with the thresholds (a Skråma) instead of no wound",
        source="Om Gard tar slut när skadan markeras, jämför resten av skadan med skadetrösklar.",
    ),
    RuleOption(
        "bypass_dice",
        str,
        "open",
        "the dice rolled when Gard is bypassed (exceptional success, not prepared, ranged without a shield)",
        source="Om Gard har tagit slut, slå öppen skadepotential och jämför med skadetrösklar.",
        choices=("open", "guarded"),
    ),
    RuleOption(
        "holder_damaged",
        str,
        "table",
        "when the initiative holder is damaged: apply the initiative table afresh, or always roll Stridsvana",
        source="Om anfallaren blir skadad så slås ett nytt slag för att avgöra initiativ.",
        choices=("table", "roll"),
    ),
    RuleOption(
        "gard_damage_is_damage",
        bool,
        True,
        "damage taken only on Gard counts as 'being damaged' for the initiative",
        source="initiativ kan endast ändras om den som har initiativet blir skadad, eller om avståndet ändras.",
    ),
    RuleOption(
        "gain_ground_changes_initiative",
        bool,
        True,
        "a gain-ground step counts as 'the distance changes' for the next round's initiative",
        source="de påverkar inte nästa rundas rörelsedeklaration och eventuella initiativslag annat än att de har "
        "gjorts.",
    ),
    RuleOption(
        "allow_leave",
        bool,
        True,
        "Lämna (leave) is a fourth secret movement choice that moves like a retreat",
        source="Man kan lämna en strid om avståndet är större än fiendens vapenlängd.",
    ),
    RuleOption(
        "free_attack_ignores_gard",
        bool,
        False,
        "the free attack on someone leaving within the enemy's reach ignores Gard (default: only no defence roll)",
        source="fienden får då ett gratisanfall som man inte får försvara sig mot.",
    ),
    RuleOption(
        "deadly_wound",
        str,
        "dead",
        "what a Dödlig (deadly) wound does",
        source="(Dödlig skada) Kraft + Själ + 10",
        choices=("dead", "knocked_out"),
    ),
    RuleOption(
        "subfight_rounds",
        int,
        3,
        "rounds a pair of a sub-fight (delstrid) fights before the next pair's turn",
        source="Varje delstrid körs i några rundor och sedan byter man delstrid.",
        minimum=1,
    ),
    RuleOption(
        "rest_floor_per_wound",
        bool,
        True,
        "resting never brings Omtöckning below one point per wound, scratches included",
        source="Det ska nog finnas någon gräns för hur lite omtöckning man kan ha kvar, förmodligen en poäng per "
        "skada inklusive skråmor.",
    ),
    RuleOption(
        "max_rounds",
        int,
        300,
        "rounds (over all pairs) after which the fight ends as a deadlock (the text has no such limit)",
        minimum=1,
    ),
)
