"""The import graph has layers: each package names what it may import, no arrow runs back up, no circle.

The units are the packages of ``bazaarbot/`` (and its few root modules), the
catalogue tool and the game plugins. ``ALLOWED`` is the whole map: an import
between two units that it does not name fails the test, and so does any
circle between modules.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

import pytest
from support.paths import REPO_ROOT as ROOT

#: the checks share the parsed sources of one worker (``_nodes``): one worker runs them all
pytestmark = pytest.mark.xdist_group("layering")

#: the entry points that build transports and hand them to the hub; they sit above the core
COMPOSITION_ROOTS = {"bazaarbot/cli.py"}

#: unit -> the units it may import (lowest first); every unit of the code is named here
ALLOWED: dict[str, set[str]] = {
    "messages": set(),
    "metrics": set(),
    "collector": set(),
    "shutdown": set(),
    "speaking": set(),
    "eventloop": set(),
    "text": set(),
    "delivery": {"messages"},
    "i18n": {"text"},
    "plugin": {"i18n", "text"},
    "plugins": {"plugin", "i18n", "text"},
    "registry": {"plugin", "plugins"},
    "words": {"i18n", "plugin"},
    "ai": {"plugin", "registry"},
    "config": {"ai", "i18n", "metrics", "text"},
    "store": {"text"},
    "table": {"config", "i18n", "messages", "plugin", "store", "text", "words"},
    "people": {"i18n", "messages", "table"},
    "ratings": {"i18n", "plugin", "store", "table"},
    "tableview": {"i18n", "plugin", "table", "words"},
    "teach": {"ai", "i18n", "messages", "plugin", "store", "table", "tableview", "text", "words"},
    "commands": {
        "config",
        "delivery",
        "i18n",
        "messages",
        "people",
        "plugin",
        "ratings",
        "store",
        "table",
        "teach",
        "text",
        "words",
    },  # fmt: skip
    "pipeline": {
        "commands",
        "config",
        "delivery",
        "i18n",
        "messages",
        "metrics",
        "ratings",
        "store",
        "table",
        "text",
        "words",
    },  # fmt: skip
    "hub": {
        "ai",
        "config",
        "delivery",
        "i18n",
        "messages",
        "metrics",
        "people",
        "pipeline",
        "plugin",
        "ratings",
        "registry",
        "store",
        "table",
        "tableview",
        "teach",
        "text",
    },  # fmt: skip
    "transports": {"commands", "config", "delivery", "i18n", "messages", "metrics", "speaking", "text"},
    "bench": {
        "ai",
        "collector",
        "config",
        "hub",
        "messages",
        "plugin",
        "ratings",
        "registry",
        "store",
        "teach",
    },  # fmt: skip
    "i18n.tools": {"bazaarbot", "i18n", "plugin", "registry"},
    "cli": {
        "bench",
        "collector",
        "config",
        "eventloop",
        "hub",
        "i18n",
        "ratings",
        "registry",
        "shutdown",
        "speaking",
        "store",
        "text",
        "transports",
    },  # fmt: skip
    "bazaarbot": set(),
}

#: the most modules the package's root may hold (the composition root, config and the core's vocabulary)
ROOT_MODULES_AT_MOST = 12


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "plugins":
        return "plugins"
    if parts[0] != "bazaarbot":
        return None
    if module.startswith("bazaarbot.i18n.tools"):
        return "i18n.tools"
    return parts[1] if len(parts) > 1 else "bazaarbot"


def _sources() -> list[Path]:
    return [*ROOT.glob("bazaarbot/**/*.py"), *ROOT.glob("plugins/**/*.py")]


MODULES = {_module_name(path): path for path in _sources()}


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a source file's tree, parsed once for all the checks (none changes a tree)."""
    return tuple(ast.walk(ast.parse(path.read_text())))


