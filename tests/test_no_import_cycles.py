"""No import cycle among the modules of ``bench`` (and ``algorithms``).

How it works: every ``*.py`` file below ``bench/`` and ``algorithms/`` is parsed with :mod:`ast`
(nothing is imported or run). Each ``import x`` / ``from x import y`` statement, wherever it
stands (module level or inside a function: a deferred import is still a dependency, and a
cycle hidden in a function is still a cycle), becomes an edge from the file's module to the
module it names; relative imports are resolved against the file's package, and ``from pkg
import name`` points at the submodule ``pkg.name`` when that is a module, else at ``pkg``
itself. Imports under ``if TYPE_CHECKING:`` are left out (they never run). Imports of
anything outside the two packages are left out. The strongly connected components of that
graph (Tarjan's algorithm) with more than one module, or a module importing itself, are the
cycles; the test lists each with the import lines that close it.

A package's ``__init__`` that re-exports its own submodules (``bench/data/__init__.py``
importing ``bench.data.dataset``) is not a cycle by itself: an edge goes to the module named,
not to the packages above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bench", "algorithms")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every Import / ImportFrom node, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path = ROOT, packages=PACKAGES) -> tuple[dict, dict]:
    """``(graph, lines)``: module -> set of imported project modules, and (a, b) -> "file:line"."""
    files = {module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    modules = set(files)
    graph: dict[str, set] = {m: set() for m in modules}
    where: dict[tuple, str] = {}

    def resolve(name: str) -> str | None:
        while name and name not in modules:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        return name or None

    for mod, path in files.items():
        is_pkg = path.name == "__init__.py"
        package = mod if is_pkg else mod.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), filename=str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                for a in node.names:
                    sub = f"{stem}.{a.name}"
                    targets.append(sub if sub in modules else stem)
            for t in targets:
                if t.split(".")[0] not in packages:
                    continue
                dst = resolve(t)
                if dst is None or dst == mod:  # a package naming its own attributes
                    continue
                graph[mod].add(dst)
                where.setdefault((mod, dst), f"{path.relative_to(root)}:{node.lineno}")
    return graph, where


def cycles(graph: dict) -> list[list[str]]:
    """Strongly connected components with a cycle (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def strong(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1 or node in graph[node]:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_finder_sees_a_cycle(tmp_path):
    """The check itself can fail: a planted cycle (a -> b -> c -> a, one import deferred in a
    function, one relative) is found, and a TYPE_CHECKING import is not counted."""
    pkg = tmp_path / "bench"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    from bench import c\n")
    (pkg / "c.py").write_text("import bench.a\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .e import X\n")
    (pkg / "e.py").write_text("from .d import y\n")
    graph, _ = import_graph(tmp_path, ("bench",))
    assert cycles(graph) == [["bench.a", "bench.b", "bench.c"]]


def test_no_import_cycles():
    graph, where = import_graph()
    found = cycles(graph)
    if found:
        lines = []
        for comp in found:
            members = set(comp)
            edges = [f"    {a} -> {b} ({where[(a, b)]})" for a in comp for b in sorted(graph[a]) if b in members]
            lines.append(" <-> ".join(comp) + "\n" + "\n".join(edges))
        pytest.fail("import cycles among the project's modules:\n" + "\n".join(lines))
