"""Every frame an app draws, as text: what shows together in one frame (a screen's keys
bar and what made its keys change)."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def record_frames(app: App[Any]) -> list[str]:
    """The frames ``app`` will draw, each as the text written to the terminal (the
    escape sequences taken out), in a list that grows as they are drawn."""
    frames: list[str] = []
    display = app._display  # Textual's one way out to the terminal

    def kept(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        render = getattr(renderable, "render_segments", None)
        if render is not None:
            frames.append(_ESCAPES.sub("", render(app.console)))

    app._display = kept  # type: ignore[method-assign]
    return frames


def first_frame(frames: list[str], text: str, after: int = 0) -> str:
    """The first frame from the ``after``-th on that shows ``text``."""
    return next(frame for frame in frames[after:] if text in frame)
