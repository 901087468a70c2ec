"""Sid Sackson's Bazaar, as the BrettspielWelt chat game played it (rules reference §9).

Where no source settles a rule, the choice is a named constant or option:
``rules.START_SEAT`` (seat 1 starts, then seat order), ``rules.HAND_LIMIT`` and
``rules.BANK_PER_COLOUR`` (the classic rules, options ``hand_limit`` and ``bank``,
off by default), ``rules.POINTS`` with the higher table only for purchases made
after a field is already empty, ties share the win (``result``), the exchange
table generator and its optional quality gate (``exchange``, ``quality``), the
deck acceptance ranges (``deck``), and for the finite bank: a player who can
neither draw nor trade may only buy or pass, and a whole round of such passes
ends the game (``rules.do_pass``).
"""

from .game import BazaarGame

GAME = BazaarGame()

__all__ = ["GAME", "BazaarGame"]
