"""Shared fixtures: the toy game is registered so records of it replay through the registry."""

from cardarena.engine import register

from .engine.toy import ToyGame

register(ToyGame)
