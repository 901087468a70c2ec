"""A table as structured data for a drawn web table: lobby, public board, whose turn, your part.

It is built from a ``Table`` and the replay of its latest game in two parts:
the public one (what a spectator may see), the same for everybody who reads
the room in one language, and the reader's own (``you``: their seat, and for
a seated player that seat's private data and legal commands), so a change is
built once for the room and once per seated reader.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bazaarbot.i18n import WordsIn, _, current_language, localized
from bazaarbot.i18n.catalogue import Joined, Msg
from bazaarbot.plugin import Result
from bazaarbot.table import Table
from bazaarbot.table.ai_names import ai_name
from bazaarbot.table.gamelog import Replay
from bazaarbot.tableview.seats import clock, seating, take_back

#: log entries a view carries (the page keeps what it has seen; a reload shows this many)
LOG_TAIL = 80

#: a verb with at most this many commands comes with the view (the page shows them as buttons); the
#: commands of a longer verb (a list, a card picker) the page asks for when it draws them
INLINE_COMMANDS = 8


def _score(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def result_data(result: Result, nicks: list[str]) -> dict[str, Any]:
    """A finished game's result with names, and the one line that says it."""
    nicks = [str(ai_name(nick)) for nick in nicks]  # an AI by its name in the reader's language
    winners = [nicks[i] for i in result.winners]
    scores = [{"nick": nicks[i], "score": _score(result.scores.get(i, 0))} for i in range(len(nicks))]
    verb = _("win") if len(winners) > 1 else _("wins")
    headline = _("Game over: {winners} {verb}!").format(winners=", ".join(winners), verb=verb)
    return {
        "winners": result.winners,
        "ranking": result.ranking,
        "scores": scores,
        "detail": result.detail,
        "headline": headline,
    }


def in_reader_words(data: Any, lang: str | None = None) -> Any:
    """A game's public data with every name that has a word in each language (an AI's, which the
    game's state holds as such) in the language the view is built in."""
    return _in_words(data, lang or current_language())


#: the types of a game's data that hold no words (most of its members: counts, cards, scores)
_WORDLESS = frozenset({int, float, bool, type(None), str})


def _in_words(data: Any, lang: str) -> Any:
    # a member without words is taken as it is right where it is met (no call for each count or
    # card name: a board has dozens), so only words and containers come back in here
    kind = type(data)
    if kind in _WORDLESS:
        return data
    if kind is Msg and data.lang == lang and not data.args and not data.kwargs:
        return str.__str__(data)  # a word without words filled in, built in the reader's language
    if kind is dict:
        return {k: v if type(v) in _WORDLESS else _in_words(v, lang) for k, v in data.items()}
    if kind is WordsIn and data.lang == lang and _as_said(data):
        return data  # a drawn table's labels: shared, made in this language, carried as they are
    if kind is list:
        return [v if type(v) in _WORDLESS else _in_words(v, lang) for v in data]
    if isinstance(data, Msg):
        return str.__str__(data) if _said_in(data, lang) else str(localized(data, lang))
    if isinstance(data, dict):
        return {key: _in_words(value, lang) for key, value in data.items()}
    if isinstance(data, list):
        return [_in_words(item, lang) for item in data]
    return data


def _as_said(words: WordsIn) -> bool:
    """Whether each of ``words`` reads as rendered in their language already (looked at once: they
    never change)."""
    if words.as_said is None:
        words.as_said = all(
            type(v) in _WORDLESS or (isinstance(v, Msg) and _said_in(v, words.lang)) for v in words.values()
        )
    return words.as_said


def _said_in(msg: Msg, lang: str) -> bool:
    """Whether ``msg`` reads as it would be rendered in ``lang`` already: built there, and every
    word filled into it too (most of a view's words are, and rendering them again is its cost)."""
    if isinstance(msg, Joined):
        return all(not isinstance(part, Msg) or _said_in(part, lang) for part in msg.parts)
    if getattr(msg, "lang", None) != lang:
        return False
    return all(not isinstance(a, Msg) or _said_in(a, lang) for a in (*msg.args, *msg.kwargs.values()))


def _example(table: Table) -> str:
    """The game's typical move in the reader's words (the page's input hint)."""
    plugin = table.plugin
    if not plugin.example_move:
        return ""
    state = table.state if table.running else None
    return plugin.command_in(state, -1, plugin.example_move, current_language())


def ais_named_in_each_language(plugin: Any, state: Any) -> Any:
    """A finished game's state (read back from its record, where an AI is ``AI:easy``) with each AI
    seat named in every language, as a running game's state names it: its board after the game says
    ``KI:leicht`` to a German reader too."""
    names = getattr(state, "players", None)
    if not isinstance(names, list) or all(ai_name(str(n)) == n for n in names):
        return state
    named = plugin.clone(state)  # the replay keeps its own state as read
    named.players = [ai_name(str(n)) for n in names]
    return named


