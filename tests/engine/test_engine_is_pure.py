"""The rules engine stays pure Python: no Django or Channels import, no I/O outside the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN_PACKAGES = {"django", "channels", "daphne", "ninja", "psycopg", "redis"}
IO_CALLS = {"open", "print", "input"}
IO_MODULES = {"socket", "urllib", "http", "requests", "subprocess", "sqlite3", "shutil"}
COMMAND_LINE = {"__main__.py", "cli.py"}  # the command line (each game's cli) may read and print


def _imported_packages(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_it_finds_the_engine_modules():
    names = {path.name for path in MODULES}
    assert {"cards.py", "variant.py", "game.py", "selfplay.py", "cli.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_it_imports_no_web_framework(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert not _imported_packages(tree) & FORBIDDEN_PACKAGES


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if p.name not in COMMAND_LINE],
    ids=lambda p: str(p.relative_to(ENGINE)),
)
def test_it_does_no_input_or_output(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & IO_CALLS
    assert not _imported_packages(tree) & IO_MODULES
