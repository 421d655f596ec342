"""The lobby's rules: game keys and seat tokens, what a new game may ask for, names and chat, summaries.

Everything a request carries is checked here with a plain-words reason (:class:`ApiError`), so the routes of
``app.py`` stay thin. A seat token is returned once, inside its invitation link; the store keeps its SHA-256.

**Invitations and seat secrets.** A human seat's ``token_hash`` holds one of two things. While the seat is open
(``claimed`` false) it is the hash of the seat's *invitation*, which the creator (or whoever asked for a rematch,
or whoever left the seat) holds and passes on; an invitation does one thing: join. Joining replaces it with the
hash of a new *seat secret* that only the joiner is given; from then on the invitation is refused everywhere and
the secret is what the seat uses (the table's socket, leave, handover, rematch). So whoever handed out the links
cannot sit in, watch or act for a seat someone else took (:func:`seat_of_secret`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import replace
from typing import Any

from ..agents.levels import LEVELS, level_spec
from ..engine import Game, Option, RulesError, game_class, games, load
from .ai import check_agent
from .option_words import option_words
from .store import GameRow, SeatKind, SeatRow
from .strengths import MEASURED_OPTIONS, words_by_option, words_for

MAX_NAME = 24
MAX_CHAT = 300
MAX_TOKEN = 100


class ApiError(Exception):
    """A refused request: the HTTP status, a code (docs/web.md) and the reason in plain words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad_request", message)


def no_game() -> ApiError:
    return ApiError(404, "not_found", "no such game")  # the same answer for every unknown key: no information


# -- keys and tokens ------------------------------------------------------------------------------------------
def new_key() -> str:
    return secrets.token_urlsafe(12)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_seat(row: GameRow, token: object) -> SeatRow | None:
    """The human seat whose token this is, comparing hashes in constant time; ``None`` for any other value."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    digest = hash_token(token)
    found = None
    for seat in row.seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat
    return found


def seat_of_secret(row: GameRow, token: object) -> SeatRow:
    """The taken seat whose secret ``token`` is (what every call after ``join`` uses); ``ApiError`` 403
    ``bad_token`` for anything else, saying when ``token`` is the invitation of a seat nobody has taken yet."""
    seat = find_seat(row, token)
    if seat is None:
        raise ApiError(
            403,
            "bad_token",
            "this token is not a seat of this game (an invitation stops working once someone has taken its seat)",
        )
    if not seat.claimed:
        raise ApiError(
            403,
            "bad_token",
            "this is the invitation of a seat nobody has taken: join the seat first, then use the secret joining gives",
        )
    return seat


def account_seat(row: GameRow, account: int | None) -> SeatRow:
    """The taken seat of ``row`` bound to ``account`` (a signed-in player without the seat's secret in this
    browser); ``ApiError`` 403 ``no_seat`` when there is none (or no account)."""
    for seat in row.seats:
        if account is not None and seat.account == account and seat.claimed:
            return seat
    raise ApiError(403, "no_seat", "your account has no seat in this game (sign in, or use the seat's own link)")


# -- names and chat -------------------------------------------------------------------------------------------
def check_text(value: object, *, what: str, longest: int) -> str:
    """1..``longest`` printable characters (no control characters, no line breaks), kept verbatim: the pages
    show it as text (``textContent``), so markup in it is never interpreted."""
    if not isinstance(value, str):
        raise bad_request(f"{what} must be text")
    if not value.strip() or len(value) > longest or not value.isprintable():
        raise bad_request(f"{what} must be 1 to {longest} printable characters")
    return value


def check_name(value: object) -> str:
    return check_text(value, what="a name", longest=MAX_NAME)


# -- games and options ----------------------------------------------------------------------------------------
def offered(option: Option) -> bool:
    """Whether the web offers ``option``: every option but one that only names a file (a path option with no
    ``named`` value: card lists, tasks)."""
    return not option.path or bool(option.named)


def _option_view(game_id: str, o: Option) -> dict[str, Any]:
    """An option as the catalogue lists it; a path option's ``choices`` are its named values (starter decks,
    shipped builds), the only values the web takes for it. ``label`` and ``about`` are what the lobby shows
    (:mod:`.option_words`: players numbered from 1, no files); ``help`` is the engine's text."""
    choices = o.named if o.path else o.choices
    label, about = option_words(game_id, o)
    return {
        "name": o.name,
        "label": label,
        "about": about,
        "type": o.type.__name__,
        "default": o.default,
        "help": o.help,
        "choices": list(choices) if choices is not None else None,
        "minimum": o.minimum,
        "maximum": o.maximum,
    }


