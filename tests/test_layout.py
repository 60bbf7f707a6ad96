"""The layout a new engineer can read (issue 49): no module of companion/ over 500 lines, and no
function of companion/ or games/ over 60 lines but the rules' own tables (games/*/rules.py)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules(folder):
    return [path for path in (ROOT / folder).rglob("*.py") if "migrations" not in path.parts]


def test_no_module_of_companion_is_over_500_lines():
    long = {str(path.relative_to(ROOT)): length for path in _modules("companion")
            if (length := len(path.read_text().splitlines())) > 500}
    assert long == {}


def test_no_function_is_over_60_lines():
    long = []
    for path in _modules("companion") + _modules("games"):
        if path.name == "rules.py" and path.parent.parent.name == "games":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.end_lineno - node.lineno + 1 > 60:
                long.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert long == []
