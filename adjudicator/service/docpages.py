"""The documentation a player needs, served as pages of the service (issue 16, item 3):
each game's order vocabulary (the project's `docs/GAME-orders.md`) and the page on how
to play. A player has no checkout, so no page, template or mail points at a path of the
repository; they link here.

The Markdown is the small subset the project's docs use (headings, paragraphs, lists,
tables, fenced code, `code`, **bold**, *emphasis*, links), turned into HTML with every
character of the source escaped first: the pages carry no markup of their own.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from pathlib import Path

from markupsafe import Markup

from adjudicator.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def orders_doc(game: str) -> Path | None:
    """Where a game's order vocabulary is written: in its package once it has one, else
    in the project's docs."""
    for candidate in (ROOT / "adjudicator" / "games" / game / "ORDERS.md",
                      DOCS / f"{game}-orders.md"):
        if candidate.is_file():
            return candidate
    return None


def orders_url(game: str) -> str:
    return f"/help/orders/{game}"


def games_with_orders() -> list[str]:
    return [g for g in GAME_IDS if orders_doc(g) is not None]


DOC_LINK = re.compile(r"\bdocs/([a-z0-9]+)-orders\.md\b")


def link_docs(text: str, base_url: str = "") -> str:
    """`docs/GAME-orders.md` in a text (a template's comment, a hint) as the page that
    serves it, which a player can open."""
    return DOC_LINK.sub(lambda m: f"{base_url}{orders_url(m.group(1))}", text)


@lru_cache(maxsize=16)
def _cached(path: Path, mtime: float) -> Markup:
    return markdown(path.read_text("utf-8"))


def page_html(path: Path) -> Markup:
    return _cached(path, path.stat().st_mtime)


# -- the Markdown subset ----------------------------------------------------------------

INLINE = [
    (re.compile(r"`([^`]+)`"), lambda m: f"<code>{m.group(1)}</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), lambda m: f"<strong>{m.group(1)}</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), lambda m: f"<em>{m.group(1)}</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), lambda m: _link(m.group(1), m.group(2))),
]


def _link(text: str, target: str) -> str:
    """Links out of the project's docs: to another order page, or to nothing (a
    repository path, which a player cannot open, stays as text)."""
    found = DOC_LINK.search(target)
    if found:
        return f'<a href="{orders_url(found.group(1))}">{text}</a>'
    if target.startswith("#"):
        return f'<a href="{target}">{text}</a>'
    return text


def inline(text: str) -> str:
    """One line of Markdown, escaped, with its inline marks."""
    out = escape(text, quote=True)
    parts = re.split(r"(<code>.*?</code>)", INLINE[0][0].sub(INLINE[0][1], out))
    done = []
    for part in parts:
        if not part.startswith("<code>"):
            for pattern, repl in INLINE[1:]:
                part = pattern.sub(repl, part)
        done.append(part)
    return link_docs("".join(done))


def markdown(source: str) -> Markup:
    html: list[str] = []
    lines = source.splitlines()
    i = 0
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            html.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            html.append(f"<pre><code>{escape(chr(10).join(block))}</code></pre>")
        elif stripped.startswith("#"):
            flush()
            level = min(len(stripped) - len(stripped.lstrip("#")), 4)
            text = stripped[level:].strip()
            anchor = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            html.append(f'<h{level} id="{anchor}">{inline(text)}</h{level}>')
        elif stripped.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            i -= 1
            body = [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            head = "".join(f"<th>{inline(c)}</th>" for c in rows[0])
            cells = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>"
                            for r in body)
            html.append(f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                        f"<tbody>{cells}</tbody></table></div>")
        elif re.match(r"^(\s*)([-*]|\d+\.)\s", line):
            flush()
            ordered = bool(re.match(r"^\s*\d+\.", line))
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                item = re.match(r"^\s*(?:[-*]|\d+\.)\s+(.*)", lines[i])
                if item:
                    items.append(item.group(1))
                elif items:
                    items[-1] += " " + lines[i].strip()
                i += 1
            tag = "ol" if ordered else "ul"
            html.append(f"<{tag}>" + "".join(f"<li>{inline(t)}</li>" for t in items)
                        + f"</{tag}>")
        elif not stripped:
            flush()
        else:
            paragraph.append(stripped)
        i += 1
    flush()
    return Markup("\n".join(html))  # noqa: S704 - built from escaped text only
