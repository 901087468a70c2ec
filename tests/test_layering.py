"""The core stands on its own vocabulary: only the composition roots know the transports package."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the entry points that build transports and hand them to the hub; they sit above the core
COMPOSITION_ROOTS = {"bazaarbot/cli.py"}


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_nothing_outside_transports_imports_the_transports_package():
    offenders = []
    for path in [*ROOT.glob("bazaarbot/**/*.py"), *ROOT.glob("plugins/**/*.py")]:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("bazaarbot/transports/") or relative in COMPOSITION_ROOTS:
            continue
        for module in _imported_modules(path):
            if module == "bazaarbot.transports" or module.startswith("bazaarbot.transports."):
                offenders.append(f"{relative} imports {module}")
    assert not offenders, offenders


def test_the_messages_live_in_the_core():
    import bazaarbot.messages as messages
    import bazaarbot.transports.base as base

    for name in ("User", "Incoming", "Say", "Tell", "Outgoing", "SeatedPerson"):
        assert hasattr(messages, name)
        assert name not in vars(base) or getattr(base, name) is getattr(messages, name)
    source = (ROOT / "bazaarbot/transports/base.py").read_text()
    assert "@dataclass" not in source and "class User" not in source
