"""AI opponents (coming in the bots issue)."""
