"""Where the project imports each of a few top-level packages, and how.

Reads every Python file under the folder given first (virtual environments,
hidden and build folders left out) that names one of the packages given
second (a JSON list), and prints a JSON list of the places that import a
module of them: [module, guarded, "path:line"], guarded when the import
runs only if the module is there (inside try whose handlers catch
ImportError, under importorskip or find_spec, or for type checkers alone).
A from-import gives two places, its module and module.name, which may be
a submodule.
"""

import ast
import json
import os
import sys

root, tops = sys.argv[1], json.loads(sys.argv[2])
tops = set(tops)
places = []
CATCHES = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
SKIP = {"__pycache__", "node_modules", "site-packages", "build", "dist"}


def caught(node):
    """The exception names an except clause's type names."""
    if node is None:
        return {"BaseException"}
    if isinstance(node, ast.Tuple):
        return set().union(*(caught(e) for e in node.elts))
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return set()


def called(node):
    """The last name of a call's callee, and its first string argument."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return name, arg.value
    return name, None


class Imports(ast.NodeVisitor):
    """Records each import of the packages in one file."""

    def __init__(self, path, probed):
        self.path, self.guards, self.probed = path, 0, probed

    def place(self, module, node):
        top = module.split(".")[0]
        if top in tops:
            guarded = bool(self.guards) or top in self.probed
            places.append([module, guarded, "%s:%d" % (self.path, node.lineno)])

    def visit_Try(self, node):
        guarded = any(caught(h.type) & CATCHES for h in node.handlers)
        self.guards += guarded
        for child in node.body + node.orelse:
            self.visit(child)
        self.guards -= guarded
        for child in node.handlers + node.finalbody:
            self.visit(child)

    visit_TryStar = visit_Try

    def visit_If(self, node):
        test = node.test
        typing = isinstance(test, (ast.Name, ast.Attribute)) and (
            getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING"
        )
        self.guards += typing
        for child in node.body:
            self.visit(child)
        self.guards -= typing
        self.visit(node.test)
        for child in node.orelse:
            self.visit(child)

    def visit_Import(self, node):
        for alias in node.names:
            self.place(alias.name, node)

    def visit_ImportFrom(self, node):
        if node.level == 0 and node.module:
            self.place(node.module, node)
            for alias in node.names:
                if alias.name != "*":
                    self.place(node.module + "." + alias.name, node)

    def visit_Call(self, node):
        name, arg = called(node)
        if arg and name in ("import_module", "__import__"):
            self.place(arg, node)
        self.generic_visit(node)


def read(path):
    """The file's module, or None when it cannot be parsed."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not any(top.encode() in data for top in tops):
        return None
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError):
        return None


for folder, dirs, files in os.walk(root):
    dirs[:] = sorted(
        d
        for d in dirs
        if not d.startswith(".")
        and d not in SKIP
        and not d.endswith(".egg-info")
        and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg"))
    )
    for name in sorted(files):
        if not name.endswith(".py"):
            continue
        path = os.path.join(folder, name)
        tree = read(path)
        if tree is None:
            continue
        # importorskip and find_spec guard every import of their package
        # in the module: it is skipped, or checks, first.
        probed = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                fn, arg = called(node)
                if arg and fn in ("importorskip", "find_spec", "find_loader"):
                    top = arg.split(".")[0]
                    probed.add(top)
                    if top in tops:
                        places.append([arg, True, "%s:%d" % (os.path.relpath(path, root), node.lineno)])
        Imports(os.path.relpath(path, root), probed).visit(tree)

json.dump(places, sys.stdout)
