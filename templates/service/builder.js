/* The order builder page (docs/order-builder-page.md): the side's map from the builder API,
   its units from the game's listing of legal orders, a draft of orders checked by the
   API's dry run (the one `pbem check` uses) after every change, and signing in this
   browser (pbem-sign.js). Generic over the games: everything it offers comes from the
   listing; the map is the report's drawing, whose places it finds by what the drawing
   says of them (an area's data-area, a hex's title). */
"use strict";

(function () {
  const root = document.getElementById("builder");
  if (!root) return;
  const token = new URLSearchParams(location.search).get("token") || "";
  const api = (route) => `${root.dataset.api}/${route}?token=${encodeURIComponent(token)}`;
  const $ = (id) => document.getElementById(id);

  const state = {
    step: null, listing: null, units: new Map(), byPlace: new Map(), moveOrders: new Map(),
    draft: [], verdicts: [], checked: null, selected: null, places: null, key: null,
    checks: 0, lastHighlightMs: null, version: 0, full: new Map(), position: null,
  };

  // -- talking to the builder API -----------------------------------------------------

  async function answer(response) {
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    if (!response.ok && !(body && body.outcome)) {
      const words = body && (body.error || body.detail);
      throw new Error(words || `the service answered ${response.status}`);
    }
    return body;
  }

  const getJson = (route) => fetch(api(route), { cache: "no-store" }).then(answer);
  const postJson = (route, body) => fetch(api(route), {
    method: "POST", cache: "no-store", headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(answer);

  // -- orders ---------------------------------------------------------------------------

  const orderKey = (o) => JSON.stringify([o.kind, Object.entries(o.attrs || {}).sort(), o.text || ""]);
  const words = (o) => Object.values(o.attrs || {}).flatMap((v) => String(v).split(/\s+/));
  const mentions = (o, id) => words(o).includes(id);
  const copy = (o) => ({ kind: o.kind, attrs: { ...(o.attrs || {}) }, text: o.text || "" });

  function describe(order) {
    const parts = Object.entries(order.attrs || {}).map(([k, v]) => `${k} ${v}`);
    return [order.kind, ...parts, order.text ? `“${order.text}”` : ""].filter(Boolean).join(" · ");
  }

  /* The order of `unit` that takes it to `dest`: the one whose path is the destination's,
     else one that names the destination last and no place the unit may attack. */
  function moveOrder(unit, dest) {
    const path = dest.path.join(" ");
    const attacks = new Set(unit.attacks || []);
    return unit.orders.find((o) => Object.values(o.attrs).includes(path)) ||
      unit.orders.find((o) => Object.values(o.attrs).some((v) => String(v).split(/\s+/).pop() === dest.place) &&
        !words(o).some((w) => attacks.has(w) && w !== dest.place));
  }

  /* Every listed order that attacks `place` with `unit` among the attackers, smallest first. */
  function attackOrders(unit, place) {
    const moves = new Set((unit.moves || []).map((d) => moveOrder(unit, d)).filter(Boolean).map(orderKey));
    return state.listing.orders.filter((o) => mentions(o, place) && mentions(o, unit.unit) &&
      !moves.has(orderKey(o))).sort((a, b) => words(a).length - words(b).length);
  }

  /* The listing of the position the draft leaves: every unit that may act (the
     listing's actors; a unit's reach is asked at the click, `fullUnit`), and the forms. */
  /* The odds of one of the unit's attack orders, as the rules work them out before the
     roll (the listing's `odds`): "12-4: column 3:1 · terrain -1 (rule 7.6 B) · ...". */
  function oddsOf(unit, order) {
    const key = orderKey(order);
    const found = (unit.odds || []).find((o) => unit.orders[o.index] && orderKey(unit.orders[o.index]) === key);
    if (!found) return "";
    const parts = [`odds ${found.odds}`, ...found.shifts.map((s) => `${s.words} (rule ${s.rule})`)];
    if (found.unknown) parts.push(found.unknown);
    return parts.join(" · ");
  }

  function useListing(listing) {
    state.listing = listing;
    state.version += 1;
    state.full = new Map();
    state.position = listing.position || null;
    const blank = (a) => ({ unit: a.unit, at: a.at, moves: [], attacks: [], orders: [] });
    state.units = new Map((listing.actors || []).map((a) => [a.unit, blank(a)]));
    listing.units.forEach((u) => state.units.set(u.unit, u));
    state.byPlace = new Map();
    const ofUnits = new Set();
    for (const unit of state.units.values()) {
      if (!state.byPlace.has(unit.at)) state.byPlace.set(unit.at, []);
      state.byPlace.get(unit.at).push(unit);
      unit.orders.forEach((o) => ofUnits.add(orderKey(o)));
    }
    const select = $("unit-select");
    select.replaceChildren(new Option("(choose a unit)", ""));
    for (const unit of state.units.values()) {
      select.append(new Option(`${unit.unit} at ${unit.at}`, unit.unit));
    }
    let note = state.units.size
      ? `${state.units.size} of your units may be given orders now.`
      : "None of your units has an order to give now.";
    if (state.position && state.position.stopped) {
      note += ` What is offered is the position before order ${state.position.after + 1}: ` +
        `${state.position.stopped}`;
    } else if (state.position && state.step && state.position.acting !== state.step.side) {
      note = `Your draft ends your part of this step: the game then waits for ` +
        `${state.position.acting || "nobody (it is over)"}.`;
    } else if (state.position && state.position.of) {
      note += " (the position as your draft leaves it)";
    }
    $("listing-note").textContent = note;
    otherOrders(listing.orders.filter((o) => !ofUnits.has(orderKey(o))));
  }

  /* A unit's whole reach in the position the draft leaves (a listing may give a sample
     of it): asked once per position and unit, then kept in the page. */
  async function fullUnit(id) {
    const version = state.version;
    if (state.full.has(id)) return state.full.get(id);
    const answer = await postJson("listing", { orders: state.draft, unit: id });
    if (version !== state.version) return null; // the draft changed meanwhile
    const unit = answer.units[0] || { ...state.units.get(id), moves: [], attacks: [], orders: [] };
    unit.full = true;
    state.full.set(id, unit);
    state.units.set(id, unit);
    const stack = state.byPlace.get(unit.at) || [];
    const at = stack.findIndex((u) => u.unit === id);
    if (at >= 0) stack[at] = unit;
    return unit;
  }

  /* A form per kind of order that is not one unit's: only the listed ones are offered. */
  function otherOrders(orders) {
    const box = $("other-orders");
    box.replaceChildren();
    if (!orders.length) {
      box.append(el("p", { class: "quiet" }, "None now."));
      return;
    }
    const kinds = new Map();
    orders.forEach((o) => kinds.set(o.kind, [...(kinds.get(o.kind) || []), o]));
    for (const [kind, listed] of kinds) {
      const form = el("form", { class: "other", "data-kind": kind });
      const id = `other-${kind}`;
      form.append(el("label", { for: id }, kind));
      const select = el("select", { id });
      listed.forEach((o, i) => select.append(new Option(describe(o), String(i))));
      form.append(select, el("button", { type: "submit" }, `Add ${kind}`));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        addOrder(listed[Number(select.value)]);
      });
      box.append(form);
    }
  }

  // -- the map (builder-map.js) ------------------------------------------------------------

  const { el, indexPlaces } = window.pbemMap;
  const placeAt = (event) => window.pbemMap.placeAt(state.places, event);
  const screenPoint = (placeId, counter = false) =>
    window.pbemMap.screenPoint($("map"), state.places, placeId, counter);
  const mark = (placeId, cls, label, data) =>
    window.pbemMap.mark(state.places, placeId, cls, label, data);

  function showMap(markup) {
    const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
    const svg = parsed.documentElement;
    if (svg.nodeName !== "svg" || parsed.querySelector("parsererror")) return;
    svg.classList.add("pbem-map");
    $("map").replaceChildren(document.importNode(svg, true));
    state.places = indexPlaces($("map").querySelector("svg.pbem-map"));
    if (state.selected) highlight(state.selected);
  }

  /* The unit's reach: every listed destination with its cost, every place it may attack. */
  function highlight(unit) {
    if (!state.places) return;
    state.places.overlay.replaceChildren();
    const here = state.places.places.get(unit.at);
    if (here) mark(unit.at, "pbem-here", `${unit.unit} is here`, {});
    for (const dest of unit.moves || []) {
      mark(dest.place, "pbem-reach", `move ${unit.unit} to ${dest.place}, cost ${dest.cost}`,
           { "data-reach": dest.place });
    }
    for (const place of unit.attacks || []) {
      const first = attackOrders(unit, place)[0];
      const odds = first ? oddsOf(unit, first) : "";
      mark(place, "pbem-target", `attack ${place}${odds ? ` (${odds})` : ""} ⚔`,
           { "data-target": place });
    }
  }

  function selectUnit(id) {
    const known = state.full.get(id);
    const unit = known || state.units.get(id);
    if (unit && !known) {
      fullUnit(id).then((full) => {
        if (full && state.selected && state.selected.unit === id) selectUnit(id);
      }).catch((problem) => { $("listing-note").textContent = problem.message; });
    }
    showUnit(unit);
  }

  function showUnit(unit) {
    state.selected = unit || null;
    $("unit-select").value = unit ? unit.unit : "";
    const box = $("unit-options");
    box.replaceChildren();
    if (!unit) {
      if (state.places) state.places.overlay.replaceChildren();
      return;
    }
    const started = performance.now();
    highlight(unit);
    state.lastHighlightMs = performance.now() - started;
    if (state.places) screenPoint(unit.at, true); // in sight, when chosen from the list
    const stack = state.byPlace.get(unit.at) || [];
    if (stack.length > 1) {
      const others = el("p", {}, "In the same place: ");
      for (const mate of stack) {
        const b = el("button", { type: "button", class: "link", "aria-pressed": String(mate.unit === unit.unit) }, mate.unit);
        b.addEventListener("click", () => selectUnit(mate.unit));
        others.append(b, " ");
      }
      box.append(others);
    }
    const list = el("ul", { class: "choices", "aria-label": `orders for ${unit.unit}` });
    const offer = (text, order, cls = "") => {
      const b = el("button", { type: "button", class: cls }, text);
      b.addEventListener("click", () => addUnitOrder(order));
      const li = el("li");
      li.append(b);
      list.append(li);
    };
    const used = new Set();
    for (const dest of unit.moves || []) {
      const order = moveOrder(unit, dest);
      if (!order) continue;
      used.add(orderKey(order));
      offer(`to ${dest.place} · cost ${dest.cost}`, order, "move");
    }
    for (const place of unit.attacks || []) {
      for (const order of attackOrders(unit, place)) {
        used.add(orderKey(order));
        const odds = oddsOf(unit, order);
        offer(odds ? `${describe(order)} — ${odds}` : describe(order), order, "attack");
      }
    }
    for (const order of unit.orders) {
      if (!used.has(orderKey(order))) offer(describe(order), order);
    }
    box.append(el("p", {}, `${unit.unit} at ${unit.at}:`), list);
  }

  function onMapClick(event) {
    const reach = event.target.closest("[data-reach]");
    if (reach && state.selected) {
      const dest = state.selected.moves.find((d) => d.place === reach.dataset.reach);
      const order = dest && moveOrder(state.selected, dest);
      if (order) addUnitOrder(order);
      return;
    }
    const target = event.target.closest("[data-target]");
    if (target && state.selected) {
      const order = attackOrders(state.selected, target.dataset.target)[0];
      if (order) addUnitOrder(order);
      return;
    }
    const place = placeAt(event);
    const here = place ? state.byPlace.get(place) || [] : [];
    if (here.length) {
      // a second click on a stack takes its next unit
      const at = state.selected ? here.findIndex((u) => u.unit === state.selected.unit) : -1;
      selectUnit(here[(at + 1) % here.length].unit);
    } else {
      selectUnit(null);
    }
  }

  // -- the draft ------------------------------------------------------------------------

  function addOrder(order) {
    state.draft.push(copy(order));
    changed();
  }

  /* A unit's order: added, and the unit let go (its reach is spent, and a click on the
     place it went to should take the units there, not move it again). */
  function addUnitOrder(order) {
    selectUnit(null);
    addOrder(order);
  }

  function changed() {
    renderDraft();
    check();
  }

  async function check() {
    const mine = ++state.checks;
    $("check-note").textContent = "Checking your draft…";
    try {
      const result = await postJson("check", { orders: state.draft });
      if (mine !== state.checks) return; // a later change is being checked
      state.verdicts = result.verdicts || [];
      state.checked = result;
      const refused = state.verdicts.filter((v) => v.ok === false).length;
      let note = !state.draft.length ? "No orders yet." : refused
        ? "An order is refused: see it in the list."
        : `Checked ${result.checked} of ${state.draft.length} against the position: no problem found.`;
      if (result.unchecked && result.why_unchecked) note += ` ${result.why_unchecked}`;
      if (result.view_svg) showMap(result.view_svg);
      // what may follow: the listing of the position the draft leaves
      const listing = await postJson("listing", { orders: state.draft });
      if (mine !== state.checks) return;
      useListing(listing);
      $("check-note").textContent = note;
    } catch (problem) {
      if (mine === state.checks) $("check-note").textContent = problem.message;
    }
    renderDraft();
  }

  function move(i, by) {
    const j = i + by;
    if (j < 0 || j >= state.draft.length) return;
    [state.draft[i], state.draft[j]] = [state.draft[j], state.draft[i]];
    state.verdicts = [];
    changed();
    const buttons = $("draft").children[j]?.querySelectorAll("button");
    buttons?.[by < 0 ? 0 : 1]?.focus();
  }

  function renderDraft() {
    const list = $("draft");
    // the keyboard's place survives the list drawn again after each check
    const active = document.activeElement;
    const focused = active && list.contains(active) ? active.getAttribute("aria-label") : null;
    list.replaceChildren();
    state.draft.forEach((order, i) => {
      const li = el("li", { class: "order" });
      const verdict = state.verdicts[i];
      const words = el("span", { class: "what" }, describe(order));
      const controls = el("span", { class: "controls" });
      const button = (text, label, action) => {
        const b = el("button", { type: "button", "aria-label": label }, text);
        b.addEventListener("click", action);
        controls.append(b);
      };
      button("↑", `order ${i + 1} earlier`, () => move(i, -1));
      button("↓", `order ${i + 1} later`, () => move(i, 1));
      button("edit", `edit order ${i + 1}`, () => edit(li, i));
      button("✕", `remove order ${i + 1}`, () => {
        state.draft.splice(i, 1);
        state.verdicts = [];
        changed();
      });
      li.append(words, controls);
      if (verdict && verdict.ok === false) {
        li.classList.add("refused");
        li.append(el("p", { class: "refusal", role: "alert" },
          `Refused${verdict.rule ? ` (rule ${verdict.rule})` : ""}: ${verdict.message || verdict.code}`));
      } else if (verdict && verdict.ok === true) {
        li.classList.add("ok");
      } else if (verdict && verdict.ok === null) {
        li.classList.add("unchecked");
      }
      list.append(li);
    });
    if (focused) list.querySelector(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
  }

  /* The order's values as fields: what the listing offered, changed by hand if need be
     (the dry run says at once whether the rules take it). */
  function edit(li, i) {
    const order = state.draft[i];
    const form = el("form", { class: "edit" });
    const inputs = Object.entries(order.attrs).map(([name, value]) => {
      const id = `edit-${i}-${name}`;
      const input = el("input", { id, value });
      form.append(el("label", { for: id }, name), input);
      return [name, input];
    });
    form.append(el("button", { type: "submit" }, "Save"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      inputs.forEach(([name, input]) => { order.attrs[name] = input.value; });
      changed();
    });
    li.append(form);
    inputs[0]?.[1].focus();
  }

  // -- signing and sending --------------------------------------------------------------

  function fileName(signed) {
    const s = state.step;
    return `${s.game_id}-step-${s.step}-${s.side}${signed ? "" : "-unsigned"}.xml`;
  }

  function download(text, name) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/xml" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function loadKey() {
    const note = $("key-note");
    const file = $("key-file").files[0];
    const passphrase = $("passphrase");
    if (!file) {
      note.textContent = "Choose your private key file first.";
      return;
    }
    try {
      const key = await pbemSign.loadKey(await file.text(), passphrase.value);
      const expected = state.step && state.step.fingerprint;
      state.key = key;
      if (expected && key.fingerprint !== expected) {
        note.textContent = `This key (${key.fingerprint}) is not the key of your side ` +
          `(${expected}): the service would refuse what it signs.`;
        note.className = "mismatch";
        state.key = null;
      } else {
        note.textContent = `Your key is ready (fingerprint ${key.fingerprint}); it stays in this page.`;
        note.className = "";
      }
    } catch (problem) {
      state.key = null;
      note.textContent = problem.message;
      note.className = "mismatch";
    } finally {
      passphrase.value = "";
      $("key-file").value = "";
    }
    const ready = Boolean(state.key && state.step && state.step.envelope);
    $("sign-submit").disabled = !ready;
    $("sign-download").disabled = !ready;
  }

  async function signed() {
    return pbemSign.signOrders(state.step.envelope, state.draft, state.key);
  }

  async function submit() {
    const box = $("verdict");
    box.replaceChildren(el("p", {}, "Sending…"));
    try {
      const text = await signed();
      const verdict = await fetch(api("submit"), {
        method: "POST", cache: "no-store", headers: { "content-type": "application/xml" }, body: text,
      }).then(answer);
      box.replaceChildren(
        el("p", { id: "outcome", class: `badge outcome-${verdict.outcome}` }, verdict.outcome),
        el("p", { id: "verdict-summary" }, verdict.summary),
        el("pre", { class: "verdict-text" }, verdict.text));
      const back = el("a", { href: $("me-link").getAttribute("href"), id: "verdict-me" },
        "Your page, with the report of this step");
      box.append(el("p"), back);
      if (["accepted", "rejected", "decision"].includes(verdict.outcome)) {
        $("sign-submit").disabled = true; // the game has moved on: this draft is spent
      }
    } catch (problem) {
      box.replaceChildren(el("p", { class: "mismatch" }, problem.message));
    }
  }

  // -- start ----------------------------------------------------------------------------

  async function start() {
    $("map").addEventListener("click", onMapClick);
    $("fit-map").addEventListener("click", (event) => {
      const fit = $("map").classList.toggle("fit");
      event.target.setAttribute("aria-pressed", String(fit));
    });
    $("unit-select").addEventListener("change", (e) => selectUnit(e.target.value));
    $("load-key").addEventListener("click", loadKey);
    $("sign-submit").addEventListener("click", submit);
    $("sign-download").addEventListener("click", async () => {
      try {
        download(await signed(), fileName(true));
      } catch (problem) {
        $("verdict").replaceChildren(el("p", { class: "mismatch" }, problem.message));
      }
    });
    $("unsigned-download").addEventListener("click", () => {
      try {
        download(pbemSign.unsignedFile(state.step.envelope, state.draft, ""), fileName(false));
      } catch (problem) {
        $("verdict").replaceChildren(el("p", { class: "mismatch" }, problem.message));
      }
    });
    try {
      const step = state.step = await getJson("step");
      const line = $("step-line");
      if (step.awaited === "orders" || step.awaited === "answer") {
        line.textContent = `Step ${step.step} · turn ${step.turn} · ${step.phase}: the game waits ` +
          (step.awaited === "answer" ? "for your answer to a decision." : "for your orders.");
      } else {
        line.textContent = step.awaited === "over" ? "The game is over: it takes no more orders."
          : `The game waits for ${step.acting_side}, not for you.`;
        $("listing-note").textContent = "Nothing to order now.";
        return;
      }
      $("listing-note").textContent = "Reading what you may order…";
      useListing(await getJson("listing"));
      await check();
      root.dataset.ready = "true";
    } catch (problem) {
      $("step-line").textContent = problem.message;
    }
  }

  window.pbemBuilder = { state, selectUnit, addOrder, screenPoint };
  start();
})();
