"""The browser platform: a game server with a lobby, invitations, AI seats, spectators and a database that loses no
move (``cardarena serve``). See docs/web.md: the protocol, the architecture and the guarantees."""
