"""Every module of the `sim` package imports, and no module-level import cycle exists among them (read with `ast`:
the imports at a module's top level, not those inside functions); sim/report never imports through __import__."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sim"


def _modules():
    """{module name: path} of every .py file of the sim package."""
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _top_level_imports(name, path):
    """The sim modules `name` imports at its top level (also inside top-level if / try blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def visit(body):
        for node in body:
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for a in node.names:  # `from pkg import mod` imports the module pkg.mod
                    found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for h in getattr(node, "handlers", []):
                    visit(h.body)

    visit(tree.body)
    return {m for m in found if m in MODULES and m != name}


def _cycle(graph):
    """One import cycle (a list of module names) of the graph, or None."""
    state, stack = {}, []

    def dfs(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state:
                c = dfs(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = dfs(n)
            if c:
                return c
    return None


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_module_level_import_cycle_in_sim():
    graph = {name: _top_level_imports(name, path) for name, path in MODULES.items()}
    assert graph["sim.report.collect"] >= {"sim.report.sections", "sim.report.model"}  # the reading works
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != "sim.__main__"))  # __main__ runs the CLI
def test_every_module_imports(name):
    importlib.import_module(name)


def test_report_modules_import_without_dunder_import():
    for p in (PACKAGE / "report").glob("*.py"):
        assert "__import__(" not in p.read_text(encoding="utf-8"), p
