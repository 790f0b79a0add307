"""Moscow '41: the result of one attack or overrun carried out on the game's position,
task by task (combat.py declares the combat and rolls): the units swept away (8.2),
the defender's part, then the attacker's (8.9 F), each as one of the legal options of
`loss_options` (8.9 D-H, 7.6 B, 7.7 B), the retreats unit by unit (8.10-8.11), the
advance (8.12; forced after a successful overrun, 7.6 C), the defender's advance
(8.12 C) and, after an overrun, the movers' MPs and whether they may go on (7.3,
7.7 C-D, 6.4, 4.7 B).

Choices go to the side the rules give them (docs/architecture.md, The engine model): the attacker's
loss from the
order's `loss` preferences when one fits, the defender's from its standing instruction;
otherwise a decision request. A request stops the step; the answer resumes the combat
from the request's context, which carries the rest of the combat as a queue of tasks.
After the roll nothing in the order can make the combat illegal (that would let a
player re-roll): a named advance that the result does not allow is skipped and said so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.procedure import Task, TaskQueue
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow import untried
from adjudicator.games.moscow.charts import CombatCharts, CombatMap
from adjudicator.games.moscow.combat_odds import Combatant
from adjudicator.games.moscow.combat_results import (
    AdvanceMove,
    Option,
    RetreatFacts,
    attacking_victors,
    check_advance,
    defending_victors,
    loss_options,
    overrun_attacker_options,
    retreat_paths,
    swept_away,
)
from adjudicator.games.moscow.data import Game, unit_facts, units_of
from adjudicator.games.moscow.movement import mover_from_record, mover_record
from adjudicator.games.moscow.overrun import Overrun
from adjudicator.games.moscow.stacking import stacking_limit
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import RULES_0_2_0, other_side
from adjudicator.games.moscow.zoc import EnemyZones

LOSS_RULES = {"1": "8.9 D", "2": "8.9 E", "E": "8.9 G"}


# -- choice strings -----------------------------------------------------------------------

def loss_text(option: Option) -> str:
    """The string that names a loss option: "step:A+B;retreat-1"."""
    parts = []
    if option.losses:
        parts.append("step:" + "+".join(option.losses))
    if option.retreat:
        parts.append(f"retreat-{option.retreat}")
    return ";".join(parts) or "none"


def path_text(board_label: Any, path: tuple[Hex, ...]) -> str:
    return "-".join(board_label(h) for h in path)


def run(ctx: StepContext, context: dict[str, Any]) -> None:
    """The rest of a combat, task by task (the kit's `TaskQueue`, `COMBAT`); a task that
    needs a choice asks for it, and combat.py's `resume` runs the queue on."""
    COMBAT.run(ctx, context)


# -- the result ---------------------------------------------------------------------------

def _sweep(ctx: StepContext, context: dict[str, Any]) -> dict[str, Any]:
    """8.2: units that retreated into a defending hex this phase are eliminated when the
    defenders suffer an adverse result."""
    state, game = ctx.state, Game.of(ctx.module)
    retreated = set(state.get("retreated", []))
    defenders = [combatant(game, state, u, True, u in retreated)
                 for u in context["defenders"] if u in state["units"]]
    for unit in swept_away(context["result"]["defender"], defenders, overrun=False):
        ctx.emit("unit-eliminated", unit=unit, rule="8.2")
    return context


def _party_units(ctx: StepContext, context: dict[str, Any], party: str) -> list[Combatant]:
    state, game = ctx.state, Game.of(ctx.module)
    return [combatant(game, state, u, True, False) for u in context[party + "s"]
            if u in state["units"]]


def _options(ctx: StepContext, context: dict[str, Any], party: str) -> list[Option]:
    units = _party_units(ctx, context, party)
    part = context["result"][party]
    if party == "attacker" and context["kind"] == "overrun":
        return overrun_attacker_options(part, units, successful=cleared(ctx.state, context))
    return loss_options(part, units)


def _owner(context: dict[str, Any], party: str) -> str:
    return str(context["side"]) if party == "attacker" else other_side(context["side"])


def _loss_choice(ctx: StepContext, context: dict[str, Any], party: str) -> str:
    """8.9 D-E: the owner of the affected units chooses: the only option; the attacker's
    preference in its order; the defender's standing instruction; else a request."""
    options = [loss_text(o) for o in _options(ctx, context, party)]
    if len(options) <= 1:
        return options[0] if options else "none"
    owner = _owner(context, party)
    if party == "attacker":
        preset = next((p for p in context["loss"] if p in options), None)
        if preset is not None:
            return str(preset)
    standing = standing_of(ctx.state, owner).get("loss")
    if standing is not None:
        pick = standing if standing in options else next(
            (o for o in options if standing == "retreat" and o.startswith("retreat")), None)
        if pick is not None:
            ctx.emit("standing-instruction-used", side=owner, instruction="loss", choice=pick)
            return pick
    part = context["result"][party]
    rule = LOSS_RULES.get(part, "8.9")
    if context["kind"] == "overrun" and party == "attacker":
        rule = "7.6 B" if cleared(ctx.state, context) else "7.7 B"
    request_decision(ctx, DecisionRequest(
        next_decision_id(ctx.state), owner, "loss", rule, options,
        {**context, "step": "loss", "party": party, "part": part}))
    raise AssertionError("unreachable")  # pragma: no cover


def apply_loss(ctx: StepContext, context: dict[str, Any], party: str,
               choice: str) -> dict[str, Any]:
    """8.9 D-H: the steps lost first (a German unit reduced, then eliminated; a Soviet
    unit eliminated), then a retreat of every surviving affected unit, one at a time
    (8.10 A), queued before the rest of the combat."""
    state, game = ctx.state, Game.of(ctx.module)
    options = {loss_text(o): o for o in _options(ctx, context, party)}
    option = options.get(choice, Option())
    part = context["result"][party]
    ctx.emit("loss-chosen", party=party, side=_owner(context, party), part=part,
             choice=choice, hexes=context["hexes"])
    rule = LOSS_RULES.get(part, "8.9")
    for unit in option.losses:
        if unit not in state["units"]:
            continue
        if unit_facts(game, state, unit)[0] == "german" and \
                state["steps"].get(unit, game.pieces[unit].steps) >= 2:
            ctx.emit("unit-reduced", unit=unit, rule=f"{rule}, 8.9 H")
        else:
            ctx.emit("unit-eliminated", unit=unit, rule=f"{rule}, 8.9 H")
    if party == "defender" and not any(u in state["units"] for u in context["defenders"]):
        context = {**context, "all_eliminated": True}  # 8.12 I
    survivors = [u for u in context[party + "s"] if u in state["units"]]
    retreats = [{"task": "retreat", "party": party, "unit": u, "hexes": option.retreat}
                for u in survivors] if option.retreat else []
    if party == "attacker" and option.retreat:
        context = {**context, "retreated": sorted({*context["retreated"], *survivors})}
    return {**context, "queue": [*retreats, *context["queue"]]}


def retreat_facts(ctx: StepContext, context: dict[str, Any], unit: str,
                  party: str) -> RetreatFacts:
    """8.11: the enemy units that caused the retreat, from the hexes they attacked or
    defended in (their original hexes, 8.11 B), the enemy units and their ZOCs now,
    the other friendly units, and the stacking limit the final hex must leave room in
    (8.11 B, 4.6 A; two Soviet units in the German half of Turn 1, 3.2 B)."""
    state, game = ctx.state, Game.of(ctx.module)
    terrain = Terrain.of(ctx.module)
    side = unit_facts(game, state, unit)[0]
    enemy_party = "defenders" if party == "attacker" else "attackers"
    causers = frozenset(game.board.hex(context["origin"][u]) for u in context[enemy_party])
    enemies = units_of(game, state, other_side(side))
    friendly: dict[Hex, int] = {}
    for u in units_of(game, state, side):
        if u.id != unit:
            friendly[u.hex] = friendly.get(u.hex, 0) + 1
    return RetreatFacts(causers, frozenset(u.hex for u in enemies),
                        EnemyZones.of(terrain, enemies).zoc, friendly,
                        stacking_limit(ctx, side))


def _retreat_choice(ctx: StepContext, context: dict[str, Any],
                    task: dict[str, Any]) -> list[str]:
    """8.10 A, 8.11: the owner retreats each unit; one safe path is taken, none
    eliminates the unit (an empty list), a choice goes to the owner, who may also retreat
    it after his others (RULES-ISSUES 17)."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = task["unit"]
    if unit not in state["units"]:
        return []
    ground = CombatMap.of(ctx.module)
    facts = retreat_facts(ctx, context, unit, task["party"])
    here = game.board.hex(state["units"][unit])
    paths = [path_text(game.board.label, p)
             for p in retreat_paths(ground, here, task["hexes"], facts)]
    if len(paths) <= 1:
        return paths[0].split("-") if paths else []
    owner = unit_facts(game, state, unit)[0]
    if standing_of(state, owner).get("retreat") == "first":
        ctx.emit("standing-instruction-used", side=owner, instruction="retreat",
                 choice=paths[0])
        return paths[0].split("-")
    # 8.10 A: "in any order the owner chooses": with more of his units still to
    # retreat from this combat, he may retreat this one later
    others = any(t["task"] == "retreat" and t["unit"] != unit and t["unit"] in state["units"]
                 and unit_facts(game, state, t["unit"])[0] == owner
                 for t in context["queue"][1:])
    request_decision(ctx, DecisionRequest(
        next_decision_id(state), owner, "retreat", "8.10 A",
        [*paths, "later"] if others else paths, {**context, "step": "retreat", "unit": unit}))
    raise AssertionError("unreachable")  # pragma: no cover


def apply_retreat(ctx: StepContext, context: dict[str, Any], task: dict[str, Any],
                  labels: list[str]) -> dict[str, Any]:
    state, game = ctx.state, Game.of(ctx.module)
    unit = task["unit"]
    if unit not in state["units"]:
        return context
    if not labels:
        ctx.emit("unit-eliminated", unit=unit, rule="8.11 A")
        return context
    ctx.emit("unit-retreated", unit=unit, side=unit_facts(game, state, unit)[0],
             path=labels, rule="7.7 B" if context["kind"] == "overrun"
             and task["party"] == "attacker" else "8.10")
    if task["party"] == "defender" and len(labels) == 2:  # 8.12 F: both hexes vacated
        context = {**context, "beyond": sorted({*context["beyond"], labels[0]})}
    return context


def cleared(state: State, context: dict[str, Any]) -> bool:
    """7.6 A, 7.7 A: the overrun succeeds when no defender stays in the hex."""
    return not any(state["units"].get(u) in context["hexes"] for u in context["defenders"])


def _advance(ctx: StepContext, context: dict[str, Any]) -> dict[str, Any]:
    """8.12, 7.6 C-D: the named victorious attackers advance into the hexes the combat
    vacated; after a successful overrun at least one (by default the first named
    overrunning unit, RULES-ISSUES 22) must. Never after a failed overrun (7.7 E: nor the
    defender)."""
    state, game = ctx.state, Game.of(ctx.module)
    ground = CombatMap.of(ctx.module)
    label, hexes = game.board.label, context["hexes"]
    occupied = set(state["units"].values())
    vacated = [x for x in hexes if x not in occupied]
    if not vacated:
        return context
    overrunning = context["kind"] == "overrun"
    present = [u for u in context["attackers"] if u in state["units"]]
    victors = attacking_victors(_party_units(ctx, context, "attacker"),
                                retreated=context["retreated"])
    wanted = [(u, list(p)) for u, p in context["advance"]]
    if overrunning and not wanted and victors:
        wanted = [(next(u for u in present if u in victors), [])]
    accepted: list[AdvanceMove] = []
    skipped: list[dict[str, str]] = []
    beyond = frozenset(game.board.hex(x) for x in context["beyond"] if x not in occupied)
    vacant = frozenset(game.board.hex(x) for x in vacated)
    for unit, path in wanted:
        move = AdvanceMove(unit, tuple(game.board.hex(x) for x in (path or vacated[:1])))
        try:
            check_advance(ground, [*accepted, move], victors=victors, vacated=vacant,
                          beyond=beyond, all_eliminated=context["all_eliminated"])
        except IllegalOrder as exc:
            skipped.append({"unit": unit, "rule": exc.rule, "why": str(exc)})
            continue
        accepted.append(move)
    if overrunning and not accepted and victors:  # 7.6 C: someone must go in
        accepted = [AdvanceMove(next(u for u in present if u in victors),
                                (game.board.hex(vacated[0]),))]
    facts = context["overrun"]
    if overrunning and facts["disengagement"] and facts["left_behind"] < 1 \
            and len(accepted) > 1 and len(accepted) == len(present) \
            and not ctx.module.at_least(RULES_0_2_0):
        # module 0.1.0 read 6.0 B into an overrun out of an EZOC (RULES-ISSUES 18): one
        # unit had to stay in the hex the overrun left
        dropped = accepted.pop()
        skipped.append({"unit": dropped.unit, "rule": "6.0 B",
                        "why": "a friendly combat unit must remain in the hex (6.3)"})
    if accepted or skipped:
        ctx.emit("units-advanced", side=context["side"],
                 moves=[{"unit": m.unit, "path": [label(h) for h in m.path]}
                        for m in accepted], skipped=skipped,
                 rule="7.6 C" if overrunning else "8.12")
    return {**context, "advanced": [m.unit for m in accepted]}


def _defender_advance(ctx: StepContext, context: dict[str, Any]) -> None:
    """8.12 A-C: when the attackers' hexes are vacated (they retreated or were
    eliminated), the victorious defending units (no loss, no retreat) may advance into
    them, four at most a hex (two Soviet units in the German half of Turn 1, 3.2 B;
    RULES-ISSUES 14 and 16). The defender chooses, one unit at a time: by decision, or
    not at all by standing instruction `advance="never"`."""
    state, game = ctx.state, Game.of(ctx.module)
    charts = CombatCharts.of(ctx.module)
    result = charts.parse(context["result"]["code"])
    done = context.get("defender_advanced", [])
    victors = [u for u in defending_victors(result, _party_units(ctx, context, "defender"),
                                            overrun=False) if u not in done]
    occupied = list(state["units"].values())
    vacated = sorted({context["origin"][u] for u in context["attackers"]} - set(occupied))
    defender = other_side(context["side"])
    limit = stacking_limit(ctx, defender)
    options = [f"{u}@{x}" for u in victors for x in vacated
               if game.board.grid.adjacent(game.board.hex(state["units"][u]), game.board.hex(x))
               and occupied.count(x) < limit]
    if not options or standing_of(state, defender).get("advance") == "never":
        return
    request_decision(ctx, DecisionRequest(
        next_decision_id(state), defender, "defender-advance", "8.12 C", ["none", *options],
        {**context, "step": "defender-advance"}))


def _movers(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.3, 7.7 C-D, 7.4 C: the overrunning units have paid the overrun's MPs; those that
    advanced stand where they ended (halted in an EZOC, 4.7 B); those that retreated have
    ended their movement (7.7 C), as has a minimum move (4.3) and the force of the 6.4
    exception; the rest may move on with what they have left (`Overrun.after`)."""
    state, game = ctx.state, Game.of(ctx.module)
    terrain = Terrain.of(ctx.module)
    facts = context["overrun"]
    survivors = [u for u in context["attackers"] if u in state["units"]]
    if not survivors:  # 3.1.1 A: still the stack that moved last
        ctx.emit("overrun-movers", units=context["attackers"], movers={})
        return
    movers = [mover_from_record(game, state, u, facts["movers"][u]) for u in survivors]
    advanced = [u for u in context.get("advanced", []) if u in survivors]
    left = facts["left_behind"]
    if facts["disengagement"] and advanced and len(advanced) == len(movers) and left < 1:
        left = 1  # module 0.1.0's 6.0 B check: 7.6 C forced the last unit in (see _advance)
    revised = ctx.module.at_least(RULES_0_2_0)
    cost = Overrun(game.board.hex(facts["target"]),
                   {u: Fraction(c) for u, c in facts["costs"].items()},
                   True, facts["minimum_move"], facts["disengagement"], facts["into_ezoc"],
                   (), left, revised)
    zoc = EnemyZones.of(terrain, units_of(game, state, other_side(context["side"]))).zoc
    ends = {u: game.board.hex(state["units"][u]) for u in advanced}  # 7.6 D: maybe two hexes
    after = cost.after(movers, advanced=advanced, zoc=zoc, ends=ends)
    records = {}
    for m in after:
        here = game.board.hex(state["units"][m.id])
        m = replace(m, unit=replace(m.unit, hex=here))
        if m.id in context["retreated"]:  # 7.7 C
            m = replace(m, finished=True, ended=m.ended or "7.7 C")
        if facts["minimum_move"]:  # 4.3: the overrun spent every MP
            m = replace(m, finished=True, ended=m.ended or "4.3")
        records[m.id] = mover_record(ctx, m)
    ctx.emit("overrun-movers", units=survivors, movers=records)


