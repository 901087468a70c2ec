"""The fair send order: per-target queues in turn, game lines before listings, nothing reordered."""

from __future__ import annotations

from bazaarbot.transports.irc.fairqueue import FairQueue


def drain(queue: FairQueue) -> list[str]:
    out: list[str] = []
    while queue:
        target, _line = queue.peek()
        out.append(queue.pop(target))
    return out


def test_lines_to_one_target_keep_their_order() -> None:
    queue = FairQueue()
    for i in range(5):
        queue.put(f"PRIVMSG #a :{i}", "#a")
    assert drain(queue) == [f"PRIVMSG #a :{i}" for i in range(5)]


def test_targets_take_turns() -> None:
    queue = FairQueue()
    for i in range(3):
        queue.put(f"a{i}", "alice")
    queue.put("b0", "#b")
    queue.put("b1", "#b")
    queue.put("c0", "#c")
    assert drain(queue) == ["a0", "b0", "c0", "a1", "b1", "a2"]


def test_a_line_for_a_new_target_waits_at_most_one_turn_per_busy_target() -> None:
    queue = FairQueue()
    for i in range(100):
        queue.put(f"long {i}", "alice")
    assert queue.pop(queue.peek()[0]) == "long 0"
    queue.put("your move", "#other")
    assert drain(queue)[:2] == ["long 1", "your move"]


def test_channel_lines_go_before_private_listings() -> None:
    queue = FairQueue()
    for i in range(4):
        queue.put(f"listing {i}", "alice", bulk=True)
    queue.put("board 0", "#a")
    queue.put("hand", "bob")
    queue.put("board 1", "#a")
    assert drain(queue) == ["board 0", "hand", "board 1", "listing 0", "listing 1", "listing 2", "listing 3"]


def test_a_game_line_behind_a_listing_is_not_starved_and_keeps_its_place() -> None:
    queue = FairQueue()
    queue.put("listing 0", "alice", bulk=True)
    queue.put("listing 1", "alice", bulk=True)
    queue.put("your hand", "alice")
    for i in range(3):
        queue.put(f"board {i}", "#a")
    assert drain(queue) == ["listing 0", "board 0", "listing 1", "board 1", "your hand", "board 2"]


def test_control_lines_go_first() -> None:
    queue = FairQueue()
    queue.put("PRIVMSG #a :hello", "#a")
    queue.put("JOIN #a", front=True)
    queue.put("NICK bot", front=True)
    assert drain(queue) == ["NICK bot", "JOIN #a", "PRIVMSG #a :hello"]


def test_asking_again_drops_the_unsent_listing_but_never_a_game_line() -> None:
    queue = FairQueue()
    queue.put("listing 0", "alice", bulk=True)
    queue.put("listing 1", "alice", bulk=True)
    queue.put("board", "#a")
    assert queue.drop_bulk("alice") == 2
    queue.put("hand", "alice")
    queue.put("listing 2", "alice", bulk=True)
    queue.put("listing 3", "alice", bulk=True)
    assert queue.drop_bulk("alice") == 2
    assert queue.drop_bulk("nobody") == 0
    assert drain(queue) == ["board", "hand"]


def test_an_unsendable_line_is_discarded_without_losing_the_rest() -> None:
    queue = FairQueue()
    queue.put("bad", "#a")
    queue.put("good", "#a")
    queue.put("other", "#b")
    target, line = queue.peek()
    assert line == "bad"
    queue.discard(target)
    assert queue.dropped == 1
    assert drain(queue) == ["good", "other"]


def test_a_full_queue_sheds_listing_lines_before_game_lines() -> None:
    queue = FairQueue(limit=4)
    queue.put("board 0", "#a")
    queue.put("listing 0", "alice", bulk=True)
    queue.put("listing 1", "alice", bulk=True)
    queue.put("board 1", "#a")
    queue.put("board 2", "#a")
    queue.put("board 3", "#a")
    assert queue.dropped == 2 and len(queue) == 4
    assert drain(queue) == ["board 0", "board 1", "board 2", "board 3"]


def test_a_full_queue_of_game_lines_drops_the_oldest_of_the_longest_target() -> None:
    queue = FairQueue(limit=3)
    queue.put("a0", "#a")
    queue.put("a1", "#a")
    queue.put("b0", "#b")
    queue.put("b1", "#b")
    assert queue.dropped == 1
    assert drain(queue) == ["a1", "b0", "b1"]


def test_listing_what_waits_names_every_line() -> None:
    queue = FairQueue()
    queue.put("PRIVMSG #a :x", "#a")
    queue.put("JOIN #a", front=True)
    queue.put("PRIVMSG bob :y", "bob", bulk=True)
    assert list(queue) == ["JOIN #a", "PRIVMSG #a :x", "PRIVMSG bob :y"] and len(queue) == 3
