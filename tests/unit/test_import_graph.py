"""The import graph of skxor: every arrow points down the floors, and nothing imports itself back.

Every module is read with :mod:`ast` (imports inside functions included, as
they run all the same) and each ``import`` / ``from ... import`` of skxor
becomes an arrow between modules. Packages stand on floors, lowest first;
a module may import from its own package and from packages on lower
floors, and the graph of modules has no cycle (a cycle through a lazy
import inside a function is a cycle too: the two modules cannot be
understood, tested or moved apart).
"""

import ast
from pathlib import Path

import skxor

ROOT = Path(skxor.__file__).parent

#: Floor of each package (or top-level module), lowest first. Packages on
#: one floor do not import each other.
FLOORS = {
    "_version": 0, "_utils": 0,
    # The experiment framework: a floor of its own, knowing nothing of the science.
    "studies": 1,
    "boolean": 2, "datasets": 2,
    "nn": 3, "model_selection": 3,
    "theory": 4, "estimators": 4,
    "sensitivity": 5,
    "plotting": 6,
    # The papers' studies: the science run through the framework.
    "papers": 7,
    # The command line, the public utilities (they list the estimators of
    # every package) and the package root, which re-exports.
    "cli": 8, "utils": 8, "__init__": 9, "__main__": 9,
}

#: Arrows known to point up, each to be removed by a change in flight (the
#: lead removes the entry after merging it).
#: Upward arrows tolerated for now (none: add one only with its reason).
KNOWN_UPWARD = set()


def module_name(path, root=ROOT):
    parts = ["skxor", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name, modules):
    """The module that ``name`` (a module, or an object of one) denotes, or None outside skxor."""
    parts = name.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) if parts else None


def import_graph(root=ROOT):
    """``{module: {imported module: first line}}`` over every skxor module below ``root``."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph = {}
    for module, path in paths.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        edges = graph.setdefault(module, {})
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = (package[: len(package) - node.level + 1] if node.level else [])
                prefix = ".".join([*base, *([node.module] if node.module else [])])
                # "from pkg import x": x is a submodule, or an object of pkg.
                targets = [_resolve(f"{prefix}.{a.name}", paths) for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [_resolve(a.name, paths) for a in node.names]
            else:
                continue
            for target in targets:
                if target and target != module:
                    edges.setdefault(target, node.lineno)
    return graph


def floor_of(module):
    parts = module.split(".")
    return FLOORS[parts[1] if len(parts) > 1 else "__init__"]


def upward_arrows(graph):
    """``(importer, imported)`` where the imported module stands on a higher floor."""
    return sorted((a, b) for a, edges in graph.items() for b in edges
                  if floor_of(b) > floor_of(a))


def sideways_arrows(graph):
    """Arrows between two different packages on the same floor."""
    return sorted((a, b) for a, edges in graph.items() for b in edges
                  if floor_of(b) == floor_of(a) and a.split(".")[:2] != b.split(".")[:2]
                  and len(a.split(".")) > 1 and len(b.split(".")) > 1)


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _without(graph, known):
    return {a: {b: line for b, line in edges.items() if (a, b) not in known}
            for a, edges in graph.items()}


def test_every_package_has_a_floor():
    assert {m.split(".")[1] for m in import_graph() if "." in m} <= set(FLOORS)


def test_no_arrow_points_up():
    arrows = upward_arrows(import_graph())
    assert [a for a in arrows if a not in KNOWN_UPWARD] == []


def test_packages_on_one_floor_do_not_import_each_other():
    assert sideways_arrows(import_graph()) == []


def test_no_import_cycle():
    assert cycles(_without(import_graph(), KNOWN_UPWARD)) == []


def test_the_known_upward_arrows_are_still_there():
    """An entry of KNOWN_UPWARD that no longer exists is to be removed."""
    assert KNOWN_UPWARD <= set(upward_arrows(import_graph()))


def test_the_checks_see_an_upward_arrow_and_a_cycle(tmp_path):
    root = tmp_path / "skxor"
    for package in ("sensitivity", "plotting", "nn"):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "sensitivity" / "_profile.py").write_text(
        "def plot():\n    from ..plotting import Display\n")
    (root / "plotting" / "_display.py").write_text("from ..sensitivity._profile import plot\n")
    (root / "nn" / "_a.py").write_text("from ._b import x\n")
    (root / "nn" / "_b.py").write_text("def f():\n    from . import _a\n")
    graph = import_graph(root)
    assert upward_arrows(graph) == [("skxor.sensitivity._profile", "skxor.plotting")]
    assert cycles(graph) == [["skxor.nn._a", "skxor.nn._b"]]