# -- helpers ------------------------------------------------------------------------------

def combatant(game: Game, state: State, unit: str, supplied: bool,
               retreated: bool) -> Combatant:
    """A unit's printed values (an untried token's counter once revealed) with its steps
    left (8.9 H), supply (9.0 C) and whether it retreated into its hex (8.2, 7.8)."""
    piece = game.pieces[untried.piece_of(state, unit)]
    here = game.board.hex(state["units"][unit])
    steps = state["steps"].get(unit) if piece.side == "german" else None
    return replace(Combatant.of(piece, here, steps=steps, supplied=supplied,
                                retreated=retreated), id=unit)


def standing_of(state: State, side: str) -> dict[str, Any]:
    """A side's standing instructions (docs/architecture.md, The engine model), if the game keeps
    any."""
    return dict((state.get("standing") or {}).get(side) or {})


# -- the queue ----------------------------------------------------------------------------

def _done(work: Callable[[StepContext, dict[str, Any], dict[str, Any]], dict[str, Any] | None]
          ) -> Callable[[StepContext, dict[str, Any], dict[str, Any]], dict[str, Any]]:
    """A task that does `work` and leaves the queue without its head (what the queue
    held before the work: a task that adds tasks is `_loss`)."""
    def run_task(ctx: StepContext, context: dict[str, Any], task: dict[str, Any]
                 ) -> dict[str, Any]:
        after = work(ctx, context, task)
        return {**(context if after is None else after), "queue": context["queue"][1:]}
    return run_task


def _loss(ctx: StepContext, context: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """8.9 D-H: a party's part of the result, chosen (or asked); its retreats join the
    queue."""
    choice = _loss_choice(ctx, context, task["party"])
    return apply_loss(ctx, {**context, "queue": context["queue"][1:]}, task["party"], choice)


def _finished(ctx: StepContext, context: dict[str, Any]) -> None:
    ctx.emit("combat-finished", combat=context["kind"], hexes=context["hexes"],
             success=cleared(ctx.state, context) if context["kind"] == "overrun" else None)


COMBAT = TaskQueue("combat", {
    "sweep": Task("sweep", _done(lambda ctx, context, task: _sweep(ctx, context))),
    "loss": Task("loss", _loss),
    "retreat": Task("retreat", _done(lambda ctx, context, task: apply_retreat(
        ctx, context, task, _retreat_choice(ctx, context, task)))),
    "advance": Task("advance", _done(lambda ctx, context, task: _advance(ctx, context))),
    "defender-advance": Task("defender-advance", _done(
        lambda ctx, context, task: _defender_advance(ctx, context))),
    "movers": Task("movers", _done(lambda ctx, context, task: _movers(ctx, context))),
}, finish=_finished)
