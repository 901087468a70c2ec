"""The IRC transport's own decisions, without a server: TLS settings, targets, line sizes."""

from __future__ import annotations

import ssl

from bazaarbot.config import IrcNetwork
from bazaarbot.messages import Say, Tell
from bazaarbot.transports.irc import IrcTransport
from bazaarbot.transports.irc.split import LINELEN


def transport(**overrides: object) -> IrcTransport:
    values: dict[str, object] = {"name": "net", "host": "irc.example.org", "channels": ("#bazaar",)}
    values.update(overrides)
    return IrcTransport(IrcNetwork(**values))  # type: ignore[arg-type]


def test_tls_is_on_and_verified_by_default() -> None:
    context = transport()._factory().connection_args["ssl"]
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def test_tls_verification_can_be_turned_off_and_tls_too() -> None:
    context = transport(tls_verify=False)._factory().connection_args["ssl"]
    assert context.verify_mode == ssl.CERT_NONE
    assert "ssl" not in transport(tls=False)._factory().connection_args


async def test_a_tell_never_goes_to_a_channel() -> None:
    bot = transport()
    for target in ("#bazaar", "&local", "bob,#bazaar"):
        await bot.send(Tell("net", target, "Your hand: 2 gold"))
    assert not any(line.split(" ")[1].startswith(("#", "&")) for line in bot.queue.lines)
    assert list(bot.queue.lines) == ["PRIVMSG bob#bazaar :Your hand: 2 gold"]  # one harmless word


async def test_notice_preference_and_plain_private_text() -> None:
    bot = transport()
    await bot.send(Tell("net", "bob", "take 2 \x0304spice\x0f", notice=True))
    assert list(bot.queue.lines) == ["NOTICE bob :take 2 spice"]


async def test_long_output_fits_even_before_the_server_told_us_our_host() -> None:
    bot = transport(alt_nicks=("bazaarbot_long_alternate",))
    text = "\n".join(" ".join(f"güter{i}-{j}" for j in range(120)) for i in range(3))
    await bot.send(Say("net", "#bazaar", text))
    assert len(bot.queue.lines) > 3
    for line in bot.queue.lines:
        relayed = f":bazaarbot_long_alternate__!~bazaarbot@{'h' * 63} {line}\r\n"
        assert len(relayed.encode()) <= LINELEN


def test_no_board_is_longer_than_six_channel_lines_at_any_table_size() -> None:
    import random

    from bazaarbot.registry import discover

    bot = transport()
    games = discover()
    longest = {}
    for name, plugin in sorted(games.items()):
        for players in range(plugin.min_players, plugin.max_players + 1):
            names = [f"player{i}_long" for i in range(players)]
            state = plugin.setup(names, random.Random(players), {o.name: o.default for o in plugin.options})
            rng = random.Random(1)
            for _ in range(60):  # a few steps in, with stones, cards and souks on the board
                if plugin.result(state) is not None:
                    break
                seat = plugin.to_act(state)[0]
                plugin.apply(
                    state, seat, plugin.parse(state, seat, rng.choice(plugin.legal_commands(state, seat)))
                )
                lines = len(bot._channel_lines("#bazaar", plugin.board(state)))
                longest[name] = max(longest.get(name, 0), lines)
    print(f"longest boards in an IRC channel: {longest}")
    assert all(lines <= 6 for lines in longest.values()), longest
