"""Turn reports (docs/architecture.md, Reports): per side, built from the events of a step and the
state
after it; HTML with the map inline as SVG, and a PNG of the same drawing.

    render_report(step) -> RenderedReport(html, svg, png)
    write_report(step, outdir) -> {"html": ..., "svg": ..., "png": ...}
    render_map_svg(module, state, side) -> str

Every renderer works from the side's projection (`project_state`), never the raw state.
"""

from adjudicator.engine.report import RenderedReport, StepReport
from adjudicator.reports.areamap import render_map_svg
from adjudicator.reports.projection import project_events, project_state, project_step
from adjudicator.reports.render import render_report, write_report

__all__ = [
    "RenderedReport",
    "StepReport",
    "project_events",
    "project_state",
    "project_step",
    "render_map_svg",
    "render_report",
    "write_report",
]
