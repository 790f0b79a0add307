"""VASSAL export (docs/vassal.md): a module per game and saved games of adjudicated
positions, written from the game's module data and its reporter's views alone.

Nothing here knows a game: the board comes from the module's map (areas or a hex
grid), the pieces from the reporter's counter mix, the setups from each scenario's
initial state as the reporter draws it, the turn tracker from its calendar (and a
saved game's tracker position from the reporter's `calendar_position`). A new game is
exported as soon as it has module data and a reporter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import CalendarPosition, MapView
from adjudicator.games import GamePackage, get_game
from adjudicator.referee.gamedir import load_game
from adjudicator.reports.from_journal import step_report
from adjudicator.reports.games import reporter_for
from adjudicator.reports.projection import hides_information, project_state
from exporters.vassal.board import Board, area_board, hex_board
from exporters.vassal.pieces import catalog
from exporters.vassal.save import (
    ExportError,
    module_metadata,
    placements,
    saved_game,
    saved_game_text,
)
from exporters.vassal.turns import tracker_command
from exporters.vassal.vmod import MAP_NAME, ModulePlan, Setup, write_vmod

__all__ = ["ExportError", "export_module", "export_save", "module_plan"]


def _view(package: GamePackage, module: ModuleData, state: dict[str, Any],
          side: str) -> MapView:
    reporter = reporter_for(package.id)
    return reporter.map_view(module, project_state(package.id, state, side), side)


def _board(package: GamePackage, module: ModuleData) -> Board:
    if module.findall("m:map/m:area"):
        first = package.scenarios()[0][0]
        state = package.rules.initial_state(module, first, {})
        return area_board(module, _view(package, module, state, package.rules.sides[0]))
    if module.findall("m:map/m:grid"):
        return hex_board(module)
    raise ExportError(f"module {module.game} has neither areas nor a hex grid to export")


def module_plan(package: GamePackage, module: ModuleData,
                scenarios: list[str] | None = None) -> ModulePlan:
    """Everything the module archive holds, setups included."""
    reporter = reporter_for(package.id)
    board = _board(package, module)
    sides = list(package.rules.sides)
    legend = _view(package, module, package.rules.initial_state(
        module, package.scenarios()[0][0], {}), sides[0]).legend
    kinds = catalog(reporter.counter_mix(module), sides, legend,
                    hides_information=hides_information(package.id))
    calendar = reporter.calendar(module)
    plan = ModulePlan(package.title, module.version,
                      f"{package.title}, exported by pbem from module data {module.version}",
                      sides, board, kinds, calendar.turns, calendar.phases)
    known = dict(package.scenarios())
    for scenario in list(known) if scenarios is None else scenarios:
        if scenario not in known:
            raise ExportError(f"{package.title} has no scenario {scenario!r}; its scenarios: "
                              f"{', '.join(known)}")
        state = package.rules.initial_state(module, scenario, {})
        view = _view(package, module, state, sides[0])
        text = saved_game_text(placements(view, board, kinds), MAP_NAME, [
            _tracker(plan, reporter.calendar_position(module, state))])
        plan.setups.append(Setup(known[scenario], f"setup-{scenario}.vsav", saved_game(
            text, _moduledata(plan), plan.version, f"{known[scenario]}: set-up")))
    return plan


def _tracker(plan: ModulePlan, at: CalendarPosition) -> str:
    return tracker_command(plan.turns, plan.phases, at)


def _moduledata(plan: ModulePlan) -> bytes:
    return module_metadata(plan.name, plan.version, plan.description)


def export_module(game: str, scenarios: list[str] | None = None) -> bytes:
    """The .vmod of a game's bundled module."""
    package = get_game(game)
    plan = module_plan(package, package.bundled_module, scenarios)
    return write_vmod(plan, _moduledata(plan))


def export_save(directory: Path, side: str, seq: int | None = None) -> bytes:
    """The position after step `seq` (default: the latest) of the game in `directory`,
    as `side` may see it, as a saved game for the module `export_module` writes."""
    game = load_game(directory)
    package = game.package
    if game.module.raw != package.bundled_module.raw:
        raise ExportError("this game was created from a module file other than the bundled "
                          f"{package.title} module, so its pieces would not match the "
                          "exported VASSAL module")
    seq = len(game.steps) if seq is None else seq
    step = step_report(game, seq, side)
    plan = module_plan(package, game.module, scenarios=[])
    projected = project_state(package.id, step.state_after, side)
    reporter = reporter_for(package.id)
    view = reporter.map_view(game.module, projected, side)
    status = reporter.status(game.module, projected)
    text = saved_game_text(placements(view, plan.board, plan.kinds), MAP_NAME, [
        _tracker(plan, reporter.calendar_position(game.module, projected))])
    description = (f"{package.title}, game {game.game_id}, after step {seq} "
                   f"({status.turn}, {status.phase}), as the {side} side sees it")
    return saved_game(text, _moduledata(plan), plan.version, description)
