"""No function over MAX_LINES lines in the engines (sim/games), the bots (strategies) or the report (sim/report),
unless a comment line `# long: <reason>` sits right above its `def` (or above its first decorator), so that the
reason is read beside the code.  Lines are counted from the `def` line to the function's last line; read with
`ast`, so nested functions and methods count on their own."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 150
CHECKED = ("sim/games", "strategies", "sim/report")
REASON = re.compile(r"^\s*# long: \S")


def long_functions(source, max_lines=MAX_LINES):
    """(name, def line, lines) of every function of `source` longer than max_lines without a `# long:` reason."""
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        length = node.end_lineno - node.lineno + 1
        if length <= max_lines:
            continue
        # the line above the def, and the line above the first decorator (1-based line numbers: index - 2)
        above = {node.lineno - 2, min([node.lineno] + [d.lineno for d in node.decorator_list]) - 2}
        if any(0 <= i < len(lines) and REASON.match(lines[i]) for i in above):
            continue
        out.append((node.name, node.lineno, length))
    return out


def _body(lines, indent="    "):
    return "".join(f"{indent}x{i} = {i}\n" for i in range(lines))


def test_the_check_finds_a_long_function_and_accepts_a_reason():
    body = _body(MAX_LINES)  # with its def: one line too many
    assert long_functions(f"def f():\n{body}") == [("f", 1, MAX_LINES + 1)]
    assert long_functions(f"def f():\n{_body(MAX_LINES - 1)}") == []  # exactly MAX_LINES
    assert long_functions(f"# long: a reason\ndef f():\n{body}") == []
    assert long_functions(f"# long: a reason\n@deco\ndef f():\n{body}") == []
    assert long_functions(f"@deco\n# long: a reason\ndef f():\n{body}") == []
    assert long_functions(f"# long:\ndef f():\n{body}") == [("f", 2, MAX_LINES + 1)]  # no reason given
    assert long_functions(f"# long: a reason\n\ndef f():\n{body}") == [("f", 3, MAX_LINES + 1)]  # not right above
    assert long_functions(f"def f():  # long: beside is not above\n{body}") == [("f", 1, MAX_LINES + 1)]
    nested = f"class C:\n    def m(self):\n{_body(MAX_LINES, ' ' * 8)}"
    assert long_functions(nested) == [("m", 2, MAX_LINES + 1)]


def test_no_long_function_without_a_reason_in_engines_bots_or_report():
    found = []
    for folder in CHECKED:
        paths = sorted((ROOT / folder).rglob("*.py"))
        assert paths, folder
        for path in paths:
            for name, line, length in long_functions(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line} {name}: {length} lines")
    assert not found, (
        f"functions over {MAX_LINES} lines (split them, or put '# long: <reason>' right above the def):\n"
        + "\n".join(found)
    )
