"""Accounts, their passwords and their sessions (issue 32), over :func:`~cardarena.web.sql.accounts_engine`.

**Passwords** are hashed with argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`, its recommended parameters
unless the server is given others); a hash made with other parameters is replaced at the next sign-in
(``check_needs_rehash``). Signing in with a name nobody has costs the same hash as a wrong password and is
answered the same (``bad_credentials``), so neither the answer nor its time tells which names exist.

**Sessions.** Signing in gives a browser a random secret (its cookie) and a CSRF token; only the secret's sha256 is
stored, so the sessions table does not let anyone in. A session lasts :data:`SESSION_DAYS` days; signing out,
changing the password (the other sessions) and deleting the account end it.

**Attempts** to sign in (and to give the password again, to change it or delete the account) are limited per name
and per address (:class:`Attempts`): past the limit a request is refused before any password is checked, with how
long to wait (429 ``rate_limited``, ``Retry-After``).

**Deleting** an account keeps its row (games and ratings refer to it): its name becomes
:data:`~cardarena.web.account_names.DELETED` (its key one no name can have, so the name is free again), its
password and sessions go, and ``deleted`` is set. The names of the seats it was bound to are replaced by the
server (:meth:`cardarena.web.tables.Tables.rename_account`).

Every method here is blocking (database, hashing): the routes call them in a thread.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .account_names import DELETED, BadName, check_name, name_key, reserved, skeleton
from .lobby import ApiError
from .sql import AccountModel, SessionModel

SESSION_DAYS = 30
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 256  # hashing a longer one would only cost the server time
BAD_CREDENTIALS = "wrong name or password"
#: password hashes computed at once (each holds argon2's memory while it runs); more wait their turn
HASHING = 2


@dataclass(frozen=True)
class Account:
    """An account as the server sees it (never its password's hash)."""

    id: int
    name: str
    created: datetime
    bot: str | None = None

    def public(self) -> dict[str, object]:
        """What its owner is shown of it."""
        return {"id": self.id, "name": self.name, "created": self.created.isoformat()}


@dataclass(frozen=True)
class SignedIn:
    """A signed-in browser: its account, its session (the sha256 of its cookie's secret) and its CSRF token."""

    account: Account
    session: str
    csrf: str
    expires: datetime


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def bad_credentials() -> ApiError:
    return ApiError(401, "bad_credentials", BAD_CREDENTIALS)


class TooManyAttempts(ApiError):
    """429 ``rate_limited``: too many failed attempts; ``retry_after`` seconds to wait (the ``Retry-After``)."""

    def __init__(self, seconds: int) -> None:
        super().__init__(429, "rate_limited", f"too many failed attempts: try again in {seconds} seconds")
        self.retry_after = seconds


@dataclass(frozen=True)
class Limit:
    """At most ``failures`` failed attempts in ``window`` seconds."""

    failures: int
    window: float


class Attempts:
    """Failed password attempts, remembered per name and per address for a while (this process's memory: one
    server per database). :meth:`check` refuses once either has had its limit of failures in the window."""

    def __init__(self, per_name: Limit = Limit(5, 300.0), per_address: Limit = Limit(20, 300.0)) -> None:
        self.per_name, self.per_address = per_name, per_address
        self._failed: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: tuple[str, str], window: float, now: float) -> deque[float]:
        times = self._failed.get(key, deque())
        while times and now - times[0] >= window:
            times.popleft()
        return times

    def _limits(self, name: str | None, address: str) -> list[tuple[tuple[str, str], Limit]]:
        named = [(("name", name), self.per_name)] if name is not None else []
        return [*named, (("address", address), self.per_address)]

    def check(self, name: str | None, address: str) -> None:
        """:class:`TooManyAttempts` when ``name`` (``None``: no name) or ``address`` is over its limit."""
        now = time.monotonic()
        wait = 0.0
        with self._lock:
            for key, limit in self._limits(name, address):
                times = self._recent(key, limit.window, now)
                if len(times) >= limit.failures:
                    wait = max(wait, times[len(times) - limit.failures] + limit.window - now)
        if wait > 0:
            raise TooManyAttempts(max(1, int(wait + 0.999)))

    def failed(self, name: str | None, address: str) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._failed) > 100_000:  # forget the quiet ones
                self._failed = {k: v for k, v in self._failed.items() if v and now - v[-1] < 3600}
            for key, _ in self._limits(name, address):
                self._failed.setdefault(key, deque()).append(now)

    def succeeded(self, name: str) -> None:
        with self._lock:
            self._failed.pop(("name", name), None)


def _account(m: AccountModel) -> Account:
    return Account(id=m.id, name=m.name, created=m.created, bot=m.bot)


def check_password(password: str) -> str:
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        raise ApiError(400, "bad_password", f"a password is {SHORTEST_PASSWORD} to {LONGEST_PASSWORD} characters long")
    return password


