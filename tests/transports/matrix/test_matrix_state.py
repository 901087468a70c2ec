"""What the Matrix transport keeps in the store, on sqlite and on PostgreSQL alike."""

from __future__ import annotations

from bazaarbot.store import open_store
from bazaarbot.transports.matrix.state import MatrixState


def test_a_board_message_keeps_its_game_and_its_last_text_across_a_restart(store_target: str) -> None:
    store = open_store(store_target)
    state = MatrixState(store.db.conn, "matrix")
    state.set_board("!room:hs", "$first", 1, "Round 1")
    state.set_board_text("!room:hs", "$first", "Round 2")
    state.set_board_text("!room:hs", "$older", "not this one")  # an edit of a board replaced meanwhile
    store.close()
    store = open_store(store_target)
    try:
        again = MatrixState(store.db.conn, "matrix")
        assert again.boards() == {"!room:hs": ("$first", 1, "Round 2")}
        again.set_board("!room:hs", "$second", 2, "Round 1")
        assert again.boards() == {"!room:hs": ("$second", 2, "Round 1")}, "the next game's board is new"
        assert MatrixState(store.db.conn, "other").boards() == {}
    finally:
        store.close()
