"""The module's turn tracker and its state in a saved game (FORMAT.md §2.3, §4.3).

The tracker is one `TurnTracker` with a `ListTurnLevel` of the game's turns and, nested
in it, a `ListTurnLevel` of the phases of a turn. A saved game sets it with the command
VASSAL's `TurnTracker.encode` writes for its restore command (TurnTracker.java, 3.7.26):

    TURN<tracker id> TAB <tracker state>

- the tracker id is `UniqueIdManager`'s "TurnTracker" + its index among the module's
  trackers, so "TurnTracker0" for the only one;
- the tracker state (`TurnTracker.getState`) is `|`-separated: the index of the current
  top level (0, there is one), then each top level's state;
- a `ListTurnLevel`'s state (`ListTurnLevel.getState`) is `;`-separated: the current
  item (0-based index into its list), the current sub-level (0), the first item (0),
  which items are active (`,`-separated "true"/"false"), then each sub-level's state.

Every token goes through `SequenceEncoder`, so the phase level's `;` are escaped inside
the turn level's state, as VASSAL writes them.
"""

from __future__ import annotations

from lxml import etree

from adjudicator.engine.report import CalendarPosition
from exporters.vassal.encoding import TAB, decode, encode

TURN_TRACKER = "VASSAL.build.module.turn.TurnTracker"
LIST_LEVEL = "VASSAL.build.module.turn.ListTurnLevel"
TRACKER_ID = "TurnTracker0"  # the first (only) TurnTracker of the module


def tracker_element(root: etree._Element, turns: list[str], phases: list[str]) -> None:
    """The `TurnTracker` under the module's root: turns, and phases nested in them."""
    tracker = etree.SubElement(root, TURN_TRACKER, {
        "name": "Turn", "buttonText": "Turn", "tooltip": "Turn and phase"})
    turn_level = etree.SubElement(tracker, LIST_LEVEL, {
        "name": "Turn", "property": "Turn", "list": encode(turns, ",")})
    if phases:
        etree.SubElement(turn_level, LIST_LEVEL, {
            "name": "Phase", "property": "Phase", "list": encode(phases, ",")})


def _level_state(current: int, items: int, sublevels: list[str]) -> str:
    active = encode(["true"] * items, ",")
    return encode([str(current), "0", "0", active, *sublevels], ";")


def tracker_state(turns: list[str], phases: list[str], at: CalendarPosition) -> str:
    """The tracker's state with the turn and phase of `at` current."""
    if not 0 <= at.turn < len(turns) or (phases and not 0 <= at.phase < len(phases)):
        raise ValueError(f"turn {at.turn}, phase {at.phase} is not on the turn tracker "
                         f"({len(turns)} turns, {len(phases)} phases)")
    sub = [_level_state(at.phase, len(phases), [])] if phases else []
    return encode(["0", _level_state(at.turn, len(turns), sub)], "|")


def tracker_command(turns: list[str], phases: list[str], at: CalendarPosition) -> str:
    """The saved-game command that sets the tracker (`TurnTracker.SetTurn`)."""
    return encode(["TURN" + TRACKER_ID, tracker_state(turns, phases, at)], TAB)


def read_tracker(command: str, turns: list[str], phases: list[str]) -> tuple[str, str]:
    """The (turn, phase) a tracker command shows, decoded the way `TurnTracker.setState`
    and `ListTurnLevel.setState` read it (for tests and for checking what we wrote)."""
    prefix, state = decode(command, TAB)
    if prefix != "TURN" + TRACKER_ID:
        raise ValueError(f"not a command of {TRACKER_ID}: {prefix!r}")
    _, turn_state = decode(state, "|")[:2]
    turn_fields = decode(turn_state, ";")
    phase = ""
    if phases:
        phase = phases[int(decode(turn_fields[4], ";")[0])]
    return turns[int(turn_fields[0])], phase
