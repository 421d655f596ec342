"""The server's routes, one FastAPI router per area: :mod:`.lobby` (games, seats, "Play anyone"), :mod:`.games`
(finished games: records, replays, analyses, rules), :mod:`.pages` (the browser's pages), :mod:`.live` (the
WebSocket). Each route is thin: it takes the server's parts from :func:`.deps.server`, its body from a pydantic
model (:mod:`.models`), and calls the lobby's, tables' or replays' code."""
