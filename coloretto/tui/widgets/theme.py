"""Theme colours for highlights set as inline styles.

Toggling a CSS class restyles a widget against the whole stylesheet (a couple of
milliseconds each); the highlights that move on every turn are set as inline styles with
these colours instead, which keeps a key press well within the 50 ms budget.
"""

from __future__ import annotations

from textual.app import App
from textual.color import Color

_CACHE: dict[tuple[str, str, float], Color] = {}


def theme_color(app: App[object], variable: str, alpha: float = 1.0) -> Color:
    """The theme's ``$variable`` colour (e.g. ``accent``) with ``alpha``."""
    key = (app.theme, variable, alpha)
    color = _CACHE.get(key)
    if color is None:
        color = Color.parse(app.get_css_variables()[variable]).with_alpha(alpha)
        _CACHE[key] = color
    return color
