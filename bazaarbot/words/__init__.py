"""Wording shared by the core's sentences: moves as the reader types them, counts, "did you mean".

Owns a game's command in the reader's language (``moves``), counts and
scores read right (``counts``) and the slip-tolerant match of a move's first
word (``typos``).

May import: ``i18n``, ``plugin`` and the packages below them.
"""
