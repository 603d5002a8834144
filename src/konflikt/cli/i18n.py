"""The ``cli`` catalog's functions (see ``konflikt.core.i18n``): messages in English, printed in the
language in use."""

from konflikt.core.i18n import N_, Catalog

CATALOG = Catalog("cli", "konflikt.cli")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
pgettext = CATALOG.pgettext

__all__ = ["CATALOG", "N_", "_", "ngettext", "pgettext"]
