"""The house rules of ARCHITECTURE.md, held by tests: imports go one way (nothing in dlx/,
its command line included, imports problems/), problems use the public API only (and
their commands the public interface of the command line), modules and functions stay
readable, the map names every part.

Imports are read from the source (ast), not by importing: a lazy import inside a
function counts (it is a dependency all the same); one under ``if TYPE_CHECKING:``
counts for the rule against import circles (two modules that need each other's
names, even only for types, are one concern cut in two), not for the others (it
never runs).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import dlx
import dlx.cli

ROOT = Path(__file__).resolve().parent.parent
DLX = ROOT / "dlx"
PROBLEMS = ROOT / "problems"

#: The engine: dlx/ without the command line (which may name a puzzle command in a hint).
ENGINE = [p for p in DLX.rglob("*.py") if "cli" not in p.relative_to(DLX).parts
          and p.name != "__main__.py"]

PUZZLES = re.compile(r"sudoku|queens?\b|pentomino|polyomino|langford|domino|jigsaw",
                     re.IGNORECASE)


def module_name(path: Path) -> str:
    if not path.is_relative_to(ROOT):
        return path.stem
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports(path: Path, typing: bool = False) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import in ``path`` that
    runs: at module level or in a function, and with ``typing`` those under ``if
    TYPE_CHECKING:`` too."""
    tree = ast.parse(path.read_text())
    me = module_name(path)
    package = me if is_package(path) else me.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(
                node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            out.append((base, [a.name for a in node.names], node.lineno))
    return out


def dependencies(typing: bool = True) -> dict[str, set[str]]:
    """dlx module -> the dlx modules it imports, those under ``if TYPE_CHECKING:`` too
    unless ``typing`` is False (a name taken from a package counts as its submodule
    when there is one)."""
    modules = {module_name(p): p for p in DLX.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        for target, names, _ in imports(path, typing):
            if not target.startswith("dlx"):
                continue
            found = {f"{target}.{n}" for n in names if f"{target}.{n}" in modules}
            if not found and names and all(compiled(target, n) for n in names):
                continue                        # the C core, dlx._core: no Python module
            graph[m] |= found or ({target} if target in modules else set())
        graph[m].discard(m)
    return graph


def compiled(package: str, name: str) -> bool:
    """Is ``package.name`` a compiled extension (``from . import _core``)?"""
    folder = ROOT.joinpath(*package.split("."))
    return any(folder.glob(f"{name}.*.so")) or (folder / name).is_dir() and not (
        folder / name / "__init__.py").exists()


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import circle of ``graph`` (its modules in turn), or None."""
    # a package's __init__ may import its own submodules (that is what it is for);
    # a submodule must not import its package's __init__ back
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if n.startswith(m + ".") and state.get(n) != 1:   # a package and its parts
                if state.get(n) is None:
                    visit(n)
                continue
            if state.get(n) == 1:
                raise _Circle(stack[stack.index(n):] + [n])
            if state.get(n) is None:
                visit(n)
        stack.pop()
        state[m] = 2

    try:
        for m in sorted(graph):
            if state.get(m) is None:
                visit(m)
    except _Circle as found:
        return found.modules
    return None


class _Circle(Exception):
    def __init__(self, modules: list[str]) -> None:
        self.modules = modules


@pytest.mark.slow
def test_no_import_circle_in_dlx_not_even_for_types():
    found = circle(dependencies())
    assert found is None, "import circle: " + " -> ".join(found or [])


def test_a_circle_through_type_checking_imports_is_found(tmp_path):
    """The rule sees imports under ``if TYPE_CHECKING:`` (checkpoint.py and schedule.py
    once imported each other that way)."""
    a = tmp_path / "a.py"
    a.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\n")
    names = [t for t, _, _ in imports(a, typing=True)]
    assert names == ["typing", "b"] and [t for t, _, _ in imports(a)] == ["typing"]
    assert circle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert circle({"a": {"b"}, "b": set()}) is None


def test_nothing_in_dlx_imports_problems():
    # the command line included: the puzzle commands are problems/cli/, which the dlx
    # command finds through its entry-point group, never by importing it
    for path in DLX.rglob("*.py"):
        for target, _, line in imports(path):
            assert not target.startswith("problems"), \
                f"{path.relative_to(ROOT)}:{line} imports {target}"


def test_the_engine_does_not_import_the_command_line():
    for path in ENGINE:
        for target, _, line in imports(path):
            assert not target.startswith("dlx.cli"), f"{path}:{line} {target}"


@pytest.mark.slow
def test_problems_use_only_the_public_api():
    # dlx.__all__; and, in the commands of problems/cli/ only, dlx.cli (a public module,
    # in dlx.__all__) through the names of dlx.cli.__all__ (the interface dlx.cli
    # documents for the commands of other packages): `from dlx import cli`, `cli.NAME`
    public, command = set(dlx.__all__), set(dlx.cli.__all__)
    for path in PROBLEMS.rglob("*.py"):
        is_command = path.relative_to(PROBLEMS).parts[0] == "cli"
        where = path.relative_to(ROOT)
        for target, names, line in imports(path):
            if target == "dlx":
                assert set(names) <= public, f"{where}:{line}: dlx.{set(names) - public}"
                assert "cli" not in names or is_command, f"{where}:{line}: dlx.cli"
            else:
                assert not target.startswith("dlx."), f"{where}:{line}: imports {target}"
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "dlx":
                    assert node.attr in public or node.attr.startswith("__"), \
                        f"{where}:{node.lineno}: dlx.{node.attr}"
                elif node.value.id == "cli" and is_command:
                    assert node.attr in command, f"{where}:{node.lineno}: cli.{node.attr}"


def test_the_command_interface_is_what_dlx_cli_promises():
    # every name of dlx.cli.__all__ is there (loaded on first use) and documented in the
    # package's "Adding commands", which is what a command of another package may use
    doc = dlx.cli.__doc__ or ""
    assert "Adding commands" in doc and "dlx.commands" in doc
    for name in dlx.cli.__all__:
        assert getattr(dlx.cli, name) is not None, name
        if name not in ("main", "Stop", "Terminated", "EXIT_CODES"):
            assert name in doc or name.startswith("EXIT_"), f"dlx.cli does not document {name}"


def test_no_puzzle_names_in_the_engine():
    for path in ENGINE:
        for k, line in enumerate(path.read_text().splitlines(), 1):
            assert not PUZZLES.search(line), f"{path.relative_to(ROOT)}:{k}: {line.strip()}"
    for path in (DLX / "_core").iterdir():
        for k, line in enumerate(path.read_text().splitlines(), 1):
            assert not PUZZLES.search(line), f"{path.relative_to(ROOT)}:{k}: {line.strip()}"


def test_no_function_in_dlx_over_150_lines():
    for path in DLX.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                assert n <= 150, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {n}"


def test_modules_and_c_sources_stay_readable():
    for path in DLX.rglob("*.py"):
        n = len(path.read_text().splitlines())
        assert n <= 750, f"{path.relative_to(ROOT)}: {n} lines (about 700 at most)"
    for path in (DLX / "_core").iterdir():
        n = len(path.read_text().splitlines())
        assert n <= 1050, f"{path.relative_to(ROOT)}: {n} lines (about 1,000 at most)"


def test_no_module_in_problems_over_750_lines():
    for path in PROBLEMS.rglob("*.py"):
        n = len(path.read_text().splitlines())
        assert n <= 750, f"{path.relative_to(ROOT)}: {n} lines (about 700 at most)"


def test_the_map_names_every_module_and_c_source():
    text = (ROOT / "ARCHITECTURE.md").read_text()
    missing = []
    for path in sorted(DLX.rglob("*.py")) + sorted((DLX / "_core").iterdir()):
        rel = path.relative_to(DLX)
        if path.name == "__init__.py" and rel.parent != Path("."):
            continue                            # a package is named by its folder
        if path.name in ("__main__.py", "py.typed"):
            continue
        if str(rel) not in text and path.name not in text:
            missing.append(str(rel))
    assert not missing, f"ARCHITECTURE.md does not name: {missing}"


def test_bench_readme_lists_every_script():
    # bench/ is run by hand: its README's table is where a reader finds what each does
    table = (ROOT / "bench" / "README.md").read_text().split("\n## ", 1)[0]
    missing = [p.name for p in sorted((ROOT / "bench").iterdir())
               if p.suffix in (".py", ".sh") and f"| `{p.name}` |" not in table]
    assert not missing, f"bench/README.md's table does not list: {missing}"


def _code_strings(tree: ast.AST) -> list[tuple[ast.Constant, ast.AST]]:
    """The string constants of a module's code (docstrings left out: they are the
    documentation), each with the node it sits in."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    out = []
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            if (isinstance(child, ast.Constant) and isinstance(child.value, str)
                    and id(child) not in docs):
                out.append((child, parent))
    return out


def test_choice_rules_are_named_only_in_their_table():
    """A rule's name is spelled in dlx/rules.py only: no other module compares a value
    with a rule's name, passes one as ``heuristic=``, lists rule names (choices, a
    Literal, a mapping) or writes two of them into a message; everything else reads
    the table.  ("first" is also a view's name: alone in a list, or compared with
    anything but a heuristic, it is not a rule.)
    In the core, the rules are the H_ enum of choose.h, in the table's order, and no
    message lists them."""
    from typing import get_args

    from dlx.rules import RULES, HeuristicName

    names = set(RULES)
    assert set(get_args(HeuristicName)) == names
    quoted = re.compile(r"""['"]({})['"]""".format("|".join(map(re.escape, sorted(names)))))
    for path in DLX.rglob("*.py"):
        if path.name == "rules.py":
            continue
        where = path.relative_to(ROOT)
        tree = ast.parse(path.read_text())
        for node, parent in _code_strings(tree):
            text = node.value
            compared = isinstance(parent, ast.Compare) and (
                text != "first" or "heuristic" in ast.unparse(parent))
            passed = isinstance(parent, ast.keyword) and parent.arg == "heuristic"
            assert not (text in names and (compared or passed)), \
                f"{where}:{node.lineno}: the rule {text!r} spelled out"
            assert len(set(quoted.findall(text))) < 2, f"{where}:{node.lineno}: rules in {text!r}"
        for node in ast.walk(tree):
            elements = (node.elts if isinstance(node, (ast.List, ast.Tuple, ast.Set))
                        else node.keys if isinstance(node, ast.Dict) else [])
            spelled = {e.value for e in elements
                       if isinstance(e, ast.Constant) and e.value in names}
            assert spelled <= {"first"}, f"{where}:{node.lineno}: rule names {spelled}"
    header = (DLX / "_core" / "choose.h").read_text()
    enum = re.search(r"enum \{ (H_[A-Z_]+(?:, H_[A-Z_]+)*) \}", header)
    assert enum is not None, "choose.h: no enum of H_ codes"
    codes = enum[1].split(", ")
    by_code = sorted(RULES.values(), key=lambda r: r.code)
    assert [r.code for r in by_code] == list(range(len(RULES)))
    assert codes == ["H_" + r.name.upper().replace("-", "_") for r in by_code] + ["H_RULES"]
    word = re.compile(r"\b({})\b".format("|".join(sorted(names, key=len, reverse=True))))
    for path in (DLX / "_core").iterdir():
        for k, line in enumerate(path.read_text().splitlines(), 1):
            for literal in re.findall(r'"[^"]*"', line):
                assert len(set(word.findall(literal))) < 2, \
                    f"{path.relative_to(ROOT)}:{k}: rules named in {literal}"
