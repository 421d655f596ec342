"""Issue 32, accounts: a person registers, signs out and in, changes the password and deletes the account; names
are unique however they are written, and cannot pass for a bot or mix look-alike scripts."""

from __future__ import annotations

from argon2 import PasswordHasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from cardarena.web.accounts import Accounts
from cardarena.web.sql import AccountModel, SessionModel, SqlStore, accounts_engine
from cardarena.web.store import MemoryStore

from .account_fixtures import FAST, PASSWORD, Browser, account_server
from .server_fixtures import create


def test_a_person_registers_signs_out_and_signs_in_again() -> None:
    with account_server() as client:
        ann = Browser(client)
        assert ann.get("/api/accounts/me").json() == {"account": None, "csrf": None}
        answer = ann.post("/api/accounts/register", {"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 201
        cookie = answer.headers["set-cookie"]
        assert "cardarena_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Path=/" in cookie and "expires=" in cookie.lower()
        assert "Secure" not in cookie  # served over http here
        me = ann.get("/api/accounts/me").json()
        assert me["account"]["name"] == "Ann" and me["csrf"] == answer.json()["csrf"]
        assert ann.post("/api/accounts/signout").json() == {"done": True}
        assert ann.cookie is None
        assert ann.get("/api/accounts/me").json() == {"account": None, "csrf": None}
        assert ann.sign_in("ann").status_code == 200  # names are compared ignoring case
        assert ann.get("/api/accounts/me").json()["account"]["name"] == "Ann"


def test_over_https_the_cookie_is_secure() -> None:
    with account_server() as client:
        client.base_url = client.base_url.copy_with(scheme="https")
        answer = client.post("/api/accounts/register", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 201 and "Secure" in answer.headers["set-cookie"]


def test_the_session_secret_is_stored_only_as_its_hash() -> None:
    store = MemoryStore()
    accounts = Accounts(accounts_engine(store), hasher=FAST)
    account = accounts.register("Ann", PASSWORD, address="a")
    secret, signed = accounts.open_session(account)
    with Session(accounts.engine) as session:
        rows = list(session.scalars(select(SessionModel)))
        stored = session.scalar(select(AccountModel.password_hash))
    assert [r.id_hash for r in rows] == [signed.session] and secret not in signed.session
    assert stored is not None and stored.startswith("$argon2id$") and PASSWORD not in stored
    assert accounts.session(secret) == signed
    assert accounts.session(signed.session) is None  # the stored hash is not a key


def test_names_are_unique_however_written_and_taken_says_no_more() -> None:
    with account_server() as client:
        Browser(client).register("Ann Lee")
        taken = Browser(client).post("/api/accounts/register", {"name": "ANN LEE", "password": PASSWORD})
        assert taken.status_code == 409
        assert taken.json() == {"error": {"code": "name_taken", "message": "this name is taken: choose another"}}
        for same in ("ann lee", "Ａｎｎ Ｌｅｅ"):  # case, full-width forms (NFKC)
            assert Browser(client).post("/api/accounts/register", {"name": same, "password": PASSWORD}).json() == (
                taken.json()
            )
        # a bot's name, or one that looks like it, is answered as a taken name: nothing more
        for bot in ("Easy AI", "expert ai", "Easy Al", "Еаѕу АІ", "Hard  AI"):
            answer = Browser(client).post("/api/accounts/register", {"name": bot, "password": PASSWORD})
            assert answer.status_code in (400, 409), bot
            if answer.status_code == 409:
                assert answer.json() == taken.json()
        assert Browser(client).post("/api/accounts/register", {"name": "Easy AI", "password": PASSWORD}).json() == (
            taken.json()
        )


def test_names_with_invisible_characters_or_mixed_scripts_are_refused() -> None:
    with account_server() as client:
        for bad, why in (
            ("pаypal", "one script"),  # a Cyrillic а among Latin letters
            ("Zoe\u200d", "ZERO WIDTH JOINER"),
            ("abc\u202efed", "RIGHT-TO-LEFT OVERRIDE"),
            ("tab\there", "letters, digits"),
            (" Ann", "spaces"),
            ("", "1 to 32"),
            ("x" * 33, "1 to 32"),
            ("<script>", "letters, digits"),
        ):
            answer = Browser(client).post("/api/accounts/register", {"name": bad, "password": PASSWORD})
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_name", bad
            assert why in answer.json()["error"]["message"], (bad, answer.json())
        for good in ("Zoë", "O'Brien-Smith", "山田たろう", "Ирина", "player_2"):
            assert Browser(client).post("/api/accounts/register", {"name": good, "password": PASSWORD}).status_code == (
                201
            ), good
        short = Browser(client).post("/api/accounts/register", {"name": "Bo", "password": "short"})
        assert short.status_code == 400 and short.json()["error"]["code"] == "bad_password"


def test_changing_the_password_ends_the_other_sessions() -> None:
    with account_server() as client:
        home, phone = Browser(client), Browser(client)
        home.register("Ann")
        assert phone.sign_in("Ann").status_code == 200
        wrong = home.post("/api/accounts/password", {"current": "not it at all", "new": "a new password"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
        assert home.post("/api/accounts/password", {"current": PASSWORD, "new": "a new password"}).status_code == 200
        assert home.get("/api/accounts/me").json()["account"]["name"] == "Ann"  # this session stays
        assert phone.get("/api/accounts/me").json()["account"] is None  # the other one ended
        assert Browser(client).sign_in("Ann").status_code == 401
        assert Browser(client).sign_in("Ann", "a new password").status_code == 200


def test_a_deleted_account_is_gone_but_its_games_stay_anonymised() -> None:
    store = MemoryStore()
    with account_server(store) as client:
        ann = Browser(client)
        ann.register("Ann")
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "human"}])
        assert ann.join(key, tokens[0], "Ann").status_code == 200
        other = client.post(f"/api/games/{key}/join", json={"token": tokens[1], "name": "Bob"})
        assert other.status_code == 200
        refused = ann.post("/api/accounts/delete", {"password": "not my password"})
        assert refused.status_code == 401
        assert ann.post("/api/accounts/delete", {"password": PASSWORD}).json() == {"done": True}
        assert ann.get("/api/accounts/me").json()["account"] is None
        names = [s["name"] for s in client.get(f"/api/games/{key}").json()["seats"]]
        assert names == ["Deleted player", "Bob"]
        assert store.get_game(key).seats[0].name == "Deleted player"
        assert Browser(client).sign_in("Ann").status_code == 401
        Browser(client).register("Ann")  # the name is free again
        with Session(accounts_engine_of(client)) as session:
            gone = session.scalar(select(AccountModel).where(AccountModel.name == "Deleted player"))
            assert gone is not None and gone.password_hash is None and gone.deleted is not None
            assert list(session.scalars(select(SessionModel).where(SessionModel.account_id == gone.id))) == []


def accounts_engine_of(client: object) -> object:
    return client.app.state.server.accounts.engine  # type: ignore[attr-defined]


def test_a_hash_of_older_parameters_is_replaced_at_sign_in(tmp_path: object) -> None:
    store = SqlStore(f"sqlite:///{tmp_path}/accounts.db")
    try:
        old = Accounts(accounts_engine(store), hasher=FAST)
        old.register("Ann", PASSWORD, address="a")
        stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
        with account_server(store, hasher=stronger) as client:
            assert Browser(client).sign_in("Ann").status_code == 200
        with Session(store.engine) as session:
            digest = session.scalar(select(AccountModel.password_hash))
        assert digest is not None and not stronger.check_needs_rehash(digest) and FAST.check_needs_rehash(digest)
        assert stronger.verify(digest, PASSWORD)
    finally:
        store.close()


def test_two_peoples_names_may_not_look_alike() -> None:
    """Issue 32: a name that differs from someone's only by look-alike characters is taken (``paul`` / ``pauI``,
    ``Ada`` / ``Аda`` in Cyrillic), while names that merely share letters are not (``Ali`` and ``All``); a deleted
    account's name, and names like it, are free again."""
    with account_server() as client:
        Browser(client).register("paul")
        for alike in ("pauI", "PAUL", "pau1"):
            answer = Browser(client).post("/api/accounts/register", {"name": alike, "password": PASSWORD})
            assert (answer.status_code, answer.json()["error"]["code"]) == (409, "name_taken"), alike
        Browser(client).register("Ali")
        Browser(client).register("All")
        kim = Browser(client)
        kim.register("Kim0")
        taken = Browser(client).post("/api/accounts/register", {"name": "KimO", "password": PASSWORD})
        assert taken.status_code == 409
        assert kim.post("/api/accounts/delete", {"password": PASSWORD}).status_code == 200
        Browser(client).register("KimO")
