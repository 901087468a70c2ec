"""``bazaarbot console --script`` run inside the test's own process: the same hub, transport and answer
blocks as ``support.consoleproc.Console``, without starting a process or AI worker processes.

For tests about what the bot says (its languages, its lines), not about the process: the hub is
built by the command's own ``console_hub``, the transport is the console's, and each typed line is
handled completely (``ConsoleTransport.feed``: the answer, then ``---``) before ``type`` returns.
AIs think in a thread, with the config's levels. The config's ``[bot] language`` is the process's
default language while the console is open, as in the command; ``close`` gives the old one back.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bazaarbot.ai import AiPool
from bazaarbot.config import Config, load_config
from bazaarbot.hub.console import console_hub
from bazaarbot.hub.hub import Hub
from bazaarbot.i18n import default_language, preload_catalogues, set_language
from bazaarbot.transports.console import ConsoleTransport


class ConsoleHere:
    """A script console on ``db`` (with ``config`` text as its config file, if given), in this process."""

    def __init__(self, db: Path, seed: int, config: str | None = None) -> None:
        path = None
        if config is not None:
            path = db.with_suffix(".toml")
            path.write_text(config, encoding="utf-8")
        settings = load_config(path)
        self._language_before = default_language()
        set_language(settings.bot.language)
        preload_catalogues()
        self._thinker = ThreadPoolExecutor(1, thread_name_prefix="console-ai")
        pool = AiPool(1, settings.ai.levels, executor=self._thinker, ponder=False)
        #: what the console wrote since the last line typed
        self._out = io.StringIO()
        self._loop = asyncio.new_event_loop()
        self._console = ConsoleTransport(script=True, out=self._out)
        try:
            self.hub = self._loop.run_until_complete(self._start(settings, str(db), seed, pool))
        except BaseException:
            self._thinker.shutdown(wait=True)
            self._loop.close()
            set_language(self._language_before)
            raise
        #: every line the bot said so far
        self.seen: list[str] = []

    async def _start(self, settings: Config, db: str, seed: int, pool: AiPool) -> Hub:
        hub = console_hub(settings, db, seed, script=True, ai_pool=pool)
        await self._console.start(hub)
        await hub.start()
        return hub

    def type(self, line: str) -> list[str]:
        """Type one line; the bot's answer up to the ``---`` that ends it."""
        self._loop.run_until_complete(self._console.feed(line + "\n"))
        written = self._out.getvalue()
        self._out.seek(0)
        self._out.truncate()
        *block, end = written.rstrip("\n").split("\n")
        assert end == "---", written
        self.seen += block
        return block

    def close(self) -> None:
        """Close the hub as the command does at the end of its input; no thread of it stays behind."""
        try:
            self._loop.run_until_complete(self.hub.close())
        finally:
            self._loop.run_until_complete(self._loop.shutdown_default_executor())
            self._thinker.shutdown(wait=True)
            self._loop.close()
            set_language(self._language_before)
