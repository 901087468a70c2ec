"""CAP negotiation and SASL PLAIN, driven by server lines without a server."""

from __future__ import annotations

import base64

from bazaarbot.transports.irc.caps import CapNegotiator, sasl_plain_lines
from bazaarbot.transports.irc.lines import parse


def run(neg: CapNegotiator, *server_lines: str) -> list[str]:
    out: list[str] = []
    for raw in server_lines:
        line = parse(raw)
        assert line is not None
        out += neg.feed(line)
    return out


def test_starts_with_cap_ls_302() -> None:
    assert CapNegotiator().start() == ["CAP LS 302"]


def test_requests_only_wanted_caps_the_server_offers() -> None:
    neg = CapNegotiator()
    out = run(neg, ":irc.test CAP * LS :multi-prefix away-notify extended-join chghost")
    assert out == ["CAP REQ :extended-join multi-prefix"]
    assert run(neg, ":irc.test CAP * ACK :extended-join multi-prefix") == ["CAP END"]
    assert neg.enabled == {"extended-join", "multi-prefix"} and neg.done and neg.sasl == "off"


def test_multiline_ls_waits_for_the_last_line() -> None:
    neg = CapNegotiator()
    assert run(neg, ":s CAP * LS * :account-notify sasl=PLAIN,EXTERNAL") == []
    out = run(neg, ":s CAP * LS :account-tag message-tags")
    assert out == ["CAP REQ :account-notify account-tag message-tags"]  # no sasl: no credentials


def test_full_sasl_plain_exchange() -> None:
    neg = CapNegotiator("alice", "s3cret")
    out = run(neg, ":s CAP * LS :sasl=PLAIN,EXTERNAL account-notify")
    assert out == ["CAP REQ :sasl account-notify"]
    assert run(neg, ":s CAP * ACK :sasl account-notify") == ["AUTHENTICATE PLAIN"]
    out = run(neg, "AUTHENTICATE +")
    assert out == ["AUTHENTICATE " + base64.b64encode(b"alice\0alice\0s3cret").decode()]
    assert run(neg, ":s 900 bot bot!u@h alice :You are now logged in as alice") == []
    assert run(neg, ":s 903 bot :SASL authentication successful") == ["CAP END"]
    assert neg.sasl == "ok" and neg.done


def test_sasl_failure_still_ends_negotiation() -> None:
    neg = CapNegotiator("alice", "wrong")
    run(neg, ":s CAP * LS :sasl", ":s CAP * ACK :sasl", "AUTHENTICATE +")
    assert run(neg, ":s 904 bot :SASL authentication failed") == ["CAP END"]
    assert neg.sasl == "failed"


def test_sasl_skipped_when_plain_is_not_offered() -> None:
    neg = CapNegotiator("alice", "pw")
    assert run(neg, ":s CAP * LS :sasl=EXTERNAL") == ["CAP END"]


def test_nak_ends_negotiation() -> None:
    neg = CapNegotiator()
    run(neg, ":s CAP * LS :multi-prefix")
    assert run(neg, ":s CAP * NAK :multi-prefix") == ["CAP END"]
    assert neg.enabled == set()


def test_server_without_cap_registers_us_anyway() -> None:
    neg = CapNegotiator()
    assert run(neg, ":s 001 bot :Welcome") == []
    assert neg.done
    neg = CapNegotiator()
    assert run(neg, ":s 421 bot CAP :Unknown command") == ["CAP END"]


def test_cap_new_and_del_after_registration() -> None:
    neg = CapNegotiator()
    run(neg, ":s CAP * LS :multi-prefix", ":s CAP * ACK :multi-prefix")
    assert run(neg, ":s CAP bot NEW :account-notify") == ["CAP REQ :account-notify"]
    assert run(neg, ":s CAP bot ACK :account-notify") == []
    assert "account-notify" in neg.enabled
    run(neg, ":s CAP bot DEL :account-notify")
    assert "account-notify" not in neg.enabled


def test_long_sasl_payload_is_chunked_and_closed() -> None:
    lines = sasl_plain_lines("a" * 150, "p" * 149)  # 150+1+150+1+149 = 451 bytes -> 604 base64 chars
    assert [len(line) - len("AUTHENTICATE ") for line in lines] == [400, 204]
    exact = sasl_plain_lines("a" * 99, "p" * 100)  # 300 bytes -> exactly 400 base64 chars
    assert exact[-1] == "AUTHENTICATE +" and len(exact) == 2
