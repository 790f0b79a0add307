"""The closed catalogue of the refusals of Moscow '41 (engine/catalogue.py): every code
an order can be refused with, the rules it is raised under, and what it means. Every
refusal of the package goes through `CATALOGUE.refuse` (tests/test_catalogues.py
reads the sources to make sure); docs/moscow-rejections.md is `CATALOGUE.markdown`."""

from __future__ import annotations

from adjudicator.engine.catalogue import PROTOCOL_RULE, Catalogue, Rejection

CATALOGUE = Catalogue("moscow", (
    # -- the sequence of play (3.0, 16.0) and the instructions of docs/protocol.md
    Rejection("game-over", ("16.0",), "the game is over"),
    Rejection("not-your-step", ("3.1 D",), "it is the other side's step"),
    Rejection("bad-standing", ("11.0 B", PROTOCOL_RULE), "standing instructions with a "
              "value they do not take"),
    # -- set-up (1.3) and the bid (16.4)
    Rejection("not-draw", ("1.3.1 C",), "a draw from the cup after the Soviet units are "
              "drawn"),
    Rejection("not-drawn", ("1.3.1 C",), "a placement or the end of the set-up before the "
              "Soviet units are drawn from the cup"),
    Rejection("not-setup", ("1.3",), "a placement outside the set-up"),
    Rejection("not-placeable", ("1.3.1 C", "1.3.1 D", "1.3.2 B"), "a unit or token that "
              "the side does not set up, or has placed already"),
    Rejection("bad-setup-hex", ("1.3.1", "1.3.1 G", "1.3.1 H", "1.3.2", "1.3.2 C"),
              "a set-up hex off the map or outside the unit's set-up zone"),
    Rejection("front-line", ("1.3.1 F",), "a Soviet front-line hex without its two units"),
    Rejection("overstacked", ("1.3.1 E", "1.3.2 D"), "more units in a set-up hex than the "
              "set-up allows"),
    Rejection("siberian-setup", ("1.3.1 I",), "a Siberian division placed on the map at "
              "the set-up"),
    Rejection("air-setup", ("1.3.2 E",), "a German air unit placed on the map at the "
              "set-up"),
    Rejection("unplaced", ("1.3.1 C", "1.3.2 B"), "the end of a set-up with units still to "
              "place"),
    Rejection("bid", ("16.4",), "a bid missing, or one that is not a number of VPs"),
    Rejection("bid-tie", ("16.4",), "equal bids: both players bid again"),
    # -- movement (4.0-4.8), zones of control (5.0), disengagement (6.0)
    Rejection("not-movement", ("4.0 C", "7.0 A", "14.0 A"), "a move, overrun or entry "
              "outside the side's Movement Phase"),
    Rejection("no-units", ("4.0 D",), "a move that names no unit"),
    Rejection("not-phasing", ("4.0 B", "7.0 C", "8.0 A", "8.6 A"), "a unit that is not "
              "the phasing side's on the map, or one named twice"),
    Rejection("finished", ("3.1.1 A", "4.1 A", "4.3", "6.4", "7.0 C", "7.7 C"), "a unit "
              "or stack that has finished its movement this phase"),
    Rejection("bad-path", ("4.0 D",), "a path with a hex that is not a hex number"),
    Rejection("path-start", ("4.0 D",), "a path that does not start where the units are"),
    Rejection("not-adjacent", ("4.0 D", "7.0 C", "8.1 A", "8.3 B"), "a hex not next to the "
              "last one of a path, or an attacker not next to the hex it attacks"),
    Rejection("off-map", ("4.8 A",), "a path that leaves the map"),
    Rejection("stack", ("4.5 A", "7.0 C", "7.4 B"), "units that may not move together as "
              "one stack"),
    Rejection("enemy-hex", ("4.4",), "a move into a hex enemy units occupy"),
    Rejection("prohibited-terrain", ("4.2", "7.3"), "a hex or hexside the Terrain Effects "
              "Chart prohibits"),
    Rejection("lake", ("4.8 D", "7.5 C", "8.0 F"), "a lake hexside crossed, or attacked "
              "across, where no road crosses it"),
    Rejection("too-far", ("4.1 A", "4.5 B", "7.3"), "a move or overrun beyond the units' "
              "movement allowance"),
    Rejection("minimum-move", ("4.3",), "a minimum move that is not one hex from the start "
              "of the phase"),
    Rejection("zoc-stop", ("4.7 B",), "moving on after entering an enemy zone of control"),
    Rejection("disengagement", ("6.1",), "leaving an enemy zone of control without the MPs "
              "to disengage"),
    Rejection("no-detachment", ("6.0 B",), "disengaging, by a move or an overrun, without "
              "a friendly combat unit left in the hex"),
    Rejection("zoc-to-zoc", ("6.4",), "moving straight from one enemy zone of control to "
              "another"),
    # -- overrun (7.0-7.8)
    Rejection("overrun-stack", ("7.4 A", "7.4 B"), "an overrun by more units than a stack, "
              "or by units that are not one stack"),
    Rejection("overrun-target", ("7.5 A",), "an overrun of a hex without enemy units"),
    Rejection("overrun-hexes", ("7.5 A",), "an overrun of more than one hex"),
    Rejection("overrun-lake", ("7.5 C",), "an overrun across a lake hexside"),
    Rejection("must-advance", ("7.6 C",), "a successful overrun that does not advance into "
              "the hex"),
    # -- combat (8.0-8.12), armor (10.0), air power (11.0)
    Rejection("not-combat", ("8.0 A",), "an attack outside the side's Combat Phase"),
    Rejection("no-attacker", ("7.0 C", "8.0 A", "8.6 A"), "an attack or overrun that names "
              "no attacking unit"),
    Rejection("no-defender", ("8.0 A", "8.6 A"), "an attack that names no defending hex"),
    Rejection("bad-hex", ("1.3", "7.5 A", "8.6 A", "8.12 A", "11.0 C", "14.1 B"), "a hex "
              "that is not on the map"),
    Rejection("empty-hex", ("8.0 A",), "an attack on a hex with no enemy unit"),
    Rejection("own-unit", ("8.0 A",), "an attack on one's own units"),
    Rejection("mixed-sides", ("8.0 A",), "attacking units of both sides"),
    Rejection("not-in-zoc", ("8.1 A",), "an attacker not in the zone of control of the "
              "units it attacks"),
    Rejection("attacked-twice", ("8.1 B",), "a unit attacking twice in one Combat Phase"),
    Rejection("defended-twice", ("8.1 B",), "a hex attacked twice in one Combat Phase"),
    Rejection("defender-elsewhere", ("8.2",), "an attack that leaves out a defending unit "
              "of a hex it attacks"),
    Rejection("no-strength", ("8.2", "8.5 A"), "an attack with no attack strength, or on "
              "units with no defense strength"),
    Rejection("bad-roll", ("8.5 G",), "a die roll that is not on the Combat Results Table"),
    Rejection("air-units", ("11.0 A", "11.0 B", "11.0 E"), "air units a combat may not "
              "have: not German air units, named twice, or too many"),
    Rejection("air-committed", ("11.4",), "an air unit used once already this turn"),
    Rejection("not-interdiction", ("11.0 C",), "an interdiction outside the German Air "
              "Interdiction Phase"),
    Rejection("not-air", ("11.0 A",), "an interdiction by a unit that is not a German air "
              "unit"),
    Rejection("interdiction-full", ("11.0 D",), "a third air unit on one interdicted hex"),
    Rejection("interdiction-limit", ("11.0 D",), "a hex counted with more than two "
              "interdicting air units"),
    # -- combat results (8.9-8.12)
    Rejection("loss-syntax", ("8.9 D",), "a choice of losses that cannot be read, or that "
              "names a unit not in the combat"),
    Rejection("loss-choice", ("7.6 B", "8.9 B", "8.9 D", "8.9 E", "8.9 G"), "a way of "
              "taking a result the result does not allow"),
    Rejection("retreat-length", ("8.9 D", "8.9 E"), "a retreat of the wrong number of "
              "hexes"),
    Rejection("no-retreat", ("8.11 A",), "a retreat where no safe retreat exists: the unit "
              "is eliminated"),
    Rejection("unsafe-retreat", ("8.11 B",), "a retreat that is not safe (through enemy "
              "units or zones, or into a full hex)"),
    Rejection("retreat-priority", ("8.11 C",), "a retreat path other than the ones the "
              "priorities allow"),
    Rejection("not-victorious", ("8.12 B", "8.12 B-C"), "an advance by a unit that is not "
              "a victor of the combat"),
    Rejection("advance-path", ("8.12 A", "8.12 F", "8.12 I"), "an advance along a path "
              "the advance after combat may not take"),
    Rejection("advance-stack", ("8.12 A",), "an advance that overstacks a hex"),
    Rejection("advance-twice", ("8.12 A",), "a unit named twice in an advance"),
    # -- reinforcements (14.0)
    Rejection("not-arriving", ("14.0 B",), "an entry by a unit that is not this turn's "
              "reinforcement"),
    Rejection("reinforcement-entry", ("14.1 A", "14.1 B", "14.2"), "an entry hex the "
              "reinforcement may not use"),
    Rejection("reinforcement-held", ("14.3 A",), "a reinforcement held back that can "
              "enter"),
    Rejection("reinforcement-due", ("14.3 A",), "the end of the Movement Phase with a "
              "reinforcement that can enter still off the map"),
    Rejection("moscow-penalty", ("14.4",), "a reinforcement while a German land unit is in "
              "Moscow"),
))
