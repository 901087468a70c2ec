"""``/metrics`` figures: each counter moves when its event happens, and a scrape never fails."""

from __future__ import annotations

import re
from pathlib import Path

from support.botdriver import NETWORK, TEST_LEVELS, Recorder, thread_ai_pool
from support.countgame import GAME as COUNT

from bazaarbot.config import AiSettings, BotSettings, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Incoming, User
from bazaarbot.metrics import Metrics, allowed
from bazaarbot.store import Store


def value(text: str, name: str, **labels: str) -> float:
    """One sample of the scraped text (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)$"
    for line in text.splitlines():
        match = re.match(pattern, line)
        if match:
            return float(match.group(1))
    return 0.0


async def _hub(tmp_path: Path, commands: int = 1000) -> tuple[Hub, Recorder]:
    hub = Hub(
        Store(tmp_path / "bot.sqlite"),
        games={"count": COUNT},
        settings=BotSettings(default_game="count", seed=3, rate_limit=RateLimit(commands, 60)),
        ai=AiSettings(workers=1, move_delay=0.0, levels=TEST_LEVELS, review_after_game=0.0, ponder=False),
        ai_pool=thread_ai_pool(),
    )
    recorder = Recorder()
    await recorder.start(hub)
    return hub, recorder


async def say(hub: Hub, nick: str, text: str, channel: str | None = "#t") -> None:
    await hub.handle(Incoming(NETWORK, channel, User(nick), text))


async def typed(hub: Hub, *lines: str) -> None:
    """Each ``"nick: text"`` said in #t in turn."""
    for line in lines:
        nick, text = line.split(": ", 1)
        await say(hub, nick, text)


async def test_commands_and_moves_are_counted_by_network_and_game_with_their_latency(tmp_path: Path):
    hub, _ = await _hub(tmp_path)
    try:
        await typed(hub, "alice: /join", "bob: /join", "alice: /start")
        await say(hub, "alice", "hello everybody")  # chatter: neither counted nor timed
        to_act = hub.tables[(NETWORK, "#t")].plugin.to_act(hub.tables[(NETWORK, "#t")].state)[0]
        await say(hub, ["alice", "bob"][to_act], "add 2")
        scraped = hub.metrics.render().decode()
        assert value(scraped, "bazaarbot_commands_total", network=NETWORK, game="count", kind="command") == 3
        assert value(scraped, "bazaarbot_commands_total", network=NETWORK, game="count", kind="move") == 1
        assert value(scraped, "bazaarbot_command_seconds_count", network=NETWORK) == 4
        assert value(scraped, "bazaarbot_live_tables") == 1
        assert value(scraped, "bazaarbot_seated_people") == 2
        assert value(scraped, "bazaarbot_commit_batch_units_count") >= 4
        assert value(scraped, "bazaarbot_commit_seconds_sum") > 0
    finally:
        await hub.close()


async def test_refusals_are_counted_by_reason(tmp_path: Path):
    hub, _ = await _hub(tmp_path, commands=8)
    try:
        await say(hub, "alice", "/join")
        await say(hub, "bob", "/join")
        await say(hub, "bob", "/start")  # only the host may
        await say(hub, "alice", "/frobnicate")
        await say(hub, "alice", "/start")
        table = hub.tables[(NETWORK, "#t")]
        waiting = ["alice", "bob"][1 - table.plugin.to_act(table.state)[0]]
        await say(hub, waiting, "add 1")  # not their turn
        await say(hub, "alice", "/" + "x" * 1000)
        for _ in range(10):
            await say(hub, "carol", "/games")
        scraped = hub.metrics.render().decode()
        assert value(scraped, "bazaarbot_refusals_total", reason="permission") == 1
        assert value(scraped, "bazaarbot_refusals_total", reason="unknown_command") == 1
        assert value(scraped, "bazaarbot_refusals_total", reason="move_refused") == 1
        assert value(scraped, "bazaarbot_refusals_total", reason="too_long") == 1
        assert value(scraped, "bazaarbot_refusals_total", reason="rate_limit") == 2
    finally:
        await hub.close()


def test_a_gauge_that_fails_never_breaks_a_scrape():
    metrics = Metrics()
    metrics.gauge("bazaarbot_broken", "a figure whose source fails", lambda: 1 / 0)
    metrics.gauge("bazaarbot_fine", "a figure", lambda: 7)
    text = metrics.render().decode()
    assert "bazaarbot_broken NaN" in text and "bazaarbot_fine 7.0" in text


def test_two_bots_in_one_process_keep_their_own_figures():
    first, second = Metrics(), Metrics()
    first.refused("rate_limit")
    assert value(first.render().decode(), "bazaarbot_refusals_total", reason="rate_limit") == 1
    assert value(second.render().decode(), "bazaarbot_refusals_total", reason="rate_limit") == 0


def test_metrics_access_policy():
    assert allowed("loopback", client_is_loopback=True, forwarded=False)
    assert not allowed("loopback", client_is_loopback=True, forwarded=True)
    assert not allowed("loopback", client_is_loopback=False, forwarded=False)
    assert allowed("all", client_is_loopback=False, forwarded=True)
    assert not allowed("off", client_is_loopback=True, forwarded=False)


async def test_ai_searches_are_counted_with_their_cpu_and_the_queue_is_read(tmp_path: Path):
    hub, recorder = await _hub(tmp_path)
    try:
        await typed(hub, "alice: /join", "alice: /addbot easy", "alice: /start")
        table = hub.tables[(NETWORK, "#t")]
        for _ in range(6):
            if not table.running:
                break
            if table.plugin.to_act(table.state)[0] == 0:
                await say(hub, "alice", "add 1")
            await hub.idle()
        scraped = hub.metrics.render().decode()
        assert value(scraped, "bazaarbot_ai_searches_total", purpose="move") >= 1
        assert value(scraped, "bazaarbot_ai_cpu_seconds_total", purpose="move") > 0
        assert "bazaarbot_ai_queue 0.0" in scraped
    finally:
        await hub.close()
