"""A scenario uploaded on the GM console: read and checked exactly as ``konflikt play FILE`` reads a file.

The text is bounded (:data:`konflikt.web.app.UPLOAD_MAX`), parsed as TOML, and validated by the same models as the
CLI (:func:`konflikt.core.scenario.scenario_from_document`); any problem is one line for the console's page.
A character named by reference must be a bundled one (``builtin:NAME``): an upload never makes the server read
one of its own files.
"""

from __future__ import annotations

import re
from typing import Any

from konflikt.core.scenario import Scenario, parse_toml, scenario_from_document
from konflikt.errors import ScenarioError
from konflikt.web.i18n import _

SOURCE = "uploaded scenario"
BUILTIN = re.compile(r"builtin:[A-Za-z0-9_-]{1,64}")


def uploaded_scenario(text: str) -> Scenario:
    """The scenario in ``text`` (a TOML document), or :class:`ScenarioError` with one line."""
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise ScenarioError(_("{source}: empty; paste a scenario's TOML or choose its file", source=SOURCE))
    doc = parse_toml(text, SOURCE)
    _only_bundled_characters(doc)
    return scenario_from_document(doc, SOURCE, base=None)


def _only_bundled_characters(doc: dict[str, Any]) -> None:
    sides = doc.get("sides")
    for si, side in enumerate(sides if isinstance(sides, list) else []):
        members = side.get("participants") if isinstance(side, dict) else None
        for pi, part in enumerate(members if isinstance(members, list) else []):
            ref = part.get("character") if isinstance(part, dict) else None
            if ref is not None and not (isinstance(ref, str) and BUILTIN.fullmatch(ref)):
                where = f"sides[{si}].participants[{pi}].character"
                raise ScenarioError(
                    _(
                        "{source}: {where} = {value}: an uploaded scenario may name only bundled characters "
                        "(builtin:NAME); write the others' fields in the scenario",
                        source=SOURCE,
                        where=where,
                        value=repr(str(ref)[:60]),
                    )
                )
