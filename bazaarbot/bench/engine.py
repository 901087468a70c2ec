"""``bazaarbot bench engine``: each game's rules engine speed, as its plugin's ``bench`` measures it."""

from __future__ import annotations

import argparse
import sys


def main(args: argparse.Namespace) -> int:
    """One ``<game>: <figure> <label>`` line per figure of each game (or the one named)."""
    from bazaarbot.registry import discover

    games = discover()
    names = [args.game] if args.game else sorted(games)
    for name in names:
        if name not in games:
            print(f"no game {name!r}; installed: {', '.join(sorted(games))}", file=sys.stderr)
            return 2
        for label, value in games[name].bench(args.seconds):
            print(f"{name}: {value:,.0f} {label}")
    return 0
