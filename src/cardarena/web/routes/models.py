"""The REST API's request and response bodies, as pydantic models: the OpenAPI schema (``/openapi.json``,
``/docs``) documents every route from them, and FastAPI checks each request against its model before a route runs.

The models check shapes and types; the rules that need a game (its seats, its options, the strengths it offers)
stay in :mod:`cardarena.web.lobby`, which every route still calls. A request that does not fit its model is
answered ``400 malformed`` with where and what (:func:`cardarena.web.app.create_app`'s handler), in the API's
one error format (:class:`Error`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: A plain option value (a game option is a name and one of these).
OptionValue = str | int | float | bool


class Request(BaseModel):
    """A request body: strict types (``"true"`` is not ``true``); fields it does not know are ignored."""

    model_config = ConfigDict(strict=True)


class Answer(BaseModel):
    """A response body: the documented fields; an answer may carry more (marked so in the schema)."""

    model_config = ConfigDict(extra="allow")


class ErrorDetail(BaseModel):
    code: str = Field(description="a stable code: malformed, not_found, illegal, rate_limited, ...")
    message: str = Field(description="what was wrong, for a person")


class Error(BaseModel):
    """Every refusal of the API (4xx, 5xx)."""

    error: ErrorDetail


# -- the lobby ------------------------------------------------------------------------------------------------
class SeatRequest(Request):
    kind: Literal["human", "ai"]
    name: str | None = Field(None, description="a human seat: the name shown (its player may give it on joining)")
    strength: str | None = Field(None, description="an AI seat: easy, normal, hard or expert (default normal)")
    agent: str | None = Field(None, description="an AI seat: an agent spec, where the operator allows them")


class ClockRequest(Request):
    kind: Literal["none", "game", "move", "turn"] = Field(description="turn: a turn-based game, played over days")
    minutes: float | None = Field(None, description="kind game: minutes for each player's whole game")
    seconds: float | None = Field(None, description="kind move: seconds for each decision")
    hours: float | None = Field(None, description="kind turn: hours for each decision (1 to 336)")
    then: str = Field("easy", description="the AI strength that takes over a seat whose time runs out")


class NewGame(Request):
    game: str = Field(description="a game id from /api/catalogue")
    options: dict[str, OptionValue] | None = None
    seats: list[SeatRequest]
    private: bool = Field(False, description="not listed in the lobby; reached by its links only")
    clock: ClockRequest | None = None
    rated: bool = Field(
        False,
        description="a rated game: its result moves its players' ratings. Every human seat is taken by a signed-in "
        "person; AI seats play a strength (not an agent spec). A rated game always has a clock: without one, each "
        "move has 5 minutes (then the easy AI plays on, and the seat has lost)",
    )


class SeatToken(Request):
    """A seat's secret (or, to ``join``, its invitation token)."""

    token: str


class JoinRequest(SeatToken):
    name: str | None = None


class SitRequest(Request):
    seat: int
    name: str | None = None


class SeatRef(Request):
    """A seat: its secret, or none from a browser signed in to the account the seat is bound to."""

    token: str | None = Field(None, description="the seat's secret; left out, signed in: the account's seat")


class HandoverRequest(SeatRef):
    strength: str = Field("easy", description="the AI strength that plays on for the seat")


class MatchRequest(Request):
    game: str
    name: str | None = None


class HeldSeat(Request):
    key: str
    secret: str


class HeldSeats(Request):
    """The seats a browser holds (their secrets, from its storage), to learn which games wait for it."""

    seats: list[HeldSeat] = Field(max_length=50)


class Invitation(BaseModel):
    seat: int
    url: str = Field(description="the link that opens the seat (its token in the fragment)")


class Invitations(Answer):
    key: str
    watch: str
    invitations: list[Invitation]


class SeatSecret(Answer):
    seat: int
    secret: str = Field(description="the seat's secret from now on; given only in this answer")


class Rematch(Invitations):
    seat: int
    secret: str
    play: str


class Left(Answer):
    seat: int
    invitation: str


class HandedOver(Answer):
    seat: int
    strength: str


class SeatSummary(Answer):
    seat: int
    name: str
    kind: Literal["human", "ai"]
    label: str | None
    taken: bool
    connected: bool


class GameSummary(Answer):
    """A game as the lobby shows it: nothing beyond what a spectator sees."""

    key: str
    game: str
    title: str
    options: dict[str, Any]
    status: Literal["open", "running", "finished", "abandoned"]
    private: bool
    rated: bool
    seats: list[SeatSummary]
    ply: int
    result: list[float] | None
    created: str
    rematch_of: str | None


class MyGame(Answer):
    """One of a person's games: whether it waits for them (``your_turn``) and how long they have (``left``, seconds;
    ``null`` without a clock). ``status`` is ``unknown`` (and nothing else is said) for a seat that is not theirs."""

    key: str
    status: Literal["open", "running", "finished", "abandoned", "unknown"]
    seat: int | None = None
    game: str | None = None
    title: str | None = None
    turn_based: bool = False
    rated: bool = False
    your_turn: bool = False
    left: float | None = None
    players: list[str] = []
    play: str | None = None