class Accounts:
    """The accounts service: registering, signing in and out, sessions, passwords, deleting."""

    def __init__(
        self,
        engine: Engine,
        *,
        hasher: PasswordHasher | None = None,
        attempts: Attempts | None = None,
        session_days: float = SESSION_DAYS,
        hashing: int = HASHING,
    ) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        self.attempts = attempts or Attempts()
        self.session_life = timedelta(days=session_days)
        # a hash takes argon2's memory (64 MiB by default) for its time: a few at once, whatever the load
        self._hashing = threading.BoundedSemaphore(hashing)

    @cached_property
    def _dummy(self) -> str:
        """What an unknown name's password is checked against: the same work, and answer, as a wrong password
        (made at the first need: a server nobody signs in to never pays for it)."""
        return self._hash(secrets.token_urlsafe(16))

    # -- registering and signing in -----------------------------------------------------------------------------
    def register(self, name: str, password: str, *, address: str) -> Account:
        """A new account; ``ApiError`` 400 ``bad_name`` / ``bad_password``, 409 ``name_taken`` (also for a
        reserved name: the answer says no more than that the name is taken). Registering counts as an attempt
        for the address (each one costs a hash)."""
        try:
            shown = check_name(name)
        except BadName as e:
            raise ApiError(400, "bad_name", str(e)) from None
        check_password(password)
        self.attempts.check(None, address)
        self.attempts.failed(None, address)  # a registration costs a hash, like a failed sign-in: counted alike
        if reserved(shown):
            raise _taken()
        digest = self._hash(password)
        row = AccountModel(
            name=shown,
            name_key=name_key(shown),
            skeleton=skeleton(shown)[:64],  # unique: no two people's names look alike
            password_hash=digest,
            created=datetime.now(UTC),
        )
        try:
            with Session(self.engine) as session, session.begin():
                session.add(row)
                session.flush()
                return _account(row)
        except IntegrityError:
            raise _taken() from None

    def sign_in(self, name: str, password: str, *, address: str) -> Account:
        """The account of ``name`` if ``password`` is its password; ``ApiError`` 401 ``bad_credentials`` for a
        wrong password and a name nobody has alike, 429 ``rate_limited`` past the attempts' limits."""
        key = name_key(name)[:200]
        self.attempts.check(key, address)
        with Session(self.engine) as session, session.begin():
            found = session.scalar(select(AccountModel).where(AccountModel.name_key == key))
            digest = found.password_hash if found is not None and found.deleted is None else None
            account = None if found is None else _account(found)
        if digest is None or account is None:
            self._verify(self._dummy, password)
            self.attempts.failed(key, address)
            raise bad_credentials()
        if not self._verify(digest, password):
            self.attempts.failed(key, address)
            raise bad_credentials()
        self.attempts.succeeded(key)
        if self.hasher.check_needs_rehash(digest):
            self._set_password(account.id, self._hash(password))
        return account

    def _hash(self, password: str) -> str:
        with self._hashing:
            return self.hasher.hash(password)

    def _verify(self, digest: str, password: str) -> bool:
        try:
            with self._hashing:
                return self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    def _set_password(self, account: int, digest: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(AccountModel).where(AccountModel.id == account).values(password_hash=digest))

    def check_own_password(self, account: Account, password: str, *, address: str) -> None:
        """``ApiError`` 401 ``bad_credentials`` unless ``password`` is ``account``'s (limited like signing in)."""
        key = name_key(account.name)
        self.attempts.check(key, address)
        with Session(self.engine) as session, session.begin():
            digest = session.scalar(select(AccountModel.password_hash).where(AccountModel.id == account.id))
        if digest is None or not self._verify(digest, password):
            self.attempts.failed(key, address)
            raise bad_credentials()
        self.attempts.succeeded(key)

    # -- sessions -------------------------------------------------------------------------------------------
    def open_session(self, account: Account) -> tuple[str, SignedIn]:
        """A new session of ``account``: the cookie's secret (given once, never stored) and the session."""
        secret = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        signed = SignedIn(account, hash_secret(secret), secrets.token_urlsafe(24), now + self.session_life)
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionModel).where(SessionModel.expires < now))  # forget the expired ones
            session.add(
                SessionModel(
                    id_hash=signed.session,
                    account_id=account.id,
                    csrf=signed.csrf,
                    created=now,
                    expires=signed.expires,
                )
            )
        return secret, signed

    def session(self, secret: str) -> SignedIn | None:
        """The live session whose cookie's secret this is, or ``None`` (unknown, expired, or a deleted account)."""
        if not 0 < len(secret) <= 100:
            return None
        digest = hash_secret(secret)
        with Session(self.engine) as session, session.begin():
            found = session.get(SessionModel, digest)
            if found is None or not hmac.compare_digest(found.id_hash, digest):
                return None
            if found.expires <= datetime.now(UTC):
                session.delete(found)
                return None
            account = session.get(AccountModel, found.account_id)
            if account is None or account.deleted is not None:
                return None
            return SignedIn(_account(account), found.id_hash, found.csrf, found.expires)

    def close_session(self, signed: SignedIn) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionModel).where(SessionModel.id_hash == signed.session))

    # -- the owner's changes ------------------------------------------------------------------------------------
    def change_password(self, signed: SignedIn, current: str, new: str, *, address: str) -> None:
        """Replace the password (the current one given again); every other session of the account ends."""
        check_password(new)
        self.check_own_password(signed.account, current, address=address)
        digest = self._hash(new)
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(AccountModel).where(AccountModel.id == signed.account.id).values(password_hash=digest)
            )
            session.execute(
                delete(SessionModel).where(
                    SessionModel.account_id == signed.account.id, SessionModel.id_hash != signed.session
                )
            )

    def delete(self, signed: SignedIn, password: str, *, address: str) -> None:
        """Delete the account (its password given again): anonymised, its sessions ended (see the module)."""
        self.check_own_password(signed.account, password, address=address)
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(AccountModel)
                .where(AccountModel.id == signed.account.id)
                .values(
                    name=DELETED,
                    name_key=f"#deleted:{signed.account.id}",  # '#' is in no name: nobody can have this key
                    skeleton=None,  # and names like it are free again
                    password_hash=None,
                    deleted=datetime.now(UTC),
                )
            )
            session.execute(delete(SessionModel).where(SessionModel.account_id == signed.account.id))

    def get(self, account: int) -> Account | None:
        with Session(self.engine) as session, session.begin():
            found = session.get(AccountModel, account)
            return None if found is None else _account(found)


def _taken() -> ApiError:
    return ApiError(409, "name_taken", "this name is taken: choose another")
