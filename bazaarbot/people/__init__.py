"""Seats and people: where a person sits, who comes back, their list of tables, leaves in grace, calls.

Owns the index of who sits where by identity (``seat_index``), a returning
player's paused games and reminders (``returning``), "my tables"
(``mygames``), the grace period of a part or quit (``leaves``) and who is
called when a table opens (``openings``, ``/notify``).

May import: ``messages``, ``i18n``, ``table`` and the packages below them.
"""
