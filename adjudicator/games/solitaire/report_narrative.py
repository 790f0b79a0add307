"""Barbarossa Solitaire's narrative: each event of a step as a sentence with its rule,
grouped as the turn runs (German movement, German attacks, reinforcements, Soviet
combat, the start of the next turn).

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
from adjudicator.engine.report import Line, Section, StepReport
from adjudicator.games.solitaire.report_lexicon import (
    ATTACK_RESULTS,
    EFFECTS,
    PHASES,
    SOVIET_COLUMNS,
    VARIANTS,
    Lexicon,
    join_words,
    plural,
)
from adjudicator.games.solitaire.rules import RULES
from adjudicator.games.solitaire.soviet_combat import weakness
from adjudicator.games.solitaire.vocabulary import (
    EVENT_RULES,
    AttackTarget,
    EventKind,
    Instruction,
    Option,
    Phase,
    Rule,
    Side,
    TargetReading,
    Variant,
    Via,
)

SECTION_TITLES = {
    Phase.SETUP: "Set-up",
    Phase.MOVEMENT: "German movement",
    Phase.ATTACK: "German attacks",
    Phase.REINFORCEMENT: "Reinforcements",
    Phase.SOVIET_COMBAT: "Soviet combat",
    "standing": "Standing instructions",
    "end": "End of the game",
}
# events that belong to the start of a turn rather than to the German's first phase
TURN_START_KINDS = {EventKind.TURN_BEGAN, EventKind.REINFORCEMENT_DUE, EventKind.UNIT_REMOVED,
                    EventKind.CONTROL_CHANGED}


class Narration:
    """One pass over a step's events, building sections of lines."""

    def __init__(self, lex: Lexicon, step: StepReport) -> None:
        self.lex = lex
        self.state: dict[str, Any] | None = copy.deepcopy(step.state_before)
        self.phase = str(step.state_before.get("phase", Phase.MOVEMENT))
        self.turn = str(step.state_before.get("turn", ""))
        self.reading = step.state_before.get("options", {}).get(Option.TARGET_READING,
                                                                 TargetReading.EITHER_PLACE)
        self.turn_start = False
        self.sections: list[tuple[tuple[str, str], Section]] = []
        self.block: Line | None = None
        self.attack: dict[str, Any] | None = None  # the German attack being told
        self.control: tuple[Line, str, str, list[str], bool] | None = None  # merging
        self.pending: list[tuple[int, dict[str, Any]]] = []
        self.rolls = 0
        self.turn_start_event = False  # the event being told belongs to a turn's start
        self.rules = RULES

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
        if event.get("kind") == EventKind.PHASE_ENDED:
            self.phase = str(event.get("next", self.phase))
        elif event.get("kind") == EventKind.TURN_BEGAN:
            self.turn = str(event.get("turn", self.turn))
            self.phase = str(Phase.MOVEMENT)
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
        self.open(f"End of the {ended} phase; the {following} phase begins",
                  EVENT_RULES[EventKind.PHASE_ENDED], "minor", block=False)

    def unit_placed(self, e: dict[str, Any]) -> None:
        self.open(f"{self.lex.unit(e['unit'])} placed in {self.lex.area(e['area'])}",
                  EVENT_RULES[EventKind.UNIT_PLACED], "move")

    def moved(self, e: dict[str, Any]) -> None:
        lex = self.lex
        via = list(e.get("route") or [])[1:-1]
        text = f"{lex.unit(e['unit'])} moved {lex.area(e['from'])} → {lex.area(e['to'])}"
        if via:
            text += f" (via {lex.areas_list(via)})"
        self.open(text, EVENT_RULES[EventKind.MOVED], "move")

    def garrison_placed(self, e: dict[str, Any]) -> None:
        text = f"Garrison placed in {self.lex.area(e['area'])}"
        rule = e.get("rule")
        if rule and "optional" in rule and self.block is not None:
            self.follow(text, rule, "garrison")
        else:
            self.open(text, rule, "garrison", block=False)

    def garrison_removed(self, e: dict[str, Any]) -> None:
        rule = str(e.get("rule", ""))
        if rule.startswith(Rule.SOVIET_COMBAT):
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
            line = self.follow("", EVENT_RULES[EventKind.CONTROL_CHANGED] if alone else None,
                               "control")
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
        self.open(text, e.get("rule", EVENT_RULES[EventKind.ATTACKED]), "attack", numbers)
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
        self.open(text, EVENT_RULES[EventKind.REINFORCEMENT_DUE], "reinforcement", block=False)

    def reinforcement_placed(self, e: dict[str, Any]) -> None:
        self.open(f"{self.lex.unit(e['unit'])} enters as a reinforcement at "
                  f"{self.lex.area(e['area'])}", EVENT_RULES[EventKind.REINFORCEMENT_PLACED],
                  "reinforcement")

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
        if e.get("variant") not in (None, Variant.NONE):
            text += f", {VARIANTS.get(e['variant'], e['variant'])} {int(e['modifier']):+d}"
        text += f" → {plural(e['count'], 'Soviet attack')} this turn"
        self.open(text, e.get("rule", EVENT_RULES[EventKind.SOVIET_ATTACKS_SET]), "soviet", numbers,
                  block=False)

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
        if e.get("how") == AttackTarget.WEAKEST_POINT:
            text += "the weakest point of the front line"
        else:
            text += f"nearest front-line area to {' / '.join(lex.area(p) for p in places)}"
        target = e.get("target")
        candidates = list(e.get("candidates") or [])
        if target is None:
            self.open(text + "; there is no German front line, so the attack has no target",
                      e.get("rule"), "soviet", numbers)
            return
        why = self.weakest_reason(candidates) if e.get("how") == AttackTarget.WEAKEST_POINT else \
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
        d = dists[0] if self.reading == TargetReading.FIRST_PLACE and dists[0] is not None \
            else min(known)
        if d == 0:
            return "the named area itself"
        return f"at distance {d}" if len(candidates) > 1 else f"{plural(d, 'area')} away"

    def weakest_reason(self, candidates: list[str]) -> str:
        if self.state is None or not candidates:
            return "(weakest point)"
        assert self.lex.charts is not None
        rank, germans = weakness(self.lex.charts, self.state, candidates[0])
        if rank == 0:
            return "a garrison only"
        if rank == 1:
            return "only non-German units"
        return f"the fewest German units, {germans}"

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
        if e.get("instruction") == Instruction.LOSS_PRIORITY:
            text = f"by the German standing loss priority, {choice} is the unit lost"
        else:
            text = f"German standing instruction: {self.lex.choice(choice)}"
        self.follow(text[0].upper() + text[1:], None, "standing", join=self.attack is not None)

    def retreated(self, e: dict[str, Any]) -> None:
        lex = self.lex
        units = list(e["units"])
        verb = "retreats" if len(units) == 1 else "retreat"
        text = f"{lex.units_list(units)} {verb} {lex.area(e['from'])} → {lex.area(e['to'])}"
        if e.get("via") == Via.SEA:
            sea = lex.sea_between(e["from"], e["to"])
            text += f" by sea ({sea})" if sea else " by sea"
        self.follow(text, e.get("rule"), "soviet")

    def soviet_combat_ended(self, e: dict[str, Any]) -> None:
        done = (self.state or {}).get("soviet", {}).get("done")
        text = f"Soviet combat of {self.lex.turn(e.get('turn'))} over"
        if done is not None:
            text += f" ({plural(done, 'attack')} made)"
        self.open(text, EVENT_RULES[EventKind.SOVIET_COMBAT_ENDED], "minor", block=False)

    # -- decisions, turns, the end -------------------------------------------------------
    def decision_requested(self, e: dict[str, Any]) -> None:
        request = e["request"]
        options = join_words([self.lex.choice(o) for o in request.get("options", [])], "or")
        self.follow(f"Decision {request['id']} opened: the "
                    f"{str(request.get('side', Side.GERMAN)).capitalize()} "
                    f"player chooses: {options}. The game waits for the answer", None,
                    "decision")

    def decision_answered(self, e: dict[str, Any]) -> None:
        pending = (self.state or {}).get("pending") or {}
        self.open(f"Decision {e['id']} answered: {self.lex.choice(str(e['choice']))}",
                  pending.get("rule"), "decision")

    def standing_instructions(self, e: dict[str, Any]) -> None:
        ins = e.get("instructions", {})
        parts = []
        if ins.get(Instruction.LOSS_PRIORITY):
            parts.append(f"loss priority {', '.join(ins[Instruction.LOSS_PRIORITY])}")
        if ins.get(Instruction.ON_RETREAT_OR_ELIMINATE):
            parts.append(f"on a Soviet result of 2: {ins[Instruction.ON_RETREAT_OR_ELIMINATE]}")
        if ins.get(Instruction.RETREAT_PRIORITY):
            areas = [self.lex.area(a) for a in ins[Instruction.RETREAT_PRIORITY]]
            parts.append(f"retreat priority {', '.join(areas)}")
        what = "; ".join(parts) if parts else "none (every choice will be asked)"
        self.open(f"Standing instructions of the {str(e.get('side', Side.GERMAN)).capitalize()} "
                  "player recorded: "
                  f"{what}", EVENT_RULES[EventKind.STANDING_INSTRUCTIONS], "standing",
                  block=False, group="standing")

    def turn_began(self, e: dict[str, Any]) -> None:
        self.turn_start = True
        self.turn = str(e["turn"])
        self.open(f"{e.get('name') or self.lex.turn(e['turn'])} begins",
                  EVENT_RULES[EventKind.TURN_BEGAN], "start", block=False)

    def game_ended(self, e: dict[str, Any]) -> None:
        self.open(f"Game over after the Soviet combat of {self.lex.turn(self.turn)}: "
                  f"{plural(e['areas'], 'German-controlled area')} ({e.get('counted', 'counted')})"
                  f" → {e['level']}", e.get("rule", EVENT_RULES[EventKind.GAME_ENDED]), "victory",
                  block=False, group="end")

    def unknown(self, e: dict[str, Any]) -> None:
        data = ", ".join(f"{k}={v}" for k, v in sorted(e.items()) if k != "kind")
        self.open(f"{e.get('kind', 'event')}: {data}", None, "minor", block=False)


