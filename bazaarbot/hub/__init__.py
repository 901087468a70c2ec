"""The hub: where every line and event from a transport meets the tables, and what it sends back.

Owns ``Hub`` (``hub``), the composition of the pipeline's stages and of its
parts: the transports' views and the web's drawn tables (``views``), people
arriving, leaving and renaming (``identity``), the services commands are
given (``services``), language choices (``languages``), the AI seats'
turns run in the background (``autoplay``), which tables the turn clock's
tick looks at (``tick_schedule``), and the hub ``bazaarbot console``
serves (``console``).

May import: every core package below it (``messages``, ``delivery``,
``text``, ``i18n``, ``plugin``, ``registry``, ``words``, ``ai``, ``config``,
``store``, ``table``, ``people``, ``ratings``, ``tableview``, ``teach``,
``commands``, ``pipeline``, ``metrics``); never ``transports`` or ``cli``.
"""
