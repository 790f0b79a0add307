"""Barbarossa Solitaire's report writer (reports/games.py `GameReporter`): the narrative
(report_narrative.py), the losses, the status and the position, the decision asked, the
orders in words, and the map (report_map.py), all from the rules' own data and
functions."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import (
    Calendar,
    CalendarPosition,
    Counter,
    DecisionView,
    Loss,
    MapView,
    PositionRow,
    Section,
    Status,
    StepReport,
)
from adjudicator.games.solitaire.orders import (
    Answer,
    Attack,
    EndTurn,
    Garrison,
    Move,
    Place,
    Reinforce,
    Standing,
)
from adjudicator.games.solitaire.report_hints import order_hints
from adjudicator.games.solitaire.report_lexicon import PHASES, Lexicon, plural
from adjudicator.games.solitaire.report_map import (
    CALENDAR_PHASES,
    calendar_position,
    counter_mix,
    front_line,
    german_count,
    map_view,
    units_by_area,
)
from adjudicator.games.solitaire.report_narrative import Narration
from adjudicator.games.solitaire.vocabulary import GAME, DecisionKind, EventKind, Phase, Rule, Side


class SolitaireReporter:
    """The report writer for Barbarossa Solitaire."""

    game = GAME

    def narrate(self, step: StepReport) -> list[Section]:
        return Narration(Lexicon.of(step.module), step).run(step.events)

    def losses(self, step: StepReport) -> list[Loss]:
        lex = Lexicon.of(step.module)
        out = []
        for e in step.events:
            if e.get("kind") == EventKind.UNIT_REMOVED:
                back = lex.turn(e["returns"]) if e.get("returns") else "out of the game"
                out.append(Loss(lex.unit(e["unit"]),
                                lex.area(e["area"]) if e.get("area") else "(waiting to enter)",
                                str(e.get("reason", "")), str(e.get("rule", "")), back))
            elif e.get("kind") == EventKind.GARRISON_REMOVED and \
                    str(e.get("rule", "")).startswith(Rule.SOVIET_COMBAT):
                out.append(Loss("Garrison", lex.area(e.get("area")), str(e.get("reason", "")),
                                str(e.get("rule", "")), "—"))
        return out

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        lex = Lexicon.of(module)
        phase = str(state.get("phase", ""))
        words = "game over" if phase == Phase.GAME_OVER else f"{PHASES.get(phase, phase)} phase"
        status = Status(lex.turn(state.get("turn")), words)
        result = state.get("result")
        if result:
            areas = plural(result["areas"], "German-controlled area")
            status.result = f"{result['level']}: {areas}"
        facts = status.facts
        facts.append(("German-controlled areas", str(german_count(lex, state))))
        line = front_line(lex, state)
        facts.append(("Front line", lex.areas_list(sorted(line, key=lex.area)) or "none"))
        if phase == Phase.SOVIET_COMBAT and state.get("soviet", {}).get("left"):
            facts.append(("Soviet attacks still to come", str(state["soviet"]["left"])))
        queue = state.get("queue") or []
        if queue:
            facts.append(("Reinforcements waiting", ", ".join(
                f"{lex.unit(q['unit'])} (due {lex.turn(q['due'])})" for q in queue)))
        later = [(u, t) for u, t in state.get("schedule") or []
                 if u not in state.get("units", {}) and all(q["unit"] != u for q in queue)]
        if later:
            facts.append(("Arriving later", ", ".join(f"{u} ({lex.turn(t)})" for u, t in later)))
        if state.get("out"):
            facts.append(("Out of the game", ", ".join(state["out"])))
        if state.get("unplaced"):
            facts.append(("Still to place", ", ".join(state["unplaced"])))
        standing = (state.get("standing") or {}).get(Side.GERMAN)
        if standing:
            retreat = [lex.area(a) for a in standing.get("retreat-priority", [])]
            parts = [f"loss priority {', '.join(standing.get('loss-priority', [])) or '—'}",
                     f"on a Soviet 2: {standing.get('on-retreat-or-eliminate', 'ask me')}",
                     f"retreat priority {', '.join(retreat) or '—'}"]
            facts.append(("Standing instructions", "; ".join(parts)))
        options = state.get("options") or {}
        if options:
            facts.append(("Options", ", ".join(f"{k}={v}" for k, v in sorted(options.items()))))
        return status

    def position(self, module: ModuleData, state: dict[str, Any]) -> list[PositionRow]:
        lex = Lexicon.of(module)
        line = set(front_line(lex, state))
        stacks = units_by_area(lex, state)
        garrisons = set(state.get("garrisons") or [])
        control = state.get("control", {})
        # every German-controlled area, held or not: each counts for victory (Victory
        # Conditions), so none is left out
        german = {a for a, side in control.items() if side == Side.GERMAN}
        rows = [
            PositionRow(lex.area(a), str(control.get(a, "")), a in line,
                        [lex.unit(u) for u in stacks.get(a, [])], a in garrisons)
            for a in set(stacks) | garrisons | german
        ]
        return sorted(rows, key=lambda r: r.area)

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        """The position in brief and what the rules take now (report_hints.py)."""
        return order_hints(module, state, side)

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        lex = Lexicon.of(module)
        ctx = request.get("context") or {}
        kind = request.get("kind", "")
        if kind == DecisionKind.ATTACK_LOSS:
            question = (f"Which attacking unit is lost in the attack on "
                        f"{lex.area(ctx.get('target'))} (result {ctx.get('result')})?")
        elif kind == DecisionKind.SOVIET_ATTACK_LOSS:
            question = (f"Which unit is eliminated by Soviet attack {ctx.get('number')} on "
                        f"{lex.area(ctx.get('target'))}?")
        elif kind == DecisionKind.RETREAT_OR_ELIMINATE:
            question = (f"Soviet attack {ctx.get('number')} on {lex.area(ctx.get('target'))} "
                        f"rolled {ctx.get('roll')}: retreat all units in the area to one "
                        f"German-controlled area, or eliminate one unit?")
        else:
            question = f"{kind}?"
        options = [(o, lex.choice(o)) for o in request.get("options", [])]
        return DecisionView(str(request.get("id")), kind, str(request.get("rule", "")),
                            question, options, '<standing loss-priority="…" '
                            'on-retreat-or-eliminate="…" retreat-priority="…"/>')

    def describe_order(self, module: ModuleData, order: dict[str, Any]) -> str:
        lex = Lexicon.of(module)
        a = order.get("attrs") or {}
        kind = order.get("kind", "")
        if kind == Move.KIND:
            return f"move {lex.unit(a.get('unit', '?'))} to {lex.area(a.get('to'))}"
        if kind == Attack.KIND:
            units = lex.units_list(a.get("units", "").split())
            text = f"attack {lex.area(a.get('target'))} with {units}"
            return text + (f" (lose {a['lose']} if a unit is lost)" if a.get("lose") else "")
        if kind == Garrison.KIND:
            return f"place a garrison in {lex.area(a.get('area'))}"
        if kind == Reinforce.KIND:
            return f"bring in {lex.unit(a.get('unit', '?'))} at {lex.area(a.get('area'))}"
        if kind == Place.KIND:
            return f"place {lex.unit(a.get('unit', '?'))} in {lex.area(a.get('area'))}"
        if kind == EndTurn.KIND:
            return "end the German turn (the Soviet attacks follow)"
        if kind == Standing.KIND:
            return "set standing instructions"
        if kind == Answer.KIND:
            return f"answer decision {a.get('decision')}: {lex.choice(a.get('choice', ''))}"
        return kind

    def map_view(self, module: ModuleData, state: dict[str, Any], side: str,
                 caption: str | None = None) -> MapView:
        return map_view(Lexicon.of(module), state, side, caption)

    def counter_mix(self, module: ModuleData) -> list[Counter]:
        return counter_mix(Lexicon.of(module))

    def calendar(self, module: ModuleData) -> Calendar:
        """The turns of the turn record; the official sheet's sequence of play."""
        lex = Lexicon.of(module)
        phases = [PHASES[p].capitalize() if p != Phase.SOVIET_COMBAT else PHASES[p]
                  for p in CALENDAR_PHASES]
        return Calendar([name for name, _ in lex.turns.values()], phases)

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        return calendar_position(Lexicon.of(module), state)


REPORTER = SolitaireReporter()
