"""The table's language: gettext catalogs per domain, the language in use, and numbers written the language's way.

Every message konflikt prints is written in the code as plain English (the *msgid*) and looked up in the catalog of
the language in use. Five languages can be chosen:

- ``sv``, ``da``, ``pl``: the whole interface in Swedish, Danish or Polish; each system's own terms translated from the
  text's meaning (and kept as the text's words in the text's own language);
- ``en``: English, with the terms a text uses as proper names (Le våld's *Gard*) kept where the catalog says so;
- ``both``: the bilingual register konflikt spoke before it had catalogs: English sentences with each system's terms
  in the text's language and an English gloss beside them ("Gard (guard) 12/12").

Each *domain* is one package's messages (a ruleset's narration, the CLI, the browser table, the shared engine), with
its catalogs in ``locale/`` beside the package, so a fifth system ships its own. A domain's module binds the
functions once::

    from konflikt.core.i18n import Catalog
    CATALOG = Catalog("levald", __package__)
    _ = CATALOG.gettext          # _("{name} attacks", name=...)
    ngettext = CATALOG.ngettext  # ngettext("{n} wound", "{n} wounds", n)
    pgettext = CATALOG.pgettext  # pgettext("distance", "Spjut")

Messages are looked up when they are printed, never at import: a constant that holds words is marked with ``N_`` (for
extraction) and passed through ``_`` where it is used. The language is a context variable, so each request of the
browser table can speak its seat's language; ``set_language`` also exports ``KONFLIKT_LANG`` so worker processes
speak the same.

A catalog miss falls back to the English msgid. With ``KONFLIKT_STRICT_CATALOG=1`` (or a list of domains, as the
language tests set it) a miss in a language other than English raises ``MissingTranslation`` instead, so an
untranslated message fails a test.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

LANGUAGES = ("en", "sv", "da", "pl")
"""The languages with whole catalogs."""
BILINGUAL = "both"
"""The bilingual register: English sentences, each system's terms in its text's language with an English gloss."""
CHOICES = (*LANGUAGES, BILINGUAL)
DEFAULT = BILINGUAL
"""The language when neither ``--lang``, ``KONFLIKT_LANG`` nor the locale names one of ``CHOICES``."""

LANGUAGE_NAMES = {
    "en": "English",
    "sv": "svenska",
    "da": "dansk",
    "pl": "polski",
    BILINGUAL: "both (the text's terms with English glosses)",
}

BABEL_LOCALES = {"en": "en", "sv": "sv_SE", "da": "da_DK", "pl": "pl_PL", BILINGUAL: "en"}
"""Which Babel locale writes each language's numbers."""

Language = Literal["en", "sv", "da", "pl", "both"]


def checked_text(value: object) -> object:
    """A content text as a file may give it, refused in one sentence naming the wrong language or value."""
    if isinstance(value, dict):
        if not value:
            raise ValueError(f"a table of languages needs at least one of {', '.join(CHOICES)}")
        for key, text in value.items():
            if key not in CHOICES:
                raise ValueError(f"{key!r} is not a language konflikt speaks: use {', '.join(CHOICES)}")
            if not isinstance(text, str):
                raise ValueError(f"the {key} text must be a string, not {type(text).__name__}")
    elif not isinstance(value, str):
        raise ValueError(f"a text is a string or a table of languages ({', '.join(CHOICES)})")
    return value


LocalText = Annotated[str | dict[str, str], BeforeValidator(checked_text)]
"""A text of a content file (a scenario's title, a goal, a weapon's name): one string, the same in every language (a
user's own file), or a table of languages (``{sv = "Tvekamp vid bron", en = "A duel at the bridge"}``)."""

FALLBACK: dict[str, tuple[str, ...]] = {
    "en": ("en", BILINGUAL),
    BILINGUAL: (BILINGUAL, "en"),
    "sv": ("sv", "en", BILINGUAL),
    "da": ("da", "en", BILINGUAL),
    "pl": ("pl", "en", BILINGUAL),
}
"""Where a content text without the language in use is read instead."""

_chosen: ContextVar[str | None] = ContextVar("konflikt_language", default=None)


class MissingTranslation(RuntimeError):
    """A message without a translation in the language in use, raised only under ``KONFLIKT_STRICT_CATALOG=1``."""


@cache
def language_of(value: str | None) -> str | None:
    """The language a setting names (``sv``, ``sv_SE.UTF-8``, ``pl-PL``, ``BOTH``), or ``None`` for anything else
    (``C``, ``POSIX``, a language without a catalog)."""
    if not value:
        return None
    word = value.strip().lower()
    if word == BILINGUAL:
        return BILINGUAL
    code = word.split(".")[0].split("@")[0].replace("-", "_").split("_")[0]
    return code if code in LANGUAGES else None


def from_environment(environ: dict[str, str] | os._Environ[str] | None = None) -> str:
    """The language the environment chooses: ``KONFLIKT_LANG``, then the locale as gettext reads it (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``LANGUAGE`` may list several, the first known wins), then ``DEFAULT``."""
    env = os.environ if environ is None else environ
    chosen = language_of(env.get("KONFLIKT_LANG"))
    if chosen:
        return chosen
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(name, "").split(":"):
            found = language_of(part)
            if found and found != BILINGUAL:
                return found
        if name != "LANGUAGE" and env.get(name):
            break  # a set LC_ALL decides even when it names no catalog (C, POSIX): as setlocale reads it
    return DEFAULT


_LOCALE_NAMES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@cache
def _locale_language() -> str:
    """The locale's language, read once: a process does not change its locale, and reading four variables at every
    message cost more than the look-up."""
    return from_environment({name: os.environ[name] for name in _LOCALE_NAMES if name in os.environ})


