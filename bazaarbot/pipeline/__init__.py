"""The stages one chat line passes through, one module each, in the order ``Hub`` runs them.

1. ``reading``     sanitize the line and read it: a command, a move, a near-miss or chatter
2. ``gate``        the line length and the rate limit (``ratelimit``); ``permission`` with ``admins``
3. ``dispatch``    a command handler or the table (``private_target`` finds a private line's table)
4. ``commit``      the line's writes as one unit of the store, committed before anything is said
5. after-commit    subscribers of ``events``: ``snapshots``, the seat index, ``rating`` of ended games
6. ``localize``    each private line in its reader's language and form
7. ``deliver``     every message to the transport of its network

``bazaarbot/hub.py`` runs them top to bottom in ``Hub._line`` and ``Hub.run_and_send``.
"""
