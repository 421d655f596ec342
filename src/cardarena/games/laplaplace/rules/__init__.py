"""Laplaplace's rules (the automatic battle)."""
