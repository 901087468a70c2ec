"""Who a seat's result is rated for: its person, an AI level, or nobody.

A seat is bound to a user key (``a:<account>``, ``n:<nick>``) or, for an AI
seat, to ``ai:<level>:<seat number>``; the rating identity of an AI is its
level alone (``ai:<level>``), one per level and game, the same on every
network. A seat whose decisions were mostly made by somebody else (an AI
standing in for a person who left, or a person for an AI) says nothing
about its owner's skill and is not rated.
"""

from __future__ import annotations

from collections.abc import Iterable

#: a seat whose decisions were made by others for more than this share is not rated for its owner
AI_SHARE_LIMIT = 0.5

#: the network AI identities are rated on: one rating per level and game, wherever it plays
AI_NETWORK = ""


def identity_of(key: str) -> str:
    """The rating identity of a seat key: ``ai:hard:2`` -> ``ai:hard``, a person's key unchanged."""
    if is_ai(key):
        parts = key.split(":")
        return ":".join(parts[:2])
    return key


def is_ai(key: str) -> bool:
    return key.startswith("ai:")


def network_of(identity: str, network: str) -> str:
    """Where an identity's rating lives: AI levels on one shared network, people on their own."""
    return AI_NETWORK if is_ai(identity) else network


def played_by_owner(identity: str, authors: Iterable[str]) -> bool:
    """Whether the seat's owner made enough of its decisions (by the authors in the move log) to be rated.

    For a person every move not made by an AI counts as theirs (the key in the
    log may be an older nick of theirs); for an AI level only its own moves do.
    """
    authors = list(authors)
    if not authors:
        return True
    if is_ai(identity):
        others = sum(1 for a in authors if identity_of(a) != identity)
    else:
        others = sum(1 for a in authors if is_ai(a))
    return others <= AI_SHARE_LIMIT * len(authors)
