"""The page templates: loaded and compiled once, and read dict-first.

Every live frame renders a seat's panel, so the template machinery is on the hot path of every step. Two things
made it slow: looking a template up checks its file's modification time on every render, and Jinja reads
``p.title`` on a dict by trying the attribute first (an ``AttributeError`` raised and caught for every field of
every frame) and only then the key. Here the templates are compiled once per server and a dict's keys come first
(its methods, ``items()`` and the like, are still found when no key has that name).
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, Template, select_autoescape

from konflikt.core.i18n import current, number, percent
from konflikt.web.i18n import language_names, markup_gettext, markup_ngettext, markup_pgettext
from konflikt.web.qr import qr_svg

_MISSING = object()


class PageEnvironment(Environment):
    """Jinja with autoescape, the ``qr``, ``percent`` and ``number`` filters, the web catalog's ``_``, and
    ``p.name`` on a dict read as ``p["name"]`` first."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            value = obj.get(attribute, _MISSING)
            if value is not _MISSING:
                return value
        return super().getattr(obj, attribute)


class Pages:
    """The package's templates, each compiled on first use and kept."""

    def __init__(self) -> None:
        self.env = PageEnvironment(
            loader=PackageLoader("konflikt.web", "templates"),
            autoescape=select_autoescape(default=True),
            auto_reload=False,
        )
        self.env.filters["qr"] = qr_svg
        self.env.filters["percent"] = percent
        self.env.filters["number"] = number
        # the web catalog's messages, looked up at render time in the language the request speaks
        self.env.globals.update(
            _=markup_gettext,
            ngettext=markup_ngettext,
            pgettext=markup_pgettext,
            language_names=language_names,
            language=current,
        )
        self._compiled: dict[str, Template] = {}

    def render(self, name: str, **context: Any) -> str:
        template = self._compiled.get(name)
        if template is None:
            template = self._compiled[name] = self.env.get_template(name)
        return template.render(**context)
