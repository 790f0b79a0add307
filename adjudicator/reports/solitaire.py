"""Barbarossa Solitaire in plain English: each event of a step as a sentence with its
rule, grouped as the turn runs (German movement, German attacks, reinforcements,
Soviet combat, the start of the next turn).

The narrator replays the events on the state before the step, so it can say what
stood where when a roll was made (which units the Soviets attacked, why an area
was the weakest point); if the events do not replay it still narrates, with less
detail. Rolls are numbered in order, as in the report's roll table.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import (
    Calendar,
    CalendarPosition,
    Counter,
    DecisionView,
    Line,
    Loss,
    MapView,
    PositionRow,
    Section,
    Status,
    StepReport,
)
from adjudicator.games.solitaire.rules import SolitaireRules
from adjudicator.reports.solitaire_lexicon import (
    ATTACK_RESULTS,
    EFFECTS,
    PHASES,
    SOVIET_COLUMNS,
    VARIANTS,
    Lexicon,
    join_words,
    plural,
)
from adjudicator.reports.solitaire_map import (
    CALENDAR_PHASES,
    calendar_position,
    counter_mix,
    front_line,
    german_count,
    map_view,
    units_by_area,
)

RULE_SEQUENCE = "Game Sequence"
RULE_STANDING = "protocol §4 (standing instructions)"
SECTION_TITLES = {
    "setup": "Set-up",
    "movement": "German movement",
    "attack": "German attacks",
    "reinforcement": "Reinforcements",
    "soviet-combat": "Soviet combat",
    "standing": "Standing instructions",
    "end": "End of the game",
}
# events that belong to the start of a turn rather than to the German's first phase
TURN_START_KINDS = {"turn-began", "reinforcement-due", "unit-removed", "control-changed"}


class Narration:
    """One pass over a step's events, building sections of lines."""

    def __init__(self, lex: Lexicon, step: StepReport) -> None:
        self.lex = lex
        self.state: dict[str, Any] | None = copy.deepcopy(step.state_before)
        self.phase = str(step.state_before.get("phase", "movement"))
        self.turn = str(step.state_before.get("turn", ""))
        self.reading = step.state_before.get("options", {}).get("target-reading",
                                                                 "either-place")
        self.turn_start = False
        self.sections: list[tuple[tuple[str, str], Section]] = []
        self.block: Line | None = None
        self.attack: dict[str, Any] | None = None  # the German attack being told
        self.control: tuple[Line, str, str, list[str], bool] | None = None  # merging
        self.pending: list[tuple[int, dict[str, Any]]] = []
        self.rolls = 0
        self.turn_start_event = False  # the event being told belongs to a turn's start
        self.rules = SolitaireRules()

    # -- building lines ------------------------------------------------------------------
    def group(self) -> tuple[str, str]:
        return ("start" if self.turn_start else self.phase, self.turn)

    def open(self, sentence: str, rule: str | None, kind: str, rolls: list[int] | None = None,
             *, block: bool = True, group: str | None = None) -> Line:
        """A new paragraph; `block` lets the events that follow attach to it."""
        self.flush_rolls()
        if group is None and kind != "start" and not self.turn_start_event:
            self.turn_start = False
        key = (group, self.turn) if group else self.group()
        if not self.sections or self.sections[-1][0] != key:
            self.sections.append((key, Section(key[0], "")))
        line = Line([sentence], rule, kind, list(rolls or []))
        self.sections[-1][1].lines.append(line)
        self.block = line if block else None
        self.attack = None
        self.control = None
        return line

    def follow(self, sentence: str, rule: str | None, kind: str, rolls: list[int] | None = None,
               *, join: bool = False) -> Line:
        """A sentence that belongs to the paragraph being told, or a paragraph of its own."""
        if self.block is None:
            return self.open(sentence, rule, kind, rolls)
        if rule:
            self.block.rule = merge_rules(self.block.rule, rule)
        if join:
            self.block.sentences[-1] += "; " + sentence
        else:
            self.block.sentences.append(sentence)
        self.block.rolls += rolls or []
        self.control = None
        return self.block

    def take_rolls(self) -> tuple[list[int], list[dict[str, Any]]]:
        taken, self.pending = self.pending, []
        return [n for n, _ in taken], [r for _, r in taken]

    def flush_rolls(self) -> None:
        """Rolls no event explained get a line each (so none goes untold)."""
        while self.pending:
            n, roll = self.pending.pop(0)
            self.block = None
            key = self.group()
            if not self.sections or self.sections[-1][0] != key:
                self.sections.append((key, Section(key[0], "")))
            self.sections[-1][1].lines.append(
                Line([f"Die roll for {roll.get('purpose', '?')}: {roll_words(roll)}"], None,
                     "roll", [n]))

    # -- the pass ------------------------------------------------------------------------
    def run(self, events: list[dict[str, Any]]) -> list[Section]:
        for event in events:
            kind = event.get("kind", "")
            self.turn_start_event = kind in TURN_START_KINDS
            if kind == "roll":
                self.rolls += 1
                self.pending.append((self.rolls, event))
            else:
                HANDLERS.get(kind, Narration.unknown)(self, event)
            self.replay(event)
        self.flush_rolls()
        return self.finish()

    def replay(self, event: dict[str, Any]) -> None:
        if event.get("kind") == "phase-ended":
            self.phase = str(event.get("next", self.phase))
        elif event.get("kind") == "turn-began":
            self.turn = str(event.get("turn", self.turn))
            self.phase = "movement"
        if self.state is None:
            return
        try:
            self.rules.apply(self.state, Event.from_json(event))
        except Exception:  # noqa: BLE001 - a partial event list still narrates
            self.state = None

    def finish(self) -> list[Section]:
        turns = {turn for (group, turn), _ in self.sections
                 if group not in ("start", "standing", "end")}
        out = []
        for (group, turn), section in self.sections:
            if group == "start":
                title = f"Start of {self.lex.turn(turn)}"
            else:
                title = SECTION_TITLES.get(group, group.capitalize())
                if len(turns) > 1 and group not in ("standing", "end"):
                    title += f" ({self.lex.turn(turn)})"
            section.title = title
            section.key = f"{group}-{turn}"
            out.append(section)
        return out

    def units_at(self, area: str) -> list[str]:
        if self.state is None:
            return []
        return sorted((u for u, a in self.state.get("units", {}).items() if a == area),
                      key=self.lex.nationality_rank)

    # -- German turn ---------------------------------------------------------------------
    def phase_ended(self, e: dict[str, Any]) -> None:
        ended, following = PHASES.get(e["phase"], e["phase"]), PHASES.get(e["next"], e["next"])
        self.open(f"End of the {ended} phase; the {following} phase begins", RULE_SEQUENCE,
                  "minor", block=False)

    def unit_placed(self, e: dict[str, Any]) -> None:
        self.open(f"{self.lex.unit(e['unit'])} placed in {self.lex.area(e['area'])}",
                  "Optional Rules: Free placement", "move")

    def moved(self, e: dict[str, Any]) -> None:
        lex = self.lex
        via = list(e.get("route") or [])[1:-1]
        text = f"{lex.unit(e['unit'])} moved {lex.area(e['from'])} → {lex.area(e['to'])}"
        if via:
            text += f" (via {lex.areas_list(via)})"
        self.open(text, "Movement", "move")

    def garrison_placed(self, e: dict[str, Any]) -> None:
        text = f"Garrison placed in {self.lex.area(e['area'])}"
        rule = e.get("rule")
        if rule and "optional" in rule and self.block is not None:
            self.follow(text, rule, "garrison")
        else:
            self.open(text, rule, "garrison", block=False)

    def garrison_removed(self, e: dict[str, Any]) -> None:
        rule = str(e.get("rule", ""))
        if rule.startswith("Soviet Combat"):
            self.follow(f"The garrison in {self.lex.area(e['area'])} is destroyed (a garrison "
                        "alone is destroyed automatically, no roll)", rule, "soviet")
        else:
            self.open(f"Garrison in {self.lex.area(e['area'])} removed: {e.get('reason', '')}",
                      rule, "garrison", block=False)

    def control_changed(self, e: dict[str, Any]) -> None:
        side, cause, area = e["side"], str(e.get("cause", "")), e["area"]
        if self.control and self.control[1] == side and self.control[2] == cause:
            line, _, _, areas, alone = self.control
            areas.append(area)
        else:
            alone = self.block is None
            line = self.follow("", "Combat (control)" if alone else None, "control")
            areas = [area]
        names = self.lex.areas_list(areas)
        verb = "becomes" if len(areas) == 1 else "become"
        text = f"{names} {verb} {side.capitalize()}-controlled"
        if alone:  # a paragraph of its own: say why
            text += f" ({cause})" if cause else ""
        line.sentences[-1] = text
        self.control = (line, side, cause, areas, alone)

    def attacked(self, e: dict[str, Any]) -> None:
        lex = self.lex
        numbers, rolls = self.take_rolls()
        d3 = next((r for r in reversed(rolls) if r.get("die") == "D3"), None)
        units = list(e["units"])
        origins = sorted(set(e.get("origins", {}).values()), key=lex.area)
        text = (f"Attack on {lex.area(e['target'])} by {lex.units_list(units)} "
                f"({plural(len(units), 'unit')}, from {lex.areas_list(origins)}): "
                f"D3 roll {e['roll']}")
        if d3 is not None and d3.get("d6") is not None:
            text += f" (die {d3['d6']})"
        modifier = int(e.get("modifier", 0))
        with_german = "with" if e.get("german_taking_part") else "without"
        text += f", {modifier:+d} for {e.get('year')} {with_german} German units = {e['modified']}"
        text += f" → column {e['column']}"
        if e["modified"] > lex.max_roll:
            text += f" (rolls above {lex.max_roll} read as {lex.max_roll}, reconstructed)"
        elif e["modified"] < 1:
            text += " (rolls below 1 read as 1, reconstructed)"
        text += f", row {plural(e['row'], 'unit')}"
        if len(units) > e["row"]:
            text += f" ({len(units)} units read as {e['row']}, reconstructed)"
        text += f": {e['result']}, {ATTACK_RESULTS.get(e['result'], e['result'])}"
        self.open(text, e.get("rule", "Combat"), "attack", numbers)
        self.attack = {"target": e["target"], "units": units, "result": e["result"]}

    def advanced(self, e: dict[str, Any]) -> None:
        units = list(e["units"])
        verb = "moves" if len(units) == 1 else "move"
        self.follow(f"{self.lex.units_list(units)} {verb} into {self.lex.area(e['to'])}",
                    None, "attack", join=self.block is not None and self.block.kind == "attack")

    def unit_removed(self, e: dict[str, Any]) -> None:
        lex = self.lex
        unit, attack = e["unit"], self.attack
        back = (f"returns in {lex.turn(e['returns'])}" if e.get("returns")
                else "out of the game for good")
        if attack is not None:
            text = f"{lex.unit(unit)} is lost ({back})"
            attack.setdefault("lost", []).append(unit)
            self.follow(text, e.get("rule"), "attack", join=True)
            if attack["result"] == "X-1" and len(attack["lost"]) >= len(attack["units"]):
                self.follow(f"no attacking unit is left to move in, so "
                            f"{lex.area(attack['target'])} stays Soviet-controlled", None,
                            "attack", join=True)
            return
        where = (f"in {lex.area(e['area'])}" if e.get("area")
                 else "while waiting to enter as a reinforcement")
        text = f"{lex.unit(unit)} is eliminated {where}"
        if self.block is None or self.block.kind != "soviet":
            text += f" ({e.get('reason', '')})"
        text += f"; {'it ' + back if e.get('returns') else 'it is ' + back}"
        self.follow(text, e.get("rule"), "loss")

    def reinforcement_due(self, e: dict[str, Any]) -> None:
        where = self.lex.areas_list(self.lex.entry_areas(e["unit"]), "or")
        text = f"Reinforcement due: {self.lex.unit(e['unit'])}"
        if where:
            text += f", to enter at {where}"
        self.open(text, "Reinforcements", "reinforcement", block=False)

    def reinforcement_placed(self, e: dict[str, Any]) -> None:
        self.open(f"{self.lex.unit(e['unit'])} enters as a reinforcement at "
                  f"{self.lex.area(e['area'])}", "Reinforcements", "reinforcement")

    # -- Soviet combat -------------------------------------------------------------------
    def soviet_attacks_set(self, e: dict[str, Any]) -> None:
        numbers, rolls = self.take_rolls()
        column = SOVIET_COLUMNS.get(e["column"], e["column"])
        text = f"Soviet Attack Chart, {self.lex.turn(self.turn)}, {column} column: "
        if e.get("low") != e.get("high"):
            d6 = next((r.get("d6") for r in rolls if r.get("d6") is not None), None)
            text += f"{e['low']}-{e['high']}"
            text += f", d6 {d6} → {e['base']}" if d6 is not None else f" → {e['base']}"
        else:
            text += str(e["base"])
        if e.get("variant") not in (None, "none"):
            text += f", {VARIANTS.get(e['variant'], e['variant'])} {int(e['modifier']):+d}"
        text += f" → {plural(e['count'], 'Soviet attack')} this turn"
        self.open(text, e.get("rule", "Soviet Combat"), "soviet", numbers, block=False)

    def soviet_roll_twice(self, e: dict[str, Any]) -> None:
        numbers, _ = self.take_rolls()
        self.open(f"Soviet attack {e['number']}: Random Attack Chart roll {e['roll']} → roll "
                  "again twice (one more attack this turn)", e.get("rule"), "soviet", numbers,
                  block=False)

    def soviet_attack_target(self, e: dict[str, Any]) -> None:
        lex = self.lex
        numbers, rolls = self.take_rolls()
        places = list(e.get("places") or [])
        text = f"Soviet attack {e['number']}: Random Attack Chart roll {e['roll']} → "
        if e.get("how") == "weakest-point":
            text += "the weakest point of the front line"
        else:
            text += f"nearest front-line area to {' / '.join(lex.area(p) for p in places)}"
        target = e.get("target")
        candidates = list(e.get("candidates") or [])
        if target is None:
            self.open(text + "; there is no German front line, so the attack has no target",
                      e.get("rule"), "soviet", numbers)
            return
        why = self.weakest_reason(candidates) if e.get("how") == "weakest-point" else \
            self.distance_words(candidates, places)
        if len(candidates) > 1:
            pick = next((r for r in rolls if r.get("candidates")), None)
            text += f"; candidates {why}: {lex.areas_list(sorted(candidates, key=lex.area))}"
            if pick is not None:
                text += (f"; tie broken by die (pick {pick['value']} of {pick['sides']}, "
                         f"in id order) → {lex.area(target)}")
            else:
                text += f" → {lex.area(target)}"
        else:
            text += f": {lex.area(target)} ({why})" if why else f": {lex.area(target)}"
        units = self.units_at(target)
        if units:
            text += f". Defending: {lex.units_list(units)}"
        elif self.state is not None and target in self.state.get("garrisons", []):
            text += ". Defending: a garrison alone"
        self.open(text, e.get("rule"), "soviet", numbers)

    def distance_words(self, candidates: list[str], places: list[str]) -> str:
        if not candidates or not places:
            return ""
        area = candidates[0]
        dists = [self.lex.distances(p).get(area) for p in places]
        known = [d for d in dists if d is not None]
        if not known:
            return ""
        d = dists[0] if self.reading == "first-place" and dists[0] is not None else min(known)
        if d == 0:
            return "the named area itself"
        return f"at distance {d}" if len(candidates) > 1 else f"{plural(d, 'area')} away"

    def weakest_reason(self, candidates: list[str]) -> str:
        if self.state is None or not candidates:
            return "(weakest point)"
        units = self.units_at(candidates[0])
        germans = [u for u in units if self.lex.nationality(u) == "german"]
        if not units:
            return "a garrison only"
        if not germans:
            return "only non-German units"
        return f"the fewest German units, {len(germans)}"

    def soviet_attack_effect(self, e: dict[str, Any]) -> None:
        lex = self.lex
        numbers, rolls = self.take_rolls()
        d6 = next((r.get("d6") for r in rolls if r.get("die") == "D3"), None)
        text = f"Effect roll D3 {e['roll']}" + (f" (die {d6})" if d6 is not None else "")
        printed = lex.effects.get(int(e["roll"]), e["effect"])
        if printed != e["effect"]:
            text += f": {EFFECTS.get(printed, printed)}, read as {EFFECTS.get(e['effect'])}"
        else:
            text += f": {EFFECTS.get(e['effect'], e['effect'])}"
        for note in e.get("notes") or []:
            text += f" ({note})"
        if e.get("retreat_to"):
            text += f"; the units may retreat to {lex.areas_list(e['retreat_to'], 'or')}"
        self.follow(text, e.get("rule"), "soviet", numbers)

    def standing_instruction_used(self, e: dict[str, Any]) -> None:
        choice = str(e.get("choice", ""))
        if e.get("instruction") == "loss-priority":
            text = f"by the German standing loss priority, {choice} is the unit lost"
        else:
            text = f"German standing instruction: {self.lex.choice(choice)}"
        self.follow(text[0].upper() + text[1:], None, "standing", join=self.attack is not None)

    def retreated(self, e: dict[str, Any]) -> None:
        lex = self.lex
        units = list(e["units"])
        verb = "retreats" if len(units) == 1 else "retreat"
        text = f"{lex.units_list(units)} {verb} {lex.area(e['from'])} → {lex.area(e['to'])}"
        if e.get("via") == "sea":
            sea = lex.sea_between(e["from"], e["to"])
            text += f" by sea ({sea})" if sea else " by sea"
        self.follow(text, e.get("rule"), "soviet")

    def soviet_combat_ended(self, e: dict[str, Any]) -> None:
        done = (self.state or {}).get("soviet", {}).get("done")
        text = f"Soviet combat of {self.lex.turn(e.get('turn'))} over"
        if done is not None:
            text += f" ({plural(done, 'attack')} made)"
        self.open(text, RULE_SEQUENCE, "minor", block=False)

    # -- decisions, turns, the end -------------------------------------------------------
    def decision_requested(self, e: dict[str, Any]) -> None:
        request = e["request"]
        options = join_words([self.lex.choice(o) for o in request.get("options", [])], "or")
        self.follow(f"Decision {request['id']} opened: the "
                    f"{str(request.get('side', 'german')).capitalize()} "
                    f"player chooses: {options}. The game waits for the answer", None,
                    "decision")

    def decision_answered(self, e: dict[str, Any]) -> None:
        pending = (self.state or {}).get("pending") or {}
        self.open(f"Decision {e['id']} answered: {self.lex.choice(str(e['choice']))}",
                  pending.get("rule"), "decision")

    def standing_instructions(self, e: dict[str, Any]) -> None:
        ins = e.get("instructions", {})
        parts = []
        if ins.get("loss-priority"):
            parts.append(f"loss priority {', '.join(ins['loss-priority'])}")
        if ins.get("on-retreat-or-eliminate"):
            parts.append(f"on a Soviet result of 2: {ins['on-retreat-or-eliminate']}")
        if ins.get("retreat-priority"):
            areas = [self.lex.area(a) for a in ins["retreat-priority"]]
            parts.append(f"retreat priority {', '.join(areas)}")
        what = "; ".join(parts) if parts else "none (every choice will be asked)"
        self.open(f"Standing instructions of the {str(e.get('side', 'german')).capitalize()} "
                  "player recorded: "
                  f"{what}", RULE_STANDING, "standing", block=False, group="standing")

    def turn_began(self, e: dict[str, Any]) -> None:
        self.turn_start = True
        self.turn = str(e["turn"])
        self.open(f"{e.get('name') or self.lex.turn(e['turn'])} begins", RULE_SEQUENCE, "start",
                  block=False)

    def game_ended(self, e: dict[str, Any]) -> None:
        self.open(f"Game over after the Soviet combat of {self.lex.turn(self.turn)}: "
                  f"{plural(e['areas'], 'German-controlled area')} ({e.get('counted', 'counted')})"
                  f" → {e['level']}", e.get("rule", "Victory Conditions"), "victory",
                  block=False, group="end")

    def unknown(self, e: dict[str, Any]) -> None:
        data = ", ".join(f"{k}={v}" for k, v in sorted(e.items()) if k != "kind")
        self.open(f"{e.get('kind', 'event')}: {data}", None, "minor", block=False)


