"""Keep the gettext catalogs current: extract each domain's messages, update its ``.po`` files, compile ``.mo``.

    python scripts/catalogs.py                 # every domain: extract, update, compile, write docs/languages.md
    python scripts/catalogs.py levald cli      # only these domains (docs/languages.md is still rewritten)
    python scripts/catalogs.py --check         # change nothing; exit 1 naming what is stale or untranslated

A domain is one package's messages (see ``konflikt.core.i18n``): its template ``locale/DOMAIN.pot`` and one
``locale/LANG/LC_MESSAGES/DOMAIN.po`` (edited by hand, the translations) and ``.mo`` (compiled, shipped) per language.
English is the msgid itself, so ``en`` holds only the words English keeps from the text (Le våld's *Gard*); ``both``
holds the bilingual register. ``tests/docs/test_catalogs.py`` runs the same checks.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from konflikt.core.i18n import BILINGUAL, LANGUAGE_NAMES, LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "konflikt"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
}
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")]
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Headers keep one date so a catalog changes only when its messages do."""
TRANSLATED = ("sv", "da", "pl")
"""Languages whose every message needs a translation (English is the msgid; ``both`` falls back to it)."""
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)(?:[:!][^}]*)?\}(?!\})")


@dataclass(frozen=True)
class Domain:
    """One catalog domain: its name, the folder whose ``locale/`` holds it, and the source folders it is taken from."""

    name: str
    home: Path
    sources: tuple[Path, ...]

    @property
    def template(self) -> Path:
        return self.home / "locale" / f"{self.name}.pot"

    def po(self, language: str) -> Path:
        return self.home / "locale" / language / "LC_MESSAGES" / f"{self.name}.po"

    def mo(self, language: str) -> Path:
        return self.po(language).with_suffix(".mo")


def domains() -> list[Domain]:
    """The shared engine (``common``), the CLI, the browser table, and one domain per ruleset."""
    found = [
        Domain(
            "common",
            SRC / "core",
            tuple(SRC / part for part in ("core", "analysis", "sim", "reports", "dice", "store")),
        ),
        Domain("cli", SRC / "cli", (SRC / "cli",)),
        Domain("web", SRC / "web", (SRC / "web",)),
    ]
    for ruleset in sorted((SRC / "rulesets").iterdir()):
        if (ruleset / "i18n.py").is_file():
            found.append(Domain(ruleset.name, ruleset, (ruleset,)))
    return found


