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
        maximum=9,
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
        True,
        "damage that exactly empties Gard: its rest of 0 is compared with the thresholds, a Skråma (the text: Gard "
        "has run out, and the least one gets is a scratch); off: the Gard soaks it all and there is no wound",
        source="Om Gard tar slut när skadan markeras, jämför resten av skadan med skadetrösklar. … Det minsta man kan "
        "få är skråmor",
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
        "roll",
        "when the initiative holder is damaged: a new opposed Stridsvana roll (the text), or the initiative table "
        "applied afresh (table)",
        source="Om anfallaren blir skadad så slås ett nytt slag för att avgöra initiativ.",
        choices=("roll", "table"),
    ),
    RuleOption(
        "after_nobody_wins",
        str,
        "decide",
        "after a round in which nobody won the initiative roll: the initiative is decided afresh the next round "
        "(decide), or it stays where it is — with nobody, both regaining Gard — until the distance changes (stays)",
        source="Om ingendera händer så kvarstår initiativet där det är.",
        choices=("decide", "stays"),
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
        "a gain-ground step counts as 'the distance changes' for the next round's initiative (off: it does not, "
        "but a holder whose step took it out of its own weapon's reach keeps no initiative: the table decides)",
        source="de påverkar inte nästa rundas rörelsedeklaration och eventuella initiativslag annat än att de har "
        "gjorts.",
    ),
    RuleOption(
        "gard_out_cannot_back",
        bool,
        False,
        "a fighter whose Gard has run out cannot back any more: as the defender it is 'på annat sätt orörlig' when "
        "the attacker gains ground (follow in or stand, as against one cornered), and it may not declare Retirera "
        "(retreat) or Lämna (leave); off (the default): the sentence describes what Gard stands for, and the rule "
        "the text gives for Gard 0 is the open dice and the thresholds",
        source="När gard tar slut så är försvaret helt vidöppet. Man är för trött, saknar balans och kan inte backa "
        "längre.",
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
        "several_attackers",
        str,
        "defence_each",
        "konflikt's own (the text promises rules for several opponents but does not give them): a fighter attacked "
        "by several enemies in one round makes a defence roll against each attack (defence_each), or one defence "
        "roll that stands against every attack of the round (one_defence)",
        choices=("defence_each", "one_defence"),
    ),
    RuleOption(
        "shield_with_weapon",
        str,
        "shield_mods",
        "konflikt's own (the text promises shield rules but does not give them): a fighter with a one-handed weapon "
        "and a shield strikes with the weapon (its length and damage) at the skill Enhandsvapen plus sköld, the "
        "shield's Anfallsmod and Försvarsmod added to the weapon's (shield_mods); or fights with the Sköld row's own "
        "numbers, length and damage (shield_row)",
        choices=("shield_mods", "shield_row"),
    ),
    RuleOption(
        "subfight_rounds",
        int,
        3,
        "rounds a sub-fight (delstrid: one fighter against the enemies engaged with it) runs before the next",
        source="Varje delstrid körs i några rundor och sedan byter man delstrid.",
        minimum=1,
        maximum=100,
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
        "konflikt's own: rounds after which the fight ends as a deadlock (the text has no such limit)",
        minimum=1,
        maximum=10000,
    ),
)
