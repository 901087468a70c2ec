"""Nick claims on their own: tokens, renames, expiry, the bot's nick."""

from __future__ import annotations

from pathlib import Path

import pytest

from bazaarbot.store import Store, open_store
from bazaarbot.transports.web.claims import CLAIM_TTL, ClaimError, Claims


@pytest.fixture
def store(store_target: str):
    s = open_store(store_target)
    yield s
    s.close()


def test_a_claim_is_held_by_its_token_only(store: Store) -> None:
    claims = Claims(store.db.conn, "bazaarbot")
    token, old = claims.claim(None, "Alice")
    assert old is None and claims.nick_for(token) == "Alice"
    with pytest.raises(ClaimError, match="taken by another browser"):
        claims.claim(None, "alice")
    with pytest.raises(ClaimError, match="bot's nick"):
        claims.claim(None, "BazaarBot")
    # an unknown token is never adopted: the server makes a new one
    made, _ = claims.claim("x" * 40, "bob")
    assert made != "x" * 40 and claims.nick_for("x" * 40) is None and claims.nick_for(made) == "bob"
    assert claims.nick_for("short") is None


def test_rename_frees_the_old_nick(store: Store) -> None:
    claims = Claims(store.db.conn, "bazaarbot")
    token, _ = claims.claim(None, "alice")
    same, old = claims.claim(token, "alicia")
    assert same == token and old == "alice" and claims.nick_for(token) == "alicia"
    other, _ = claims.claim(None, "alice")
    assert claims.nick_for(other) == "alice" and claims.count() == 2


def test_a_long_unused_claim_can_be_taken(store: Store) -> None:
    now = [1_000_000.0]
    claims = Claims(store.db.conn, "bazaarbot", clock=lambda: now[0])
    old_token, _ = claims.claim(None, "alice")
    now[0] += CLAIM_TTL / 2
    assert claims.nick_for(old_token) == "alice"  # used: the clock starts again
    now[0] += CLAIM_TTL - 10
    with pytest.raises(ClaimError):
        claims.claim(None, "alice")
    now[0] += 20
    new_token, _ = claims.claim(None, "alice")
    assert claims.nick_for(new_token) == "alice" and claims.nick_for(old_token) is None


def test_claims_survive_reopening_the_file(store_target: Path) -> None:
    store = open_store(store_target)
    token, _ = Claims(store.db.conn, "bazaarbot").claim(None, "alice")
    store.close()
    store = open_store(store_target)
    assert Claims(store.db.conn, "bazaarbot").nick_for(token) == "alice"
    store.close()


def test_marking_many_seated_nicks_is_one_transaction_not_one_per_nick(tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite")  # counts sqlite's statements
    claims = Claims(store.db.conn, "bazaarbot")
    nicks = [f"p{i}" for i in range(300)]
    for nick in nicks:
        claims.claim(None, nick)
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    try:
        claims.mark_sat(nicks)
    finally:
        store.db.conn.set_trace_callback(None)
    begins = [s for s in statements if s.strip().upper().startswith("BEGIN")]
    assert len(begins) == 1 and statements.index(begins[0]) < 2  # a sweep must not flush per nick
    marked = store.db.conn.execute("SELECT COUNT(*) FROM web_sessions WHERE sat=1").fetchone()[0]
    assert marked == 300
