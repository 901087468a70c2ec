"""bazaarbot: a chat-room game bot for Jaipur, Yspahan and Sid Sackson's Bazaar."""

__version__ = "0.1.0"
