"""A preview of the generated Barbarossa Solitaire map (a development aid), drawn from
map.xml: the areas by start side, the backdrop, the sea areas' member markers."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from adjudicator.engine.module import MODULE_NS as NS

SEA_COLOURS = {"baltic": "#d62728", "ladoga": "#9467bd", "black-sea": "#2ca02c",
               "caspian": "#ff7f0e"}


def preview_svg(xml_path: Path) -> str:
    doc = etree.parse(str(xml_path))
    ns = {"m": NS}
    r = doc.getroot()
    w, h = r.get("width"), r.get("height")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}">', f'<rect width="{w}" height="{h}" fill="#b9d3e6"/>']
    for n in r.iterfind("m:backdrop/m:neutral", ns):
        out.append(f'<path d="{n.get("d")}" fill="#e8e2cf" stroke="#b0a890" '
                   f'stroke-width="0.6"/>')
    for a in r.iterfind("m:area", ns):
        fill = "#b4b4b4" if a.get("start-side") == "german" else "#ffffff"
        d = a.find("m:shape", ns).get("d")
        out.append(f'<path d="{d}" fill="{fill}" stroke="#333" stroke-width="1.1" '
                   f'stroke-linejoin="round"/>')
    for wt in r.iterfind("m:backdrop/m:water", ns):
        out.append(f'<path d="{wt.get("d")}" fill="#b9d3e6" stroke="#6b8fb0" '
                   f'stroke-width="0.5"/>')
    for rv in r.iterfind("m:backdrop/m:river", ns):
        out.append(f'<path d="{rv.get("d")}" fill="none" stroke="#5b8fc7" '
                   f'stroke-width="1.2"/>')
    for c in r.iterfind("m:backdrop/m:city", ns):
        out.append(f'<circle cx="{c.get("x")}" cy="{c.get("y")}" r="2.6" fill="#000"/>')
    for s in r.iterfind("m:sea", ns):
        col = SEA_COLOURS.get(s.get("id"), "#f0f")
        out.append(f'<text x="{s.get("label-x")}" y="{s.get("label-y")}" font-size="15" '
                   f'font-style="italic" fill="#1f4e79" text-anchor="middle" '
                   f'font-family="sans-serif">{s.get("name")}</text>')
        for m in s.iterfind("m:member", ns):
            out.append(f'<circle cx="{m.get("x")}" cy="{m.get("y")}" r="6" fill="{col}" '
                       f'stroke="#000" stroke-width="0.8"/>')
    for a in r.iterfind("m:area", ns):
        x, y = a.get("label-x"), a.get("label-y")
        for extra in ('fill="#fff" stroke="#fff" stroke-width="3"', 'fill="#000"'):
            out.append(f'<text x="{x}" y="{y}" font-size="12" font-weight="bold" '
                       f'text-anchor="middle" font-family="sans-serif" {extra}>'
                       f'{a.get("name")}</text>')
        if a.get("romanian-allowed") == "true":
            out.append(f'<text x="{x}" y="{float(y) + 12}" font-size="9" fill="#a00" '
                       f'text-anchor="middle" font-family="sans-serif">R</text>')
    out.append("</svg>")
    return "\n".join(out)