@functools.cache
def _imports(path: Path) -> tuple[str, ...]:
    """The project modules ``path`` imports (``from pkg import module`` names the module itself)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            found += (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.append(submodule if submodule in MODULES else base)
    return tuple(found)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in MODULES.items():
        graph[name] |= {target for target in _imports(path) if target in MODULES and target != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_unit_of_the_code_is_in_the_map():
    units = {_unit(name) for name in MODULES}
    assert units - {None} <= set(ALLOWED), sorted(units - set(ALLOWED) - {None})


def test_no_unit_imports_one_the_map_does_not_allow():
    offenders = []
    for name, path in MODULES.items():
        unit = _unit(name)
        for target in _imports(path):
            other = _unit(target)
            if other is not None and other != unit and other not in ALLOWED[unit]:
                offenders.append(f"{name} imports {target}")
    assert not offenders, offenders


def test_the_map_itself_has_no_circle():
    assert _circles({unit: set(allowed) for unit, allowed in ALLOWED.items()}) == []


def test_no_module_is_part_of_an_import_circle():
    assert _circles(_graph()) == []


def test_the_package_root_keeps_the_composition_root_and_few_modules():
    root_modules = sorted(path.name for path in (ROOT / "bazaarbot").glob("*.py"))
    assert len(root_modules) <= ROOT_MODULES_AT_MOST, root_modules
    assert "cli.py" in root_modules and "config.py" in root_modules


def test_every_package_says_what_it_owns_and_may_import():
    silent = []
    for init in (ROOT / "bazaarbot").glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        if "May import" not in doc:
            silent.append(init.parent.name)
    assert not silent, silent


def _project_classes() -> set[str]:
    return {node.name for path in MODULES.values() for node in _nodes(path) if isinstance(node, ast.ClassDef)}


def test_no_core_class_has_more_than_one_project_base_class():
    project = _project_classes() - {"Protocol"}
    mixed = []
    for name, path in MODULES.items():
        if not name.startswith("bazaarbot."):
            continue
        for node in _nodes(path):
            if isinstance(node, ast.ClassDef):
                bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
                if len([b for b in bases if b in project]) > 1:
                    mixed.append(f"{name}.{node.name}({', '.join(bases)})")
    assert not mixed, mixed


def test_nothing_outside_transports_imports_the_transports_package():
    offenders = []
    for path in MODULES.values():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("bazaarbot/transports/") or relative in COMPOSITION_ROOTS:
            continue
        for module in _imports(path):
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


#: the longest line of project classes a class of ``bazaarbot/`` may stand on: itself and one base
#: (an abstract base, a protocol, a project exception); a deeper chain spreads one concern over files
CLASS_CHAIN_AT_MOST = 2


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, relative imports made absolute."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*anchor, *([node.module] if node.module else [])])


@functools.cache
def _class_bases() -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Every class of ``bazaarbot/`` as (module, name), with those of its bases that are project classes
    (made once: two checks read it, neither changes it)."""
    classes = {
        name: {node.name: node for node in _nodes(path) if isinstance(node, ast.ClassDef)}
        for name, path in MODULES.items()
    }
    #: per module, a name it imports -> (module, name), or (module, "") for a module
    imported: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
    for name, path in MODULES.items():
        for node in _nodes(path):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    imported[name][alias.asname or alias.name] = (alias.name, "")
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(name, path, node)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    target = (submodule, "") if submodule in MODULES else (base, alias.name)
                    imported[name][alias.asname or alias.name] = target

    def resolve(
        module: str, name: str, seen: frozenset[tuple[str, str]] = frozenset()
    ) -> tuple[str, str] | None:
        """The class ``name`` means in ``module``, following re-exports; None when no project class."""
        if (module, name) in seen or module not in MODULES:
            return None
        if name in classes[module]:
            return (module, name)
        target = imported[module].get(name)
        if target is None or not target[1]:
            return None
        return resolve(*target, seen | {(module, name)})

    def base_of(module: str, expr: ast.expr) -> tuple[str, str] | None:
        if isinstance(expr, ast.Subscript):  # Generic[T], a parametrised project base
            return base_of(module, expr.value)
        if isinstance(expr, ast.Name):
            return resolve(module, expr.id)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            target = imported[module].get(expr.value.id)
            return resolve(target[0], expr.attr) if target is not None and not target[1] else None
        return None

    return {
        (module, name): [b for b in (base_of(module, expr) for expr in node.bases) if b is not None]
        for module, found in classes.items()
        if module.startswith("bazaarbot.")
        for name, node in found.items()
    }


def _chain(cls: tuple[str, str], bases: dict[tuple[str, str], list[tuple[str, str]]]) -> list[str]:
    """The longest line of project classes from ``cls`` up, ``cls`` first."""
    above = [_chain(base, bases) for base in bases.get(cls, []) if base != cls]
    return [f"{cls[0]}.{cls[1]}", *max(above, key=len, default=[])]


def test_no_class_stands_on_a_chain_of_project_classes_deeper_than_two():
    bases = _class_bases()
    deep = [
        " < ".join(chain)
        for chain in (_chain(cls, bases) for cls in bases)
        if len(chain) > CLASS_CHAIN_AT_MOST
    ]
    assert not deep, deep


def test_the_class_chain_check_follows_imports_across_packages():
    """The check resolves a base named through an import, so a chain spread over packages counts whole."""
    bases = _class_bases()
    assert bases[("bazaarbot.teach.analysis", "_JudgingSearch")] == [("bazaarbot.ai.ismcts", "Search")]
    assert ("bazaarbot.table.ports", "Handing") in bases[("bazaarbot.table.ports", "GameNeeds")]
    assert max(len(_chain(cls, bases)) for cls in bases) == CLASS_CHAIN_AT_MOST
