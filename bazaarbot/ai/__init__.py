"""AI players: a generic ISMCTS over the plugin contract, named levels, a process pool.

The table calls ``AiPool.think`` (off the event loop) with the state's
``to_json`` and a seed from ``ai_seed``; scripts call ``choose`` directly.

May import: ``plugin`` and ``registry`` only (the searches know games by their contract).
"""

from __future__ import annotations

from .choose import choose
from .levels import DEFAULT_LEVELS, Level
from .pool import AiPool
from .seed import ai_seed

__all__ = ["DEFAULT_LEVELS", "AiPool", "Level", "ai_seed", "choose"]
