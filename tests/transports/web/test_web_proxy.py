"""Behind a reverse proxy: the real client from trusted forwarding headers, a path prefix, /metrics."""

from __future__ import annotations

import socket
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict
from support.nginxproxy import NGINX, guide_nginx_blocks, nginx_conf
from support.waits import wait_until
from support.webfixtures import WsClient, serve

from bazaarbot.config import ConfigError, WebLimits, load_config
from bazaarbot.transports.web.proxies import ProxyPolicy


# --- whose address a request counts as ---------------------------------------------------
def _request(headers: dict[str, str] | list[tuple[str, str]]) -> web.Request:
    return make_mocked_request("GET", "/", headers=CIMultiDict(headers))


def test_forwarded_headers_are_ignored_without_trusted_proxies():
    policy = ProxyPolicy()
    client = policy.client("127.0.0.1", _request({"X-Forwarded-For": "203.0.113.9"}))
    assert client.address == "127.0.0.1" and not client.forwarded and not client.direct


def test_a_trusted_proxy_names_the_right_most_untrusted_address():
    policy = ProxyPolicy(["127.0.0.1", "10.0.0.0/8"])
    client = policy.client("127.0.0.1", _request({"X-Forwarded-For": "198.51.100.7, 203.0.113.9, 10.1.2.3"}))
    assert client.address == "203.0.113.9" and client.forwarded


def test_a_forged_header_from_an_untrusted_peer_is_ignored():
    policy = ProxyPolicy(["10.0.0.0/8"])
    request = _request({"X-Forwarded-For": "203.0.113.9", "Forwarded": "for=203.0.113.9"})
    client = policy.client("192.0.2.50", request)
    assert client.address == "192.0.2.50" and not client.forwarded


def test_only_the_header_the_operator_named_is_read():
    headers = {"Forwarded": "for=198.51.100.1", "X-Forwarded-For": "203.0.113.9"}
    by_xff = ProxyPolicy(["127.0.0.1"], "X-Forwarded-For").client("127.0.0.1", _request(headers))
    by_forwarded = ProxyPolicy(["127.0.0.1"], "Forwarded").client("127.0.0.1", _request(headers))
    assert (by_xff.address, by_forwarded.address) == ("203.0.113.9", "198.51.100.1")
    # the other kind alone changes nothing: the request is the proxy's own
    alone = ProxyPolicy(["127.0.0.1"], "X-Forwarded-For").client(
        "127.0.0.1", _request({"Forwarded": "for=198.51.100.1"})
    )
    assert alone.address == "127.0.0.1" and not alone.forwarded and not alone.direct


def test_the_forwarded_header_reads_ipv6_with_ports():
    policy = ProxyPolicy(["::1"], "Forwarded")
    headers = {"Forwarded": 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711";proto=https'}
    assert policy.client("::1", _request(headers)).address == "2001:db8:cafe::17"


def test_several_headers_of_the_named_kind_make_one_chain():
    policy = ProxyPolicy(["127.0.0.1"])
    request = _request([("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-For", "198.51.100.4")])
    assert policy.client("127.0.0.1", request).address == "198.51.100.4"


def test_a_chain_of_only_trusted_proxies_counts_the_nearest_and_is_not_local():
    policy = ProxyPolicy(["127.0.0.0/8"])
    client = policy.client("127.0.0.1", _request({"X-Forwarded-For": "127.0.0.9"}))
    assert client.address == "127.0.0.1" and client.forwarded and not client.direct


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Forwarded", "for=_hidden, for=unknown"),
        ("Forwarded", "for=unknown"),
        ("Forwarded", "for=127.0.0.1, for=_hidden"),
        ("Forwarded", "proto=https"),
        ("Forwarded", "garbage;;;"),
        ("Forwarded", ""),
        ("X-Forwarded-For", "unknown"),
        ("X-Forwarded-For", "127.0.0.1, _hidden"),
        ("X-Forwarded-For", "999.1.1.1"),
        ("X-Forwarded-For", ""),
    ],
)
def test_a_hop_that_is_no_address_counts_as_the_proxy_and_never_as_local(header: str, value: str):
    policy = ProxyPolicy(["127.0.0.1"], header)
    client = policy.client("127.0.0.1", _request({header: value}))
    assert client.address == "127.0.0.1" and client.forwarded and not client.direct


