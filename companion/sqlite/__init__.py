"""SQLite with writers that queue instead of polling (see base.py)."""
