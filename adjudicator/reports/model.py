"""The report's view objects live in the kit (engine/report.py), so that a game's report
writer builds them without importing the renderers; this name stays for old imports."""

from adjudicator.engine.report import (  # noqa: F401
    OUTCOMES,
    Calendar,
    CalendarPosition,
    Counter,
    DecisionView,
    LegendItem,
    Line,
    Loss,
    MapView,
    PositionRow,
    RenderedReport,
    RollRow,
    Section,
    Status,
    StepReport,
)
