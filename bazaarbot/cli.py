"""The ``bazaarbot`` command: run, console, bench, export, backup, restore-check, ratings, admin-token."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import logging
import signal
import socket
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from bazaarbot import eventloop
from bazaarbot.bench.commands import add_parser as add_bench_parser
from bazaarbot.config import AdminPolicy, Config, ConfigError, load_config
from bazaarbot.i18n import preload_catalogues, set_language
from bazaarbot.text.redact import guard_logs

log = logging.getLogger("bazaarbot")


def _db(
    args: argparse.Namespace, config: Config, must_exist: bool = False, write: bool = True, reach: bool = True
) -> str:
    """The store this command uses, checked before it is opened.

    ``--store URL``, else ``--db FILE``, else the config's ``[store] url``, else its ``[bot] db``;
    ``reach=False``: a database server that does not answer yet is waited for later, not refused.
    """
    from bazaarbot.store.dbfile import check_db, check_server

    url = getattr(args, "store", None) or (None if args.db else config.store.url)
    if url:
        check_server(url, reach=reach)
        return str(url)
    path = str(args.db or config.bot.db)
    check_db(path, must_exist=must_exist, write=write)
    return path


def _check_game(config: Config) -> None:
    """``[bot] default_game`` must name an installed game (else every new table would play another)."""
    from bazaarbot.registry import discover

    games = discover()
    if config.bot.default_game not in games:
        raise ConfigError(
            f"bot.default_game {config.bot.default_game!r} is not an installed game "
            f"(installed: {', '.join(sorted(games))})"
        )


def _console(args: argparse.Namespace) -> int:
    from bazaarbot.hub.console import console_hub
    from bazaarbot.transports.console import ConsoleTransport

    config = load_config(args.config)
    _check_game(config)
    db = _db(args, config)
    set_language(config.bot.language)
    preload_catalogues()

    async def main() -> None:
        hub = console_hub(config, db, args.seed, args.script, tuple(args.admin))
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
    from bazaarbot.collector import CollectorPolicy
    from bazaarbot.hub.hub import Hub
    from bazaarbot.shutdown import shut_down
    from bazaarbot.speaking import speak_only_while
    from bazaarbot.store.postgres import is_postgres_url

    config = load_config(args.config)
    if args.host is not None:
        config = replace(config, web=replace(config.web, host=args.host))
    if args.port is not None:
        config = replace(config, web=replace(config.web, port=args.port))
    _check_game(config)
    served = config.served_networks()
    db = _db(args, config, reach=not served)  # on a lease, a database that is away is waited for
    set_language(config.bot.language)
    preload_catalogues()
    admins = network_admins(config)
    if config.discord and not _installed("discord"):
        print(
            "The config has [[discord.bots]], but Discord needs discord.py: "
            "pip install 'bazaarbot[discord]' (or pip install discord.py).",
            file=sys.stderr,
        )
        return 1
    if config.matrix and not _matrix_installed():
        print(
            "The config has [[matrix.accounts]], but Matrix needs matrix-nio: "
            "pip install 'bazaarbot[matrix]' (or pip install matrix-nio).",
            file=sys.stderr,
        )
        return 1

    async def main() -> int:
        stop = asyncio.Event()
        signalled: list[int] = []
        loop = asyncio.get_running_loop()

        def told_to_stop(sig: int) -> None:
            signalled.append(sig)
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, told_to_stop, sig)
        if not (is_postgres_url(db) and served):
            return await serve(stop, None)
        from bazaarbot.store.postgres.lease import database_away

        while True:  # serve while the lease holds; when the database went away, wait for it again
            try:
                keeper = await _hold_networks(db, served, config, stop)
            except OSError as error:  # the standby's web port
                print(_start_error(config.web.host, config.web.port, error), file=sys.stderr)
                return 1
            if keeper is None:
                return 0
            lost: list[str] = []

            def on_lost(reason: str, lost: list[str] = lost) -> None:  # told on the lease's thread
                lost.append(reason)
                loop.call_soon_threadsafe(stop.set)

            keeper.on_lost = on_lost
            speak_only_while(keeper.lease.may_speak)  # after a freeze, nothing leaves unproved
            keeper.start()  # renewing from now: loading the tables may take longer than the lease
            try:
                code = await serve(stop, keeper)
            except sqlite3.Error as error:  # the store failed beneath the bot (the database went away)
                said = (str(error).strip() or type(error).__name__).splitlines()[0][:200]
                log.error(
                    "the store failed (%s): stopping; check that the database at [store] url is up "
                    "(exit status 75: a supervisor starts the bot again)",
                    said,
                )
                return 75
            finally:
                keeper.stop()
            if not lost:
                return code
            if signalled or not database_away(lost[0]):
                return 75  # another process serves the networks now: a supervisor starts this one again
            print(
                "bazaarbot stopped serving: the database cannot be reached; "
                "it waits for it on standby and serves again when it may",
                flush=True,
            )
            stop.clear()

    async def serve(stop: asyncio.Event, keeper: Any) -> int:
        """Open the store, start the transports, run until ``stop`` (``keeper``: the lease, if any)."""
        hub = Hub.open(
            db,
            networks=served if keeper is not None else None,
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
        for account in config.matrix:
            from bazaarbot.transports.matrix import MatrixTransport

            transports.append(MatrixTransport(account))
        for bot in config.discord:
            from bazaarbot.transports.discord import DiscordTransport

            transports.append(DiscordTransport(bot))
        if not transports:
            print(
                "Nothing to run: enable [web] or add an [[irc.networks]], [[matrix.accounts]] "
                "or [[discord.bots]] entry.",
                file=sys.stderr,
            )
            await hub.close()
            return 1
        loop = asyncio.get_running_loop()
        if keeper is not None:
            store = hub.store
            store.fence_with(keeper.lease.fence)
            keeper.healthy = lambda: not (store.writer.conn.closed or store.db.conn.closed)
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
            page = f"http://{config.web.host}:{port}{config.web.base_path}/"
            print(f"bazaarbot is serving the web chat: open {page}", flush=True)
        for network in config.irc:
            print(f"bazaarbot is connecting to {network.name} ({network.host}:{network.port})", flush=True)
        for account in config.matrix:
            print(
                f"bazaarbot is connecting to {account.name} as {account.user_id} ({account.homeserver})",
                flush=True,
            )
        for bot in config.discord:
            print(f"bazaarbot is connecting to {bot.name} (Discord at {bot.api_url})", flush=True)
        await hub.start()
        if keeper is not None and keeper.lease.taken is not None:
            _report_takeover(hub.metrics, keeper.lease.taken, keeper.lease.clock)
        collector = CollectorPolicy()  # the restored tables are frozen out of collection from here
        collector.install()
        sweeper = loop.create_task(collector.run())
        await stop.wait()
        sweeper.cancel()
        await shut_down(hub, transports)
        collector.uninstall()
        return 0

    return eventloop.run(main())


async def _hold_networks(url: str, served: frozenset[str], config: Config, stop: asyncio.Event) -> Any:
    """Wait (on standby) until this process holds the lease of every network it serves.

    Its ``LeaseKeeper`` (not started yet), or None when it was told to stop while waiting.
    An ``OSError`` when the standby's web port cannot be listened on.
    """
    from bazaarbot.store.postgres.lease import Lease, LeaseKeeper
    from bazaarbot.store.postgres.standby import wait_for_lease

    seconds = config.store.lease_seconds
    web_at = (config.web.host, config.web.port) if config.web.enabled else None
    lease = await wait_for_lease(lambda: Lease(url, served, seconds), seconds, web_at, stop)
    if lease is None:
        return None
    return LeaseKeeper(lease, on_lost=lambda reason: None)


def _report_takeover(metrics: Any, taken: Any, clock: Any) -> None:
    """Say how long the takeover took, in a line and in ``/metrics``: now (serving) and at the first answer.

    Counted from the previous owner's last renewal (a kill -9 comes within a renewal's interval
    after it), so the figure is the takeover's own time as a player sees it.
    """
    serving = taken.silent + (clock() - taken.at)
    metrics.took_over("serving", serving)
    print(
        f"bazaarbot took over from {taken.previous}: serving {serving:.2f} s after its last renewal "
        f"({taken.silent:.2f} s to the lease, {serving - taken.silent:.2f} s to start)",
        flush=True,
    )

    def answered() -> None:
        first = taken.silent + (clock() - taken.at)
        metrics.took_over("first_answer", first)
        print(
            f"bazaarbot answered its first line {first:.2f} s after the previous owner's last renewal",
            flush=True,
        )

    metrics.after_next_answer(answered)


def _matrix_installed() -> bool:
    """Whether the optional Matrix dependency (matrix-nio) is there."""
    return _installed("nio")


def _installed(module: str) -> bool:
    """Whether an optional dependency (a network's library) is there."""
    import importlib.util

    return importlib.util.find_spec(module) is not None


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


def network_admins(config: Config) -> dict[str, AdminPolicy]:
    """Each served network's admin policy (every shard of a Discord bot has the bot's)."""
    admins = {config.web.network: web_admin_policy(config.web.admins)}
    for network in config.irc:
        admins[network.name] = network.admins
    for account in config.matrix:
        admins[account.name] = account.admins
    for bot in config.discord:
        admins.update(dict.fromkeys(bot.networks, bot.admins))
    return admins


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

    from bazaarbot.store.postgres import is_postgres_url
    from bazaarbot.transports.web.admins import AdminTokenError, AdminTokens

    config = load_config(args.config)
    target = _db(args, config)
    if is_postgres_url(target):
        from bazaarbot.store.postgres.connection import PgConnection

        conn: Any = PgConnection(target)
    else:
        conn = sqlite3.connect(target)
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


def _export(args: argparse.Namespace) -> int:
    from bazaarbot.store import open_store
    from bazaarbot.store.postgres import shown

    config = load_config(args.config)
    path = _db(args, config, must_exist=True, write=False)
    record = None
    if 1 <= args.game_id < 2**63:  # sqlite's integers; beyond them there is no such game either
        store = open_store(path)
        try:
            record = store.game_record(args.game_id)
        finally:
            store.close()
    if record is None:
        print(f"no game {args.game_id} in {shown(path)}", file=sys.stderr)
        return 1
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


def _backup(args: argparse.Namespace) -> int:
    from bazaarbot.store.backup import BackupError, backup, describe_copy
    from bazaarbot.store.dbfile import check_server

    config = load_config(args.config)
    url = args.store or (None if args.db else config.store.url)
    if url:
        from bazaarbot.store.postgres.backup import describe_dump, dump

        check_server(url)
        try:
            print(describe_dump(dump(url, args.path)))
        except BackupError as error:
            print(f"backup: {error}", file=sys.stderr)
            return 1
        return 0
    try:
        report = backup(args.db or config.bot.db, args.path)
    except BackupError as error:
        print(f"backup: {error}", file=sys.stderr)
        return 1
    print(describe_copy(report))
    return 0


def _restore_check(args: argparse.Namespace) -> int:
    from bazaarbot.store.backup import BackupError, describe_restore, restore_check
    from bazaarbot.store.postgres.backup import describe_archive, is_archive

    if is_archive(Path(args.path)):
        try:
            print("\n".join(describe_archive(Path(args.path))))
        except BackupError as error:
            print(f"restore-check: {error}", file=sys.stderr)
            return 1
        return 0
    try:
        report = restore_check(args.path)
    except BackupError as error:
        print(f"restore-check: {error}", file=sys.stderr)
        return 1
    print("\n".join(describe_restore(report)))
    return 0 if report.integrity == "ok" else 1


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
    from bazaarbot.store import open_store
    from bazaarbot.store.postgres import shown

    config = load_config(args.config)
    path = _db(args, config, must_exist=True)
    store = open_store(path)
    try:
        games = Ratings(store, config.bot.ratings.min_games).rebuild()
        rated = store.db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    finally:
        store.close()
    print(f"rebuilt the ratings of {shown(path)} from {games} finished games: {rated} ratings")
    return 0


#: the help of ``--store``, on every command that takes ``--db``
STORE_HELP = "a PostgreSQL store, postgresql://user@host:port/db (overrides --db and the config)"


def _store_options(command: argparse.ArgumentParser, db_help: str = "sqlite file") -> None:
    """``-c/--config``, ``--db`` and ``--store`` of a command that opens the store (``_db`` reads them)."""
    command.add_argument("-c", "--config", help="TOML config file")
    command.add_argument("--db", help=db_help)
    command.add_argument("--store", metavar="URL", help=STORE_HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bazaarbot", description="A chat-room game bot.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug output")
    sub = parser.add_subparsers(dest="cmd")

    run = sub.add_parser("run", help="run the bot (web chat on localhost by default, IRC as configured)")
    run.add_argument("-c", "--config", help="TOML config file (see config.example.toml)")
    run.add_argument("--db", help="sqlite file (overrides the config)")
    run.add_argument("--store", metavar="URL", help=STORE_HELP)
    run.add_argument("--host", help="address the web chat listens on (overrides the config)")
    run.add_argument(
        "--port", type=_port, help="port of the web chat (overrides the config; 0: any free one)"
    )
    run.set_defaults(func=_run)

    console = sub.add_parser("console", help="play or script the bot from a terminal")
    console.add_argument("-c", "--config", help="TOML config file")
    console.add_argument("--seed", type=int, help="make every game's randomness reproducible")
    console.add_argument("--db", help="sqlite file (default: the config's, bazaarbot.sqlite)")
    console.add_argument("--store", metavar="URL", help=STORE_HELP)
    console.add_argument("--admin", action="append", default=[], metavar="NICK", help="NICK is an admin")
    console.add_argument("--script", action="store_true", help="print --- after each answer")
    console.set_defaults(func=_console)

    add_bench_parser(sub)

    export = sub.add_parser("export", help="print a game as JSON")
    export.add_argument("game_id", type=int)
    _store_options(export)
    export.set_defaults(func=_export)

    backup = sub.add_parser(
        "backup",
        help="copy the live store consistently (safe while the bot runs), then check the copy "
        "(a PostgreSQL store: with pg_dump)",
    )
    backup.add_argument("path", help="the copy to write (a folder: a dated file in it)")
    _store_options(backup, "sqlite file to copy (default: the config's, bazaarbot.sqlite)")
    backup.set_defaults(func=_backup)

    check = sub.add_parser(
        "restore-check", help="open a backup and report its tables, running games and last move"
    )
    check.add_argument("path", help="the backup file (a sqlite copy or a pg_dump archive)")
    check.set_defaults(func=_restore_check)

    ratings = sub.add_parser("ratings", help="the ratings, derived from the results in the store")
    ratings.add_argument("action", choices=["rebuild"], help="rebuild: every rating again from the results")
    _store_options(ratings)
    ratings.set_defaults(func=_ratings)

    token = sub.add_parser(
        "admin-token", help="print a one-time web admin token for NAME (only its hash is kept)"
    )
    token.add_argument("name", help="who the admin is (a name for the log, not a nick)")
    _store_options(token, "sqlite file (default: the config's, bazaarbot.sqlite)")
    token.set_defaults(func=_admin_token)
    return parser


def main(argv: list[str] | None = None) -> int:
    # the store's modules (sqlite-utils) only here, not when the module is imported: an AI worker,
    # spawned from a bot started as ``python -m bazaarbot.cli``, imports this module again
    from bazaarbot.store.dbfile import DbFileError

    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    guard_logs()  # no token, password or SASL/NickServ credential in a log line, even with -v
    if not getattr(args, "func", None):  # bare ``bazaarbot``: what it can do, and nothing started
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except ConfigError as error:
        print(f"config error: {error}", file=sys.stderr)
        return 2
    except DbFileError as error:
        print(f"database error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
