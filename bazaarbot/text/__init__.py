"""Small text helpers with no knowledge of games: digits, cleaning, command marks, addresses.

Owns the one way a number a person or URL gives is read (``digits``), the
cleaning of text from the networks (``sanitize``), the mark that turns a
command name into the reader's prefix (``commandmark``) and the operator's
addresses and networks (``addresses``).

May import: nothing of the project (the standard library only).
"""