HANDLERS: dict[str, Callable[[Narration, dict[str, Any]], None]] = {
    EventKind.PHASE_ENDED: Narration.phase_ended,
    EventKind.UNIT_PLACED: Narration.unit_placed,
    EventKind.MOVED: Narration.moved,
    EventKind.GARRISON_PLACED: Narration.garrison_placed,
    EventKind.GARRISON_REMOVED: Narration.garrison_removed,
    EventKind.CONTROL_CHANGED: Narration.control_changed,
    EventKind.ATTACKED: Narration.attacked,
    EventKind.ADVANCED: Narration.advanced,
    EventKind.UNIT_REMOVED: Narration.unit_removed,
    EventKind.REINFORCEMENT_DUE: Narration.reinforcement_due,
    EventKind.REINFORCEMENT_PLACED: Narration.reinforcement_placed,
    EventKind.SOVIET_ATTACKS_SET: Narration.soviet_attacks_set,
    EventKind.SOVIET_ROLL_TWICE: Narration.soviet_roll_twice,
    EventKind.SOVIET_ATTACK_TARGET: Narration.soviet_attack_target,
    EventKind.SOVIET_ATTACK_EFFECT: Narration.soviet_attack_effect,
    EventKind.RETREATED: Narration.retreated,
    EventKind.STANDING_INSTRUCTIONS: Narration.standing_instructions,
    EventKind.STANDING_INSTRUCTION_USED: Narration.standing_instruction_used,
    EventKind.SOVIET_COMBAT_ENDED: Narration.soviet_combat_ended,
    EventKind.TURN_BEGAN: Narration.turn_began,
    EventKind.GAME_ENDED: Narration.game_ended,
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


