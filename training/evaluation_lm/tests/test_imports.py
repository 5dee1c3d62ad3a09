"""The evaluator's independence: none of its modules imports the training recipe."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_no_evaluator_module_imports_the_training_recipe():
    imported = set()
    for module in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add((module.name, node.module))
            elif isinstance(node, ast.Import):
                imported.update((module.name, alias.name) for alias in node.names)
    assert {name for _, name in imported} >= {"trainyard_recipe", "evaluation.evaluator"}  # the walk saw the imports
    assert [(m, name) for m, name in imported if name.startswith("recipes")] == []