def test_a_request_without_any_forwarding_header_is_direct():
    client = ProxyPolicy(["127.0.0.1"]).client("127.0.0.1", _request({}))
    assert client.address == "127.0.0.1" and client.direct and not client.forwarded


def _refused(path: Path, web: str, reason: str) -> None:
    """The ``[web]`` section ``web`` is refused at start-up, saying ``reason``."""
    path.write_text(f"[web]\n{web}\n")
    with pytest.raises(ConfigError, match=reason):
        load_config(path)


def test_config_rejects_a_trusted_proxy_that_is_no_address(tmp_path: Path):
    reason = "web.trusted_proxies: 'proxy.example' is not an IP address"
    _refused(tmp_path / "bot.toml", 'trusted_proxies = ["10.0.0.0/8", "proxy.example"]', reason)


def test_config_refuses_a_base_path_without_a_leading_slash(tmp_path: Path):
    _refused(tmp_path / "bot.toml", 'base_path = "no-slash"', "web.base_path: 'no-slash' must start with /")


def test_config_names_the_forwarding_header(tmp_path: Path):
    path = tmp_path / "bot.toml"
    path.write_text('[web]\nforwarded_header = "forwarded"\n')
    assert load_config(path).web.forwarded_header == "Forwarded"
    path.write_text("[web]\n")
    assert load_config(path).web.forwarded_header == "X-Forwarded-For"
    reason = "web.forwarded_header must be one of X-Forwarded-For, Forwarded"
    _refused(path, 'forwarded_header = "X-Real-IP"', reason)


def test_config_reads_base_path_and_metrics(tmp_path: Path):
    path = tmp_path / "bot.toml"
    path.write_text('[web]\nbase_path = "/bazaar/"\nmetrics = "all"\ntrusted_proxies = ["127.0.0.1"]\n')
    web = load_config(path).web
    assert (web.base_path, web.metrics, web.trusted_proxies) == ("/bazaar", "all", ("127.0.0.1",))
    _refused(path, 'metrics = "public"', "web.metrics must be one of loopback, off, all")


# --- over real sockets ------------------------------------------------------------------
async def _ws(url: str, headers: dict[str, str] | None = None, source: str | None = None) -> WsClient | int:
    """A websocket, or the HTTP status it was refused with."""
    try:
        return await WsClient.open(url, headers, source)
    except aiohttp.WSServerHandshakeError as error:
        return error.status


async def test_per_address_bounds_count_each_browser_behind_a_trusted_proxy(tmp_path: Path):
    limits = WebLimits(connections_per_address=2)
    async with serve(
        tmp_path / "bot.sqlite", limits=limits, web={"trusted_proxies": ("127.0.0.1",)}
    ) as served:
        opened = []
        for browser in ("203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2", "203.0.113.3"):
            result = await _ws(served.ws_url, {"X-Forwarded-For": browser})
            assert isinstance(result, WsClient), browser
            opened.append(result)
        assert await _ws(served.ws_url, {"X-Forwarded-For": "203.0.113.1"}) == 429
        # a peer that is not a trusted proxy cannot pose as many browsers
        assert isinstance(
            first := await _ws(served.ws_url, {"X-Forwarded-For": "198.51.100.1"}, "127.0.0.2"), WsClient
        )
        second = await _ws(served.ws_url, {"X-Forwarded-For": "198.51.100.2"}, "127.0.0.2")
        assert isinstance(second, WsClient)
        assert await _ws(served.ws_url, {"X-Forwarded-For": "198.51.100.3"}, "127.0.0.2") == 429
        for client in [*opened, first, second]:
            await client.close()


async def test_without_trusted_proxies_a_forged_header_changes_nothing(tmp_path: Path):
    limits = WebLimits(connections_per_address=2)
    async with serve(tmp_path / "bot.sqlite", limits=limits) as served:
        a = await _ws(served.ws_url, {"X-Forwarded-For": "203.0.113.1"})
        b = await _ws(served.ws_url, {"X-Forwarded-For": "203.0.113.2"})
        assert isinstance(a, WsClient) and isinstance(b, WsClient)
        assert await _ws(served.ws_url, {"X-Forwarded-For": "203.0.113.3"}) == 429
        await a.close()
        await b.close()


