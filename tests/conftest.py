"""Shared fixtures: the toy games are registered so records of them replay through the registry."""

from cardarena.engine import register

from .engine.toy import BidGame, ToyGame

register(ToyGame)
register(BidGame)
