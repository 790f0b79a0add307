"""1941 rule 18.0 Victory (and 20.4.4 for the winter game): the German VP total from
the Victory Point Table, the level from the Victory Table, the shifts for losses
(18.2 B-D) and the German strategic victory (18.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.game import Game, control_of
from adjudicator.games.barbarossa.ground import in_supply, rail_supplied
from adjudicator.games.barbarossa.strategic import victory_level
from adjudicator.games.barbarossa.supply import supply_map

M = f"{{{MODULE_NS}}}"


@dataclass(frozen=True)
class Result:
    points: int
    level: str
    strategic: bool
    encircled: list[str]
    soviet_losses: int
    axis_losses: int

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "level": self.level, "strategic": self.strategic,
                "encircled": self.encircled, "soviet_losses": self.soviet_losses,
                "axis_losses": self.axis_losses}


def encircled(game: Game, state: State, h: Hex) -> bool:
    """18.1 E: Soviet controlled, but no supply line from the city to a Soviet supply
    source on the east edge."""
    if control_of(game, state, h) != "soviet":
        return False
    sources = frozenset(x for x, kind in game.supply.items()
                        if kind == "soviet" and control_of(game, state, x) == "soviet")
    terrain = supply_map(game, state, "soviet", sources)
    return not in_supply(game.board, h, terrain, rail_supplied(game.board, terrain))


def result(module: ModuleData, state: State) -> Result:
    game = Game.of(module)
    charts = module.find("m:charts")
    winter = state["last_turn"] > 7
    points, surrounded = 0, []
    for city in charts.find(f"{M}victory-points").findall(f"{M}city"):
        h = game.board.hex(city.get("hex"))
        holder = control_of(game, state, h)
        if holder == "axis":
            points += int(city.get("german-control"))
        elif encircled(game, state, h) and int(city.get("encircled")):
            points += int(city.get("encircled"))
            surrounded.append(city.get("hex"))
        else:
            points += int(city.get("soviet-control"))
    eliminated = [game.pieces[u] for u in state["eliminated"] if u not in state["units"]]
    if winter:  # 20.4.4 B
        points -= 2 * sum(1 for p in eliminated if p.nationality == "german"
                          and p.size == "group" and p.armor)
    table = charts.find(f"{M}{'winter-victory-levels' if winter else 'victory-levels'}")
    levels = sorted(table.findall(f"{M}level"), key=lambda el: int(el.get("rank")))
    names = [el.get("name") for el in levels]
    base = next(i for i, el in enumerate(levels)
                if int(el.get("min", "-999")) <= points <= int(el.get("max", "999")))
    soviet_losses = sum(1 for p in eliminated if p.side == "soviet")
    axis_losses = sum(1 for p in eliminated if p.side == "axis")
    level = names[base] if winter else victory_level(  # 20.4.4 C: no loss shifts
        names, base, soviet_losses=soviet_losses, axis_losses=axis_losses)
    objectives = [game.board.hex(o.get("hex"))
                  for o in charts.iter(f"{M}objective")]
    strategic = not winter and all(
        control_of(game, state, h) == "axis" or encircled(game, state, h) for h in objectives)
    return Result(points, level, strategic, surrounded, soviet_losses, axis_losses)