def catalogue(*, agent_specs: bool = False) -> dict[str, Any]:
    """The games a browser may start, their options and strengths; ``agent_specs``: whether this server takes an
    agent spec for an AI seat (its operator's choice), so that the lobby offers one only then."""
    rows = []
    for game_id in games():
        cls = game_class(game_id)
        counts = cls.player_counts
        rows.append(
            {
                "id": cls.id,
                "title": cls.name,
                "players": [min(counts), max(counts)],
                "description": cls.description(),
                "length": cls.length,
                "rules_page": f"/rules/{cls.id}",
                "options": [_option_view(cls.id, o) for o in cls.option_spec if offered(o)],
                "strengths": {label: level_spec(label, cls.id) for label in LEVELS},
                # what the lobby shows: each strength in words, with its measured time a move and results
                "strength_words": words_for(cls.id),
                "strength_words_by": words_by_option(cls.id, _choices(cls, MEASURED_OPTIONS.get(cls.id))),
            }
        )
    return {"games": rows, "strengths": dict(LEVELS), "agent_specs": agent_specs}


def _choices(cls: type[Game], name: str | None) -> list[Any] | None:
    """The values option ``name`` of ``cls`` may take (``None``: no such option, or a free one)."""
    option = next((o for o in cls.option_spec if o.name == name), None)
    return None if option is None or option.choices is None else list(option.choices)


def load_game(game_id: object, options: object) -> Game:
    """The game with the options a request gives; ``ApiError`` for an unknown game, a file, a bad value.

    A browser may not make the server read its files: a path option (``Option.path``) takes only its named values
    here, and the refusal is checked before anything is read and never depends on the value, so it tells nothing
    of the server's files (whether a path exists, what it is, what it holds)."""
    if not isinstance(game_id, str) or game_id not in games():
        raise bad_request(f"unknown game {game_id!r}; the games: {', '.join(games())}")
    if options is None:
        options = {}
    if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
        raise bad_request("options must be an object of option names and plain values")
    spec = {o.name: o for o in game_class(game_id).option_spec}
    for name, value in options.items():
        option = spec.get(name)
        if option is not None and option.names_a_file(value):
            if not option.named:
                raise bad_request(f"option {name!r} names a file on the server: it cannot be set from the web")
            raise bad_request(
                f"option {name!r} takes one of: {', '.join(option.named)} (a file on the server cannot be named "
                "from the web)"
            )
    try:
        return load(game_id, **options)
    except RulesError as e:
        raise bad_request(str(e)) from None


def _seat_row(index: int, seat: object, game_id: str, allow_agent_specs: bool) -> tuple[SeatRow, str | None]:
    """One seat of a new game and, for a human seat, its token (returned once, stored hashed). An AI seat is a
    strength label; an agent spec only where the server's operator allows them (``allow_agent_specs``)."""
    if not isinstance(seat, dict):
        raise bad_request(f"seat {index}: a seat is an object with kind 'human' or 'ai'")
    kind = seat.get("kind")
    if kind == SeatKind.HUMAN:
        name = seat.get("name")
        token = new_token()
        row = SeatRow(index, SeatKind.HUMAN, check_name(name) if name is not None else "", token_hash=hash_token(token))
        return row, token
    if kind != SeatKind.AI:
        raise bad_request(f"seat {index}: kind must be 'human' or 'ai', not {kind!r}")
    label, agent = seat.get("strength"), seat.get("agent")
    if agent is None:
        label = "normal" if label is None else label
        if label not in LEVELS:
            raise bad_request(f"seat {index}: strength must be one of {', '.join(LEVELS)}, not {label!r}")
        agent = level_spec(str(label), game_id)
    else:
        if not allow_agent_specs:
            raise bad_request(
                f"seat {index}: this server offers the AI strengths {', '.join(LEVELS)} ('strength');"
                " agent specs ('agent') only where its operator allows them (cardarena serve --allow-agent-specs)"
            )
        label = None
        try:
            check_agent(agent)
        except RulesError as e:
            raise bad_request(f"seat {index}: {e}") from None
    name = f"{str(label).capitalize()} AI" if label else f"AI ({agent})"
    return SeatRow(index, SeatKind.AI, name, agent=str(agent), label=label, claimed=True), None


