"""The AI as a teacher: hints during a game, a review after it, and the data of a replay.

The searches (``hint.py``, ``review.py``) are pure functions of a position or
a game record and run in the AI's worker processes; ``teacher.py`` starts
them from the event loop and sends their answers; ``bazaarbot.store.teaching`` keeps
what must outlive a restart (hints given, reviews made) in the bot's sqlite file.

May import: ``ai``, ``i18n``, ``messages``, ``plugin``, ``store``, ``table``, ``tableview``, ``text``.
"""