HANDLERS: dict[str, Callable[[Narration, dict[str, Any]], None]] = {
    "phase-ended": Narration.phase_ended,
    "unit-placed": Narration.unit_placed,
    "moved": Narration.moved,
    "garrison-placed": Narration.garrison_placed,
    "garrison-removed": Narration.garrison_removed,
    "control-changed": Narration.control_changed,
    "attacked": Narration.attacked,
    "advanced": Narration.advanced,
    "unit-removed": Narration.unit_removed,
    "reinforcement-due": Narration.reinforcement_due,
    "reinforcement-placed": Narration.reinforcement_placed,
    "soviet-attacks-set": Narration.soviet_attacks_set,
    "soviet-roll-twice": Narration.soviet_roll_twice,
    "soviet-attack-target": Narration.soviet_attack_target,
    "soviet-attack-effect": Narration.soviet_attack_effect,
    "retreated": Narration.retreated,
    "standing-instructions": Narration.standing_instructions,
    "standing-instruction-used": Narration.standing_instruction_used,
    "soviet-combat-ended": Narration.soviet_combat_ended,
    "turn-began": Narration.turn_began,
    "game-ended": Narration.game_ended,
    "decision-requested": Narration.decision_requested,
    "decision-answered": Narration.decision_answered,
}


def merge_rules(existing: str | None, rule: str) -> str:
    """'Soviet Combat: A' + 'Soviet Combat: B' -> 'Soviet Combat: A; B'."""
    if not existing:
        return rule
    parts = existing.split("; ")
    head, sep, tail = rule.partition(": ")
    if rule in parts or (sep and tail in parts):
        return existing
    if sep and existing.startswith(head + ": "):
        return f"{existing}; {tail}"
    return f"{existing}; {rule}"


