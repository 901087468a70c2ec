"""The stages one chat line passes through, one module each, in the order ``Hub`` runs them.

1. ``reading``     sanitize the line and read it: a command, a move, a near-miss or chatter
2. ``gate``        the line length and the rate limit (``ratelimit``); ``permission`` with ``admins``
3. ``dispatch``    a command handler or the table (``private_target`` finds a private line's table)
4. ``localize``    each private answer in its reader's language and form
5. ``commit``      the line's work as one unit of the store; as it closes, table-changed (``events``)
                   lets its subscribers add their writes (``snapshots``, the seat index)
6. after commit    game-finished: ``rating`` rates a game once the unit that ended it is on disk
7. ``deliver``     every message to the transport of its network

``bazaarbot/hub/hub.py`` runs them top to bottom in ``Hub._line`` and ``Hub.run_and_send``.

May import: ``commands``, ``config``, ``delivery``, ``i18n``, ``messages``, ``metrics``,
``ratings``, ``store``, ``table``, ``text``, ``words``.
"""