def new_seed() -> int:
    """A new game's seed: unpredictable, so that nobody can know a deal before it is dealt."""
    return secrets.randbits(63)


def new_game(
    body: object, *, rematch_of: GameRow | None = None, allow_agent_specs: bool = False
) -> tuple[GameRow, list[dict[str, Any]]]:
    """The row of a new game from a create request, and the invitations ``[{seat, token}]`` of its human seats.
    ``allow_agent_specs``: AI seats may give an agent spec instead of a strength (the operator's choice)."""
    if not isinstance(body, dict):
        raise bad_request("the request is a JSON object {game, options, seats, private}")
    game = load_game(body.get("game"), body.get("options"))
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != game.num_players:
        raise bad_request(
            f"{game.id} with these options has {game.num_players} seats: give a list of {game.num_players} seats"
            + (" (or set the option 'players')" if "players" in game.options else "")
        )
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise bad_request("private must be true or false")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise bad_request("rated must be true or false")
    rows: list[SeatRow] = []
    invitations: list[dict[str, Any]] = []
    for index, seat in enumerate(seats):
        seat_row, token = _seat_row(index, seat, game.id, allow_agent_specs)
        if seat_row.kind == SeatKind.AI:  # several AIs of one strength: "Normal AI", "Normal AI 2"
            base = seat_row.name
            same = sum(1 for r in rows if r.kind == SeatKind.AI and (r.name == base or r.name.startswith(f"{base} ")))
            seat_row = replace(seat_row, name=f"{base} {same + 1}") if same else seat_row
        rows.append(seat_row)
        if token is not None:
            invitations.append({"seat": index, "token": token})
    if rated:
        check_rated(rows)
    seed = new_seed()
    row = GameRow(
        key=new_key(),
        game=game.id,
        options=game.record_options(),
        seed=seed,
        seats=tuple(rows),
        private=private,
        rematch_of=None if rematch_of is None else rematch_of.key,
        rated=rated,
    )
    return row, invitations


def check_rated(seats: list[SeatRow]) -> None:
    """A rated game (:mod:`cardarena.web.ratings`): two seats or more, at least one of them a person's (who must
    be signed in to take it), and every AI seat a strength (its bot account is rated; an agent spec is not)."""
    if len(seats) < 2:
        raise bad_request("a rated game has two seats or more")
    if all(s.kind == SeatKind.AI for s in seats):
        raise bad_request("a rated game has a person in it: give one human seat or more")
    for s in seats:
        if s.kind == SeatKind.AI and s.label is None:
            raise bad_request(
                f"seat {s.seat}: a rated game's AI seats play a strength ({', '.join(LEVELS)}), not an agent spec"
            )


def rematch_request(old: GameRow) -> dict[str, Any]:
    """A create request for a new game like ``old``: same game, options and seats (humans unnamed, AIs alike)."""
    seats: list[dict[str, Any]] = []
    for s in old.seats:
        if s.kind == SeatKind.HUMAN:
            seats.append({"kind": "human"})
        elif s.label is not None:
            seats.append({"kind": "ai", "strength": s.label})
        else:
            seats.append({"kind": "ai", "agent": s.agent})
    return {"game": old.game, "options": old.options, "seats": seats, "private": old.private, "rated": old.rated}


def invitation_url(key: str, token: str) -> str:
    """The link that opens a seat's invitation: the token in the fragment, which browsers never send."""
    return f"/play/{key}#{token}"


def invitation_links(key: str, invitations: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "key": key,
        "watch": f"/watch/{key}",
        "invitations": [{"seat": i["seat"], "url": invitation_url(key, i["token"])} for i in invitations],
    }


def summary(row: GameRow, *, ply: int, connected: set[int]) -> dict[str, Any]:
    """A game as the lobby shows it: nothing of its state beyond what a spectator sees (``ply`` is the number
    of actions a spectator has seen), never a token or its hash."""
    return {
        "key": row.key,
        "game": row.game,
        "title": game_class(row.game).name,
        "options": row.options,
        "status": str(row.status),
        "private": row.private,
        "rated": row.rated,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": str(s.kind),
                "label": s.label,
                "taken": s.claimed,
                "connected": s.seat in connected,
            }
            for s in row.seats
        ],
        "ply": ply,
        "result": row.result,
        "created": row.created.isoformat(),
        "rematch_of": row.rematch_of,
    }
