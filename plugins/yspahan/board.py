"""The static city of Yspahan: tower fields, the cross-shaped road, souks and shops.

Everything here is immutable data computed once at import, so the rules can
look up adjacency, distances and souk membership by index without any work.
"""

from __future__ import annotations

from bazaarbot.i18n import N_, _

# --- the dice tower, bottom to top ---------------------------------------------
CAMELS, SACKS, BARRELS, CHESTS, VASES, GOLD = range(6)
FIELD_NAMES = ("camels", "sacks", "barrels", "chests", "vases", "gold")
FIELD_ALIASES = {
    "camels": CAMELS,
    "camel": CAMELS,
    "sacks": SACKS,
    "sack": SACKS,
    "barrels": BARRELS,
    "barrel": BARRELS,
    "chests": CHESTS,
    "chest": CHESTS,
    "vases": VASES,
    "vase": VASES,
    "gold": GOLD,
}
#: neighbourhood index (0..3) of a goods field, and back
NEIGHBOURHOOD_OF_FIELD = {SACKS: 0, BARRELS: 1, CHESTS: 2, VASES: 3}
NEIGHBOURHOOD_NAMES = (N_("Sacks"), N_("Barrels"), N_("Chests"), N_("Vases"))


def neighbourhood_name(nb: int) -> str:
    """A neighbourhood's name in the current language."""
    return _(NEIGHBOURHOOD_NAMES[nb])


# --- the road -------------------------------------------------------------------
#: arm name -> number of spaces, from the crossing outwards
ARMS = (("west", "W", 10), ("east", "E", 7), ("north", "N", 4), ("south", "S", 7))
DIRECTIONS = tuple(a[0] for a in ARMS)
DIRECTION_ALIASES = {"west": 0, "w": 0, "east": 1, "e": 1, "north": 2, "n": 2, "south": 3, "s": 3}
OPPOSITE = (1, 0, 3, 2)

CROSSING = 0
SPACE_NAMES: list[str] = ["X"]
#: arm of every space (-1 for the crossing) and its distance from the crossing
SPACE_ARM: list[int] = [-1]
SPACE_DEPTH: list[int] = [0]
ARM_SPACES: list[list[int]] = []
for _arm, (_name, _letter, _length) in enumerate(ARMS):
    ARM_SPACES.append([])
    for _k in range(1, _length + 1):
        ARM_SPACES[_arm].append(len(SPACE_NAMES))
        SPACE_NAMES.append(f"{_letter}{_k}")
        SPACE_ARM.append(_arm)
        SPACE_DEPTH.append(_k)
N_SPACES = len(SPACE_NAMES)  # 29
SPACE_INDEX = {name.lower(): i for i, name in enumerate(SPACE_NAMES)}
SPACE_INDEX["x"] = CROSSING
SPACE_INDEX["centre"] = CROSSING
SPACE_INDEX["center"] = CROSSING


def path_between(a: int, b: int) -> list[int]:
    """The unique simple path from space a to space b (excluding a, including b)."""
    if a == b:
        return []
    arm_a, arm_b = SPACE_ARM[a], SPACE_ARM[b]
    da, db = SPACE_DEPTH[a], SPACE_DEPTH[b]
    if arm_a == arm_b and arm_a >= 0:
        step = 1 if db > da else -1
        return [ARM_SPACES[arm_a][k - 1] for k in range(da + step, db + step, step)]
    inward = [ARM_SPACES[arm_a][k - 1] for k in range(da - 1, 0, -1)] + [CROSSING] if arm_a >= 0 else []
    outward = [ARM_SPACES[arm_b][k - 1] for k in range(1, db + 1)] if arm_b >= 0 else []
    return inward + outward


def first_direction(a: int, b: int) -> int:
    """The direction (0..3) of the first step from a towards b (a != b)."""
    nxt = path_between(a, b)[0]
    if nxt == CROSSING:
        return OPPOSITE[SPACE_ARM[a]]
    if SPACE_ARM[a] < 0:
        return SPACE_ARM[nxt]
    return SPACE_ARM[a] if SPACE_DEPTH[nxt] > SPACE_DEPTH[a] else OPPOSITE[SPACE_ARM[a]]


def turn_at_crossing(a: int, b: int) -> int:
    """The arm taken after passing the crossing, or -1 when the path does not pass it."""
    if SPACE_ARM[a] < 0 or SPACE_ARM[b] < 0 or SPACE_ARM[a] == SPACE_ARM[b]:
        return -1
    return SPACE_ARM[b]