def extracted(domain: Domain) -> Catalog:
    """The domain's messages as the code says them now."""
    template = Catalog(
        project="konflikt",
        domain=domain.name,
        copyright_holder="the konflikt authors",
        header_comment=f"# The messages of konflikt's {domain.name} domain, extracted from the code.\n",
        creation_date=FIXED_DATE,
        fuzzy=False,
    )
    for source in domain.sources:
        if not source.exists():
            continue
        results: Iterator = extract_from_dir(  # type: ignore[type-arg]
            source,
            method_map=METHODS,
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, _lineno, message, comments, context in results:
            path = (source / filename).relative_to(ROOT).as_posix()
            template.add(message, locations=[(path, None)], auto_comments=comments, context=context)
    return template


def _read(path: Path, language: str | None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=path.stem)


def _write(path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` to ``path``; True when the file changed."""
    buffer = io.BytesIO()
    if path.suffix == ".mo":
        write_mo(buffer, catalog, use_fuzzy=False)
    else:
        write_po(buffer, catalog, width=120, sort_output=True, ignore_obsolete=True, include_lineno=False)
    data = buffer.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _babel_locale(language: str) -> str | None:
    return None if language == BILINGUAL else language


def updated(domain: Domain, template: Catalog, language: str) -> Catalog:
    """The language's catalog with exactly the template's messages, keeping every translation it had."""
    catalog = _read(domain.po(language), _babel_locale(language)) or Catalog(
        locale=_babel_locale(language),
        domain=domain.name,
        project="konflikt",
        copyright_holder="the konflikt authors",
        header_comment=f"# {LANGUAGE_NAMES[language]} messages of konflikt's {domain.name} domain.\n",
        creation_date=FIXED_DATE,
        fuzzy=False,
    )
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.revision_date = FIXED_DATE
    catalog.creation_date = FIXED_DATE
    return catalog


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def problems(domain: Domain) -> list[str]:
    """Everything stale or missing in the domain, one line each (empty when all is current)."""
    found: list[str] = []
    template = extracted(domain)
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    current = _read(domain.template, None)
    have = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in current if m.id} if current else set()
    if wanted != have:
        new, gone = len(wanted - have), len(have - wanted)
        found.append(f"{domain.template.relative_to(ROOT)}: stale ({new} new, {gone} gone)")
    for language in (*LANGUAGES, BILINGUAL):
        catalog = _read(domain.po(language), _babel_locale(language))
        if catalog is None:
            if wanted:
                found.append(f"{domain.po(language).relative_to(ROOT)}: missing")
            continue
        in_po = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
        if wanted - in_po:
            found.append(f"{domain.po(language).relative_to(ROOT)}: {len(wanted - in_po)} messages not in the catalog")
        for message in catalog:
            if not message.id:
                continue
            found.extend(_message_problems(domain, language, message))
        compiled = _compiled(domain.mo(language))
        if compiled != _translations(catalog):
            found.append(f"{domain.mo(language).relative_to(ROOT)}: not compiled from its .po")
    return found


def _message_problems(domain: Domain, language: str, message: Message) -> list[str]:
    where = f"{domain.po(language).relative_to(ROOT)}: {message.id!r}"
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string)
    if not any(strings):
        return [f"{where}: untranslated"] if language in TRANSLATED else []
    if message.fuzzy:
        return [f"{where}: fuzzy"]
    expected = set().union(*(placeholders(i) for i in ids))
    bad = [s for s in strings if s and placeholders(s) - expected]
    if bad:
        return [f"{where}: translation uses placeholders the message lacks: {sorted(placeholders(bad[0]) - expected)}"]
    if len(ids) == 1 and strings[0] and placeholders(strings[0]) != expected:
        return [f"{where}: translation drops placeholders {sorted(expected - placeholders(strings[0]))}"]
    return []


def _hashable(value: object) -> object:
    """A message's id or string as a dict key: plural forms are lists from ``read_mo``, tuples from ``read_po``."""
    return tuple(value) if isinstance(value, list | tuple) else value


def _translations(catalog: Catalog) -> dict[tuple[object, object], object]:
    return {
        (_hashable(m.id), m.context): _hashable(m.string)
        for m in catalog
        if m.id and not m.fuzzy and (any(m.string) if not isinstance(m.string, str) else m.string)
    }


def _compiled(path: Path) -> dict[tuple[object, object], object] | None:
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return _translations(read_mo(handle))


def completeness(domain: Domain) -> dict[str, tuple[int, int]]:
    """Per language: (messages translated, messages in the template). English counts its msgids as translated."""
    total = len([m for m in extracted(domain) if m.id])
    counts: dict[str, tuple[int, int]] = {}
    for language in (*LANGUAGES, BILINGUAL):
        catalog = _read(domain.po(language), _babel_locale(language))
        if language == "en" or (language == BILINGUAL and domain.name in ("common", "cli", "web")):
            counts[language] = (total, total)
            continue
        done = len(_translations(catalog)) if catalog else 0
        counts[language] = (min(done, total), total)
    return counts


def refresh(domain: Domain) -> list[str]:
    """Extract, update and compile the domain; the files that changed."""
    changed: list[str] = []
    template = extracted(domain)
    if _write(domain.template, template):
        changed.append(str(domain.template.relative_to(ROOT)))
    for language in (*LANGUAGES, BILINGUAL):
        catalog = updated(domain, template, language)
        for path in (domain.po(language), domain.mo(language)):
            if _write(path, catalog):
                changed.append(str(path.relative_to(ROOT)))
    return changed


def languages_table() -> str:
    """The completeness table ``docs/languages.md`` shows between its markers."""
    header = "| domain | messages | " + " | ".join((*LANGUAGES, BILINGUAL)) + " |"
    lines = [header, "|" + "---|" * (2 + len(LANGUAGES) + 1)]
    for domain in domains():
        counts = completeness(domain)
        total = counts["en"][1]
        cells = [f"{100 * done // total if total else 100}%" for done, _ in counts.values()]
        lines.append(f"| {domain.name} | {total} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


BEGIN, END = "<!-- catalogs:begin -->", "<!-- catalogs:end -->"
DOC = ROOT / "docs" / "languages.md"


def with_table(text: str) -> str:
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + languages_table() + "\n" + text[stop:]


def main(arguments: list[str]) -> int:
    check = "--check" in arguments
    only = [a for a in arguments if not a.startswith("--")]
    chosen = [d for d in domains() if not only or d.name in only]
    if check:
        found = [line for domain in chosen for line in problems(domain)]
        doc = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
        if doc and not only and with_table(doc) != doc:
            found.append("docs/languages.md: completeness table stale")
        print("\n".join(found) or "catalogs current")
        return 1 if found else 0
    for domain in chosen:
        for path in refresh(domain):
            print(f"wrote {path}")
    if DOC.is_file():
        DOC.write_text(with_table(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
