"""Whether this process may send anything to a network now: the lease's proof, asked before every send.

A process that serves networks of a PostgreSQL store holds them by a lease. Frozen
(SIGSTOP, a stalled host) past the lease's deadline, it wakes with lines read before
the freeze or during it still to be answered, while another process already serves the
networks. The commit fence refuses its moves, but an answer that writes nothing (a
board, a status, a join) would still leave: so every transport asks ``may_speak()``
right before it writes to its network, and drops what waits once the answer is no.
Without a lease (sqlite, the console, tests of one process) the answer is always yes.
"""

from __future__ import annotations

from collections.abc import Callable

_proof: Callable[[], bool] | None = None


def speak_only_while(proof: Callable[[], bool] | None) -> None:
    """From now on, this process speaks only while ``proof()`` holds (None: always)."""
    global _proof
    _proof = proof


def may_speak() -> bool:
    """Whether a line may leave this process now."""
    proof = _proof
    return proof is None or proof()
