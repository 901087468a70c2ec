"""Commands are declared once: parsing, permissions, suggestions and /help all come from the declarations."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support.botdriver import Driver, said, text, told
from support.paths import REPO_ROOT

from bazaarbot.commands import REGISTRY, Context, Who, command
from bazaarbot.messages import Outgoing

ROOT = REPO_ROOT


@pytest.fixture
def bot(tmp_path):
    return Driver(tmp_path / "bot.sqlite")


def test_a_new_command_is_one_declaration_and_help_lists_it(bot):
    @command("wave", "wave at the table", args="[nick]", aliases=("hello",), who=Who.SEATED)
    def wave(ctx: Context) -> list[Outgoing]:
        return [ctx.reply(f"{ctx.nick} waves.")]

    try:
        assert "/wave" in text(bot.line("alice", "/help"))
        assert "/wave [nick] - wave at the table" in text(bot.line("alice", "/help wave"))
        assert "seated" in text(bot.line("alice", "/wave"))  # declared who: a seated player
        bot.line("alice", "/join")
        assert said(bot.line("alice", "/hello")) == ["alice waves."]
    finally:
        del REGISTRY.specs["wave"], REGISTRY.aliases["hello"]


def test_a_command_declared_twice_is_refused():
    with pytest.raises(ValueError):
        command("join", "again")(lambda ctx: [])


def test_help_for_one_command_explains_who_may_use_it(bot):
    answer = text(bot.line("alice", "/help kick"))
    assert answer.startswith("/kick <nick> - ") and "host" in answer


def test_help_names_every_declared_listed_command(bot):
    answer = text(bot.line("alice", "/help"))
    for spec in REGISTRY:
        if spec.listed:
            assert "/" + spec.name in answer


def test_unknown_command_suggests_only_close_commands(bot):
    assert "Did you mean /start?" in text(bot.line("alice", "/strat"))
    assert "Did you mean" not in text(bot.line("alice", "/xylophone"))


def test_declared_channel_only_command_said_privately_is_explained(bot):
    assert "in the channel" in text(bot.dm("alice", "/join"))


def test_declared_host_command_refused_for_another_player(bot):
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    out = bot.line("bob", "/start")
    assert "Only the host (alice)" in text(out) and not bot.table.running


def test_admin_passes_every_declared_permission(bot):
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    bot.line("root", "/start", account="root")
    assert bot.table.running


def _imports(path: Path, module: str) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_import_graph_has_no_circles():
    modules: dict[str, Path] = {}
    for path in [*ROOT.glob("bazaarbot/**/*.py"), *ROOT.glob("plugins/**/*.py")]:
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph = {
        name: {
            dep
            for dep in _imports(path, name)
            if dep in modules and dep != name and not dep.startswith(name + ".")  # a package's own re-exports
        }
        for name, path in modules.items()
    }
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = 1
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                cycle.extend(path[path.index(dep) :] + [dep] if dep in path else [node, dep])
                return True
            if dep not in state and visit(dep, [*path, dep]):
                return True
        state[node] = 2
        return False

    for name in sorted(graph):
        if name not in state and visit(name, [name]):
            break
    assert not cycle, " -> ".join(cycle)


def test_no_import_hides_behind_type_checking():
    for path in [*ROOT.glob("bazaarbot/**/*.py"), *ROOT.glob("plugins/**/*.py")]:
        assert "TYPE_CHECKING" not in path.read_text(), path


def test_private_command_answers_reach_only_the_speaker(bot):
    bot.line("alice", "/join")
    out = bot.dm("alice", "/help")
    assert told(out, "alice") and not said(out)
