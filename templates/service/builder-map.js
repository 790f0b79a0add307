/* The order builder's map (docs/order-builder-page.md): where each place of the report's
   drawing is, which place a click is on, where on the screen a place or a counter is, and
   the overlay that marks a unit's reach. Knows no game: it reads what the drawing says of
   its places (an area's data-area, a hex's title). Used by builder.js. */
"use strict";

window.pbemMap = (function () {
  const SVG = "http://www.w3.org/2000/svg";
  const XLINK = "http://www.w3.org/1999/xlink";

  function el(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  }

  function svgEl(tag, attrs = {}, text = null) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  }

  const hrefOf = (node) => node.getAttribute("href") || node.getAttributeNS(XLINK, "href");

  /* Where each place of the drawing is: a hex map's cells (`<use href="#pbem-hex">` whose
     title starts with the hex's number), an area map's fills and seas (data-area,
     data-sea). `layer` is the group the overlay goes into, in the places' coordinates. */
  function indexPlaces(svg) {
    const places = new Map();
    let hexSize = 0, layer = null;
    const cell = svg.querySelector("polygon#pbem-hex");
    if (cell) {
      const [x, y] = cell.getAttribute("points").split(/[\s,]+/).map(Number);
      hexSize = Math.hypot(x, y);
    }
    for (const use of svg.querySelectorAll("use")) {
      if (hrefOf(use) === "#pbem-hex") {
        const title = use.querySelector("title");
        if (!title) continue;
        const label = title.textContent.split(" ")[0];
        places.set(label, { el: use, x: Number(use.getAttribute("x")), y: Number(use.getAttribute("y")) });
        layer = layer || use.parentNode;
      } else if (use.dataset.area && use.closest(".area-fills") && !places.has(use.dataset.area)) {
        places.set(use.dataset.area, { el: use, href: hrefOf(use) });
        layer = layer || use.parentNode;
      }
    }
    for (const sea of svg.querySelectorAll("[data-sea]")) {
      if (!places.has(sea.dataset.sea)) places.set(sea.dataset.sea, { el: sea });
    }
    // up to the first group that moves its content: the overlay shares its coordinates
    while (layer && layer.parentNode && layer.parentNode !== svg && !layer.hasAttribute("transform")) {
      layer = layer.parentNode;
    }
    layer = layer || svg;
    // The highlights live in an SVG of their own laid over the map, with the same view
    // box and the places' transform: drawing them repaints that small layer, not the
    // whole map (a thousand hexes on 1941's).
    const sheet = svgEl("svg", { class: "pbem-overlay-sheet", viewBox: svg.getAttribute("viewBox"),
                                 "aria-hidden": "true" });
    for (const size of ["width", "height"]) {
      if (svg.hasAttribute(size)) sheet.setAttribute(size, svg.getAttribute(size));
    }
    const m = layer.getCTM() && svg.getCTM() ? svg.getCTM().inverse().multiply(layer.getCTM()) : null;
    const overlay = svgEl("g", { class: "pbem-overlay" });
    if (m) overlay.setAttribute("transform", `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
    sheet.append(overlay);
    svg.after(sheet);
    const hexes = hexSize ? [...places].filter(([, p]) => p.x !== undefined) : [];
    return { places, hexSize, overlay, hexes, layer };
  }

  /* The place under a click: the area or sea the drawing marks; on a hex map the hex
     whose centre is nearest (the click may land on a counter or a label). */
  function placeAt(index, event) {
    const marked = event.target.closest("[data-area], [data-sea]");
    if (marked) return marked.dataset.area || marked.dataset.sea;
    const { hexes, hexSize, layer } = index || {};
    if (!hexes || !hexes.length) return null;
    const matrix = layer.getScreenCTM();
    if (!matrix) return null;
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    let best = null, least = Infinity;
    for (const [label, p] of hexes) {
      const d = (p.x - at.x) ** 2 + (p.y - at.y) ** 2;
      if (d < least) {
        least = d;
        best = label;
      }
    }
    return least <= hexSize * hexSize ? best : null;
  }

  /* A point inside the place, in the overlay's coordinates: a hex's centre; for an area
     the point of a grid over its box nearest the box's centre that is inside its outline
     (an area may be concave), found once per drawing. */
  function centreOf(place) {
    if (place.x !== undefined) return [place.x, place.y];
    if (place.inside) return place.inside;
    const box = place.el.getBBox();
    const mid = [box.x + box.width / 2, box.y + box.height / 2];
    const outline = place.href && document.querySelector(place.href);
    place.inside = mid;
    if (outline && outline.isPointInFill) {
      let least = Infinity;
      for (let i = 0; i <= 12; i++) {
        for (let j = 0; j <= 12; j++) {
          const x = box.x + (box.width * i) / 12, y = box.y + (box.height * j) / 12;
          const d = (x - mid[0]) ** 2 + (y - mid[1]) ** 2;
          if (d < least && outline.isPointInFill(new DOMPoint(x, y))) {
            least = d;
            place.inside = [x, y];
          }
        }
      }
    }
    return place.inside;
  }

  /* Where on the screen a place is (its inside point), or a unit's counter: what a
     click there selects (the tests and tools/bench_builder.py click there). The map's
     frame is scrolled to show it first, if it is out of sight. */
  function screenPoint(frame, index, placeId, counter = false) {
    const first = pointOf(index, placeId, counter);
    if (!first) return null;
    const box = frame.getBoundingClientRect();
    const margin = 30;
    if (first[0] < box.left + margin || first[0] > box.right - margin ||
        first[1] < box.top + margin || first[1] > box.bottom - margin) {
      frame.scrollLeft += first[0] - (box.left + box.width / 2);
      frame.scrollTop += first[1] - (box.top + box.height / 2);
    }
    return pointOf(index, placeId, counter);
  }

  function pointOf(index, placeId, counter) {
    const { places, layer } = index;
    let x, y, matrix;
    const stack = counter && layer.querySelector(`.units [data-area="${CSS.escape(placeId)}"] .counter, .units [data-area="${CSS.escape(placeId)}"] .marker`);
    if (stack) {
      const box = stack.getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    }
    const place = places.get(placeId);
    if (!place) return null;
    [x, y] = centreOf(place);
    matrix = layer.getScreenCTM();
    const p = new DOMPoint(x, y).matrixTransform(matrix);
    return [p.x, p.y];
  }

  function mark(index, placeId, cls, label, data) {
    const place = index && index.places.get(placeId);
    if (!place) return;
    const group = svgEl("g", { class: cls, ...data });
    group.append(svgEl("title", {}, label));
    if (place.x !== undefined) {
      const shape = svgEl("use", { x: place.x, y: place.y, class: "shape" });
      shape.setAttribute("href", "#pbem-hex");
      group.append(shape);
    } else if (place.href) {
      const shape = svgEl("use", { class: "shape" });
      shape.setAttribute("href", place.href);
      group.append(shape);
    } else {
      const box = place.el.getBBox();
      group.append(svgEl("rect", { x: box.x, y: box.y, width: box.width, height: box.height, class: "shape" }));
    }
    const [x, y] = centreOf(place);
    group.append(svgEl("text", { x, y: y + 5, class: "cost" }, label.split(" ").pop()));
    index.overlay.append(group);
  }

  return { el, svgEl, indexPlaces, placeAt, centreOf, screenPoint, pointOf, mark };
})();