def roll_words(roll: dict[str, Any]) -> str:
    """'D3 2 (die 4)', 'd6 5', 'pick 2 of 3: Kiev'."""
    die = str(roll.get("die", "die"))
    if roll.get("candidates"):
        return f"{die}: {roll.get('choice')}"
    if die == "D3" and roll.get("d6") is not None:
        return f"D3 {roll.get('value')} (die {roll['d6']})"
    return f"{die} {roll.get('value')}"


class SolitaireReporter:
    """The report writer for Barbarossa Solitaire."""

    game = "solitaire"

    def narrate(self, step: StepReport) -> list[Section]:
        return Narration(Lexicon.of(step.module), step).run(step.events)

    def losses(self, step: StepReport) -> list[Loss]:
        lex = Lexicon.of(step.module)
        out = []
        for e in step.events:
            if e.get("kind") == "unit-removed":
                back = lex.turn(e["returns"]) if e.get("returns") else "out of the game"
                out.append(Loss(lex.unit(e["unit"]),
                                lex.area(e["area"]) if e.get("area") else "(waiting to enter)",
                                str(e.get("reason", "")), str(e.get("rule", "")), back))
            elif e.get("kind") == "garrison-removed" and \
                    str(e.get("rule", "")).startswith("Soviet Combat"):
                out.append(Loss("Garrison", lex.area(e.get("area")), str(e.get("reason", "")),
                                str(e.get("rule", "")), "—"))
        return out

    def status(self, module: ModuleData, state: dict[str, Any]) -> Status:
        lex = Lexicon.of(module)
        phase = str(state.get("phase", ""))
        words = "game over" if phase == "game-over" else f"{PHASES.get(phase, phase)} phase"
        status = Status(lex.turn(state.get("turn")), words)
        result = state.get("result")
        if result:
            areas = plural(result["areas"], "German-controlled area")
            status.result = f"{result['level']}: {areas}"
        facts = status.facts
        facts.append(("German-controlled areas", str(german_count(state))))
        line = front_line(lex, state)
        facts.append(("Front line", lex.areas_list(sorted(line, key=lex.area)) or "none"))
        if phase == "soviet-combat" and state.get("soviet", {}).get("left"):
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
        standing = (state.get("standing") or {}).get("german")
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
        rows = [
            PositionRow(lex.area(a), str(state.get("control", {}).get(a, "")), a in line,
                        [lex.unit(u) for u in stacks.get(a, [])], a in garrisons)
            for a in set(stacks) | garrisons
        ]
        return sorted(rows, key=lambda r: r.area)

    def order_hints(self, module: ModuleData, state: dict[str, Any], side: str) -> list[str]:
        """Lines for the comment block of an order-file template: the position in
        brief, with the ids a player writes orders with."""
        lex = Lexicon.of(module)
        line = set(front_line(lex, state))
        hints = [f"{lex.turn(state.get('turn'))}, {PHASES.get(state['phase'], state['phase'])}"
                 " phase. Orders: docs/solitaire-orders.md"]
        stacks = units_by_area(lex, state)
        for row_area, units in sorted(stacks.items()):
            where = f"{row_area} (front line)" if row_area in line else row_area
            hints.append(f"  in {where}: {', '.join(units)}")
        for area in sorted(line & set(stacks)):
            targets = [n for n in sorted(lex.adjacent.get(area, ()))
                       if state["control"].get(n) == "soviet"]
            hints.append(f"  from {area} you can attack: {', '.join(targets)}")
        if state.get("garrisons"):
            hints.append(f"  garrisons: {', '.join(state['garrisons'])}")
        if state.get("queue"):
            hints.append("  reinforcements waiting: " + ", ".join(
                f"{q['unit']} (due {q['due']})" for q in state["queue"]))
        return hints

    def decision(self, module: ModuleData, request: dict[str, Any]) -> DecisionView:
        lex = Lexicon.of(module)
        ctx = request.get("context") or {}
        kind = request.get("kind", "")
        if kind == "attack-loss":
            question = (f"Which attacking unit is lost in the attack on "
                        f"{lex.area(ctx.get('target'))} (result {ctx.get('result')})?")
        elif kind == "soviet-attack-loss":
            question = (f"Which unit is eliminated by Soviet attack {ctx.get('number')} on "
                        f"{lex.area(ctx.get('target'))}?")
        elif kind == "retreat-or-eliminate":
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
        if kind == "move":
            return f"move {lex.unit(a.get('unit', '?'))} to {lex.area(a.get('to'))}"
        if kind == "attack":
            units = lex.units_list(a.get("units", "").split())
            text = f"attack {lex.area(a.get('target'))} with {units}"
            return text + (f" (lose {a['lose']} if a unit is lost)" if a.get("lose") else "")
        if kind == "garrison":
            return f"place a garrison in {lex.area(a.get('area'))}"
        if kind == "reinforce":
            return f"bring in {lex.unit(a.get('unit', '?'))} at {lex.area(a.get('area'))}"
        if kind == "place":
            return f"place {lex.unit(a.get('unit', '?'))} in {lex.area(a.get('area'))}"
        if kind == "end-turn":
            return "end the German turn (the Soviet attacks follow)"
        if kind == "standing":
            return "set standing instructions"
        if kind == "answer":
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
        phases = [PHASES[p].capitalize() if p != "soviet-combat" else PHASES[p]
                  for p in CALENDAR_PHASES]
        return Calendar([name for name, _ in lex.turns.values()], phases)

    def calendar_position(self, module: ModuleData, state: dict[str, Any]) -> CalendarPosition:
        return calendar_position(Lexicon.of(module), state)


REPORTER = SolitaireReporter()
