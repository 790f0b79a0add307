"""A 1941 game started from a position file (docs/position-files.md): a referee
rebuilding a disputed position, a tournament starting at a later turn, a conformance
case.

The file names the turn and the moment of the sequence of play (2.0 D), where each
unit stands, the units eliminated and those still to arrive, control where it
differs from the start (4.0 A), and the turn's counters. A unit the file does not
mention is out of the game, except the scenario's reinforcements of later turns,
which arrive as printed (14.1 C). Anything the rules could never have produced
(two sides in one hex, an overstacked hex, a unit at sea outside snow) is refused.
"""

from __future__ import annotations

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.errors import IllegalOrder, InvalidInput, ModuleError
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.flow import PHASES
from adjudicator.games.barbarossa.setup import scenario_state
from adjudicator.games.barbarossa.stacking import check_side_stacking
from adjudicator.games.barbarossa.supply import unsupplied
from adjudicator.games.barbarossa.vocabulary import (
    NO_REPLACEMENTS,
    OPTION_ON,
    WATER,
    City,
    Option,
    Phase,
    Segment,
    Side,
    SupplySource,
    Weather,
)

POSITION_NS = "{urn:pbem:position:1}"
SIDES = (Side.AXIS.value, Side.SOVIET.value)


def position_state(module: ModuleData, root: etree._Element, options: dict[str, str]) -> State:
    """The state a position file describes; InvalidInput saying what is wrong."""
    try:
        return _position_state(module, root, options)
    except (ModuleError, ValueError) as exc:
        raise InvalidInput(f"position file: {exc}") from None
    except IllegalOrder as exc:
        raise InvalidInput(f"position file: rule {exc.rule}: {exc.message}") from None


def _position_state(module: ModuleData, root: etree._Element,
                    options: dict[str, str]) -> State:
    game = GameData.of(module)
    if options.get(Option.FREE_DEPLOYMENT) == OPTION_ON:
        raise ValueError("a position starts after the set-up; free deployment (20.6) "
                         "does not apply to it")
    state = scenario_state(module, root.get("scenario", "campaign"), options)
    turn = _number(root.get("turn"), "turn")
    first = state["turn"]
    if not first <= turn <= state["last_turn"]:
        raise ValueError(f"the scenario runs from Turn {first} to Turn {state['last_turn']}, "
                         f"not Turn {turn}")
    record = game.charts.turn(turn)
    side, segment, phase = _moment(root.get("phase", "axis.air"), turn)
    state.update(turn=turn, player=side, segment=segment, phase=phase,
                 weather=record.weather, air=dict(record.air), units={}, eliminated=[],
                 control={})
    waiting = state.pop("arriving")
    state["arriving"] = {}
    mentioned: set[str] = set()
    for el in root:
        if not isinstance(el.tag, str):
            continue
        tag = etree.QName(el).localname
        if tag == "unit":
            unit = _unit(game, el.get("id"), mentioned)
            state["units"][unit] = game.board.label(game.board.hex(el.get("at")))
        elif tag == "control":
            _control(game, state, el.get("area"), el.get("side"))
        elif tag == "pool" and el.get("name") in ("reinforcements", "eliminated"):
            for entry in el.iter(f"{POSITION_NS}unit"):
                unit = _unit(game, entry.get("id"), mentioned)
                if el.get("name") == "eliminated":
                    state["eliminated"].append(unit)
                else:
                    due = entry.get("due") or str(turn)
                    if _number(due, "due") < turn:
                        raise ValueError(f"{unit} is due on Turn {due}, before Turn {turn}")
                    state["arriving"].setdefault(due, []).append(unit)
        elif tag == "value":
            _value(game, state, el.get("name"), el.get("value"))
        else:
            kind = f" name={el.get('name')!r}" if el.get("name") else ""
            raise ValueError(f"line {el.sourceline}: a 1941 position has no <{tag}{kind}>")
    for due, units in waiting.items():  # 14.1 C: the later reinforcements, as printed
        later = [unit for unit in units if unit not in mentioned]
        if int(due) > turn and later:
            state["arriving"].setdefault(due, []).extend(later)
    state["units"] = dict(sorted(state["units"].items()))
    state["eliminated"].sort()
    state["arriving"] = {t: sorted(u) for t, u in sorted(state["arriving"].items())}
    _check_position(game, state)
    if segment != Segment.AIR:  # 8.0 B: the phasing side traced supply at its segment's start
        state["unsupplied"] = unsupplied(game, state, side)
    if game.since_0_3 and (side, segment, phase) == (Side.SOVIET, Segment.FIRST, Phase.MOVEMENT) \
            and record.replacements != NO_REPLACEMENTS \
            and control_of(game, state, game.city(City.MOSCOW)) == Side.AXIS:
        state["replacements_reduced"] = turn  # 14.2.4 B: judged as the phase began
    return state


