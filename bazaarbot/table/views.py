"""What a table shows: its status, the board, a player's hand, a player's legal moves."""

from __future__ import annotations

from bazaarbot.i18n import _, language
from bazaarbot.messages import Outgoing, User
from bazaarbot.table.core import TableCore
from bazaarbot.table.game import RunningGame
from bazaarbot.table.presence import Presence
from bazaarbot.table.seats import Actor
from bazaarbot.words.counts import players_label


class Views:
    """Read-only answers about a table."""

    def __init__(self, core: TableCore, game: RunningGame, presence: Presence) -> None:
        self.core = core
        self.game = game
        self.presence = presence

    def status(self) -> str:
        plugin = self.core.plugin
        if self.game.running:
            to_act = ", ".join(self.core.players[s].label for s in plugin.to_act(self.game.state))
            names = _(" vs ").join(s.label for s in self.core.players)
            line = _("{game} running: {names}. To act: {who}.").format(
                game=plugin.title, names=names, who=to_act or "-"
            )
            if self.presence.idle_since is not None:
                line += " " + _("Paused until a player comes back.")
            return line
        if not self.core.seats:
            return _("{game} table, nobody seated ({players}). /join to sit down.").format(
                game=plugin.title, players=players_label(plugin)
            )
        names = ", ".join(f"{s.number} {s.label}" for s in self.core.seats)
        return _("{game} lobby ({players}). Seated: {names}. Host: {host}. /start to begin.").format(
            game=plugin.title,
            players=players_label(plugin),
            names=names,
            host=self.core.host_nick(),
        )

    def board(self) -> str:
        if not self.game.running:
            return _("No game is running here. {status}").format(status=self.status())
        return self.core.plugin.board(self.game.state)

    def hand(self, actor: Actor) -> list[Outgoing]:
        seat = self.core.game_seat_of(actor.user.key)
        if not self.game.running or seat is None:
            return [
                self.core.tell(
                    actor.user.nick,
                    _("You are not playing a game at this table.") + self.claim_hint(actor.user),
                )
            ]
        view = self.game.view_of(seat)
        return [
            self.core.tell(
                actor.user.nick,
                view
                or _("You hold nothing secret in {game}; /board shows it all.").format(
                    game=self.core.plugin.title
                ),
                key=actor.user.key,
            )
        ]

    def claim_hint(self, user: User) -> str:
        """For somebody under a seated nick but from another address: how the real owner gets back in."""
        seats = [*self.core.seats, *self.core.players]
        if not any(s.nick.lower() == user.nick.lower() and s.key != user.key and not s.is_bot for s in seats):
            return ""
        return " " + _(
            "A seat here is held by {nick} from another address; if it is yours, /claim <code> "
            "with the code I told you at /join."
        ).format(nick=user.nick)

    def moves(self, actor: Actor, full: bool, word: str = "") -> list[Outgoing]:
        """``/moves``: a summary, or (``all``) every legal command, or those that contain ``word``."""
        with language(self.core.language_of(actor.user.key)):  # built as its reader reads it
            return self._moves(actor, full, word)

    def _moves(self, actor: Actor, full: bool, word: str) -> list[Outgoing]:
        nick = actor.user.nick
        seat = self.core.game_seat_of(actor.user.key)
        if not self.game.running or seat is None:
            return [self.core.tell(nick, _("You are not playing a game at this table."))]
        if seat not in self.core.plugin.to_act(self.game.state):
            if full:
                return [self.core.tell(nick, "(no moves)")]
            waiting = ", ".join(self.core.players[s].label for s in self.core.plugin.to_act(self.game.state))
            return [self.core.tell(nick, _("It is not your turn; waiting for {who}.").format(who=waiting))]
        if full:
            legal = self.game.legal_now(seat)
            typed = self.game.typed_now(seat)
            shown = [typed[c] for c in legal]
            if word:  # the word may be English or the reader's
                needle = word.lower()
                shown = [
                    s for c, s in zip(legal, shown, strict=True) if needle in c.lower() or needle in s.lower()
                ]
            commands = shown
            return [
                self.core.tell(
                    nick,
                    "\n".join(commands) if commands else "(no moves)",
                    listing=True,
                    key=actor.user.key,
                    commands=bool(commands),
                )
            ]
        return [self.core.tell(nick, self.core.plugin.brief_moves(self.game.state, seat), key=actor.user.key)]
