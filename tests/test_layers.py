"""The layers point one way (docs/architecture.md, Layers): the engine imports no game and no I/O
layer;
games never import the referee, reports, service or CLI; nothing imports `random`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"

FORBIDDEN = {
    "engine": ("adjudicator.games", "adjudicator.referee", "adjudicator.reports",
               "adjudicator.cli", "adjudicator.service"),
    "security": ("adjudicator.games", "adjudicator.referee", "adjudicator.reports",
                 "adjudicator.cli", "adjudicator.engine.step"),
    "games": ("adjudicator.referee", "adjudicator.reports", "adjudicator.cli",
              "adjudicator.service"),
    "referee": ("adjudicator.reports", "adjudicator.cli", "adjudicator.service"),
    "reports": ("adjudicator.cli", "adjudicator.service", "exporters"),
}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_layers_point_one_way() -> None:
    problems = []
    for layer, forbidden in FORBIDDEN.items():
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            for name in imports_of(path):
                if name.startswith(forbidden):
                    problems.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert problems == []


def test_engine_and_games_draw_no_randomness_of_their_own() -> None:
    for layer in ("engine", "games"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            assert not {"random", "secrets"} & imports_of(path), path
