"""The ``bazaarbot`` command: run | console | bench | export."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
from dataclasses import replace

from bazaarbot.config import AdminPolicy, ConfigError, load_config
from bazaarbot.i18n import preload_catalogues, set_language

log = logging.getLogger("bazaarbot")


def _console(args: argparse.Namespace) -> int:
    from bazaarbot.hub import Hub
    from bazaarbot.transports.console import ConsoleTransport

    config = load_config(args.config)
    settings = config.bot
    if args.seed is not None:
        settings = replace(settings, seed=args.seed)
    set_language(settings.language)
    preload_catalogues()
    admins = {"console": AdminPolicy(accounts=tuple(a.lower() for a in args.admin), ops_are_admins=False)}

    async def main() -> None:
        ai = replace(config.ai, move_delay=0.0) if args.script else config.ai
        hub = Hub.open(
            args.db or settings.db,
            settings=settings,
            admins=admins,
            unlimited_networks=frozenset({"console"}),
            tables=config.tables,
            ai=ai,
            turn_seconds=config.turn_seconds(),
        )
        console = ConsoleTransport(script=args.script)
        await console.start(hub)
        await hub.start()
        if not args.script:
            print(
                "bazaarbot console: type NICK: TEXT (e.g. alice: /join), NICK@dm: TEXT for a private line; "
                "Ctrl-D ends.",
                file=sys.stderr,
            )
        try:
            await console.run()
        finally:
            await hub.close()

    asyncio.run(main())
    return 0


def _run(args: argparse.Namespace) -> int:
    from bazaarbot.hub import Hub

    config = load_config(args.config)
    set_language(config.bot.language)
    preload_catalogues()
    admins = {config.web.network: web_admin_policy(config.web.admins)}
    for network in config.irc:
        admins[network.name] = network.admins

    async def main() -> None:
        hub = Hub.open(
            args.db or config.bot.db,
            settings=config.bot,
            admins=admins,
            tables=config.tables,
            ai=config.ai,
            turn_seconds=config.turn_seconds(),
            network_languages=config.network_languages(),
            channel_languages=config.channel_languages(),
        )
        transports = []
        if config.web.enabled:
            from bazaarbot.transports.web import WebTransport

            transports.append(WebTransport(config.web))
        for network in config.irc:
            from bazaarbot.transports.irc import IrcTransport

            transports.append(IrcTransport(network))
        if not transports:
            print("Nothing to run: enable [web] or add an [[irc.networks]] entry.", file=sys.stderr)
            await hub.close()
            return
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        for transport in transports:
            hub.attach(transport)
            await transport.start(hub)
        if config.web.enabled:
            port = getattr(transports[0], "port", config.web.port)
            print(f"bazaarbot is serving the web chat: open http://{config.web.host}:{port}/", flush=True)
        for network in config.irc:
            print(f"bazaarbot is connecting to {network.name} ({network.host}:{network.port})", flush=True)
        await hub.start()
        await stop.wait()
        for transport in transports:
            await transport.stop()
        await hub.close()

    asyncio.run(main())
    return 0


def web_admin_policy(configured: AdminPolicy) -> AdminPolicy:
    """The web chat's admin policy: nobody by nick; admins prove a token made by ``bazaarbot admin-token``."""
    if configured.accounts or configured.masks or configured.ops_are_admins:
        log.warning(
            "[web.admins] no longer makes anyone an admin (a web nick is whatever a browser claimed "
            "first); make a token with 'bazaarbot admin-token NAME' and type /admin TOKEN in the page"
        )
    return AdminPolicy(ops_are_admins=False)


def _admin_token(args: argparse.Namespace) -> int:
    import sqlite3

    from bazaarbot.transports.web.admins import AdminTokenError, AdminTokens

    config = load_config(args.config)
    conn = sqlite3.connect(args.db or config.bot.db)
    try:
        token = AdminTokens(conn).issue(args.name)
    except AdminTokenError as error:
        print(error, file=sys.stderr)
        return 2
    finally:
        conn.close()
    print(token)
    print(
        f"Web admin {args.name}: type /admin <the token above> once in the web chat, in the browser that "
        "should hold the right. Any older token of this name no longer works.",
        file=sys.stderr,
    )
    return 0


