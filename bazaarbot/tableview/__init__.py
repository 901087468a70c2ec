"""A table as data for a drawn page: the public board, the seats' facts, the reader's own part.

Owns the structured view a web page draws (``table``) and the seat facts its
buttons and clock follow (``seats``); transports only encode what it builds.

May import: ``i18n``, ``plugin``, ``words``, ``table`` and the packages below them.
"""