async def test_metrics_answer_loopback_only_by_default(tmp_path: Path):
    async with serve(tmp_path / "bot.sqlite", web={"trusted_proxies": ("127.0.0.1",)}) as served:
        tab = await served.connect()
        await tab.hello()
        async with aiohttp.ClientSession() as session:
            async with session.get(served.url + "/metrics") as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/plain")
                body = await response.text()
            assert 'bazaarbot_websockets{network="web"} 1.0' in body
            assert "bazaarbot_live_tables 0.0" in body
            # a client a trusted proxy forwarded is not this machine, even though the proxy is
            async with session.get(
                served.url + "/metrics", headers={"X-Forwarded-For": "203.0.113.5"}
            ) as response:
                assert response.status == 404


@pytest.mark.parametrize(("access", "status"), [("off", 404), ("all", 200)])
async def test_metrics_off_and_all(tmp_path: Path, access: str, status: int):
    web = {"trusted_proxies": ("127.0.0.1",), "metrics": access}
    async with serve(tmp_path / "bot.sqlite", web=web) as served, aiohttp.ClientSession() as session:
        headers = {"X-Forwarded-For": "203.0.113.5"}
        async with session.get(served.url + "/metrics", headers=headers) as response:
            assert response.status == status


async def test_every_route_lives_under_the_base_path(tmp_path: Path):
    async with serve(tmp_path / "bot.sqlite", web={"base_path": "/bazaar"}) as served:
        async with aiohttp.ClientSession() as session:
            async with session.get(served.url + "/bazaar/") as response:
                assert response.status == 200
                page = await response.text()
            assert '<meta name="bazaarbot-base" content="/bazaar">' in page
            assert 'src="/bazaar/static/app.js"' in page and 'src="/static/' not in page
            async with session.get(served.url + "/bazaar/static/app.js") as response:
                assert response.status == 200
            async with session.get(served.url + "/bazaar", allow_redirects=False) as response:
                assert response.status == 308 and response.headers["Location"] == "/bazaar/"
            async with session.get(served.url + "/") as response:
                assert response.status == 404
            async with session.get(served.url + "/bazaar/healthz") as response:
                assert (await response.json())["status"] == "ok"
        tab = await WsClient.open(f"ws://127.0.0.1:{served.transport.port}/bazaar/ws")
        try:
            welcome = await tab.hello()
            assert welcome["t"] == "welcome"
        finally:
            await tab.close()


# --- a real nginx in front ------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def documented_nginx_blocks() -> list[str]:
    """The guide's nginx blocks that set the forwarding headers (the first sets X-Forwarded-For);
    a block that only adds to them, such as the standby's upstream, says so and sets none."""
    return [block for block in guide_nginx_blocks() if "proxy_set_header" in block]


