"""Issue 32, point 7, for accounts: a forged or stolen-from-the-database session lets nobody in; another site's page
cannot make a signed-in browser change anything (CSRF token, Origin); the answers do not tell which names exist;
guessing passwords is stopped; a person sees only their own account."""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from argon2 import PasswordHasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from cardarena.web.accounts import Accounts, Attempts, Limit
from cardarena.web.lobby import ApiError
from cardarena.web.sql import AccountModel, SessionModel, accounts_engine
from cardarena.web.store import MemoryStore

from .account_fixtures import PASSWORD, Browser, account_server
from .server_fixtures import create


def test_a_forged_cookie_signs_nobody_in() -> None:
    with account_server() as client:
        ann = Browser(client)
        ann.register("Ann")
        engine = client.app.state.server.accounts.engine  # type: ignore[attr-defined]
        with Session(engine) as session:
            stored = session.scalar(select(SessionModel.id_hash))
        assert stored is not None and stored == hashlib.sha256((ann.cookie or "").encode()).hexdigest()
        for forged in ("x" * 43, stored, (ann.cookie or "")[:-1] + "A", "", "a" * 5000):
            mallory = Browser(client)
            mallory.cookie, mallory.csrf = forged, ann.csrf
            assert mallory.get("/api/accounts/me").json() == {"account": None, "csrf": None}
            answer = mallory.post("/api/accounts/password", {"current": PASSWORD, "new": "mallory's own"})
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_signed_in"
            assert mallory.get("/api/accounts/me/games").status_code == 401


def test_a_signed_in_change_needs_the_csrf_token_of_its_own_session() -> None:
    with account_server() as client:
        ann, bob = Browser(client), Browser(client)
        ann.register("Ann")
        bob.register("Bob")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        attempts: list[tuple[str, dict[str, str]]] = [
            ("missing", {}),
            ("wrong", {"X-CSRF-Token": "guess"}),
            ("another session's", {"X-CSRF-Token": bob.csrf or ""}),
        ]
        for what, headers in attempts:
            for url, body in (
                ("/api/accounts/password", {"current": PASSWORD, "new": "attacker chose"}),
                ("/api/accounts/delete", {"password": PASSWORD}),
                ("/api/accounts/signout", {}),
                (f"/api/games/{key}/join", {"token": tokens[0], "name": "Ann"}),
            ):
                answer = ann.post(url, body, csrf=False, headers=headers)
                assert answer.status_code == 403, (what, url)
                assert answer.json()["error"]["code"] == "csrf", (what, url)
        # the right token from another site's page (its Origin) is refused too
        evil = {"Origin": "https://evil.example"}
        answer = ann.post("/api/accounts/password", {"current": PASSWORD, "new": "attacker chose"}, headers=evil)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "cross_origin"
        # another site cannot sign a browser in to an account of its choosing either
        for route in ("signin", "register"):
            answer = Browser(client).post(f"/api/accounts/{route}", {"name": "Bob", "password": PASSWORD}, headers=evil)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "cross_origin"
        # nothing changed: the old password still signs in, the seat is open, Ann is signed in
        assert Browser(client).sign_in("Ann").status_code == 200
        assert client.get(f"/api/games/{key}").json()["seats"][0]["taken"] is False
        assert ann.get("/api/accounts/me").json()["account"]["name"] == "Ann"
        # with its token, from this site, it is done
        same_site = {"Origin": "http://testserver"}
        assert ann.join(key, tokens[0], "Ann").status_code == 200
        assert ann.post("/api/accounts/signout", headers=same_site).status_code == 200


def test_sign_in_answers_do_not_tell_which_names_exist() -> None:
    with account_server() as client:
        Browser(client).register("Ann")
        wrong_password = Browser(client).sign_in("Ann", "not the password")
        no_such_name = Browser(client).sign_in("Nobody At All", "not the password")
        deleted = Browser(client)
        deleted.register("Carol")
        deleted.post("/api/accounts/delete", {"password": PASSWORD})
        gone = Browser(client).sign_in("Carol")
        bot_like = Browser(client).sign_in("Easy AI", "not the password")
        answers = {
            (a.status_code, a.text, "set-cookie" in a.headers) for a in (wrong_password, no_such_name, gone, bot_like)
        }
        assert answers == {
            (
                401,
                json.dumps(
                    {"error": {"code": "bad_credentials", "message": "wrong name or password"}}, separators=(",", ":")
                ),
                False,
            )
        }