def public_view(table: Table, replay: Replay | None) -> dict[str, Any]:
    """What everybody at the room sees of its table (``you`` is None): built once per change and language."""
    plugin = table.plugin
    view: dict[str, Any] = {
        "game": plugin.name,
        "title": plugin.title,
        "example": _example(table),
        "min": plugin.min_players,
        "max": plugin.max_players,
        "seats": [{"number": s.number, "nick": str(ai_name(s.nick))} for s in table.seats],
        "host": table.host_nick() if table.seats else None,
        "phase": "lobby",
        "players": [],
        "to_act": [],
        "public": None,
        "result": None,
        "log": [],
        "moves": 0,
        "game_id": None,
        "games": sorted(table.games),
        "titles": {name: game.title for name, game in table.games.items()},
        "you": None,
        "terms": plugin.terms(),
        "seating": seating(table),
        "clock": clock(table),
    }
    if table.running:
        state = table.state
        view.update(
            phase="running",
            game=plugin.name,
            title=plugin.title,
            players=[str(ai_name(s.nick)) for s in table.players],  # an AI named in the reader's language
            to_act=plugin.to_act(state),
            public=in_reader_words(plugin.public_data(state)),
            moves=table.moves_made,
            game_id=table.game_id,
        )
    elif replay is not None and replay.status == "finished":
        final = replay.settled_state()
        result = replay.plugin.result(final)
        view.update(
            phase="over",
            game=replay.plugin.name,
            title=replay.plugin.title,
            players=[str(ai_name(nick)) for nick in replay.nicks],
            public=in_reader_words(
                replay.plugin.public_data(ais_named_in_each_language(replay.plugin, final))
            ),
            moves=replay.moves_read,
            game_id=replay.game_id,
            result=result_data(result, replay.nicks) if result is not None else None,
        )
        if view["result"] is not None:
            view["result"]["breakdown"] = replay.plugin.breakdown(final)
    if replay is not None and view["phase"] != "lobby":
        view["log"] = replay.as_read(current_language(), LOG_TAIL)
        # the last move, for the table to point out (the log is sent apart; this stays with the view):
        # ``text`` as played (English, what a drawn table reads), ``said`` as the reader types it,
        # ``nick`` as the reader names the seat
        last = replay.entries[-1] if replay.entries else None
        read = view["log"][-1] if last is not None else None
        view["last"] = last.as_dict() | {"said": read["text"], "nick": read["nick"]} if read else None
    return view


def your_view(table: Table, key: str | None, wanted: Collection[str] = ()) -> dict[str, Any] | None:
    """The reader's own part of the table: their seat, and in a game their private data and commands.

    ``wanted``: the long verbs whose commands the reader's page asked for once (it draws them at
    every turn), which the view then carries like a short verb's.
    """
    if key is None:
        return None
    seat = table.seat_of(key)
    you: dict[str, Any] = {
        "seated": seat is not None,
        "host": seat is not None and table.host == key,
        "seat": None,
        "take_back": take_back(table, key),
    }
    game_seat = table.game_seat_of(key) if table.running else None
    if game_seat is not None:
        plugin, state = table.plugin, table.state
        you["seat"] = game_seat
        you["private"] = plugin.private_data(state, game_seat)
        groups = commands_by_verb(table.legal_now(game_seat))
        typed = table.typed_now(game_seat)
        carried = {verb for verb, group in groups.items() if len(group) <= INLINE_COMMANDS or verb in wanted}
        #: every verb the reader may play now, in the rules' order: the English verb, the reader's
        #: word for it, how many commands it has, and whether this view carries them (else the
        #: page asks for them with a ``moves`` request)
        you["verbs"] = [
            {
                "verb": verb,
                "word": typed[group[0]].split(" ", 1)[0],
                "count": len(group),
                "carried": verb in carried,
            }
            for verb, group in groups.items()
        ]
        you["commands"] = [c for verb, group in groups.items() if verb in carried for c in group]
        you["said"] = said_of(table, game_seat, you["commands"])
    return you


def verb_of(command: str) -> str:
    """A command's verb: its first word, in English as the rules spell it."""
    return command.split(" ", 1)[0]


def commands_by_verb(commands: list[str]) -> dict[str, list[str]]:
    """The commands grouped by verb, verbs and commands in the rules' order."""
    groups: dict[str, list[str]] = {}
    for command in commands:
        groups.setdefault(verb_of(command), []).append(command)
    return groups


def said_of(table: Table, seat: int, commands: list[str]) -> dict[str, str]:
    """Each command the reader types otherwise in their language (buttons show these and send the
    English); a command typed as it is is left out, and the page shows it as it is."""
    typed = table.typed_now(seat)
    return {c: words for c in commands if (words := typed[c]) != c}


def verb_commands(table: Table, key: str, verb: str | None) -> dict[str, Any] | None:
    """The reader's commands of one verb now (all of them without a verb), for the page that draws
    them; None when the reader has no seat in the running game."""
    seat = table.game_seat_of(key) if table.running else None
    if seat is None:
        return None
    legal = table.legal_now(seat)
    commands = list(legal) if verb is None else [c for c in legal if verb_of(c) == verb]
    return {
        "game_id": table.game_id,
        "moves": table.moves_made,
        "commands": commands,
        "said": said_of(table, seat, commands),
    }