@asynccontextmanager
async def nginx_in_front(tmp_path: Path, block: str, upstream: int) -> AsyncIterator[str]:
    """A real nginx with a block of the guide (its ``map`` in ``http``), proxying to ``upstream``."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    port = _free_port()
    http, location = block.split("location", 1)
    location = "location" + location.replace("127.0.0.1:8080", f"127.0.0.1:{upstream}")
    conf = nginx_conf(tmp_path, port, http, location)
    proxy = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession() as session:

            async def answering() -> bool:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/bazaar/healthz") as response:
                        await response.read()
                        return True
                except aiohttp.ClientConnectionError:
                    assert proxy.poll() is None, (tmp_path / "error.log").read_text()
                    return False

            await wait_until(answering, what="nginx to start")
        yield f"http://127.0.0.1:{port}/bazaar"
    finally:
        proxy.terminate()
        proxy.wait(10)


def test_the_guide_has_an_nginx_block_for_each_header():
    blocks = documented_nginx_blocks()
    assert len(blocks) == 2
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in blocks[0]
    assert 'proxy_set_header Forwarded "for=$bazaarbot_for";' in blocks[1]
    assert all("$proxy_add_x_forwarded_for" not in block for block in blocks)


async def test_behind_a_real_nginx_the_page_and_websocket_work_under_a_prefix(tmp_path: Path):
    web = {"trusted_proxies": ("127.0.0.1",), "base_path": "/bazaar"}
    limits = WebLimits(connections_per_address=1)
    async with serve(tmp_path / "bot.sqlite", limits=limits, web=web) as served:
        block = documented_nginx_blocks()[0]
        async with nginx_in_front(tmp_path, block, served.transport.port) as base:
            async with aiohttp.ClientSession() as session, session.get(base + "/") as response:
                page = await response.text()
            assert 'src="/bazaar/static/app.js"' in page
            url = base.replace("http:", "ws:") + "/ws"
            # two browsers behind the one proxy, each with its own bound of one socket
            first = await WsClient.open(url, source="127.0.0.5")
            second = await WsClient.open(url, source="127.0.0.6")
            assert await _ws(url, source="127.0.0.5") == 429
            await first.hello()
            await first.claim("alice")
            await first.join("#bazaar")
            await first.say("#bazaar", "/join")
            await first.expect("bot", timeout=5.0)
            addresses = sorted(conn.address for conn in served.transport.conns)
            assert addresses == ["127.0.0.5", "127.0.0.6"]
            await first.close()
            await second.close()


#: what a client behind the proxy sends to pass for many browsers, or for the machine itself
FORGERIES = [
    {"X-Forwarded-For": "203.0.113.{n}"},
    {"Forwarded": "for=203.0.113.{n}"},
    {"Forwarded": 'for="[2001:db8::{n}]"', "X-Forwarded-For": "198.51.100.{n}, 203.0.113.{n}"},
    {"X-Forwarded-For": "unknown", "Forwarded": "for=unknown"},
    {"X-Forwarded-For": "127.0.0.1", "Forwarded": "for=127.0.0.1"},
    {"Forwarded": "for=_hidden", "X-Real-IP": "127.0.0.1"},
    {"X-Forwarded-For": "::1", "Forwarded": 'for="[::1]"'},
]


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded"])
async def test_forged_forwarding_headers_through_the_documented_nginx_change_no_bound(
    tmp_path: Path, header: str
):
    block = documented_nginx_blocks()[0 if header == "X-Forwarded-For" else 1]
    web = {"trusted_proxies": ("127.0.0.1",), "base_path": "/bazaar", "forwarded_header": header}
    limits = WebLimits(connections_per_address=3, claims_per_minute=3)
    async with (
        serve(tmp_path / "bot.sqlite", limits=limits, web=web) as served,
        nginx_in_front(tmp_path, block, served.transport.port) as base,
    ):
        url = base.replace("http:", "ws:") + "/ws"
        # websockets: every forgery from one browser counts against that browser's own bound
        tabs, refused = [], 0
        for n, forgery in enumerate(FORGERIES * 2):
            result = await _ws(url, {k: v.format(n=n) for k, v in forgery.items()}, "127.0.0.7")
            if isinstance(result, WsClient):
                tabs.append(result)
            else:
                assert result == 429
                refused += 1
        assert len(tabs) == 3 and refused == 2 * len(FORGERIES) - 3
        assert {conn.address for conn in served.transport.conns} == {"127.0.0.7"}
        # claims: a new tab per claim, each with another forgery, against one bound
        answers = []
        for n, tab in enumerate(tabs * 2):
            if n < len(tabs):
                await tab.hello()
            await tab.send(t="claim", nick=f"player{n}")
            answers.append(await tab.expect(("claimed", "error")))
        assert [a["t"] for a in answers] == ["claimed"] * 3 + ["error"] * 3
        assert "Too many nick claims" in answers[-1]["text"]
        for tab in tabs:
            await tab.close()
        # /metrics: no forgery makes a client of the proxy pass for this machine
        async with aiohttp.ClientSession() as session:
            for n, forgery in enumerate(FORGERIES):
                headers = {k: v.format(n=n) for k, v in forgery.items()}
                async with session.get(base + "/metrics", headers=headers) as response:
                    assert response.status == 404, headers
            # the same request straight to the bot, from this machine, is answered
            async with session.get(served.url + "/bazaar/metrics") as response:
                assert response.status == 200


async def test_the_page_plays_under_the_base_path_in_a_browser(browser: Any, tmp_path: Path):
    from playwright.async_api import expect

    async with serve(tmp_path / "bot.sqlite", web={"base_path": "/bazaar"}) as served:
        page = await browser.new_page(viewport={"width": 1366, "height": 768})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        await page.goto(served.url + "/bazaar/")
        await page.fill("#nick-input", "alice")
        await page.press("#nick-input", "Enter")
        await expect(page.locator("#me-nick")).to_have_text("alice", timeout=10_000)
        await page.fill("#line", "/join")
        await page.press("#line", "Enter")
        await expect(page.locator("body")).to_contain_text("alice joins", timeout=10_000)
        href = await page.locator("#watch-link").get_attribute("href")
        assert href is not None and href.startswith("/bazaar/watch/")
        await page.goto(served.url + href)
        await expect(page.locator("body")).to_contain_text("alice", timeout=10_000)
        assert not errors, errors
