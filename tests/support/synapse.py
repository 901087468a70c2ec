"""A real Synapse homeserver for tests: loopback only, sqlite in a temp folder, registration by secret.

One homeserver serves a whole test module (``synapse_server``, module-scoped):
its start is the slow part (about two seconds), every test registers its own
users, so tests never see each other's rooms. Registration is closed to the
world (no open registration): test users are made through the admin API with
the ``registration_shared_secret`` only this fixture knows. Rate limits are
high for everybody; a test that needs the homeserver's ``429`` lowers them for
one user with the admin API's ``override_ratelimit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.waits import wait_until, wait_until_sync

SERVER_NAME = "localhost"
#: every rc_* limit the bot or a test client could reach in a test, set far above what tests do
_HIGH = {"per_second": 1000, "burst_count": 1000}


def synapse_missing() -> str | None:
    """Why the homeserver cannot run here (None when it can)."""
    if importlib.util.find_spec("synapse") is None:
        return "matrix-synapse is not installed (pip install -e '.[test]' installs it)"
    if importlib.util.find_spec("nio") is None:
        return "matrix-nio is not installed (pip install -e '.[matrix]')"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def homeserver_config(directory: Path, port: int, secret: str) -> dict[str, Any]:
    """A homeserver on 127.0.0.1 only, sqlite, no federation, no outside key servers, high limits."""
    limits = {
        name: dict(_HIGH)
        for name in (
            "rc_message",
            "rc_registration",
            "rc_joins_per_room",
            "rc_invites",
            "rc_3pid_validation",
            "rc_presence",
            "rc_room_creation",
            "rc_reports",
            "rc_delayed_event_mgmt",
        )
    }
    return {
        "server_name": SERVER_NAME,
        "pid_file": str(directory / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(directory / "homeserver.db")}},
        "log_config": str(directory / "log.yaml"),
        "media_store_path": str(directory / "media"),
        "signing_key_path": str(directory / "signing.key"),
        "registration_shared_secret": secret,
        "enable_registration": False,
        "bcrypt_rounds": 4,  # test passwords: hashing at the default cost is most of a registration
        "report_stats": False,
        "macaroon_secret_key": secrets.token_hex(16),
        "form_secret": secrets.token_hex(16),
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "federation_domain_whitelist": [],
        "presence": {"enabled": False},
        "url_preview_enabled": False,
        "enable_metrics": False,
        "rc_login": {
            "address": dict(_HIGH),
            "account": dict(_HIGH),
            "failed_attempts": dict(_HIGH),
        },
        "rc_joins": {"local": dict(_HIGH), "remote": dict(_HIGH)},
        **limits,
    }


LOG_CONFIG = """
version: 1
formatters:
  plain:
    format: '%(asctime)s %(name)s %(levelname)s %(message)s'