def test_guessing_passwords_is_stopped_per_name_and_per_address() -> None:
    attempts = Attempts(per_name=Limit(5, 300.0), per_address=Limit(12, 300.0))
    with account_server(attempts=attempts) as client:
        Browser(client).register("Ann")
        for _ in range(5):
            assert Browser(client).sign_in("Ann", "guess guess").status_code == 401
        # the sixth attempt is refused before any password is checked, the right one too
        for password in ("guess guess", PASSWORD):
            answer = Browser(client).sign_in("ANN", password)
            assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"
            wait = int(answer.headers["Retry-After"])
            assert 290 <= wait <= 300 and f"{wait} seconds" in answer.json()["error"]["message"]
        # other names from this address go on until the address's own limit: 12 in all, the registration (which
        # costs a hash too) and Ann's 5 failures included
        for i in range(6):
            assert Browser(client).sign_in(f"someone {i}", "guess guess").status_code == 401
        answer = Browser(client).sign_in("Nobody", "guess guess")
        assert answer.status_code == 429 and "Retry-After" in answer.headers


def test_a_success_forgets_the_names_failures() -> None:
    with account_server(attempts=Attempts(per_name=Limit(3, 300.0), per_address=Limit(100, 300.0))) as client:
        Browser(client).register("Ann")
        for _ in range(2):
            assert Browser(client).sign_in("Ann", "guess guess").status_code == 401
        assert Browser(client).sign_in("Ann").status_code == 200
        for _ in range(2):
            assert Browser(client).sign_in("Ann", "typo typo").status_code == 401
        assert Browser(client).sign_in("Ann").status_code == 200


def test_password_confirmations_count_as_attempts() -> None:
    with account_server(attempts=Attempts(per_name=Limit(3, 300.0), per_address=Limit(100, 300.0))) as client:
        thief = Browser(client)  # holds a signed-in browser, not the password
        thief.register("Ann")
        for _ in range(3):
            answer = thief.post("/api/accounts/delete", {"password": "guess guess"})
            assert answer.status_code == 401
        answer = thief.post("/api/accounts/delete", {"password": PASSWORD})
        assert answer.status_code == 429
        assert thief.get("/api/accounts/me").json()["account"]["name"] == "Ann"


def test_a_person_sees_their_own_account_only_and_never_a_secret() -> None:
    with account_server() as client:
        ann, bob = Browser(client), Browser(client)
        ann_id = ann.register("Ann")["id"]
        bob.register("Bob")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        ann_secret = ann.join(key, tokens[0], "Ann").json()["secret"]
        bob.join(key, tokens[1], "Bob")
        answer = bob.get("/api/accounts/me")
        assert answer.headers["Cache-Control"] == "no-store"  # no shared cache keeps it for another
        me = answer.json()
        assert me["account"]["name"] == "Bob" and me["csrf"] == bob.csrf != ann.csrf
        engine = client.app.state.server.accounts.engine  # type: ignore[attr-defined]
        with Session(engine) as session:
            ann_hash = session.scalar(select(AccountModel.password_hash).where(AccountModel.id == ann_id))
        assert ann_hash
        # Ann's secrets appear in nothing Bob (or a spectator) is answered
        seen = [
            bob.get("/api/accounts/me").text,
            bob.get("/api/accounts/me/games").text,
            bob.get(f"/api/games/{key}").text,
            client.get("/api/games").text,
        ]
        with bob.socket(key) as socket:
            seen.extend(json.dumps(m) for m in socket.messages)
        for secret in (ann.cookie, ann.csrf, ann_secret, ann_hash, PASSWORD):
            assert secret and not any(secret in text for text in seen)
        games = bob.get("/api/accounts/me/games").json()
        assert [(g["key"], g["seat"]) for g in games] == [(key, 1)]


def test_password_hashes_run_a_few_at_a_time() -> None:
    """Each argon2 hash holds its memory while it runs: a flood of sign-ins waits its turn, never all at once."""
    running, most = 0, 0
    lock = threading.Lock()

    class Watched(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            time.sleep(0.02)
            with lock:
                running -= 1
            return super().verify(hash, password)

    watched = Watched(time_cost=1, memory_cost=8, parallelism=1)
    accounts = Accounts(accounts_engine(MemoryStore()), hasher=watched, hashing=2)
    accounts.register("Ann", PASSWORD, address="home")

    def guess(i: int) -> None:
        with contextlib.suppress(ApiError):
            accounts.sign_in("Ann" if i % 2 else f"nobody {i}", "guess guess", address=f"10.0.0.{i}")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(guess, range(16)))
    assert most == 2
