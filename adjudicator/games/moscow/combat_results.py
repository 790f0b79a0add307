"""Moscow '41 combat results as pure procedures over plain facts: the ways a side may
carry out its part of a result (8.9 D-H, 7.6 B, 7.7 B), the units swept away (8.2), the
retreats (8.10-8.11) and the advance after combat (8.12, 7.6 C-D).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.retreat import retreat_paths as kit_retreat_paths
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.charts import ELIMINATED, NO_EFFECT, CombatMap, Result
from adjudicator.games.moscow.combat_odds import Combatant, defending_units
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.vocabulary import STACKING_LIMIT


# ========================================================================== results
@dataclass(frozen=True)
class Option:
    """One way a side may carry out its part of a result (8.9 D-G): the steps lost (a
    unit named twice loses both its steps), then how many hexes every surviving
    affected unit retreats; `eliminated`: the units left with no step."""

    losses: tuple[str, ...] = ()
    retreat: int = 0
    eliminated: tuple[str, ...] = ()


def _option(units: Sequence[Combatant], losses: Iterable[str], retreat: int) -> Option:
    lost = tuple(sorted(losses))
    gone = tuple(sorted(u.id for u in units if lost.count(u.id) >= u.steps))
    if len(gone) == len(units):
        retreat = 0  # nobody is left to retreat
    return Option(lost, retreat, gone)


def loss_options(part: str, units: Sequence[Combatant], *,
                 may_retreat: bool = True) -> list[Option]:
    """8.9 D-H: every way the affected units may carry out "-", "1", "2" or "E".

    * "1": one unit loses one step, or all retreat one hex (8.9 D).
    * "2": two steps, or all retreat two hexes, or one step and then all retreat one
      hex (8.9 E). German units have two steps: two units may lose one each, or one
      full-strength unit both (8.9 E, H); a Soviet unit has one step (8.9 H), so two
      steps are two units. A side with fewer steps than it must lose loses them all
      (RULES-ISSUES 29).
    * "E": all eliminated (8.9 G).

    `may_retreat=False` (a successful overrun's attackers, 7.6 B) leaves the losses only.

    >>> here = Hex(0, 0)
    >>> pz = Combatant("18Pz", "german", "armor", here, 6, 6, 3, 2)
    >>> inf = Combatant("12", "german", "infantry", here, 4, 4, 2, 1)
    >>> [(o.losses, o.retreat, o.eliminated) for o in loss_options("2", [pz, inf])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [((), 2, ()), (('12',), 1, ('12',)), (('18Pz',), 1, ()),
     (('12', '18Pz'), 0, ('12',)), (('18Pz', '18Pz'), 0, ('18Pz',))]
    """
    if part == NO_EFFECT:
        return [Option()]
    if not units:
        return []
    if part == ELIMINATED:
        return [_option(units, [u.id for u in units for _ in range(u.steps)], 0)]
    if part not in ("1", "2"):
        raise ModuleError(f"{part!r} is not a CRT loss (1, 2, E or -)")
    need = int(part)
    options = set()
    if may_retreat:
        options.add(_option(units, (), need))
    pool = [u.id for u in units if u.steps > 0]
    if not pool:
        return sorted(options, key=_order)
    steps = {u.id: u.steps for u in units}
    take = min(need, sum(steps.values()))
    for chosen in combinations_with_replacement(sorted(pool), take):
        if all(chosen.count(uid) <= steps[uid] for uid in set(chosen)):
            options.add(_option(units, chosen, 0))
    if need == 2 and may_retreat:
        for uid in pool:
            options.add(_option(units, (uid,), 1))
    return sorted(options, key=_order)


def _order(o: Option) -> tuple[int, tuple[str, ...], int]:
    return (len(o.losses), o.losses, -o.retreat)


def check_loss_choice(part: str, units: Sequence[Combatant], losses: Sequence[str],
                      retreat: int, *, may_retreat: bool = True) -> Option:
    """8.9 D-G (7.6 B): the option a player chose, checked; IllegalOrder if the result
    does not allow it."""
    chosen = _option(units, losses, retreat)
    allowed = loss_options(part, units, may_retreat=may_retreat)
    if chosen in allowed:
        return chosen
    rule = {"1": "8.9 D", "2": "8.9 E", "E": "8.9 G"}.get(part, "8.9 B")
    if retreat and not may_retreat:
        raise CATALOGUE.refuse("loss-choice", "7.6 B",
            "after a successful overrun the overrunning units "
            "absorb their loss; they do not retreat")
    if any(lid not in {u.id for u in units} for lid in losses):
        raise CATALOGUE.refuse("loss-choice", rule,
            "only the units in this combat can lose steps for it")
    wording = {
        "-": "no effect: nothing to lose and no retreat",
        "1": "one unit loses one step, or all the units retreat one hex",
        "2": ("two steps lost, or all the units retreat two hexes, or one step lost and "
              "then all retreat one hex; a German unit may lose both its steps"),
        "E": "every unit is eliminated",
    }[part]
    raise CATALOGUE.refuse("loss-choice", rule, f"the result {part} means: {wording}")


def swept_away(defender_part: str, defenders: Iterable[Combatant], *,
               overrun: bool) -> tuple[str, ...]:
    """8.2: when the defending units suffer an adverse result (any loss or retreat),
    the units that had retreated into the defending hexes in this Combat Phase are
    eliminated. Not in an overrun: there they defend (7.8)."""
    if overrun or defender_part == NO_EFFECT:
        return ()
    return tuple(sorted(u.id for u in defenders if u.retreated))


def overrun_successful(option: Option, defenders: Sequence[Combatant]) -> bool:
    """7.6 A, 7.7 A: an overrun succeeds when the defending units are eliminated or
    retreat, that is when none of them stays in its hex."""
    if option.retreat:
        return True
    return len(option.eliminated) == len(defenders)


def overrun_attacker_options(part: str, attackers: Sequence[Combatant], *,
                             successful: bool) -> list[Option]:
    """7.6 B: after a successful overrun the overrunning units absorb their loss; 7.7 B:
    after an unsuccessful one they absorb it or retreat (8.9), and if they retreat their
    movement is over (7.7 C, `overrun_movement_over`)."""
    return loss_options(part, attackers, may_retreat=not successful)


def overrun_movement_over(option: Option) -> bool:
    """7.7 C-D: overrunning units that retreat stop; otherwise they may move on."""
    return option.retreat > 0


# ========================================================================== retreats
@dataclass(frozen=True)
class RetreatFacts:
    """What a retreat must know (8.11): the hexes of the enemy units that caused it (for
    an enemy unit that retreated too, its original hex), the enemy-occupied hexes, the
    hexes in an enemy ZOC, how many other friendly units stand in each hex, and the
    stacking limit (4.6 A; two Soviet units in the German half of Turn 1, 3.2 B): the
    final hex must hold fewer other friendly units than that (8.11 B)."""

    causers: frozenset[Hex]
    enemy: frozenset[Hex] = frozenset()
    enemy_zoc: frozenset[Hex] = frozenset()
    friendly: Mapping[Hex, int] = field(default_factory=dict)
    stack_limit: int = STACKING_LIMIT


def _distance(h: Hex, causers: Collection[Hex]) -> int:
    return min(hex_distance(h, c) for c in causers)


def _step_problem(ground: CombatMap, a: Hex, b: Hex, facts: RetreatFacts) -> str | None:
    """Why `b` is not safe to enter from `a` (8.11 B, 4.4, 4.8 D), or None."""
    label = ground.board.label
    if b not in ground.board:
        return "it is off the map (4.8 A): the unit would be eliminated"
    if not ground.adjacent(a, b):
        return f"{label(b)} is not next to {label(a)}"
    if b in facts.enemy:
        return f"{label(b)} holds enemy units (4.4)"
    features = ground.features(a, b)
    if "lake" in features and "road" not in features:
        return f"no road crosses the lake hexside into {label(b)} (4.8 D)"
    if _distance(b, facts.causers) <= _distance(a, facts.causers):
        return (f"{label(b)} is no farther than {label(a)} from the nearest enemy unit "
                "that caused the retreat")
    if b in facts.enemy_zoc and not facts.friendly.get(b, 0):
        return f"{label(b)} is in an enemy zone of control and no friendly unit is there"
    return None


def retreat_paths(ground: CombatMap, start: Hex, hexes: int,
                  facts: RetreatFacts) -> list[tuple[Hex, ...]]:
    """8.10-8.11: the retreats of `hexes` hexes one unit may make, each a path of the
    hexes entered. Every hex entered is safe (8.11 B): farther from the nearest enemy
    unit that caused the retreat than the hex before, not enemy-occupied (4.4), not in
    an enemy ZOC unless a friendly unit is there, not across a lake hexside without a
    road (4.8 D); the final hex holds fewer other friendly units than the stacking limit
    (four, 4.6; two Soviet units in the German half of Turn 1, 3.2 B). Only the paths
    entering the fewest occupied hexes are offered: vacant safe hexes before occupied ones
    (8.11 C, each hex entered counting; RULES-ISSUES 30). Empty: there is no safe hex and
    the unit is eliminated, as it is off the map (8.11 A)."""
    if not facts.causers:
        raise ValueError("a retreat needs the enemy units that caused it")
    return kit_retreat_paths(
        start, ground.board.neighbours, hexes,
        lambda a, b: _step_problem(ground, a, b, facts) is None,
        end_ok=lambda path: facts.friendly.get(path[-1], 0) < facts.stack_limit,
        rank=lambda path: sum(1 for h in path if facts.friendly.get(h, 0)))


def check_retreat(ground: CombatMap, start: Hex, path: Sequence[Hex], hexes: int,
                  facts: RetreatFacts) -> None:
    """8.11: IllegalOrder unless `path` is one of `retreat_paths`, saying why."""
    label = ground.board.label
    if len(path) != hexes:
        raise CATALOGUE.refuse("retreat-length", "8.9 D" if hexes == 1 else "8.9 E",
            f"the retreat is {hexes} "
            f"hex{'es' if hexes > 1 else ''}, not {len(path)}")
    allowed = retreat_paths(ground, start, hexes, facts)
    if tuple(path) in allowed:
        return
    if not allowed:
        raise CATALOGUE.refuse("no-retreat", "8.11 A",
            f"no safe retreat from {label(start)}: the unit is "
            "eliminated")
    here = start
    for there in path:
        problem = _step_problem(ground, here, there, facts)
        if problem:
            raise CATALOGUE.refuse("unsafe-retreat", "8.11 B", f"not a safe retreat: {problem}")
        here = there
    if facts.friendly.get(path[-1], 0) >= facts.stack_limit:
        rule = "4.6" if facts.stack_limit == STACKING_LIMIT else "3.2 B"
        raise CATALOGUE.refuse("unsafe-retreat", "8.11 B",
            f"{label(path[-1])} already holds {facts.stack_limit} "
            f"other friendly units ({rule})")
    raise CATALOGUE.refuse("retreat-priority", "8.11 C",
        "a unit retreats into a vacant safe hex before a hex a "
        "friendly unit occupies, whenever it can: "
        + " or ".join("-".join(label(h) for h in p) for p in allowed))


# ========================================================================== advance
@dataclass(frozen=True)
class AdvanceMove:
    """One unit's advance after combat: the hexes it enters in order (8.12)."""

    unit: str
    path: tuple[Hex, ...]


def attacking_victors(attackers: Iterable[Combatant], *, retreated: Collection[str],
                      eliminated: Collection[str] = ()) -> tuple[str, ...]:
    """8.12 B, 8.9 F: the attacking units that did not retreat (a step loss does not
    stop them) and are still there."""
    return tuple(sorted(u.id for u in attackers
                        if u.id not in retreated and u.id not in eliminated))


def defending_victors(result: Result, defenders: Iterable[Combatant], *,
                      overrun: bool) -> tuple[str, ...]:
    """8.12 C: the defending units that suffered no loss or retreat; none in a split
    result (8.9 F) and none after an overrun (7.7 E). Units that only retreated into the
    hex (8.2) did not take part (RULES-ISSUES 16)."""
    if overrun or result.split or result.defender != NO_EFFECT:
        return ()
    return tuple(sorted(u.id for u in defending_units(defenders, overrun=False)))


def check_advance(ground: CombatMap, moves: Sequence[AdvanceMove], *,
                  victors: Collection[str], vacated: Collection[Hex],
                  beyond: Collection[Hex] = (), all_eliminated: bool = False,
                  must_advance: bool = False) -> None:
    """8.12: IllegalOrder unless the advances after one combat are allowed.

    * only victorious units (`victors`: 8.12 B-C, 8.9 F, 7.7 E);
    * first into a hex this combat vacated (`vacated`, 8.12 A), then, after a two-hex
      retreat, on into an adjacent hex the retreat emptied (`beyond`, 8.12 F; 7.6 D);
      but only one hex when every enemy unit was eliminated (8.12 I);
    * at most four units end in each hex (8.12 A);
    * zones of control do not stop an advance (8.12 G) and it costs no MPs (8.12 H);
    * after a successful overrun at least one overrunning unit advances into the
      vacated hex (`must_advance`: 7.0 E, 7.6 C, 8.12 E).
    """
    label = ground.board.label
    seen: set[str] = set()
    ending: dict[Hex, int] = {}
    for move in moves:
        if move.unit in seen:
            raise CATALOGUE.refuse("advance-twice", "8.12 A", f"{move.unit} advances once")
        seen.add(move.unit)
        if move.unit not in victors:
            raise CATALOGUE.refuse("not-victorious", "8.12 B-C",
                f"{move.unit} is not a victorious unit of this "
                "combat, so it cannot advance")
        if not move.path:
            raise CATALOGUE.refuse("advance-path", "8.12 A",
                f"{move.unit} needs a hex to advance into")
        if move.path[0] not in vacated:
            raise CATALOGUE.refuse("advance-path", "8.12 A",
                f"{label(move.path[0])} was not vacated by this "
                "combat")
        if len(move.path) > 1:
            if all_eliminated:
                raise CATALOGUE.refuse("advance-path", "8.12 I",
                    "every enemy unit was eliminated, so advancing "
                    "units go one hex only")
            if len(move.path) > 2 or move.path[1] not in beyond or not ground.adjacent(
                    move.path[0], move.path[1]):
                raise CATALOGUE.refuse("advance-path", "8.12 F",
                    "a second hex of advance must be next to the "
                    "first and emptied by a two-hex retreat")
        ending[move.path[-1]] = ending.get(move.path[-1], 0) + 1
    for h, count in sorted(ending.items()):
        if count > STACKING_LIMIT:
            raise CATALOGUE.refuse("advance-stack", "8.12 A",
                f"at most {STACKING_LIMIT} units advance into "
                f"{label(h)}, not {count}")
    if must_advance and not any(m.path for m in moves):
        raise CATALOGUE.refuse("must-advance", "7.6 C",
            "after a successful overrun at least one overrunning "
            "unit advances into the vacated hex")
