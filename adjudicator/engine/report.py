"""What a turn report is made of (docs/architecture.md, Reports): its inputs and the view objects
every
renderer works from. Part of the kit, so a game's report writer (the reporter in its
package) builds them without importing the renderers.

`StepReport` is what the referee hands over after adjudicating one step. A game's
reporter (the `GameReporter` of `reports/games.py`) turns it into the views below:
narrative sections, losses, the position, and a `MapView` that the renderers draw. The
renderers only ever see a step that went through the side's projection
(`reports/projection.py`), never the raw state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.module import ModuleData

OUTCOMES = ("accepted", "rejected", "decision", "initial")


@dataclass
class StepReport:
    """Everything a report of one adjudicated step needs."""

    game_id: str
    game: str  # "solitaire"
    title: str  # "Barbarossa Solitaire"
    side: str  # the side this report is for; reports are per side
    seq: int  # 0 = the initial position (no submission, no events)
    submitted_by: str | None
    outcome: str  # "accepted" | "rejected" | "decision" | "initial"
    orders_total: int
    orders_applied: int
    orders: list[dict[str, Any]]  # {"index", "line", "kind", "attrs": {...}}
    rejection: dict[str, Any] | None  # {"index", "line", "rule", "code", "message"}
    decision: dict[str, Any] | None  # {"id", "side", "kind", "rule", "options", "context"}
    events: list[dict[str, Any]]  # event JSON in order
    state_before: dict[str, Any]
    state_after: dict[str, Any]
    state_hash: str
    commit: str | None  # the step's seed commitment
    server_seed: str | None  # revealed seed (hex)
    entropy: str | None  # the player's entropy (hex)
    next_commit: str | None
    waiting_for: str | None  # e.g. "german: orders for step 5"
    module: ModuleData


@dataclass(frozen=True)
class RenderedReport:
    """One side's report of one step: the HTML page (map inline), the SVG, the PNG."""

    html: str
    svg: str
    png: bytes


# -- narrative -------------------------------------------------------------------------


@dataclass
class Line:
    """One paragraph of 'what happened': sentences, the rule, the rolls it used."""

    sentences: list[str]
    rule: str | None = None
    kind: str = "event"  # css class: move, attack, soviet, control, reinforcement, ...
    rolls: list[int] = field(default_factory=list)  # roll numbers (1-based) it used

    @property
    def text(self) -> str:
        body = " ".join(s if s.endswith((".", "!", "?", ":")) else s + "." for s in self.sentences)
        return body


@dataclass
class Section:
    key: str
    title: str
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True)
class RollRow:
    n: int
    purpose: str
    die: str
    d6: int | None
    value: int | str
    note: str = ""


@dataclass(frozen=True)
class Loss:
    what: str  # "GER-17 (17th Army)" or "Garrison"
    area: str
    reason: str
    rule: str
    returns: str  # "Winter 1943" / "out of the game" / ""


@dataclass(frozen=True)
class PositionRow:
    area: str
    control: str
    front: bool
    units: list[str]
    garrison: bool


@dataclass
class Status:
    """Where the game stands after the step."""

    turn: str  # "Winter 1942"
    phase: str  # "movement phase"
    result: str | None = None  # "Nazi Minor Victory: 5 German-controlled areas"
    facts: list[tuple[str, str]] = field(default_factory=list)  # extra (label, value) rows


@dataclass(frozen=True)
class DecisionView:
    id: str
    kind: str
    rule: str
    question: str
    options: list[tuple[str, str]]  # (choice string, plain words)
    standing: str = ""  # the standing instruction that answers such choices in advance


# -- the map ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    """A unit counter or a marker, as drawn on the map."""

    text: str  # the big text ("6", "3")
    band: str  # the small text on the coloured top band ("AGS", "RUM"); "" for none
    fill: str
    ink: str  # text colour
    band_fill: str
    title: str  # full name, for the tooltip and screen readers
    marker: bool = False  # a small square marker (garrison) instead of a counter
    # what the counter is, for exports that keep pieces apart (VASSAL):
    piece: str = ""  # the module's id of the piece or marker kind; "" = not identified
    side: str = ""
    symbol: str = ""  # NATO unit type ("infantry", "armor", ...); "" for a marker
    echelon: str = ""  # "army", "corps", "division", ...
    factors: tuple[str, ...] = ()  # printed factors of each step, full strength first
    face: int = 0  # which of `factors` the counter shows now: 1 for a reduced step, say
    # how many faces, from the first, do not identify the counter (an untried unit's
    # face): an export draws them with type, size and factors alone, and draws a
    # counter the view does not identify (`piece` "") as its face `face`
    concealed: int = 0


@dataclass(frozen=True)
class LegendItem:
    kind: str  # "area", "rim", "front", "counter", "sea", "river", "hexside", "city",
    # "major-city"
    label: str
    fill: str = ""
    stroke: str = ""
    counter: Counter | None = None
    mark: str = ""  # for an area colour: the text of the marker an export uses for it
    stroke_width: float = 0.0  # for a hexside feature's line


@dataclass
class MapView:
    """What to draw: colours per area, the front, the counters. Geometry comes from the
    module's <map>; `areamap.draw_area_map` does the drawing."""

    title: str
    subtitle: str
    area_fill: dict[str, str]
    area_rim: dict[str, str]  # colour of the thin inner outline (the start side)
    front: list[tuple[str, str]]  # (own area, enemy area) pairs whose border is the front
    strong: set[str]  # areas whose name is emphasized (front-line areas)
    counters: dict[str, list[Counter]]
    legend: list[LegendItem]
    # hex games: the empty hexes in zones of control, with the colour of each side whose
    # units exert one there (a dashed inner rim per side)
    zoc: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Calendar:
    """The game's turns and the phases of one turn, in order, as players name them."""

    turns: list[str]
    phases: list[str]


@dataclass(frozen=True)
class CalendarPosition:
    """Where a state stands on its game's `Calendar`: indexes into `turns` and `phases`
    (a set-up stands on the first phase of its turn, a finished game on the last)."""

    turn: int
    phase: int
