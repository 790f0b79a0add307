"""The closed catalogue of the refusals of 1941 (engine/catalogue.py): every code an
order can be refused with, the rules it is raised under, and what it means. Every
refusal of the package goes through `CATALOGUE.refuse` (tests/test_catalogues.py
reads the sources to make sure); docs/barbarossa-rejections.md is `CATALOGUE.markdown`."""

from __future__ import annotations

from adjudicator.engine.catalogue import PROTOCOL_RULE, Catalogue, Rejection

CATALOGUE = Catalogue("barbarossa", (
    # -- the sequence of play (2.0, 18.1 A) and the instructions of docs/architecture.md, The
    # engine model
    Rejection("game-over", ("18.1 A",), "the game is over"),
    Rejection("not-your-step", ("2.0 C",), "it is the other side's step"),
    Rejection("bad-standing", (PROTOCOL_RULE,), "standing instructions with a value they "
              "do not take"),
    # -- movement (5.0-5.4), zones of control (6.0), stacking (3.0)
    Rejection("not-movement", ("2.0 E", "5.4 A", "20.1.2 A"), "a move outside a Movement "
              "Phase (the fleets: outside a Soviet one)"),
    Rejection("no-unit", ("5.0 A", "5.4 A", "20.1 A", "20.1.1 A"), "no such unit of the "
              "phasing side on the map"),
    Rejection("not-phasing", ("5.0 A",), "a unit of the other side"),
    Rejection("already-moved", ("5.4 A", "20.1.3"), "a unit that moved by rail or sea, or "
              "has moved already, moves no other way in the phase"),
    Rejection("bad-path", ("5.0 C", "5.4 C"), "a path with a hex that is not on the map"),
    Rejection("path-start", ("5.0", "5.4 A"), "a path that does not start where the unit "
              "stands"),
    Rejection("off-map", ("5.0",), "a path that leaves the map"),
    Rejection("not-adjacent", ("5.0 C", "7.1 A"), "a hex not next to the last one (a move), "
              "or an attacker not next to the hex it attacks"),
    Rejection("enemy-hex", ("5.0 E",), "a move into a hex enemy units occupy"),
    Rejection("prohibited-terrain", ("5.1",), "a hex or hexside the Terrain Effects Chart "
              "prohibits"),
    Rejection("too-far", ("5.0 D",), "a move beyond the unit's movement allowance"),
    Rejection("zoc-stop", ("6.1 A",), "an infantry-type unit moving on after entering an "
              "enemy zone of control"),
    Rejection("zoc-to-zoc", ("6.1 B",), "an infantry-type unit moving straight from one "
              "enemy zone of control to another"),
    Rejection("armor-zoc", ("6.2 B",), "an armor-type unit entering or leaving an enemy "
              "armor-type unit's zone while moving from zone to zone"),
    Rejection("overstacked", ("3.3 A", "11.0 C", "14.1.2.2 E", "20.1.1 B"), "a stack over "
              "the limits of 3.0 when they apply"),
    Rejection("unsupplied-rail", ("8.3 C",), "an unsupplied unit moving by rail"),
    Rejection("rail-turn-1", ("17.1.2 A",), "German rail movement on Turn 1"),
    Rejection("rail-capacity", ("5.4 E", "17.1.2 B", "20.2 B", "20.3"), "a rail move beyond "
              "the side's rail capacity this player turn"),
    Rejection("rail-territory", ("5.4 B",), "a rail move outside friendly territory"),
    Rejection("rail-zoc", ("5.4 D",), "a rail move in an enemy zone of control"),
    Rejection("rail-gap", ("5.4 C",), "two hexes of a rail move that no railroad joins"),
    Rejection("hungary", ("15.1 A",), "a unit entering Hungary on Turn 1"),
    Rejection("finnish-turn-1", ("15.2.2 A",), "a Finnish unit crossing the Finnish-Soviet "
              "border on Turn 1"),
    Rejection("finnish-rail", ("15.2.4 B",), "a Finnish rail move without the supply line "
              "it needs"),
    # -- combat (7.0-7.8), air power (10.0), shock armies (12.0)
    Rejection("not-combat", ("7.1 A",), "an attack outside a Combat Phase"),
    Rejection("two-hexes", ("7.2 B",), "one attack on two or more hexes"),
    Rejection("bad-hex", ("7.2 A", "14.1", "14.2.3 A", "20.1.2 A", "20.6"), "a hex that is "
              "not on the map (or, set up, is water)"),
    Rejection("no-defender", ("7.1 A",), "an attack on a hex no enemy unit occupies"),
    Rejection("attacked-twice", ("7.2 D", "7.2 E"), "a unit attacking, or attacked, a second "
              "time in the Combat Phase"),
    Rejection("no-attackers", ("7.4 A",), "an attack naming no attacking unit"),
    Rejection("not-attacker", ("7.1 A",), "an attacker that is not a unit of the phasing "
              "side on the map"),
    Rejection("bad-advance", ("7.8.3 A",), "an advance by a unit that does not attack"),
    Rejection("shock-advance", ("12.0 D",), "a shock army named to advance after combat"),
    Rejection("bad-loss", ("7.7.6 B",), "an exchange loss that is not an attacking unit"),
    Rejection("prohibited-attack", ("7.6 A",), "an attack across a hexside the Terrain "
              "Effects Chart prohibits"),
    Rejection("finnish-leningrad", ("15.2.2 B",), "Finns attacking Leningrad without German "
              "units"),
    Rejection("finnish-limit", ("15.2.2 B",), "Finns attacking south of the Svir or east of "
              "the canal while Leningrad is Soviet"),
    Rejection("air-points", ("10.1 B", "10.2 A", "10.4", "20.1.4 A", "20.3", "20.5 A"),
              "more air points than the side has left, or not a number of them"),
    Rejection("axis-air", ("10.3",), "German air points for an attack without a German unit"),
    Rejection("not-air", ("10.4", "20.1.4 A", "20.3", "20.5 A"), "an air order outside the "
              "(German) Air Segment"),
    Rejection("bad-points", ("10.4",), "negation that is not a number of air points"),
    Rejection("air-overkill", ("10.4",), "negating more air points than the other side has"),
    # -- reinforcements and replacements (14.0, 17.1.5)
    Rejection("not-entry-phase", ("14.1.3 A",), "a reinforcement outside the First Movement "
              "Phase"),
    Rejection("not-arriving", ("14.1 C",), "a unit that is not a reinforcement of this turn "
              "for the phasing side"),
    Rejection("bad-entry", ("5.0 E", "14.1.1 A", "14.1.2", "14.1.2.1 A", "14.1.2.2 A",
                            "14.1.2.2 B", "14.2.3 A", "14.2.3 B", "17.1.5 A", "17.1.5 B"),
              "a hex where the unit may not enter (the words say which condition fails)"),
    Rejection("city-entry-late", ("14.1.2.2 D",), "a reinforcement at a major city after "
              "units have moved"),
    Rejection("reinforcement-due", ("14.1.3 C",), "the First Movement Phase ended while a "
              "reinforcement could still enter"),
    Rejection("not-replacement-phase", ("14.2.3 A",), "a replacement outside the Soviet "
              "First Movement Phase"),
    Rejection("no-replacements", ("14.2.1",), "a replacement on a turn without any"),
    Rejection("not-eliminated", ("14.2.2 C",), "a replacement that is not an eliminated "
              "Soviet unit"),
    Rejection("replacements", ("14.2.2 A", "14.2.4 B", "20.4.2"), "more replacements of a "
              "kind than the turn allows"),
    Rejection("replacement-strength", ("14.2.2 B",), "a second replacement stronger than "
              "four"),
    # -- the optional rules (20.0)
    Rejection("option-off", ("20.1", "20.2", "20.3", "20.5"), "an order of an optional rule "
              "the game is not played with"),
    Rejection("no-sea-route", ("20.1.2 A",), "a sea move no fleet can make"),
    Rejection("not-infantry", ("20.1.1 A", "20.1.2 A"), "an armor-type unit carried or "
              "supported by a fleet"),
    Rejection("fleet-neutralized", ("20.1.1 B", "20.1.2 B", "20.1.4 B"), "a neutralized "
              "fleet used, or neutralized again"),
    Rejection("fleet-used", ("20.1.1 A", "20.1.2 A"), "a fleet used twice in its phase or "
              "segment, or for two attackers"),
    Rejection("not-land", ("20.1.2 A",), "a sea move that ends on water"),
    Rejection("no-fleet", ("20.1.4 A",), "no such fleet"),
    Rejection("no-disband", ("20.1.1 B",), "eliminating a unit that need not be"),
    Rejection("not-soviet", ("20.2 A",), "partisans declared in the German player turn"),
    Rejection("partisans-early", ("20.2 C",), "partisans before Turn 3"),
    Rejection("partisans-spent", ("20.2 C",), "partisans a third time in 1941"),
    Rejection("not-german", ("20.5 A",), "air supply for a unit that is not German"),
    Rejection("not-deployment", ("20.6",), "a placement after the game has begun"),
    Rejection("not-deployable", ("20.6.1", "20.6.2"), "a unit the free deployment does not "
              "place"),
    Rejection("bad-deploy", ("20.6.2", "20.6.3 A", "20.6.3 B", "20.6.4 B"), "a placement "
              "outside the unit's area"),
    Rejection("bad-substitute", ("20.6.3 B",), "a substitution other than the Turn 1 panzer "
              "corps for a German corps in Romania"),
    Rejection("not-redeployable", ("20.6.4 B",), "a Soviet unit the redeployment does not "
              "move"),
))
