"""Join links as QR codes, drawn on the server as inline SVG (segno, pure Python): a phone's camera opens its seat.

No image is fetched from anywhere: the table may be offline. The SVG holds only the code's modules (no text), so
it needs no escaping beyond what segno writes.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as an inline ``<svg>`` (medium error correction, a quiet zone of two modules).

    Drawn once per link (cached) and only on the GM's page load, never in the live frames.
    """
    # one fixed mask (any of the eight is a valid code): scoring all eight costs five times as much
    code = segno.make(url, error="m", micro=False, mask=0, boost_error=False)
    svg = code.svg_inline(scale=4, border=2, title=None, svgclass="qr", lineclass=None, omitsize=False)
    return Markup(svg)  # segno's own SVG of the code's modules: the URL is not in it as text