class CatalogueGame(Answer):
    id: str
    title: str
    players: list[int]
    description: str
    rules_page: str
    options: list[dict[str, Any]]
    strengths: dict[str, str]


class Catalogue(Answer):
    games: list[CatalogueGame]
    strengths: dict[str, str]
    agent_specs: bool


class Ticket(Answer):
    ticket: str
    status: str
    game: str
    seats: int


class MatchStatus(Answer):
    status: Literal["waiting", "matched", "cancelled"]


# -- finished games -------------------------------------------------------------------------------------------
class Record(Answer):
    """A finished game's record (the game, its options, seed, seats and actions): it replays the game."""


class ReplayStep(Answer):
    """One step of a finished game's replay, as one seat (or a spectator) saw it."""


# -- ratings --------------------------------------------------------------------------------------------------
class RatingEntry(Answer):
    """An account's rating in one rating key (a bot's is fixed: its anchor from the ladder)."""

    account: int
    name: str
    bot: str | None = Field(description="a bot account: the strength it plays (easy ... expert); null for a person")
    rating: float
    rd: float = Field(description="the rating deviation (Glicko-2)")
    provisional: bool = Field(description="a person's rating whose deviation is still over 110")
    games: int = Field(description="rated games played in this key")


class BotMatch(Answer):
    """The AI strength of about a person's rating in a game."""

    game: str
    key: str
    strength: str = Field(description="easy, normal, hard or expert: the bot whose rating is nearest")
    rating: float = Field(description="that bot's rating")
    yours: float = Field(description="the caller's rating (a new account's, 1500, when not signed in)")
    provisional: bool


class Leaderboard(Answer):
    key: str = Field(description="the rating key: a game, or a Tash-Kalar mode (tashkalar-highform, ...)")
    title: str = Field(description="the rating key in words")
    players: list[RatingEntry]


class RatingEvent(BaseModel):
    game: str | None = Field(description="the game's key (null for a private game)")
    before: float
    rating: float
    rd: float
    at: str


class KeyRating(RatingEntry):
    key: str
    history: list[RatingEvent] = Field(description="the changes of this rating, oldest first")


class AccountRatings(Answer):
    account: int
    name: str
    bot: str | None
    ratings: list[KeyRating]


class AnalysisStatus(Answer):
    key: str
    seat: int
    agent: str
    status: Literal["none", "running", "done", "failed"]


# -- accounts -------------------------------------------------------------------------------------------------
class Credentials(Request):
    name: str = Field(max_length=200, description="the account's name (compared ignoring case and width)")
    password: str = Field(max_length=1000, description="8 to 256 characters")


class NewPassword(Request):
    current: str = Field(max_length=1000, description="the password now")
    new: str = Field(max_length=1000, description="the new password: 8 to 256 characters")


class PasswordAgain(Request):
    password: str = Field(max_length=1000, description="the account's password, given again to confirm")


class AccountView(Answer):
    id: int
    name: str
    created: str


class Me(Answer):
    """The signed-in account and its session's CSRF token (for the ``X-CSRF-Token`` header), or nulls."""

    account: AccountView | None
    csrf: str | None = Field(description="send it as X-CSRF-Token with every signed-in request that changes something")


class Done(Answer):
    done: bool


class AccountGame(Answer):
    """A game in progress with a seat bound to the account: its page opens the seat from any signed-in browser."""

    key: str
    game: str
    title: str
    status: Literal["open", "running"]
    seat: int
    play: str = Field(description="the seat's page (/play/KEY#account): it connects as the account's seat")


# -- players ----------------------------------------------------------------------------------------------------
class RatingPoint(BaseModel):
    at: str
    before: float = Field(description="the rating before that game")
    rating: float
    rd: float


class RatingShown(Answer):
    key: str = Field(description="the game configuration (agents.levels.model_key)")
    title: str
    rating: float
    rd: float = Field(description="the rating's deviation (Glicko-2)")
    provisional: bool
    games: int
    history: list[RatingPoint]


class FinishedGame(Answer):
    key: str
    title: str
    seat: int
    outcome: Literal["win", "loss", "draw", "unfinished"]
    opponents: list[str]
    rated: bool
    rating_change: float | None
    replay: str


class PlayingGame(Answer):
    key: str
    title: str
    seat: int
    status: str
    opponents: list[str]
    rated: bool
    turn_based: bool
    watch: str


class RatingKey(BaseModel):
    key: str
    title: str


class Profile(Answer):
    id: int
    name: str
    bot: str | None = Field(description="a bot's strength label; null for a person")
    created: str
    owner: bool = Field(description="the page is the signed-in viewer's own (private games are listed to it only)")
    ratings: list[RatingShown]
    finished: list[FinishedGame]
    playing: list[PlayingGame]


# -- operations -------------------------------------------------------------------------------------------------
class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    database: Literal["ok", "unavailable"]
