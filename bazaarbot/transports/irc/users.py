"""Who is where on one IRC network: nicks, hostmasks, accounts, channel membership, modes.

The roster follows JOIN (with extended-join accounts), PART, QUIT, KICK, NICK,
ACCOUNT (account-notify), account tags, CHGHOST, NAMES (multi-prefix), WHO/WHOX
and MODE, and turns them into identity events for the hub: a nick change, a
user leaving (part/quit/kick), a user coming back. Nicks compare with the
server's CASEMAPPING. ``user(nick, channel)`` is the ``User`` the hub sees: keyed
by account when the server tells us one, else by nick; ``is_op`` when the nick
has +o (or a higher prefix) in that channel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bazaarbot.messages import User
from bazaarbot.transports.irc.lines import Line

_RFC1459 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\^", "abcdefghijklmnopqrstuvwxyz{}|~")
_STRICT = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\", "abcdefghijklmnopqrstuvwxyz{}|")
#: prefix modes that make a channel operator (founder, protected/admin, op)
OP_MODES = frozenset("qaoy")


@dataclass
class Person:
    nick: str
    user: str = ""
    host: str = ""
    account: str | None = None

    @property
    def mask(self) -> str | None:
        return f"{self.nick}!{self.user}@{self.host}" if self.user and self.host else None


@dataclass
class Channel:
    name: str
    members: dict[str, set[str]] = field(default_factory=dict)
    modes: set[str] = field(default_factory=set)
    #: whether the channel's modes were read (RPL_CHANNELMODEIS) since we joined
    modes_known: bool = False


@dataclass(frozen=True)
class Renamed:
    old: User
    new: User


@dataclass(frozen=True)
class Left:
    channel: str | None
    user: User


@dataclass(frozen=True)
class Returned:
    channel: str
    user: User


Event = Renamed | Left | Returned


def seat_user(key: str, nick: str) -> User:
    """A ``User`` whose key is ``key``: to tell the hub about a seated player the roster does not see."""
    if key.startswith("a:"):
        return User(nick, account=key[2:])
    if key.startswith("m:"):
        return User(nick, mask=key[2:])
    return User(nick)


class Roster:
    """The state of one connection's view of the network; ``feed`` returns identity events."""

    def __init__(self, me: str = "") -> None:
        self.me = me
        self.casemapping = "rfc1459"
        self.prefix: dict[str, str] = {"@": "o", "+": "v"}
        self.chanmodes: tuple[str, str, str, str] = ("beI", "k", "l", "imnpst")
        self.people: dict[str, Person] = {}
        self.channels: dict[str, Channel] = {}

    # --- folding and lookup -----------------------------------------------------------------
    def fold(self, name: str) -> str:
        if self.casemapping == "ascii":
            return name.lower()
        if self.casemapping == "strict-rfc1459":
            return name.translate(_STRICT)
        return name.translate(_RFC1459)

    def is_me(self, nick: str) -> bool:
        return bool(self.me) and self.fold(nick) == self.fold(self.me)

    def person(self, nick: str) -> Person:
        key = self.fold(nick)
        person = self.people.get(key)
        if person is None:
            person = self.people[key] = Person(nick)
        return person

    def channel(self, name: str) -> Channel | None:
        return self.channels.get(self.fold(name))

    def is_op(self, nick: str, channel: str) -> bool:
        chan = self.channel(channel)
        if chan is None:
            return False
        return bool(chan.members.get(self.fold(nick), set()) & OP_MODES)

    def in_channel(self, nick: str, channel: str) -> bool:
        chan = self.channel(channel)
        return chan is not None and self.fold(nick) in chan.members

    def user(self, nick: str, channel: str | None = None) -> User:
        """The hub's view of ``nick`` (op status only for a channel line)."""
        person = self.people.get(self.fold(nick)) or Person(nick)
        return User(
            nick=nick,
            account=person.account,
            mask=person.mask,
            is_op=channel is not None and self.is_op(nick, channel),
        )

    def channel_modes(self, channel: str) -> set[str] | None:
        """The channel's simple modes, or None while they are not known (not joined, not yet asked)."""
        chan = self.channel(channel)
        return set(chan.modes) if chan and chan.modes_known else None

    def reset(self) -> None:
        """Forget everything (a new connection): channels are rejoined and resynced."""
        self.people.clear()
        self.channels.clear()

    # --- server features --------------------------------------------------------------------
    def isupport(self, tokens: list[str]) -> None:
        for token in tokens:
            name, _eq, value = token.partition("=")
            name = name.upper()
            if name == "CASEMAPPING" and value:
                self.casemapping = value.lower()
            elif name == "PREFIX" and value.startswith("(") and ")" in value:
                modes, symbols = value[1:].split(")", 1)
                self.prefix = dict(zip(symbols, modes, strict=False))
            elif name == "CHANMODES" and value:
                parts = [*value.split(","), "", "", "", ""][:4]
                self.chanmodes = (parts[0], parts[1], parts[2], parts[3])

    def _split_prefixes(self, name: str) -> tuple[set[str], str]:
        modes: set[str] = set()
        while name and name[0] in self.prefix:
            modes.add(self.prefix[name[0]])
            name = name[1:]
        return modes, name

    # --- the events -------------------------------------------------------------------------
    def _learn(self, line: Line) -> None:
        """Hostmask and account tag of whoever sent the line."""
        if "!" not in line.source:
            return
        person = self.person(line.nick)
        person.nick = line.nick
        user, host = line.userhost
        if user and host:
            person.user, person.host = user, host
        if "account" in line.tags:
            account = line.tags["account"]
            person.account = account if account and account != "*" else None

    def feed(self, line: Line) -> list[Event]:
        handler = getattr(self, "_on_" + line.command.lower(), None)
        if handler is None:
            return []
        return handler(line) or []

    def _on_001(self, line: Line) -> None:
        self.me = line.param(0, self.me)

    def _on_005(self, line: Line) -> None:
        self.isupport(list(line.params[1:-1]))

    def _on_join(self, line: Line) -> list[Event]:
        self._learn(line)
        name = line.param(0)
        person = self.person(line.nick)
        if len(line.params) >= 2:  # extended-join: JOIN #chan account :realname
            account = line.params[1]
            person.account = None if account == "*" else account
        if self.is_me(line.nick):
            self.channels[self.fold(name)] = Channel(name)
            return []
        chan = self.channel(name)
        if chan is not None:
            chan.members[self.fold(line.nick)] = set()
        return [Returned(name, self.user(line.nick))]

    def present(self, channel: str, nick: str, key: str) -> bool:
        """Whether the identity ``key`` (seated as ``nick``) is in ``channel``.

        A member under that nick whose hostmask is not known yet gets the
        benefit of the doubt (nothing private reaches them until it is known).
        """
        chan = self.channel(channel)
        if chan is None:
            return False
        for member in chan.members:
            person = self.people.get(member)
            if person is None:
                if member == self.fold(nick):
                    return True
                continue
            if User(person.nick, person.account, person.mask).key == key:
                return True
            if member == self.fold(nick) and person.mask is None and person.account is None:
                return True
        return False

    def _drop(self, nick: str, name: str) -> None:
        chan = self.channel(name)
        if chan is not None:
            chan.members.pop(self.fold(nick), None)
        if not any(self.fold(nick) in c.members for c in self.channels.values()) and not self.is_me(nick):
            self.people.pop(self.fold(nick), None)

    def _on_part(self, line: Line) -> list[Event]:
        self._learn(line)
        name = line.param(0)
        if self.is_me(line.nick):
            self.channels.pop(self.fold(name), None)
            return []
        user = self.user(line.nick)
        self._drop(line.nick, name)
        return [Left(name, user)]

    def _on_kick(self, line: Line) -> list[Event]:
        name, nick = line.param(0), line.param(1)
        if self.is_me(nick):
            self.channels.pop(self.fold(name), None)
            return []
        user = self.user(nick)
        self._drop(nick, name)
        return [Left(name, user)]

    def _on_quit(self, line: Line) -> list[Event]:
        self._learn(line)
        if self.is_me(line.nick):
            return []
        user = self.user(line.nick)
        for chan in self.channels.values():
            chan.members.pop(self.fold(line.nick), None)
        self.people.pop(self.fold(line.nick), None)
        return [Left(None, user)]

    def _on_nick(self, line: Line) -> list[Event]:
        self._learn(line)
        old_nick, new_nick = line.nick, line.param(0)
        if not new_nick:
            return []
        old_user = self.user(old_nick)
        person = self.people.pop(self.fold(old_nick), None) or Person(old_nick)
        person.nick = new_nick
        self.people[self.fold(new_nick)] = person
        for chan in self.channels.values():
            modes = chan.members.pop(self.fold(old_nick), None)
            if modes is not None:
                chan.members[self.fold(new_nick)] = modes
        if self.is_me(old_nick):
            self.me = new_nick
            return []
        return [Renamed(old_user, self.user(new_nick))]

    def _on_account(self, line: Line) -> list[Event]:
        account = line.param(0)
        person = self.person(line.nick)
        before = self.user(line.nick)
        person.account = None if account in ("*", "") else account
        if before.account is None and person.account and not self.is_me(line.nick):
            # logged in: the seats bound to the nick move to the account
            return [Renamed(before, self.user(line.nick))]
        return []

    def _on_chghost(self, line: Line) -> list[Event]:
        person = self.person(line.nick)
        before = self.user(line.nick)
        person.user, person.host = line.param(0), line.param(1)
        after = self.user(line.nick)
        if before.key != after.key and before.mask and not self.is_me(line.nick):
            # a new cloak (or ident) for the same connection: seats bound to the old host follow it
            return [Renamed(before, after)]
        return []

    def holds(self, nick: str, key: str) -> bool:
        """Whether ``nick`` is held right now by the identity ``key`` (so its private lines may go there).

        A seat bound to an account or a hostmask is only ever told anything
        while that account or hostmask holds the nick; somebody who took the
        nick from another ``user@host`` is a stranger. A nick whose hostmask
        is not known yet (before WHO answers) holds nothing bound to a host.
        """
        if key.startswith("n:"):
            return key[2:] == nick.lower()
        person = self.people.get(self.fold(nick))
        if person is None:
            return False
        return User(person.nick, person.account, person.mask).key == key

    def _on_privmsg(self, line: Line) -> None:
        self._learn(line)

    def _on_353(self, line: Line) -> None:
        # RPL_NAMREPLY: me <symbol> #chan :[prefixes]nick[!user@host] ...
        chan = self.channel(line.param(-2))
        if chan is None:
            return
        for item in line.param(-1).split():
            modes, name = self._split_prefixes(item)
            nick, _bang, userhost = name.partition("!")
            if not nick:
                continue
            person = self.person(nick)
            if userhost and "@" in userhost:
                person.user, person.host = userhost.split("@", 1)
            chan.members[self.fold(nick)] = modes

    def _who_flags(self, chan: Channel | None, nick: str, flags: str) -> None:
        if chan is None:
            return
        modes = {self.prefix[c] for c in flags if c in self.prefix}
        chan.members[self.fold(nick)] = modes

    def _on_352(self, line: Line) -> None:
        # RPL_WHOREPLY: me #chan user host server nick flags :hops realname
        if len(line.params) < 7:
            return
        _me, channel, user, host, _server, nick, flags = line.params[:7]
        person = self.person(nick)
        person.user, person.host = user, host
        self._who_flags(self.channel(channel), nick, flags)

    def _on_354(self, line: Line) -> None:
        # WHOX reply to "WHO #chan %tcuhnfa,42": me 42 #chan user host nick flags account
        if len(line.params) < 8 or line.params[1] != "42":
            return
        _me, _token, channel, user, host, nick, flags, account = line.params[:8]
        person = self.person(nick)
        person.user, person.host = user, host
        person.account = None if account in ("0", "*", "") else account
        self._who_flags(self.channel(channel), nick, flags)

    def _on_324(self, line: Line) -> None:
        # RPL_CHANNELMODEIS: me #chan +modes [params]
        chan = self.channel(line.param(1))
        if chan is None:
            return
        chan.modes = {c for c in line.param(2) if c not in "+-" and c not in self.chanmodes[0]}
        chan.modes_known = True

    def _on_mode(self, line: Line) -> None:
        target = line.param(0)
        chan = self.channel(target)
        if chan is None or len(line.params) < 2:
            return
        args = list(line.params[2:])
        adding = True
        list_modes, always, set_only, _flags = self.chanmodes
        for char in line.params[1]:
            if char in "+-":
                adding = char == "+"
                continue
            if char in self.prefix.values():
                nick = args.pop(0) if args else ""
                if nick:
                    member = chan.members.setdefault(self.fold(nick), set())
                    (member.add if adding else member.discard)(char)
            elif char in list_modes or char in always:
                if args:
                    args.pop(0)
            elif char in set_only:
                if adding and args:
                    args.pop(0)
                (chan.modes.add if adding else chan.modes.discard)(char)
            else:
                (chan.modes.add if adding else chan.modes.discard)(char)
