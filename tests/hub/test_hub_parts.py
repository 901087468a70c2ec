"""The hub, answering through its composed parts, provides everything transports and command handlers call."""

from __future__ import annotations

import inspect

from bazaarbot.commands import CommandHost
from bazaarbot.hub.hub import Hub
from bazaarbot.transports.base import HubPort


def _members(protocol: type) -> set[str]:
    return {
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


def test_the_hub_answers_every_call_of_the_transports_port():
    assert {"handle", "table_view", "is_addressed", "user_left"} <= _members(HubPort)
    missing = [name for name in _members(HubPort) if not hasattr(Hub, name)]
    assert not missing, missing


def test_the_hub_answers_every_call_of_the_command_handlers():
    assert {"table", "set_pref", "seat_limit_refusal", "claim_seat"} <= _members(CommandHost)
    missing = [name for name in _members(CommandHost) if not hasattr(Hub, name)]
    assert not missing, missing


def test_every_such_call_is_a_real_method_with_a_body():
    for name in _members(HubPort) | _members(CommandHost):
        member = inspect.getattr_static(Hub, name)
        function = member.fget if isinstance(member, property) else member
        source = inspect.getsource(function)
        assert not source.rstrip().endswith("..."), f"Hub.{name} is only declared"
