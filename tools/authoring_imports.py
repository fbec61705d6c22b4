"""Rewrite the claim files' engine imports to the authoring surface (issue 23, point 4; issue 42).

Every ``from verify... import NAMES`` in ``proofs/*.py`` becomes ``from verify.authoring import NAMES``
for the vocabulary and ``from verify.authoring.NAMESPACE import NAMES`` for the engine's helpers
(``network``, ``ranks``, ``constructions``, ``probe``), aliases kept; the module-level ones of a file
are merged into one statement per module at the place of the first (one with a trailing comment stays
in place, with its comment).  Only import lines change, so the script can be rerun after merges.  A
name the surface does not export stops the script: export it in ``verify/authoring/`` first
(deliberately), then rerun.

    python tools/authoring_imports.py [FOLDER]   # default proofs/
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SURFACE = "verify.authoring"
NAMESPACES = ("network", "ranks", "constructions", "probe")
WIDTH = 120


def _exports() -> dict:
    """{name: the surface module that exports it}."""
    homes = {}
    for module in ("", *NAMESPACES):
        path = ROOT / "verify" / "authoring" / (f"{module}.py" if module else "__init__.py")
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                homes.update({name: f"{SURFACE}.{module}" if module else SURFACE
                              for name in ast.literal_eval(node.value)})
                break
        else:
            raise SystemExit(f"{path} has no __all__")
    return homes


def _order(pair) -> tuple:
    """isort's order by type: CONSTANTS, then Classes, then functions."""
    name = pair[0]
    return (0 if name.isupper() and len(name) > 1 else 1 if name[0].isupper() else 2, name)


def _statements(indent: str, names: list, homes: dict, comment: str = "") -> list:
    """One statement per surface module, the vocabulary first (the comment on the last)."""
    modules = sorted({homes[n] for n, _ in names}, key=lambda m: (m != SURFACE, m))
    lines = []
    for i, module in enumerate(modules):
        lines += _statement(indent, [pair for pair in names if homes[pair[0]] == module], module,
                            comment if i == len(modules) - 1 else "")
    return lines


def _statement(indent: str, names: list, module: str, comment: str = "") -> list:
    parts = [f"{n} as {a}" if a else n for n, a in names]
    line = f"{indent}from {module} import {', '.join(parts)}{comment}"
    if len(line) <= WIDTH:
        return [line]
    lines, current = [], f"{indent}from {module} import ("
    for i, part in enumerate(parts):
        piece = part + (", " if i < len(parts) - 1 else f"){comment}")
        if len(current) + len(piece.rstrip()) > WIDTH:
            lines.append(current.rstrip())
            current = indent + " " * len(f"from {module} import (")
        current += piece
    return lines + [current]


def rewrite(path: Path, exports: dict) -> bool:
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    found = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level
             and node.module and node.module.split(".")[0] == "verify"]
    if any(isinstance(node, ast.Import) and any(a.name.split(".")[0] == "verify" for a in node.names)
           for node in ast.walk(tree)):
        raise SystemExit(f"{path}: 'import verify...' is not rewritten; use 'from verify.authoring import NAME'")
    if not found:
        return False
    missing = sorted({a.name for node in found for a in node.names} - set(exports))
    if missing:
        raise SystemExit(f"{path}: {', '.join(missing)} not on the authoring surface; export them in verify/authoring/")
    replace = {}  # first line index -> (last line index, new lines)
    merged, first = [], None
    for node in sorted(found, key=lambda n: n.lineno):
        start, end = node.lineno - 1, node.end_lineno - 1
        comment = lines[end][node.end_col_offset:]
        indent = lines[start][: node.col_offset]
        names = [(a.name, a.asname) for a in node.names]
        if node.col_offset == 0 and not comment.strip() and node in tree.body:
            merged.extend(n for n in names if n not in merged)
            if first is None:
                first = (start, end)
            else:
                replace[start] = (end, [])
        else:
            replace[start] = (end, _statements(indent, names, exports, comment))
    if first is not None:
        replace[first[0]] = (first[1], _statements("", sorted(merged, key=_order), exports))
    out, i = [], 0
    while i < len(lines):
        if i in replace:
            end, new = replace[i]
            out.extend(new)
            i = end + 1
        else:
            out.append(lines[i])
            i += 1
    new_text = "\n".join(out) + ("\n" if text.endswith("\n") else "")
    if new_text != text:
        path.write_text(new_text)
        return True
    return False


def main(folder: str = "proofs") -> None:
    exports = _exports()
    changed = [p.name for p in sorted((ROOT / folder).glob("*.py")) if rewrite(p, exports)]
    print(f"{len(changed)} files rewritten")


if __name__ == "__main__":
    main(*sys.argv[1:])
