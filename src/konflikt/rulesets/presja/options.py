"""The named rule options of `presja`: every optional rule of the text and every gap of the digest.

Defaults are the text's reading (where the digest ``shared/rules/presja.md`` differs, the text wins); ``source``
quotes the Polish text's own words ("…" where words are left out), and an option the text does not give has no
``source`` and says "konflikt's own" in its doc.
"""

from __future__ import annotations

from konflikt.core.options import OptionSet, RuleOption
from konflikt.rulesets.presja.i18n import N_
from konflikt.rulesets.presja.track import check_track, check_values

ADVANTAGE_MODES = ("off", "auto", "gm")

OPTIONS = OptionSet(
    RuleOption(
        "tactics",
        bool,
        True,
        "taktyka obronna/zaczepna (defensive/offensive tactic): +1 Defence −1 Attack, or the reverse; the text calls "
        "it optional, 'albo ją stosujemy, albo nie' (on: the first reading)",
        source="Jest to zasada opcjonalna.…Albo ją stosujemy, albo nie.…Taktyka obronna, dodaje 1 do obrony postaci, "
        "odejmując 1 od ataku bohatera. Taktyka zaczepna odwrotnie, dodaje 1 do ataku postaci, odejmując 1 od obrony.",
    ),
    RuleOption(
        "ladder",
        str,
        "default",
        "the ladder (drabinka) of level names: a TOML file in the ruleset's content folder, or a path",
        source="na poziomie słabym (-1)…fatalny (-3)…dobrą (+2)…bardzo dobrym (+3)…znakomity (+5)",
    ),
    RuleOption(
        "base_track",
        str,
        "1,1,2-3,2-3,4-5",
        "the base Tor Presji Fizycznej (physical pressure track): box ranges, comma-separated. The text names rows "
        "of 1, 2-3 and a 4-5 box but its picture is missing: the box counts are konflikt's own",
        check=check_track,
    ),
    RuleOption(
        "consequence_values",
        str,
        "2,4,6",
        "pressure absorbed by a mild, moderate and severe Konsekwencja (consequence); one slot each. Mild 2 is the "
        "text's ('która przejęłaby 2 pkt presji'); moderate 4 and severe 6 are konflikt's own",
        check=check_values,
    ),
    RuleOption(
        "box_absorbs_less",
        bool,
        True,
        "a free box may take any amount up to its upper value, so nobody is taken out while a box is free and the "
        "hit fits (off: a box takes only an amount within its range, a reading the text's 'wolne pole' rules out)",
        source="Bohater zostaje wyeliminowany, w chwili całkowitego zapełnienia Toru Presji, kiedy nie może "
        "uratować się konsekwencją i nie ma wolnego pola na Torze Presji",
    ),
    RuleOption(
        "consequence_absorbs_less",
        bool,
        True,
        "a consequence may take the rest of the pressure when that is less than its value (konflikt's own, as in "
        "FATE; the text says only that each consequence reduces the pressure by some value)",
    ),
    RuleOption(
        "cialo_above_3",
        str,
        "none",
        "Ciało (Body) above 3: 'none' adds no boxes; 'extra_2_3' adds one '2-3' box per point above 3 (konflikt's "
        "own: the text stops at 3)",
        choices=("none", "extra_2_3"),
    ),
    RuleOption(
        "invoke_bonus",
        int,
        2,
        "what invoking an aspect (wywołanie aspektu) adds to the result (konflikt's own, FATE's +2: the aspects "
        "chapter the text points to is not part of it)",
        minimum=0,
        maximum=5,
    ),
    RuleOption(
        "invoke_reroll",
        bool,
        True,
        "an invocation may instead reroll all four dice (przerzut; konflikt's own, as in FATE)",
    ),
    RuleOption(
        "fate_point_without_aspect",
        bool,
        True,
        "a Punkt Losu (fate point) spent without an aspect gives +1 (the +1 is konflikt's own, FATE 2.0's)",
        source="modyfikujemy wynik 4dF używając Aspektów lub Punktów Losu",
    ),
    RuleOption(
        "invoke_limit",
        int,
        1,
        "how often one participant may invoke the same aspect in one exchange (konflikt's own, FATE's once per roll)",
        minimum=1,
        maximum=5,
    ),
    RuleOption(
        "defence_vs_many",
        str,
        "single",
        "several attackers on one target: 'single' = each meets its one Defence; 'divided' = −1 per extra "
        "(konflikt's own: the text is silent)",
        choices=("single", "divided"),
    ),
    RuleOption(
        "allow_concede",
        bool,
        True,
        "participants may concede (poddanie się) before a foe's roll, as the text always allows ('zawsze możesz "
        "poddać się'); off forbids it to everyone (konflikt's own, as a character's may_concede = false is)",
    ),
    RuleOption(
        "advantage_mobility",
        bool,
        False,
        "Przewaga mobilności (mobility): the GM may give +1 Attack each exchange",
        source="jeśli jeden z przeciwników ma zbroję wyraźnie cięższą…MG może zastosować przewagę +1 "
        "dla jego przeciwnika",
    ),
    RuleOption(
        "advantage_weapon",
        bool,
        False,
        "Przewaga uzbrojenia (weapon): the GM may give +1 Attack for the more effective weapon",
        source="Jeśli jedna ze stron dysponuje efektywniejszą w danej chwili bronią…dostaje +1",
    ),
    RuleOption(
        "advantage_weapon_quality",
        bool,
        False,
        "Przewaga jakości broni (weapon quality): a weapon aspect's tick box gives +1 to the margin",
        source="Każde wywołanie takiego aspektu…poza zaznaczeniem kwadratu mogłoby skutkować…"
        "jednorazowym dodaniem +1 do osiągniętego Marginesu Sukcesu",
    ),
    RuleOption(
        "weapon_aspect_clears",
        str,
        "scene",
        "when a weapon aspect's ticked boxes clear: at the end of the 'scene', or after each 'exchange'",
        source="W jaki sposób można by odznaczyć wykorzystany aspekt – oddajemy inwencji MG.",
        choices=("scene", "exchange"),
    ),
    RuleOption(
        "advantage_tactics",
        bool,
        False,
        "Przewaga taktyki (tactics): the GM may give +1 Attack for an unknown style",
        source="gdy jeden z przeciwników walczy stylem zupełnie nieznanym",
    ),
    RuleOption(
        "advantage_reaction",
        bool,
        False,
        "Przewaga szybkości reakcji (reaction speed): the GM may give +1 Attack",
        source="gdy jeden z oponentów wyraźnie góruje refleksem…otrzyma on bonus +1",
    ),
    RuleOption(
        "advantage_personality",
        bool,
        False,
        "Przewaga w osobowości (personality): the GM may give +1 Attack in the war of nerves",
        source="czy postać mająca więcej poziomów w aspekcie wojowniczym…nie zyskuje psychologicznej przewagi",
    ),
    RuleOption(
        "advantage_numbers",
        str,
        "off",
        "Przewaga liczebna (numbers): 'auto' from the positions, 'gm' set each exchange, or 'off'",
        source="Przewaga liczebna – daje zawsze bonus +1 stronie przeważającej",
        choices=ADVANTAGE_MODES,
    ),
    RuleOption(
        "advantage_flanking",
        str,
        "off",
        "Oskrzydlenie (flanking, two or more foes on one target): 'auto', 'gm' or 'off'",
        source="Oskrzydlenie – bonus +1 dla strony, która oskrzydliła przeciwnika (zachodzi go z boku), "
        "kumulatywnie z przewagą liczebną",
        choices=ADVANTAGE_MODES,
    ),
    RuleOption(
        "advantage_surrounded",
        str,
        "off",
        "Otoczenie (surrounded, three or more foes on one target): 'auto', 'gm' or 'off'",
        source="Otoczenie – bonus +1 dla strony, która otacza przeciwnika ze wszystkich stron",
        choices=ADVANTAGE_MODES,
    ),
    RuleOption(
        "surprise",
        bool,
        False,
        "Zaskoczenie (surprise): participants the set-up names as surprised fight the first exchange lowered",
        source="jeśli przeciwnik nie spodziewa się ataku…w stanie zaskoczenie walczy zawsze na poziomie słabym (-1)",
    ),
    RuleOption(
        "surprise_level",
        int,
        -1,
        "the skill level of a surprised participant (słaby, Poor)",
        source="walczy zawsze na poziomie słabym (-1)",
        minimum=-4,
        maximum=8,
    ),
    RuleOption(
        "unskilled_level",
        int,
        -2,
        "the default level (domyślny poziom) of a participant with no combat skill at all: the text lowers it by "
        "one for surprise and gets fatalny (-3), so it is -2 (kiepski); 0 (mierny) is FATE's default",
        source="chyba że nie ma w ogóle umiejętności bojowych, wtedy domyślny poziom obniżamy o jeden (czyli w "
        "efekcie fatalny (-3))",
        minimum=-4,
        maximum=8,
    ),
    RuleOption(
        "order_invocations",
        bool,
        True,
        "before the order of action is fixed each participant may invoke an aspect (a Punkt Losu) to act earlier: "
        "+invoke_bonus to Zmysły for the order",
        source="Gracze mogą użyć swoich Aspektów lub Atutów, by zdobyć przewagę na tym etapie.",
    ),
    RuleOption(
        "compels",
        bool,
        True,
        "at the start of each exchange the GM may compel (wymusić) a consequence: its owner accepts the complication "
        "for a Punkt Losu or pays one to refuse (the mechanics are FATE's, konflikt's own: the text's aspects chapter "
        "is missing)",
        source="Konsekwencje mogą być, podobnie jak inne Aspekty, wymuszone lub wywołane.",
    ),
    RuleOption(
        "gm_sets_order",
        bool,
        False,
        "the GM sets the whole order of action (off: Zmysły, then stunts or aspects, the GM only on ties)",
        source="W ustalenia właściwej kolejności decydujące zdanie ma MG.",
    ),
    RuleOption(
        "rest_clears_boxes",
        int,
        5,
        "minutes of rest (konflikt campaign rest --minutes) after which every marked box of the Tor Presji clears: "
        "the text's 'kilka minut' (a few minutes), 5 konflikt's own number; a fight straight after the last starts "
        "with its boxes",
        source="Po zakończeniu starcia, konfliktu - zakładając, że postacie mają kilka minut na odpoczynek, "
        "wszystkie zakreślone pola, zostają wyczyszczone.",
        minimum=1,
        maximum=60,
    ),
    RuleOption(
        "rest_clears_mild",
        int,
        10,
        "minutes of rest after which mild consequences (łagodne konsekwencje) clear, within the text's 5-10: 10 "
        "(by then surely), 5 (as soon as the text allows); moderate and severe ones stay",
        source="łagodne konsekwencje również zostają wyczyszczone po 5-10 minut odpoczynku. Pozostają tylko "
        "umiarkowane i poważne konsekwencje.",
        minimum=5,
        maximum=10,
    ),
    RuleOption(
        "max_exchanges",
        int,
        30,
        "exchanges (sekwencje walki) before the conflict is called a deadlock (konflikt's own: the text is silent)",
        minimum=1,
        maximum=1000,
    ),
)

ADVANTAGE_KINDS: tuple[tuple[str, str, str], ...] = (
    ("mobility", "advantage_mobility", N_("Mobility advantage")),
    ("weapon", "advantage_weapon", N_("Weapon advantage")),
    ("tactics", "advantage_tactics", N_("Tactics advantage")),
    ("reaction", "advantage_reaction", N_("Reaction speed advantage")),
    ("personality", "advantage_personality", N_("Personality advantage")),
    ("numbers", "advantage_numbers", N_("Numbers advantage")),
    ("flanking", "advantage_flanking", N_("Flanking")),
    ("surrounded", "advantage_surrounded", N_("Surrounded")),
)
"""(kind, option name, label) of the advantages the GM grants or the positions give (+1 Attack each)."""

POSITIONAL = ("numbers", "flanking", "surrounded")
