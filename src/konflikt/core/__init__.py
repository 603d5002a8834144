"""Engine core: the State API, actions, events, rule options, the ruleset registry and the errors."""

from konflikt.core.actions import Action, ChanceOutcome, Step
from konflikt.core.events import Event
from konflikt.core.messages import CATALOG as _COMMON
from konflikt.core.options import Options, OptionSet, RuleOption
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL, State
from konflikt.dice import messages as _dice_messages
from konflikt.errors import (
    DiceError,
    IllegalActionError,
    InvalidActionError,
    KonfliktError,
    OptionError,
    ReplayError,
    ScenarioError,
    StoreError,
)

__all__ = [
    "CHANCE",
    "GM",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "ChanceOutcome",
    "ConflictOutcome",
    "DiceError",
    "Event",
    "IllegalActionError",
    "InvalidActionError",
    "KonfliktError",
    "OptionError",
    "OptionSet",
    "Options",
    "ReplayError",
    "RuleOption",
    "ScenarioError",
    "State",
    "Step",
    "StoreError",
]

_dice_messages.use(
    _COMMON.gettext, _COMMON.ngettext
)  # the dice's messages in the common catalog (they may not import core)