def _moment(text: str, turn: int) -> tuple[str, str, str]:
    """`side.air`, `side.first.movement`, ... `side.second.combat` (2.0 D, 17.1.1)."""
    parts = text.split(".")
    side, rest = parts[0], tuple(parts[1:])
    if rest == (Segment.AIR,):
        rest = (Segment.AIR.value, Phase.AIR.value)
    if side not in SIDES or rest not in PHASES \
            or (turn == 1 and rest == (Segment.SECOND, Phase.COMBAT)):
        allowed = ", ".join(f"{s}.{'.'.join(p) if p[0] != Segment.AIR else Segment.AIR}"
                            for s in SIDES for p in PHASES)
        raise ValueError(f"phase {text!r} is none of {allowed} (Turn 1 has no second "
                         "combat phase, 17.1.1)")
    return side, rest[0], rest[1]


def _number(text: str | None, what: str) -> int:
    if not text or not text.isdigit():
        raise ValueError(f"{what} is a turn number, not {text!r}")
    return int(text)


def _unit(game: GameData, unit: str, mentioned: set[str]) -> str:
    if unit not in game.pieces:
        raise ValueError(f"there is no unit {unit!r} in 1941")
    if unit in mentioned:
        raise ValueError(f"{unit} is named twice")
    mentioned.add(unit)
    return unit


def _control(game: GameData, state: State, where: str, side: str) -> None:
    h = game.board.hex(where)
    if side not in SIDES:
        raise ValueError(f"control of {where} goes to axis or soviet, not {side!r}")
    if game.start_side(h) != side:
        state["control"][game.board.label(h)] = side


def _value(game: GameData, state: State, name: str, value: str) -> None:
    """The turn's counters: air points left (10.1), rail capacity used (5.4 E), partisan
    uses (20.2 C), neutralized fleets (20.1.4)."""
    if name in (f"air.{s}" for s in SIDES):
        state["air"][name.split(".")[1]] = _number(value, name)
    elif name in (f"rail.{s}" for s in (*SIDES, SupplySource.FINNISH)):
        state["rail_used"][name.split(".")[1]] = _number(value, name)
    elif name == "partisans-used":
        state["partisans"] = {"used": _number(value, name)}
    elif name == "fleet-neutralized" and value in game.fleets:
        state.setdefault("neutralized", []).append(value)
        state["neutralized"].sort()
    else:
        raise ValueError(f"a 1941 position has no value {name}={value!r}")


def _check_position(game: GameData, state: State) -> None:
    sides: dict[str, set[str]] = {}
    for unit, label in state["units"].items():
        sides.setdefault(label, set()).add(game.pieces[unit].side)
        terrain = game.board.terrain[game.board.hex(label)]
        if game.since_0_3:
            _check_on_land_or_ice(game, state, unit, label)
        elif terrain in WATER and state["weather"] != Weather.SNOW:
            raise ValueError(f"{unit} stands in {label}, all-{terrain}, outside snow (13.5 C)")
    both = sorted(label for label, s in sides.items() if len(s) > 1)
    if both:
        raise ValueError(f"units of both sides stand in {', '.join(both)} (5.0 E)")
    for side in SIDES:
        check_side_stacking(game, state, side)
    for unit, label in state["units"].items():  # 4.0 B: occupied hexes are the occupier's
        _control(game, state, label, game.pieces[unit].side)


def _check_on_land_or_ice(game: GameData, state: State, unit: str, label: str) -> None:
    """13.5 C (module 0.3.0): a unit stands on a water hex only where the Terrain Effects
    Chart lets it enter in this weather: in snow the lakes, the Gulf of Onega and the
    White Sea, frozen; never the other seas."""
    h = game.board.hex(label)
    terrain, water = game.board.terrain[h], game.water.get(h)
    if terrain not in WATER:
        return
    if game.charts.enter_cost(terrain, game.pieces[unit].armor, state["weather"],
                              water=water) is not None:
        return
    the = "" if (water or "").startswith("Lake") else "the "
    what = f"a {terrain} hex" + (f" of {the}{water}" if water else "")
    frozen = "it does not freeze" if state["weather"] == Weather.SNOW else \
        f"the weather is {state['weather']}"
    raise ValueError(f"{unit} stands in {label}, {what}, and {frozen}: no unit can be "
                     "there (13.5 C: only in snow, and then only the lakes, the Gulf of Onega "
                     "and the White Sea freeze)")

