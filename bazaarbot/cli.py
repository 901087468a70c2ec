"""The ``bazaarbot`` command: run | console | bench | export | ratings."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import logging
import signal
import socket
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
    if args.host is not None:
        config = replace(config, web=replace(config.web, host=args.host))
    if args.port is not None:
        config = replace(config, web=replace(config.web, port=args.port))
    set_language(config.bot.language)
    preload_catalogues()
    admins = {config.web.network: web_admin_policy(config.web.admins)}
    for network in config.irc:
        admins[network.name] = network.admins

    async def main() -> int:
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
            return 1
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        started = []
        for transport in transports:
            hub.attach(transport)
            try:
                await transport.start(hub)
            except OSError as error:
                for running in started:
                    await running.stop()
                await hub.close()
                print(_start_error(config.web.host, config.web.port, error), file=sys.stderr)
                return 1
            started.append(transport)
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
        return 0

    return asyncio.run(main())


def _start_error(host: str, port: int, error: OSError) -> str:
    """One line that says why the web chat could not start and how to fix it."""
    if error.errno == errno.EADDRINUSE:
        return (
            f"Port {port} on {host} is already in use (is another bazaarbot running?). "
            f"Choose another port: bazaarbot run --port {port + 1 if port < 65535 else 8081} "
            "(or set port in the [web] section of the config)."
        )
    if error.errno in (errno.EACCES, errno.EPERM):
        return (
            f"Not allowed to listen on {host}:{port} (ports below 1024 need extra rights). "
            "Choose another port with --port, e.g. --port 8080."
        )
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return f"Cannot listen on {host!r}: no such address here. Choose another: --host 127.0.0.1."
    return f"The web chat could not start on {host}:{port}: {error.strerror or error}. Try --host or --port."


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
    if args.what == "load":
        from bazaarbot import bench_load

        game = args.load_game or args.game or "jaipur"
        if game not in games:
            print(f"no game {game!r}; installed: {', '.join(sorted(games))}", file=sys.stderr)
            return 2
        return bench_load.main(args.tables, args.seconds, game, args.bots)
    if args.what == "ai":
        return _bench_ai(args, games)
    if args.what == "teach":
        from bazaarbot.teach import bench as teach_bench

        if not args.game or args.game not in games:
            print(f"name a game: bench teach <game>; installed: {', '.join(sorted(games))}", file=sys.stderr)
            return 2
        game = games[args.game]
        players = args.players or max(2, game.min_players)
        levels = load_config(args.config).ai.levels
        return teach_bench.main(
            args.game, args.games, players, args.seed, levels, lambda line: print(line, flush=True)
        )
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
    store = None
    record = None
    if args.record:
        from bazaarbot.ratings.bench import recorder
        from bazaarbot.store import Store

        store = Store(args.db or config.bot.db)
        record = recorder(store, game, args.seed)
    try:
        bench.run(
            args.game,
            level=args.level,
            vs=args.vs,
            games=args.games,
            players=players,
            seed=args.seed,
            levels=levels,
            say=lambda line: print(line, flush=True),
            record=record,
        )
        if store is not None:
            from bazaarbot.ratings.bench import ai_ratings_line

            print(ai_ratings_line(store, game), flush=True)
    finally:
        if store is not None:
            store.close()
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


def _port(text: str) -> int:
    """A TCP port number for ``--port``."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0 to 65535)")
    return port


def _ratings(args: argparse.Namespace) -> int:
    from bazaarbot.ratings import Ratings
    from bazaarbot.store import Store

    config = load_config(args.config)
    path = args.db or config.bot.db
    store = Store(path)
    try:
        games = Ratings(store, config.bot.ratings.min_games).rebuild()
        rated = store.db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    finally:
        store.close()
    print(f"rebuilt the ratings of {path} from {games} finished games: {rated} ratings")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bazaarbot", description="A chat-room game bot.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug output")
    sub = parser.add_subparsers(dest="cmd")

    run = sub.add_parser("run", help="run the bot (web chat on localhost by default, IRC as configured)")
    run.add_argument("-c", "--config", help="TOML config file (see config.example.toml)")
    run.add_argument("--db", help="sqlite file (overrides the config)")
    run.add_argument("--host", help="address the web chat listens on (overrides the config)")
    run.add_argument(
        "--port", type=_port, help="port of the web chat (overrides the config; 0: any free one)"
    )
    run.set_defaults(func=_run)

    console = sub.add_parser("console", help="play or script the bot from a terminal")
    console.add_argument("-c", "--config", help="TOML config file")
    console.add_argument("--seed", type=int, help="make every game's randomness reproducible")
    console.add_argument("--db", help="sqlite file (default: the config's, bazaarbot.sqlite)")
    console.add_argument("--admin", action="append", default=[], metavar="NICK", help="NICK is an admin")
    console.add_argument("--script", action="store_true", help="print --- after each answer")
    console.set_defaults(func=_console)

    bench = sub.add_parser("bench", help="print performance figures")
    bench.add_argument(
        "what",
        choices=["engine", "ai", "load", "teach"],
        help="engine speed, an AI level's strength, live-table load, or hint and review times",
    )
    bench.add_argument("game", nargs="?", help="one game (default: all; bench ai needs one; load: jaipur)")
    bench.add_argument("--seconds", type=float, default=3.0, help="how long to measure each figure")
    bench.add_argument("--level", default="hard", help="bench ai: the AI level measured")
    bench.add_argument(
        "--vs", default="greedy", help="bench ai: the opponent (random, greedy, easy, medium, hard)"
    )
    bench.add_argument("--games", type=int, default=20, help="bench ai: games (Jaipur: matches) to play")
    bench.add_argument("--players", type=int, help="bench ai: players at the table (default: 2)")
    bench.add_argument("--seed", type=int, default=1, help="bench ai: seed of the first game")
    bench.add_argument("-c", "--config", help="bench ai: TOML config with [ai.levels]")
    bench.add_argument(
        "--record", action="store_true", help="bench ai: file and rate the games in the store (AI ratings)"
    )
    bench.add_argument("--db", help="bench ai --record: sqlite file (default: the config's)")
    bench.add_argument("--tables", type=int, default=100, help="bench load: live tables")
    bench.add_argument("--game", dest="load_game", help="bench load: the game every table plays")
    bench.add_argument("--bots", action="store_true", help="bench load: AI seats at some tables")
    bench.set_defaults(func=_bench)

    export = sub.add_parser("export", help="print a game as JSON")
    export.add_argument("game_id", type=int)
    export.add_argument("-c", "--config", help="TOML config file")
    export.add_argument("--db", help="sqlite file")
    export.set_defaults(func=_export)

    ratings = sub.add_parser("ratings", help="the ratings, derived from the results in the store")
    ratings.add_argument("action", choices=["rebuild"], help="rebuild: every rating again from the results")
    ratings.add_argument("-c", "--config", help="TOML config file")
    ratings.add_argument("--db", help="sqlite file")
    ratings.set_defaults(func=_ratings)

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
