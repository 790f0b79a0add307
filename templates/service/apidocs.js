// The service's interactive API documentation (/docs): reads /openapi.json and lists
// every operation with its parameters and a form to try it. Served by the service
// itself, so it needs nothing from outside (the page's CSP allows scripts from here only).
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function schemaText(spec, schema) {
  if (!schema) return "";
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    const target = spec.components.schemas[name] || {};
    const fields = Object.entries(target.properties || {}).map(([key, value]) =>
      `  ${key}: ${value.type || (value.$ref ? value.$ref.split("/").pop() : "any")}` +
      `${(target.required || []).includes(key) ? " (required)" : ""}` +
      `${value.description ? " - " + value.description : ""}`);
    return `${name} {\n${fields.join("\n")}\n}`;
  }
  if (schema.type === "array") return `[${schemaText(spec, schema.items)}]`;
  return schema.type || JSON.stringify(schema);
}

function operation(spec, path, method, op) {
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
  const form = el("form", {class: "try", "data-path": path, "data-method": method});
  const params = op.parameters || [];
  for (const p of params) {
    const input = el("input", {name: p.name, "data-in": p.in, id: `${id}-${p.name}`,
                               placeholder: p.schema && p.schema.type, required: p.required ? "" : null});
    form.append(el("label", {for: `${id}-${p.name}`}, `${p.name} (${p.in})`), input);
  }
  const body = op.requestBody && op.requestBody.content;
  if (body) {
    const type = Object.keys(body)[0];
    form.append(el("label", {for: `${id}-body`}, `request body (${type})`),
                el("textarea", {id: `${id}-body`, name: "body", "data-type": type, rows: 5}));
  }
  if (op.tags && op.tags.includes("admin")) {
    form.append(el("label", {for: `${id}-auth`}, "admin token"),
                el("input", {id: `${id}-auth`, name: "authorization", type: "password"}));
  }
  const output = el("pre", {class: "answer", "aria-live": "polite"});
  form.append(el("button", {type: "submit"}, "Try it"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let url = path;
    const query = new URLSearchParams();
    const init = {method: method.toUpperCase(), headers: {}};
    for (const input of form.querySelectorAll("input, textarea")) {
      if (!input.value) continue;
      if (input.dataset.in === "path") url = url.replace(`{${input.name}}`, encodeURIComponent(input.value));
      else if (input.dataset.in === "query") query.set(input.name, input.value);
      else if (input.name === "body") { init.body = input.value; init.headers["content-type"] = input.dataset.type; }
      else if (input.name === "authorization") init.headers.authorization = `Bearer ${input.value}`;
    }
    const target = url.replace(/:path\}/g, "}") + (query.toString() ? `?${query}` : "");
    output.textContent = `${init.method} ${target} ...`;
    try {
      const answer = await fetch(target, init);
      const text = await answer.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (_) { /* not JSON */ }
      output.textContent = `${answer.status} ${answer.statusText}\n\n${shown}`;
    } catch (error) {
      output.textContent = `failed: ${error}`;
    }
  });
  const responses = Object.entries(op.responses || {}).map(([code, r]) => {
    const content = r.content && Object.values(r.content)[0];
    return el("li", {}, el("code", {}, code), ` ${r.description || ""} `,
              content && content.schema ? el("pre", {}, schemaText(spec, content.schema)) : "");
  });
  const request = body ? el("pre", {}, schemaText(spec, Object.values(body)[0].schema)) : "";
  return el("section", {class: "operation", id},
            el("h3", {}, el("span", {class: `badge method ${method}`}, method.toUpperCase()), " ",
               el("code", {}, path)),
            el("p", {}, op.summary || ""), op.description ? el("p", {class: "quiet"}, op.description) : "",
            request, el("ul", {class: "responses"}, ...responses), form, output);
}

async function main() {
  const root = document.getElementById("api");
  const spec = await (await fetch("/openapi.json")).json();
  root.replaceChildren(el("p", {}, spec.info.description || "", " Version ", spec.info.version, "."));
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) root.append(operation(spec, path, method, op));
  }
}

main();
