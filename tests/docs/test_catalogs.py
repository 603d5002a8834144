"""The gettext catalogs are current and whole: every message the code says is in every language's catalog, Swedish,
Danish and Polish translate each one with the same placeholders, the shipped ``.mo`` files are compiled from the
``.po`` files, and ``docs/languages.md`` shows the completeness the catalogs have."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from konflikt.core.i18n import BILINGUAL, MissingTranslation, speaking

ROOT = Path(__file__).resolve().parents[2]


def _catalogs_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("catalogs_script", ROOT / "scripts" / "catalogs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogs_script"] = module
    spec.loader.exec_module(module)
    return module


CATALOGS = _catalogs_script()


@pytest.mark.parametrize("domain", CATALOGS.domains(), ids=lambda d: d.name)
def test_catalog_current_and_whole(domain) -> None:  # type: ignore[no-untyped-def]
    assert CATALOGS.problems(domain) == [], "run: python scripts/catalogs.py " + domain.name


def test_languages_doc_shows_the_completeness_the_catalogs_have() -> None:
    doc = CATALOGS.DOC.read_text(encoding="utf-8")
    assert CATALOGS.with_table(doc) == doc, "run: python scripts/catalogs.py"


def test_a_placeholder_a_translation_drops_is_caught() -> None:
    from babel.messages.catalog import Message

    domain = CATALOGS.domains()[0]
    dropped = Message("{name} attacks", "anfaller")
    foreign = Message("{name} attacks", "{namn} anfaller")
    assert CATALOGS._message_problems(domain, "sv", dropped)
    assert CATALOGS._message_problems(domain, "sv", foreign)
    assert not CATALOGS._message_problems(domain, "sv", Message("{name} attacks", "{name} anfaller"))
    assert CATALOGS._message_problems(domain, "sv", Message("{name} attacks", ""))
    assert not CATALOGS._message_problems(domain, "en", Message("{name} attacks", ""))


def test_each_language_speaks_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from konflikt.rulesets.levald.i18n import _

    seen = {}
    for language in ("en", "sv", "da", "pl", BILINGUAL):
        with speaking(language):
            seen[language] = _("{name} attacks", name="Hedda")
    assert seen["en"] == "Hedda attacks"
    assert seen[BILINGUAL] == "Hedda anfaller (attacks)"
    assert len(set(seen.values())) == 5
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "1")
    with speaking("sv"), pytest.raises(MissingTranslation):
        _("a message no catalog holds")
    with speaking("en"):
        assert _("a message no catalog holds") == "a message no catalog holds"
