"""The sentences of hints and reviews (figures from the search, said in the reader's language)."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _, ngettext


def percent(chance: float) -> int:
    return round(100 * max(0.0, min(1.0, chance)))


#: a hint that took longer than this (seconds from the request) says how long
SLOW_HINT_SECONDS = 2.0


def hint_lines(moves: list[dict[str, Any]], seconds: float | None = None) -> list[str]:
    """One line per suggested move: the command, its share of the search, its win chance, a reason.

    ``seconds`` (from the request to the answer) is said only when it is over ``SLOW_HINT_SECONDS``.
    """
    if not moves:
        return [_("You have no move to choose now.")]
    if len(moves) == 1 and moves[0]["chance"] is None:
        return [_("Only one move is possible: {command}").format(command=moves[0]["command"])]
    playouts = int(moves[0].get("playouts", 0))
    lines = [
        ngettext(
            "Hint (a search of {n} playout), best first:",
            "Hint (a search of {n} playouts), best first:",
            playouts,
        ).format(n=playouts)
    ]
    if seconds is not None and seconds > SLOW_HINT_SECONDS:
        lines[0] += " " + _("(It took {seconds} s.)").format(seconds=f"{seconds:.0f}")
    for rank, move in enumerate(moves, 1):
        line = _("{rank}. {command} - search share {share}%, win chance {chance}%").format(
            rank=rank, command=move["command"], share=percent(move["share"]), chance=percent(move["chance"])
        )
        if move.get("by_chance"):
            line += " - " + _("ahead of a move searched about as often, for its better win chance")
        if move.get("reason"):
            line += " - " + move["reason"]
        lines.append(line)
    return lines


def review_lines(review: dict[str, Any], seat: int, worst: list[dict[str, Any]], title: str) -> list[str]:
    """A person's private review: the decisions that cost them the most, each with the better move."""
    game_id = review.get("game_id")
    nick = review["players"][seat]
    if not worst:
        lines = [
            _(
                "Review of game {id} ({game}) for {nick}: "
                "the search found no move of yours that lost win chance."
            ).format(id=game_id, game=title, nick=nick)
        ]
    else:
        lines = [
            ngettext(
                "Review of game {id} ({game}) for {nick}: your decision that cost the most win chance.",
                "Review of game {id} ({game}) for {nick}: your {n} decisions that cost the most win chance.",
                len(worst),
            ).format(id=game_id, game=title, nick=nick, n=len(worst))
        ]
        for decision in worst:
            lines.append(
                _(
                    'Move {n}: you played "{played}" (win chance {chance}%); '
                    '"{best}" was better ({best_chance}%).'
                ).format(
                    n=decision["step"] + 1,
                    played=decision["played"],
                    chance=percent(decision["chance"]),
                    best=decision["best"],
                    best_chance=percent(decision["best_chance"]),
                )
            )
    if not review.get("complete", True):
        lines.append(_("The game was long: the review stopped before its end."))
    lines.append(_("Replay and win-chance graph on the web page: /replay/{id}").format(id=game_id))
    return lines
