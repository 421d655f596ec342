"""Laplaplace's data: the ability language, the card list and build files."""
