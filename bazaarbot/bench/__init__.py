"""Benchmarks, outside the core: ``bazaarbot bench engine|ai|load``.

- ``engine`` — each game's rules engine speed;
- ``ai`` — an AI level's strength against a baseline (``ai_ratings``: the
  games filed and rated with ``--record``);
- ``load`` — many live tables through the real hub and store.

``commands`` declares the sub-commands (each with only its own flags). Their
output lines are read by scripts: keep them as they are. ``botprocess`` starts the bot as a
process of its own (``load --web``, and the tests that run the real ``bazaarbot run``);
``parts`` runs it with named parts of its event loop timed (``load --versus --parts``).

May import: ``ai``, ``collector``, ``config``, ``hub``, ``messages``, ``plugin``, ``ratings``,
``registry``, ``store``, ``teach`` (it drives the real hub; nothing imports it but ``cli``).
"""