def walk(a: int, direction: int, distance: int, turn: int = -1) -> int | None:
    """Where the supervisor ends after ``distance`` steps, or None if the road runs out.

    ``turn`` is the arm chosen at the crossing (-1: straight on). Reversing is
    impossible by construction: from an arm space the only choices are outward
    (along the arm) or inward (towards and through the crossing).
    """
    pos = a
    arm = SPACE_ARM[a]
    if distance == 0:
        return a
    if arm < 0:
        arm_to = direction
        if distance > len(ARM_SPACES[arm_to]):
            return None
        return ARM_SPACES[arm_to][distance - 1]
    depth = SPACE_DEPTH[pos]
    if direction == arm:  # outward
        if depth + distance > len(ARM_SPACES[arm]):
            return None
        return ARM_SPACES[arm][depth + distance - 1]
    if direction != OPPOSITE[arm]:
        return None
    if distance <= depth:
        return CROSSING if distance == depth else ARM_SPACES[arm][depth - distance - 1]
    rest = distance - depth
    arm_to = OPPOSITE[arm] if turn < 0 else turn
    if arm_to == arm or rest > len(ARM_SPACES[arm_to]):
        return None
    return ARM_SPACES[arm_to][rest - 1]


DIST = [[len(path_between(a, b)) for b in range(N_SPACES)] for a in range(N_SPACES)]
#: reachable destinations from each space as (dest, distance): with turns at the crossing, and straight only
REACH_TURN = [tuple((b, DIST[a][b]) for b in range(N_SPACES)) for a in range(N_SPACES)]
REACH_STRAIGHT = [
    tuple(
        (b, DIST[a][b])
        for b in range(N_SPACES)
        if SPACE_ARM[a] < 0 or SPACE_ARM[b] < 0 or SPACE_ARM[b] in (SPACE_ARM[a], OPPOSITE[SPACE_ARM[a]])
    )
    for a in range(N_SPACES)
]

# --- souks and shops ------------------------------------------------------------------
#: (id, neighbourhood, points, road spaces of each shop; () = interior shop)
_SOUK_TABLE: tuple[tuple[str, int, int, tuple[tuple[str, ...], ...]], ...] = (
    ("sack3", 0, 3, (("W3",), ("W1", "S1"), ("S2",))),
    ("sack4", 0, 4, (("S4",), ("S6",), (), ())),
    ("sack5", 0, 6, (("W7",), ("W5",), (), (), ())),
    ("sack6", 0, 8, (("W9",), (), (), (), (), ())),
    ("barrel2", 1, 3, (("E1", "S1"), ("E2",))),
    ("barrel3", 1, 4, (("S3",), (), ())),
    ("barrel4", 1, 6, (("E4",), ("E6",), (), ())),
    ("barrel5", 1, 8, (("S7",), ("S5",), (), (), ())),
    ("chest2", 2, 4, (("W4",), ("W2",))),
    ("chest3", 2, 6, (("W10",), ("W8",), ("W6",))),
    ("chest4", 2, 8, (("N2",), ("N4",), (), ())),
    ("vase1", 3, 4, (("E1", "N1"),)),
    ("vase2", 3, 6, (("N3",), ())),
    ("vase3", 3, 12, (("E3",), ("E5",), ("E7",))),
)
N_SOUKS = len(_SOUK_TABLE)
SOUK_NAMES = tuple(s[0] for s in _SOUK_TABLE)
SOUK_INDEX = {name: i for i, name in enumerate(SOUK_NAMES)}
SOUK_NB = tuple(s[1] for s in _SOUK_TABLE)
SOUK_POINTS = tuple(s[2] for s in _SOUK_TABLE)
SOUK_SIZE = tuple(len(s[3]) for s in _SOUK_TABLE)
NB_SOUKS = tuple(tuple(i for i in range(N_SOUKS) if SOUK_NB[i] == nb) for nb in range(4))

SHOP_SOUK: list[int] = []
SHOP_SPACES: list[tuple[int, ...]] = []
SOUK_SHOPS: list[tuple[int, ...]] = []
for _s, (_id, _nb, _pts, _shops) in enumerate(_SOUK_TABLE):
    _first = len(SHOP_SOUK)
    for _spaces in _shops:
        SHOP_SOUK.append(_s)
        SHOP_SPACES.append(tuple(SPACE_INDEX[x.lower()] for x in _spaces))
    SOUK_SHOPS.append(tuple(range(_first, len(SHOP_SOUK))))
N_SHOPS = len(SHOP_SOUK)  # 47
SHOP_INTERIOR = tuple(not sp for sp in SHOP_SPACES)
#: shops next to each road space, in the order the table lists them
SPACE_SHOPS: list[tuple[int, ...]] = [
    tuple(sh for sh in range(N_SHOPS) if sp in SHOP_SPACES[sh]) for sp in range(N_SPACES)
]


def shop_label(shop: int, space: int = -1) -> str:
    """How a player names one shop: the souk id, plus the road space for a shop on the road.

    Three corner shops touch two road spaces; ``space`` picks the one that
    matters in a message (the one typed, or the supervisor's), else the first.
    """
    souk = SOUK_NAMES[SHOP_SOUK[shop]]
    if SHOP_INTERIOR[shop]:
        return souk
    spaces = SHOP_SPACES[shop]
    return f"{souk} {SPACE_NAMES[space if space in spaces else spaces[0]]}"


assert N_SPACES == 29 and N_SHOPS == 47 and N_SOUKS == 14