handlers:
  file:
    class: logging.FileHandler
    filename: {path}
    formatter: plain
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
"""


@dataclass
class User:
    """A registered test user: their ID and a fresh access token."""

    user_id: str
    password: str
    token: str


class Synapse:
    """One homeserver process; ``url`` for clients, ``register``/``admin`` for the test's own needs."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.secret = secrets.token_hex(16)
        self.process: subprocess.Popen[bytes] | None = None
        self.startup_seconds = 0.0
        self._admin: User | None = None

    def start(self, timeout: float = 60.0) -> None:
        from signedjson.key import generate_signing_key, write_signing_keys

        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / "signing.key", "w") as handle:
            write_signing_keys(handle, [generate_signing_key("a_test")])
        (self.directory / "log.yaml").write_text(LOG_CONFIG.format(path=self.directory / "homeserver.log"))
        # JSON is YAML: no YAML writer needed
        config = self.directory / "homeserver.yaml"
        config.write_text(json.dumps(homeserver_config(self.directory, self.port, self.secret)))
        started = time.monotonic()
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
        with open(self.directory / "stderr.log", "wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "synapse.app.homeserver", "-c", str(config)],
                cwd=self.directory,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=env,
            )
        process = self.process

        def answering() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"synapse exited: {(self.directory / 'stderr.log').read_text()[-2000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/_matrix/client/versions", timeout=1) as answer,
            ):
                return answer.status == 200
            return False

        try:
            wait_until_sync(answering, started + timeout - time.monotonic(), "synapse to answer", 0.05)
        except AssertionError:
            self.stop()
            raise RuntimeError("synapse did not answer within the timeout") from None
        self.startup_seconds = time.monotonic() - started

    def kill(self) -> None:
        """The homeserver is gone at once (a crash, a lost network), not shut down politely."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    # --- plain HTTP, for setting tests up --------------------------------------------------------
    def request(self, method: str, path: str, body: object = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: {error.code} {error.read()[:300]!r}") from None

    def register(self, name: str, admin: bool = False, retry: bool = False) -> User:
        """A new user by the shared secret (the only way in: registration is closed otherwise)."""
        nonce = self.request("GET", "/_synapse/admin/v1/register")["nonce"]
        password = secrets.token_hex(8)
        mac = hmac.new(self.secret.encode(), digestmod=hashlib.sha1)
        mac.update(
            b"\x00".join(
                [nonce.encode(), name.encode(), password.encode(), b"admin" if admin else b"notadmin"]
            )
        )
        try:
            answer = self.request(
                "POST",
                "/_synapse/admin/v1/register",
                {
                    "nonce": nonce,
                    "username": name,
                    "password": password,
                    "admin": admin,
                    "mac": mac.hexdigest(),
                },
            )
        except RuntimeError as error:
            if "M_USER_IN_USE" not in str(error) or retry:
                raise
            # a loaded homeserver has been seen to answer a first registration "taken": another name
            return self.register(f"{name}-{secrets.token_hex(2)}", admin, retry=True)
        return User(answer["user_id"], password, answer["access_token"])

    def admin(self) -> User:
        if self._admin is None:
            self._admin = self.register("admin-" + secrets.token_hex(4), admin=True)
        return self._admin

    def limit_messages(self, user_id: str, per_second: int, burst: int) -> None:
        """Lower (or raise) the homeserver's message limit for one user: its 429s are the test's point."""
        self.request(
            "POST",
            f"/_synapse/admin/v1/users/{urllib.request.quote(user_id)}/override_ratelimit",
            {"messages_per_second": per_second, "burst_count": burst},
            token=self.admin().token,
        )


@pytest.fixture(scope="module")
def synapse_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synapse]:
    """One real homeserver for the test module (skipped only when matrix-synapse is not installed)."""
    reason = synapse_missing()
    if reason:
        pytest.skip(reason)
    server = Synapse(tmp_path_factory.mktemp("synapse"))
    server.start()
    print(f"Synapse answered {server.startup_seconds:.2f} s after its start")
    try:
        yield server
    finally:
        server.stop()


#: a room joined late shows its whole history (the default timeline of a first sync is a few events only)
PLAYER_FILTER = {"room": {"timeline": {"limit": 1000}}, "presence": {"not_types": ["*"]}}


@dataclass
class Seen:
    """One event a test client saw."""

    room_id: str
    sender: str
    event_id: str
    type: str
    content: dict[str, Any]

    @property
    def body(self) -> str:
        return str(self.content.get("body", ""))

    @property
    def is_edit(self) -> bool:
        relates = self.content.get("m.relates_to") or {}
        return isinstance(relates, dict) and relates.get("rel_type") == "m.replace"


class Player:
    """A real matrix-nio client for a test: it syncs in the background, joins what it is invited to."""

    def __init__(self, server: Synapse, user: User) -> None:
        from nio import AsyncClient, AsyncClientConfig

        self.server = server
        self.user = user
        self.user_id = user.user_id
        config = AsyncClientConfig(encryption_enabled=False, store_sync_tokens=False)
        self.client = AsyncClient(server.url, user.user_id, config=config)
        self.client.restore_login(user.user_id, "TEST", user.token)
        self.seen: list[Seen] = []
        self.direct: set[str] = set()
        self._task: Any = None

    async def start(self) -> Player:

        first = await self.client.sync(timeout=0, sync_filter=PLAYER_FILTER)
        self._absorb(first)
        self._task = asyncio.get_running_loop().create_task(self._loop())
        return self

    async def _loop(self) -> None:
        while True:
            answer = await self.client.sync(timeout=10_000, sync_filter=PLAYER_FILTER)
            self._absorb(answer)

    def _absorb(self, answer: Any) -> None:
        from nio import InviteMemberEvent, SyncResponse

        if not isinstance(answer, SyncResponse):
            return
        for room_id, info in answer.rooms.invite.items():
            for event in info.invite_state:
                if isinstance(event, InviteMemberEvent) and event.state_key == self.user_id:
                    if (event.content or {}).get("is_direct"):
                        self.direct.add(room_id)
                    import asyncio

                    asyncio.get_running_loop().create_task(self.client.join(room_id))
                    break
        for room_id, info in answer.rooms.join.items():
            for event in info.timeline.events:
                source = getattr(event, "source", None) or {}
                self.seen.append(
                    Seen(
                        room_id,
                        source.get("sender", ""),
                        source.get("event_id", ""),
                        source.get("type", ""),
                        source.get("content") or {},
                    )
                )

    async def close(self) -> None:

        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(asyncio.CancelledError):
            await self.client.close()

    async def say(self, room_id: str, text: str) -> str:
        from nio import RoomSendResponse

        answer = await self.client.room_send(room_id, "m.room.message", {"msgtype": "m.text", "body": text})
        assert isinstance(answer, RoomSendResponse), answer
        return answer.event_id

    async def create_room(self, alias: str, invite: tuple[str, ...] = ()) -> str:
        from nio import RoomCreateResponse, RoomPreset

        answer = await self.client.room_create(alias=alias, preset=RoomPreset.public_chat, invite=invite)
        assert isinstance(answer, RoomCreateResponse), answer
        return answer.room_id

    async def open_direct(self, user_id: str) -> str:
        """A direct room with ``user_id`` (the bot joins it when invited)."""
        from nio import RoomCreateResponse, RoomPreset

        answer = await self.client.room_create(
            is_direct=True, invite=[user_id], preset=RoomPreset.trusted_private_chat
        )
        assert isinstance(answer, RoomCreateResponse), answer
        self.direct.add(answer.room_id)

        async def joined() -> bool:  # lines said before the bot joined are history it never plays
            members = await self.client.joined_members(answer.room_id)
            return any(m.user_id == user_id for m in getattr(members, "members", []))

        await wait_until(joined, 10, f"{user_id} to join the direct room", 0.05)
        return answer.room_id

    async def join(self, room: str) -> str:
        from nio import JoinResponse

        answer = await self.client.join(room)
        assert isinstance(answer, JoinResponse), answer
        return answer.room_id

    def messages(self, room_id: str | None = None, sender: str | None = None) -> list[Seen]:
        return [
            s
            for s in self.seen
            if s.type == "m.room.message"
            and (room_id is None or s.room_id == room_id)
            and (sender is None or s.sender == sender)
        ]

    def private(self, bot: str) -> list[Seen]:
        """What the bot said in this player's direct rooms."""
        return [s for s in self.messages(sender=bot) if s.room_id in self.direct]

    async def expect(self, match: Any, timeout: float = 20.0, start: int = 0) -> Seen:
        """The first message (from index ``start``) whose body contains ``match`` or satisfies it."""

        def found() -> Seen | None:
            for seen in self.seen[start:]:
                if seen.type != "m.room.message":
                    continue
                if match(seen) if callable(match) else match in seen.body:
                    return seen
            return None

        def missed() -> str:
            return f"{self.user_id} to see {match!r}; last: {[s.body[:80] for s in self.messages()[-6:]]}"

        return await wait_until(found, timeout, missed)
