"""The Textual game (coming in the TUI issue)."""