def _bench(args: argparse.Namespace) -> int:
    from bazaarbot.registry import discover

    games = discover()
    if args.what == "engine":
        names = [args.game] if args.game else sorted(games)
        for name in names:
            if name not in games:
                print(f"no game {name!r}; installed: {', '.join(sorted(games))}", file=sys.stderr)
                return 2
            for label, value in games[name].bench(args.seconds):
                print(f"{name}: {value:,.0f} {label}")
        return 0
    if args.what == "ai":
        return _bench_ai(args, games)
    print(f"unknown benchmark {args.what!r}", file=sys.stderr)
    return 2


def _bench_ai(args: argparse.Namespace, games: dict) -> int:
    from bazaarbot.ai import bench

    config = load_config(args.config)
    if not args.game or args.game not in games:
        print(f"name a game: bench ai <game>; installed: {', '.join(sorted(games))}", file=sys.stderr)
        return 2
    levels = config.ai.levels
    for policy in (args.level, args.vs):
        if policy not in levels and policy not in ("random", "greedy"):
            print(f"no AI level {policy!r}; known: random, greedy, {', '.join(levels)}", file=sys.stderr)
            return 2
    game = games[args.game]
    players = args.players or max(2, game.min_players)
    if not game.min_players <= players <= game.max_players:
        print(f"{args.game} takes {game.min_players} to {game.max_players} players", file=sys.stderr)
        return 2
    bench.run(
        args.game,
        level=args.level,
        vs=args.vs,
        games=args.games,
        players=players,
        seed=args.seed,
        levels=levels,
        say=lambda line: print(line, flush=True),
    )
    return 0


def _export(args: argparse.Namespace) -> int:
    from bazaarbot.store import Store

    config = load_config(args.config)
    store = Store(args.db or config.bot.db)
    try:
        record = store.game_record(args.game_id)
    finally:
        store.close()
    if record is None:
        print(f"no game {args.game_id} in {args.db or config.bot.db}", file=sys.stderr)
        return 1
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bazaarbot", description="A chat-room game bot.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug output")
    sub = parser.add_subparsers(dest="cmd")

    run = sub.add_parser("run", help="run the bot (web chat on localhost by default, IRC as configured)")
    run.add_argument("-c", "--config", help="TOML config file (see config.example.toml)")
    run.add_argument("--db", help="sqlite file (overrides the config)")
    run.set_defaults(func=_run)

    console = sub.add_parser("console", help="play or script the bot from a terminal")
    console.add_argument("-c", "--config", help="TOML config file")
    console.add_argument("--seed", type=int, help="make every game's randomness reproducible")
    console.add_argument("--db", help="sqlite file (default: the config's, bazaarbot.sqlite)")
    console.add_argument("--admin", action="append", default=[], metavar="NICK", help="NICK is an admin")
    console.add_argument("--script", action="store_true", help="print --- after each answer")
    console.set_defaults(func=_console)

    bench = sub.add_parser("bench", help="print performance figures")
    bench.add_argument("what", choices=["engine", "ai"], help="engine speed, or an AI level's strength")
    bench.add_argument("game", nargs="?", help="one game (default: all; bench ai needs one)")
    bench.add_argument("--seconds", type=float, default=3.0, help="how long to measure each figure")
    bench.add_argument("--level", default="hard", help="bench ai: the AI level measured")
    bench.add_argument(
        "--vs", default="greedy", help="bench ai: the opponent (random, greedy, easy, medium, hard)"
    )
    bench.add_argument("--games", type=int, default=20, help="bench ai: games (Jaipur: matches) to play")
    bench.add_argument("--players", type=int, help="bench ai: players at the table (default: 2)")
    bench.add_argument("--seed", type=int, default=1, help="bench ai: seed of the first game")
    bench.add_argument("-c", "--config", help="bench ai: TOML config with [ai.levels]")
    bench.set_defaults(func=_bench)

    export = sub.add_parser("export", help="print a game as JSON")
    export.add_argument("game_id", type=int)
    export.add_argument("-c", "--config", help="TOML config file")
    export.add_argument("--db", help="sqlite file")
    export.set_defaults(func=_export)

    token = sub.add_parser(
        "admin-token", help="print a one-time web admin token for NAME (only its hash is kept)"
    )
    token.add_argument("name", help="who the admin is (a name for the log, not a nick)")
    token.add_argument("-c", "--config", help="TOML config file")
    token.add_argument("--db", help="sqlite file (default: the config's, bazaarbot.sqlite)")
    token.set_defaults(func=_admin_token)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "func", None):
        args = parser.parse_args(["run", *(argv or sys.argv[1:])])
    try:
        return int(args.func(args))
    except ConfigError as error:
        print(f"config error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
