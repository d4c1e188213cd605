"""Report, with Python's own parser, the facts of Python files that check's rules read.

Reads a JSON object on stdin: {"files": [...], "calls": [...], "fixtures": [...],
"marks": [...]}, where calls are the last names of the calls the rules read.
Writes one JSON object per file on stdout: {"path", "error"} when ast cannot
parse it, else {"path", "facts", "reads"}. Each fact is one line of text,
in the form TestOracle renders pyscan's facts in. Only the standard library.
"""

import ast
import json
import re
import sys
import tokenize

KEYWORDS = re.compile(r"(async\s+)?(def|class)\s+")


class Facts(ast.NodeVisitor):
    """Walks one module, keeping its facts as lines of text."""

    def __init__(self, text, calls, fixtures, marks):
        self.text = text
        self.lines = re.split(r"\r\n|\r|\n", text)
        self.calls = calls
        self.fixtures = fixtures
        self.marks = marks
        self.facts = []
        self.scope = ["-"]
        self.kinds = ["module"]
        self.deco = ["-"]
        self.bound = {}
        self.imports_signal = False
        self.reads = set()
        self.pending = []

    def pos(self, node):
        """Line and column in characters, 1-based, as pyscan counts them."""
        line = self.lines[node.lineno - 1]
        col = len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace"))
        return f"{node.lineno}:{col + 1}"

    def key(self, node):
        return f"{node.name}@{node.lineno}"

    def visit_def(self, node, kind):
        self.facts.append(f"def {self.pos_of_name(node)} {kind} {node.name} in {self.scope[-1]}")
        key = self.key(node)
        for d in node.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            name = dotted(target) or ""
            called = isinstance(d, ast.Call) and dotted(d.func) is not None
            self.facts.append(f"deco {key} {name or '-'} {self.pos(d)} call={called}")
            self.deco.append(key)
            self.visit(d)
            self.deco.pop()
        if kind == "class":
            for b in node.bases:
                if dotted(b):
                    self.facts.append(f"base {key} {dotted(b)}")
            for e in node.bases + [k.value for k in node.keywords]:
                self.visit(e)
        else:
            a = node.args
            for p in a.posonlyargs + a.args + a.kwonlyargs:
                self.facts.append(f"param {key} {p.arg} {self.pos(p)}")
                self.fixture_param(node, p.arg)
            for e in a.defaults + [d for d in a.kw_defaults if d is not None]:
                self.visit(e)
            for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if p is not None and p.annotation is not None:
                    self.visit(p.annotation)
            if node.returns is not None:
                self.visit(node.returns)
            if yields(node):
                self.facts.append(f"yields {key}")
            if is_fixture(node) and (node.name in self.fixtures or fixture_names(node) & self.fixtures):
                self.reads.add("fixture")
        self.scope.append(key)
        self.kinds.append(kind)
        for s in node.body:
            self.visit(s)
        self.kinds.pop()
        self.scope.pop()

    def pos_of_name(self, node):
        """The position of a def's name: after "def", "async def" or "class"."""
        line = self.lines[node.lineno - 1]
        start = len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace"))
        at = KEYWORDS.match(line, start).end()
        return f"{node.lineno}:{at + 1}"

    def fixture_param(self, node, name):
        if name not in self.fixtures:
            return
        if node.name.startswith("test") or is_fixture(node):
            self.reads.add("fixture")

    def visit_FunctionDef(self, node):
        self.visit_def(node, "function")

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.visit_def(node, "class")

    def visit_Import(self, node):
        for a in node.names:
            bound = a.asname or a.name.split(".")[0]
            target = a.name if a.asname else bound
            self.bound[bound] = target
            self.imported(a.name)
            self.facts.append(f"import {a.name} - {bound} in {self.scope[-1]}")

    def visit_ImportFrom(self, node):
        module = "." * node.level + (node.module or "")
        for a in node.names:
            if a.name == "*":
                self.facts.append(f"star {module} in {self.scope[-1]}")
                self.imported(module)
                continue
            bound = a.asname or a.name
            self.bound[bound] = module + a.name if module.endswith(".") else module + "." + a.name
            self.imported(module)
            self.facts.append(f"import {module} {a.name} {bound} in {self.scope[-1]}")

    def imported(self, module):
        if module == "signal" or module.startswith("signal."):
            self.imports_signal = True

    def visit_Call(self, node):
        callee = dotted(node.func)
        if callee is not None:
            last = callee.rsplit(".", 1)[-1]
            target = self.bound.get(callee, "") if "." not in callee else ""
            self.pending.append((node, callee, last, target.rsplit(".", 1)[-1], self.scope[-1], self.deco[-1]))
            if last in ("import_module", "importorskip", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and first.value == "signal":
                    self.imports_signal = True
        self.generic_visit(node)

    def visit_Lambda(self, node):
        # A lambda is no def to the rules: its calls belong to the def around it.
        for e in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(e)
        self.visit(node.body)

    def finish(self):
        """Turns the calls into facts, now that every import is known."""
        for node, callee, last, bound_last, scope, deco in self.pending:
            if "." not in callee and callee in self.bound:
                bound_last = self.bound[callee].rsplit(".", 1)[-1]
            if last not in self.calls and bound_last not in self.calls:
                continue
            args = [self.arg(None, a) for a in node.args]
            args += [self.arg(k.arg, k.value) if k.arg else "=other" for k in node.keywords]
            self.facts.append(f"call {self.pos(node.func)} {callee} in {scope} deco={deco} args={' '.join(args)}")
            if last in ("setitimer", "alarm") or bound_last in ("setitimer", "alarm"):
                self.reads.add("timer")
            if last == "signal" and node.args and (dotted(node.args[0]) or "").rsplit(".", 1)[-1] in ("SIGALRM", "SIGVTALRM", "SIGPROF"):
                self.reads.add("timer")
            if last in self.marks:
                self.reads.add("mark")
            if last == "usefixtures" and any(isinstance(a, ast.Constant) and a.value in self.fixtures for a in node.args):
                self.reads.add("fixture")
        if "timer" in self.reads and not self.imports_signal:
            self.reads.discard("timer")

    def arg(self, keyword, value):
        """An argument as pyscan's Arg reads it: a string, a name, a number or other."""
        kw = keyword or ""
        if keyword is None and isinstance(value, ast.Starred):
            return "=other"
        if isinstance(value, ast.Constant):
            v = value.value
            if isinstance(v, (str, bytes)):
                return f"{kw}=str:{json.dumps(text_of(v))}"
            if v is None or isinstance(v, bool):
                return f"{kw}=name:{v}"
            if isinstance(v, (int, float, complex)):
                return f"{kw}=number:{ast.get_source_segment(self.text, value)}"
        name = dotted(value)
        if name is not None:
            return f"{kw}=name:{name}"
        return f"{kw}=other"

    def visit_Assign(self, node):
        if self.in_function():
            self.generic_visit(node)
            return
        for t in node.targets:
            if isinstance(t, ast.Name):
                self.assigned(t, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if not self.in_function() and isinstance(node.target, ast.Name) and node.simple:
            self.assigned(node.target, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if not self.in_function() and isinstance(node.target, ast.Name):
            self.assigned(node.target, node.value)
        self.generic_visit(node)

    def assigned(self, target, value):
        strings = None
        if isinstance(value, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(e.value, (str, bytes)) for e in value.elts):
            strings = [text_of(e.value) for e in value.elts]
        listed = "-" if strings is None else " ".join(json.dumps(v) for v in strings)
        self.facts.append(f"assign {self.pos(target)} {target.id} in {self.scope[-1]} strings={listed}")

    def in_function(self):
        return self.kinds[-1] == "function"


def text_of(value):
    """A string or bytes literal's value as pyscan reads it: bytes as Latin-1
    text, a lone surrogate (which a Go string cannot hold) as U+FFFD."""
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return re.sub("[\ud800-\udfff]", "\ufffd", value)


def yields(node):
    """Whether a function's own body holds a yield, which makes it a generator.

    The bodies of nested functions, lambdas and classes run apart; their
    decorators, defaults and bases run in this body."""
    todo = list(node.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = n.args
            todo += n.decorator_list + a.defaults + [d for d in a.kw_defaults if d is not None]
        elif isinstance(n, ast.Lambda):
            todo += n.args.defaults + [d for d in n.args.kw_defaults if d is not None]
        elif isinstance(n, ast.ClassDef):
            todo += n.decorator_list + n.bases + [k.value for k in n.keywords]
        else:
            todo += ast.iter_child_nodes(n)
    return False


def is_fixture(node):
    """Whether a def is decorated as a pytest fixture."""
    return any((dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith("fixture") for d in node.decorator_list)


def fixture_names(node):
    """The names a def's fixture decorators give it with name=."""
    return {k.value.value for d in node.decorator_list if isinstance(d, ast.Call) for k in d.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)}


def dotted(node):
    """The dotted name an expression is (a.b.c), or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def facts_of(path, calls, fixtures, marks):
    with open(path, "rb") as f:
        data = f.read()
    try:
        with open(path, "rb") as f:
            encoding, _ = tokenize.detect_encoding(f.readline)
        text = data.decode(encoding)
        tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError) as e:
        return {"path": path, "error": f"{type(e).__name__}: {e}"}
    if text.startswith("\ufeff"):
        text = text[1:]
    v = Facts(text, calls, fixtures, marks)
    v.visit(tree)
    v.finish()
    return {"path": path, "facts": sorted(v.facts), "reads": sorted(v.reads)}


def main():
    req = json.load(sys.stdin)
    calls, fixtures, marks = set(req["calls"]), set(req["fixtures"]), set(req["marks"])
    out = sys.stdout
    for path in req["files"]:
        try:
            rec = facts_of(path, calls, fixtures, marks)
        except RecursionError as e:
            rec = {"path": path, "error": f"RecursionError: {e}"}
        out.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
