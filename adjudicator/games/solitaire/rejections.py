"""Every rejection Barbarossa Solitaire's rules raise: the code, the rules it is raised
under and what it means (engine/catalogue.py). Every refusal of the package goes
through `CATALOGUE.refuse`; docs/solitaire-rejections.md is `CATALOGUE.markdown`."""

from __future__ import annotations

from adjudicator.engine.catalogue import Catalogue, Rejection
from adjudicator.games.solitaire.vocabulary import GAME, Rule

_ID_RULES = (Rule.MOVEMENT, Rule.COMBAT, Rule.REINFORCEMENTS, Rule.FREE_PLACEMENT,
             Rule.STANDING)

CATALOGUE = Catalogue(GAME, (
    Rejection("game-over", (Rule.VICTORY,), "an order after the Soviet combat of the last "
              "turn: the game is over"),
    Rejection("phase-over", (Rule.SEQUENCE,), "an order of a phase of this turn that is "
              "over (move, attack, place reinforcements, then the Soviet attacks)"),
    Rejection("setup-incomplete", (Rule.FREE_PLACEMENT,), "an order of play before every "
              "unit is placed"),
    Rejection("unknown-unit", _ID_RULES, "a unit id that is no unit of the game"),
    Rejection("unknown-area", _ID_RULES, "an area id that is no area of the map"),
    Rejection("unit-not-on-map", (Rule.MOVEMENT, Rule.COMBAT), "a unit that is not on the "
              "map (waiting to enter, eliminated or out of the game)"),
    Rejection("bad-standing", (Rule.STANDING,), "on-retreat-or-eliminate is neither "
              "'retreat' nor 'eliminate'"),
    # Optional Rules: Free placement
    Rejection("not-setup", (Rule.FREE_PLACEMENT,), "a unit placed freely after the set-up"),
    Rejection("not-unplaced", (Rule.FREE_PLACEMENT,), "a unit placed that is not waiting to "
              "be placed"),
    Rejection("not-german-side", (Rule.FREE_PLACEMENT,), "a unit placed in a Soviet-side "
              "(white) area"),
    Rejection("bad-garrison", (Rule.FREE_PLACEMENT,), "a set-up garrison in an area that is "
              "not an empty German-side area"),
    # Movement
    Rejection("already-moved", (Rule.MOVEMENT,), "a unit that has already moved this turn"),
    Rejection("no-move", (Rule.MOVEMENT,), "a move to the area the unit is in"),
    Rejection("soviet-area", (Rule.MOVEMENT,), "a move into a Soviet-controlled area: units "
              "enter those only by attacking"),
    Rejection("no-route", (Rule.MOVEMENT,), "no way to the area through German-controlled "
              "areas (south of the Romanian line for a Romanian unit)"),
    Rejection("front-too-far", (Rule.MOVEMENT,), "a move into a front-line area that is not "
              "adjacent to the unit's own"),
    Rejection("not-vacated", (Rule.MOVEMENT,), "a garrison where no unit left this turn"),
    Rejection("not-empty", (Rule.MOVEMENT,), "a garrison in an area that holds units or a "
              "garrison"),
    Rejection("garrison-at-front", (Rule.MOVEMENT,), "a garrison in an area adjacent to a "
              "Soviet-controlled area"),
    Rejection("garrison-cannot-move", (Rule.MOVEMENT,), "a move or an attack naming a "
              "garrison (by its area) as its unit: garrison units cannot move (module 1.1.0)"),
    # Combat
    Rejection("no-units", (Rule.COMBAT,), "an attack without units"),
    Rejection("unit-twice", (Rule.COMBAT,), "a unit listed twice in one attack"),
    Rejection("not-soviet", (Rule.COMBAT,), "an attack on an area that is not "
              "Soviet-controlled"),
    Rejection("already-attacked", (Rule.COMBAT,), "a unit that has already attacked this "
              "turn: each unit may attack one area"),
    Rejection("not-adjacent", (Rule.COMBAT,), "an attacker that is not adjacent to the "
              "area attacked"),
    Rejection("bad-loss-choice", (Rule.COMBAT,), "lose= names a unit that is not one of "
              "the attackers"),
    # Reinforcements
    Rejection("not-due", (Rule.REINFORCEMENTS,), "a unit that is not a reinforcement due "
              "this turn"),
    Rejection("too-many-reinforcements", (Rule.REINFORCEMENTS,), "more reinforcements than "
              "the turn allows (one, two in Winter 1942)"),
    Rejection("bad-entry", (Rule.REINFORCEMENTS,), "an entry area that is not the unit's, "
              "is Soviet-controlled, is on the front line, or holds the other ally"),
    Rejection("queue-order", (Rule.REINFORCEMENTS,), "a unit that has waited longer can "
              "enter now and enters first"),
    # Restrictions
    Rejection("romanian-line", (Rule.RESTRICTIONS,), "a Romanian unit north of the line "
              "Belgrade - Bucharest - Slovenia - Kharkov - Don - Stalingrad"),
    Rejection("allies-stacked", (Rule.RESTRICTIONS,), "Romanian and Hungarian units in the "
              "same area"),
))
