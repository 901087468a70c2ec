"""Transports: each network's own protocol, turned into the core's messages and back.

Owns the IRC (``irc``), Matrix (``matrix``), web (``web``) and console
(``console``) transports and the port they all speak to the hub through
(``base.HubPort``). Everything about a network (line length, pacing,
colours, reconnects, identity, HTTP) lives here and nowhere else.

May import: ``commands`` (the declared command names), ``config``,
``delivery``, ``i18n``, ``messages``, ``metrics``, ``text``; never the hub
(the composition root, ``cli``, hands each transport the hub as a port).
"""
