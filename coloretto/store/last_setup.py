"""The last setup chosen (players, people, names, level...), kept in ``setup.json`` of the
data directory for the setup screen to start from. Its content is the play layer's
(``coloretto.play.config.setup_to_json``); here it is only JSON, kept and read back.

>>> import tempfile
>>> data = DataDir(Path(tempfile.mkdtemp()))
>>> read_setup(data) is None
True
>>> _ = write_setup(data, {"players": 3})
>>> read_setup(data)
{'players': 3}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.paths import DataDir

SETUP_FILE = "setup.json"

MAX_SETUP_BYTES = 16 * 1024
"""The most read of the setup file (it takes a few hundred bytes)."""


def setup_path(data: DataDir) -> Path:
    """Where the last setup chosen is kept."""
    return data.root / SETUP_FILE


def write_setup(data: DataDir, setup: Mapping[str, Any]) -> Path:
    """Keep ``setup`` (JSON-ready) as the last setup, atomically; raises ``OSError`` if
    the disk refuses."""
    path = setup_path(data)
    data.root.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(setup, indent=1) + "\n")
    return path


def read_setup(data: DataDir) -> object:
    """The JSON value kept as the last setup, unchecked (see ``setup_from_json``); ``None``
    when there is none, or it cannot be read, is too large or is not JSON."""
    try:
        raw = read_bounded(setup_path(data), MAX_SETUP_BYTES)
        return json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # too large, not UTF-8, not JSON, too deep
        return None