def current() -> str:
    """The language in use: the one set for this context, else ``KONFLIKT_LANG`` (read at every message: a test or a
    command may set it), else the locale's."""
    chosen = _chosen.get()
    if chosen:
        return chosen
    return language_of(os.environ.get("KONFLIKT_LANG")) or _locale_language()


def set_language(language: str) -> None:
    """Speak ``language`` from now on in this context and in every worker process started from here."""
    chosen = language_of(language)
    if chosen is None:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(CHOICES)}")
    _chosen.set(chosen)
    os.environ["KONFLIKT_LANG"] = chosen


def language_setting() -> tuple[str | None, str | None]:
    """The language chosen in this context and ``KONFLIKT_LANG``, for ``restore_language``."""
    return _chosen.get(), os.environ.get("KONFLIKT_LANG")


def restore_language(setting: tuple[str | None, str | None]) -> None:
    """Undo every ``set_language`` since ``setting`` was taken."""
    chosen, environment = setting
    _chosen.set(chosen)
    if environment is None:
        os.environ.pop("KONFLIKT_LANG", None)
    else:
        os.environ["KONFLIKT_LANG"] = environment


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Speak ``language`` inside the block only (a browser request in its seat's language, a test run)."""
    chosen = language_of(language)
    if chosen is None:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(CHOICES)}")
    token = _chosen.set(chosen)
    try:
        yield chosen
    finally:
        _chosen.reset(token)


def strict(domain: str) -> bool:
    """Whether a miss in ``domain`` raises: ``KONFLIKT_STRICT_CATALOG`` is ``1`` (every domain) or a comma-separated
    list of domains (a ruleset's language test checks its own messages while the others' are being translated)."""
    setting = os.environ.get("KONFLIKT_STRICT_CATALOG", "").strip()
    if setting in ("", "0"):
        return False
    return setting in ("1", "all") or domain in {part.strip() for part in setting.split(",")}


def localized(text: str | Mapping[str, str]) -> str:
    """A content text in the language in use (``FALLBACK`` when its table lacks that language)."""
    if isinstance(text, str):
        return text
    for language in FALLBACK[current()]:
        if language in text:
            return text[language]
    return next(iter(text.values()))


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (a constant translated where it is used)."""
    return message


class Catalog:
    """One domain's messages in every language (its ``locale/<lang>/LC_MESSAGES/<domain>.mo`` files)."""

    def __init__(self, domain: str, package: str) -> None:
        self.domain = domain
        self.package = package
        self._loaded: dict[str, _gettext.GNUTranslations | None] = {}

    @property
    def folder(self) -> Path:
        """``locale/`` beside the domain's package."""
        return Path(str(files(self.package))) / "locale"

    def translations(self, language: str) -> _gettext.GNUTranslations | None:
        """The language's compiled catalog (read once per process), or ``None`` if the domain has none."""
        try:
            return self._loaded[language]
        except KeyError:
            found = self._loaded[language] = _load(self.folder, self.domain, language)
            return found

    def gettext(self, message: str, /, **fields: Any) -> str:
        """``message`` in the language in use, its ``{fields}`` filled in."""
        return _filled(self._lookup(message, None), fields)

    def pgettext(self, context: str, message: str, /, **fields: Any) -> str:
        """``message`` in ``context`` (one English word with two meanings, a term of one table)."""
        return _filled(self._lookup(message, context), fields)

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: Any) -> str:
        """The form of ``singular``/``plural`` the language uses for ``n`` (Polish has three); ``{n}`` is filled."""
        language = current()
        found = self.translations(language)
        if found is not None and (singular, 0) in found._catalog:  # type: ignore[attr-defined]
            text = found.ngettext(singular, plural, n)
        else:
            self._missed(language, singular)
            text = singular if n == 1 else plural
        return _filled(text, {"n": n, **fields})

    def _lookup(self, message: str, context: str | None) -> str:
        language = current()
        found = self.translations(language)
        key = message if context is None else f"{context}\x04{message}"
        if found is not None:
            text = found._catalog.get(key)  # type: ignore[attr-defined]
            if text:
                return str(text)
        self._missed(language, message)
        return message

    def _missed(self, language: str, message: str) -> None:
        if language != "en" and language != BILINGUAL and strict(self.domain):
            raise MissingTranslation(f"{self.domain}: no {language} translation of {message!r}")


def _filled(text: str, fields: dict[str, Any]) -> str:
    return text.format(**fields) if fields else text


@cache
def _load(folder: Path, domain: str, language: str) -> _gettext.GNUTranslations | None:
    path = folder / language / "LC_MESSAGES" / f"{domain}.mo"
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return _gettext.GNUTranslations(handle)


def number(value: float | Fraction | int, decimals: int = 0) -> str:
    """``value`` with ``decimals`` decimals, written the language's way (``12,5`` in Swedish, Danish and Polish)."""
    language = current()
    if language in ("en", BILINGUAL):
        return f"{float(value):.{decimals}f}" if decimals else f"{round(float(value))}"
    from babel.numbers import format_decimal

    pattern = "0" if decimals == 0 else "0." + "0" * decimals
    return str(format_decimal(float(value), format=pattern, locale=BABEL_LOCALES[language]))


def percent(value: float, decimals: int = 2) -> str:
    """``value`` (a percentage, 12.5 for 12.5%) with the language's decimal sign and percent spacing (``12,50 %``)."""
    language = current()
    if language in ("en", BILINGUAL):
        return f"{value:.{decimals}f}%"
    return f"{number(value, decimals)}\u00a0%"
