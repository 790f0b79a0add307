/* Signing order files in the browser (docs/order-builder-page.md, "Signing in the browser").

   The order file is built here in exactly the form `pbem sign` writes
   (adjudicator/security/signing.py): the XML declaration, the <orders> start tag with
   the envelope's attributes, <entropy> first, one order a line, the signature last.
   The signed bytes are the C14N 2.0 form of <orders> without <signature> and its tail
   (docs/protocol.md, section 2); because this module writes the document itself it
   writes those bytes directly: sorted attributes, <a></a> for empty elements, C14N's
   escapes. The key is read from its PKCS#8 PEM file (passphrase-protected ones too:
   PBES2 with PBKDF2 and AES-CBC, as `cryptography` writes them), imported into
   WebCrypto as a non-extractable Ed25519 key, and never leaves this page: nothing here
   sends anything anywhere. Nothing is logged. */
"use strict";

(function (global) {
  const ORDERS_NS = "urn:pbem:orders:1";
  const ENVELOPE = ["game", "module", "side", "seq", "prev", "commit"];
  const ENTROPY_BYTES = 32; // pbem sign's default (16..64 allowed)
  const NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
  // characters XML 1.0 cannot carry at all (a document with them would not parse)
  const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  class KeyProblem extends Error {}
  class OrderProblem extends Error {}

  // -- bytes ----------------------------------------------------------------------------

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  function base64(bytes) {
    let text = "";
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  }

  function unbase64(text) {
    let raw;
    try {
      raw = atob(text.replace(/\s+/g, ""));
    } catch (_) {
      throw new KeyProblem("the private key file is damaged or not in PEM format");
    }
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function freshEntropy(size = ENTROPY_BYTES) {
    return hex(crypto.getRandomValues(new Uint8Array(size)));
  }

  // -- a small DER reader (X.690): just what PKCS#8 and PBES2 need ----------------------

  function readDer(bytes, at = 0) {
    if (at + 2 > bytes.length) throw new KeyProblem("the private key file is damaged");
    const tag = bytes[at];
    let length = bytes[at + 1];
    let start = at + 2;
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 3 || start + count > bytes.length) {
        throw new KeyProblem("the private key file is damaged");
      }
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + bytes[start + i];
      start += count;
    }
    const end = start + length;
    if (end > bytes.length) throw new KeyProblem("the private key file is damaged");
    return { tag, start, end, value: bytes.subarray(start, end), next: end };
  }

  function children(bytes, node) {
    const found = [];
    for (let at = node.start; at < node.end;) {
      const child = readDer(bytes, at);
      found.push(child);
      at = child.next;
    }
    return found;
  }

  function oid(node) {
    const v = node.value;
    const parts = [Math.floor(v[0] / 40), v[0] % 40];
    let n = 0;
    for (let i = 1; i < v.length; i++) {
      n = n * 128 + (v[i] & 0x7f);
      if (!(v[i] & 0x80)) {
        parts.push(n);
        n = 0;
      }
    }
    return parts.join(".");
  }

  function integer(node) {
    let n = 0;
    for (const b of node.value) n = n * 256 + b;
    return n;
  }

  function expect(node, tag) {
    if (node === undefined || node.tag !== tag) {
      throw new KeyProblem("the private key file is damaged or not a PKCS#8 key");
    }
    return node;
  }

  const SEQUENCE = 0x30, OCTETS = 0x04, OID = 0x06, INTEGER = 0x02;
  const ED25519 = "1.3.101.112";
  const KEY_KINDS = { "1.2.840.113549.1.1.1": "RSA", "1.2.840.10045.2.1": "EC",
                      "1.3.101.113": "Ed448", "1.3.101.110": "X25519", "1.2.840.10040.4.1": "DSA" };
  const PBES2 = "1.2.840.113549.1.5.13", PBKDF2 = "1.2.840.113549.1.5.12";
  const PRF = { "1.2.840.113549.2.7": "SHA-1", "1.2.840.113549.2.9": "SHA-256",
                "1.2.840.113549.2.10": "SHA-384", "1.2.840.113549.2.11": "SHA-512" };
  const AES_CBC = { "2.16.840.1.101.3.4.1.2": 128, "2.16.840.1.101.3.4.1.42": 256 };

  /* The key algorithm of a PKCS#8 PrivateKeyInfo (RFC 5958): "Ed25519", "RSA", ... */
  function keyKind(der) {
    const top = expect(readDer(der), SEQUENCE);
    const [version, algorithm] = children(der, top);
    expect(version, INTEGER);
    const id = oid(expect(children(der, expect(algorithm, SEQUENCE))[0], OID));
    return id === ED25519 ? "Ed25519" : (KEY_KINDS[id] || "unknown");
  }

  /* PBES2 (RFC 8018): PBKDF2 derives the AES-CBC key from the passphrase (UTF-8, as
     `pbem keygen --encrypt` and `pbem sign` encode it), which decrypts the PKCS#8. */
  async function decryptPkcs8(der, passphrase) {
    const top = expect(readDer(der), SEQUENCE);
    const [scheme, data] = children(der, top);
    const [schemeId, params] = children(der, expect(scheme, SEQUENCE));
    if (oid(expect(schemeId, OID)) !== PBES2) {
      throw new KeyProblem("this encrypted key uses a scheme the page cannot read; " +
                           "sign it with `pbem sign` instead");
    }
    const [kdf, cipher] = children(der, expect(params, SEQUENCE));
    const [kdfId, kdfParams] = children(der, expect(kdf, SEQUENCE));
    if (oid(expect(kdfId, OID)) !== PBKDF2) {
      throw new KeyProblem("this encrypted key is derived with a function the page cannot " +
                           "use (only PBKDF2); sign it with `pbem sign` instead");
    }
    const fields = children(der, expect(kdfParams, SEQUENCE));
    const salt = expect(fields[0], OCTETS).value;
    const iterations = integer(expect(fields[1], INTEGER));
    let hash = "SHA-1"; // the PRF's default (RFC 8018, appendix A.2)
    for (const field of fields.slice(2)) {
      if (field.tag === SEQUENCE) {
        hash = PRF[oid(expect(children(der, field)[0], OID))];
        if (!hash) throw new KeyProblem("this encrypted key uses an unknown PRF");
      }
    }
    const [cipherId, iv] = children(der, expect(cipher, SEQUENCE));
    const bits = AES_CBC[oid(expect(cipherId, OID))];
    if (!bits) {
      throw new KeyProblem("this encrypted key uses a cipher the page cannot use " +
                           "(AES-128-CBC and AES-256-CBC only); sign it with `pbem sign`");
    }
    const secret = await crypto.subtle.importKey(
      "raw", new TextEncoder().encode(passphrase), "PBKDF2", false, ["deriveKey"]);
    const aes = await crypto.subtle.deriveKey(
      { name: "PBKDF2", salt, iterations, hash }, secret,
      { name: "AES-CBC", length: bits }, false, ["decrypt"]);
    try {
      return new Uint8Array(await crypto.subtle.decrypt(
        { name: "AES-CBC", iv: expect(iv, OCTETS).value }, aes, expect(data, OCTETS).value));
    } catch (_) {
      throw new KeyProblem("wrong passphrase for the private key (or a damaged file)");
    }
  }

  function pemBlock(text) {
    const match = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(text);
    if (!/-----BEGIN/.test(text) || !match) {
      throw new KeyProblem("this is not a PEM key file (no -----BEGIN line)");
    }
    return { label: match[1], der: unbase64(match[2]) };
  }

  /* The player's key: {key: a non-extractable WebCrypto Ed25519 signing key,
     fingerprint: 32 hex digits (docs/protocol.md, "The signature element")}. */
  async function loadKey(pemText, passphrase) {
    if (!global.crypto || !global.crypto.subtle) {
      throw new KeyProblem("this browser offers no WebCrypto on this page (it needs https, or " +
                           "the service on this machine): download the unsigned file and " +
                           "sign it with `pbem sign`");
    }
    const { label, der: outer } = pemBlock(pemText);
    if (label === "OPENSSH PRIVATE KEY") {
      throw new KeyProblem("OpenSSH key files are not supported; use a PKCS#8 PEM key file");
    }
    if (!label.endsWith("PRIVATE KEY")) {
      throw new KeyProblem("this is not a private key file (is it the .pub file?)");
    }
    let der = outer;
    if (label === "ENCRYPTED PRIVATE KEY") {
      if (!passphrase) {
        throw new KeyProblem("the private key is protected by a passphrase; give the passphrase");
      }
      der = await decryptPkcs8(outer, passphrase);
    } else if (label !== "PRIVATE KEY") {
      throw new KeyProblem("this is not a PKCS#8 key file (BEGIN PRIVATE KEY)");
    }
    let kind;
    try {
      kind = keyKind(der);
    } catch (problem) {
      if (label === "ENCRYPTED PRIVATE KEY") {
        throw new KeyProblem("wrong passphrase for the private key (or a damaged file)");
      }
      throw problem;
    }
    if (kind !== "Ed25519") {
      throw new KeyProblem(`this is a key of type ${kind}; only Ed25519 keys are accepted`);
    }
    try {
      // once extractable, only to read the public half for the fingerprint
      const open = await crypto.subtle.importKey("pkcs8", der, "Ed25519", true, ["sign"]);
      const jwk = await crypto.subtle.exportKey("jwk", open);
      const pub = unbase64(jwk.x.replace(/-/g, "+").replace(/_/g, "/"));
      jwk.d = "";
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", pub));
      const key = await crypto.subtle.importKey("pkcs8", der, "Ed25519", false, ["sign"]);
      return { key, fingerprint: hex(digest.subarray(0, 16)) };
    } catch (problem) {
      if (problem instanceof KeyProblem) throw problem;
      throw new KeyProblem("this browser cannot use the key (it needs WebCrypto Ed25519 on " +
                           "a secure page, https or this machine); sign with `pbem sign`");
    } finally {
      der.fill(0);
      outer.fill(0);
    }
  }

  // -- the document -----------------------------------------------------------------------

  function checkText(what, value) {
    if (typeof value !== "string") throw new OrderProblem(`${what} is not text`);
    if (NOT_XML.test(value)) {
      throw new OrderProblem(`${what} holds a character an XML file cannot carry`);
    }
    return value;
  }

  function checkName(what, name) {
    if (!NAME.test(name) || /^xml/i.test(name)) {
      throw new OrderProblem(`${what} ${JSON.stringify(name)} is not an XML name`);
    }
    return name;
  }

  // as libxml2 (lxml's tostring, hence `pbem sign`) writes them
  const fileText = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
  const fileAttr = (s) => fileText(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
  // as C14N 2.0 writes them (the canonical XML 1.0 escapes)
  const c14nText = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
  const c14nAttr = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/"/g, "&quot;").replace(/\t/g, "&#x9;").replace(/\n/g, "&#xA;")
    .replace(/\r/g, "&#xD;");

  /* The envelope's attributes in the order given (the API gives them as `pbem orders
     template` writes them): the six of docs/protocol.md, and the namespace. */
  function checkedEnvelope(envelope) {
    const out = [];
    for (const [name, value] of Object.entries(envelope)) {
      if (name === "xmlns") {
        if (value !== ORDERS_NS) throw new OrderProblem(`the envelope is not ${ORDERS_NS}`);
        continue;
      }
      if (!ENVELOPE.includes(name)) {
        throw new OrderProblem(`the envelope has an attribute ${JSON.stringify(name)}`);
      }
      out.push([name, checkText(`the envelope's ${name}`, String(value))]);
    }
    for (const name of ENVELOPE) {
      if (!out.some(([n, v]) => n === name && v !== "")) {
        throw new OrderProblem(`the envelope has no ${name}`);
      }
    }
    return out;
  }

  function checkedOrders(orders) {
    return orders.map((order, i) => {
      const where = `order ${i + 1}`;
      const kind = checkName(`${where}: the kind`, order.kind);
      if (kind === "entropy" || kind === "signature") {
        throw new OrderProblem(`${where}: <${kind}> is the envelope's, not an order`);
      }
      const attrs = Object.entries(order.attrs || {}).map(([name, value]) =>
        [checkName(`${where}: the attribute`, name), checkText(`${where}: ${name}`, String(value))]);
      return { kind, attrs, text: checkText(`${where}: the text`, order.text || "") };
    });
  }

  function checkedEntropy(entropy) {
    if (!/^(?:[0-9a-f]{2}){16,64}$/.test(entropy)) {
      throw new OrderProblem("the entropy must be 16 to 64 bytes as lowercase hex");
    }
    return entropy;
  }

  const byName = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

  /* The bytes the signature covers, as a string (docs/protocol.md, "Signed bytes"). */
  function signedText(envelope, orders, entropy) {
    const head = checkedEnvelope(envelope).sort(byName)
      .map(([n, v]) => ` ${n}="${c14nAttr(v)}"`).join("");
    let text = `<orders xmlns="${ORDERS_NS}"${head}>\n  <entropy>${checkedEntropy(entropy)}</entropy>`;
    for (const order of checkedOrders(orders)) {
      const attrs = order.attrs.slice().sort(byName)
        .map(([n, v]) => ` ${n}="${c14nAttr(v)}"`).join("");
      text += `\n  <${order.kind}${attrs}>${c14nText(order.text)}</${order.kind}>`;
    }
    return text + "\n  </orders>"; // the signature's indentation stays signed
  }

  function fileHead(envelope, entropy) {
    const head = checkedEnvelope(envelope).map(([n, v]) => ` ${n}="${fileAttr(v)}"`).join("");
    return '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<orders xmlns="${ORDERS_NS}"${head}>\n  <entropy>${entropy}</entropy>\n`;
  }

  function fileOrders(orders) {
    return checkedOrders(orders).map((order) => {
      const attrs = order.attrs.map(([n, v]) => ` ${n}="${fileAttr(v)}"`).join("");
      const body = order.text ? `>${fileText(order.text)}</${order.kind}>` : "/>";
      return `  <${order.kind}${attrs}${body}\n`;
    }).join("");
  }

  /* The file as `pbem sign` has it just before it signs (the builder API's compose):
     the entropy filled in, or left empty ("") for `pbem sign` to fill in, and the
     indentation of the signature to come before </orders>, which the signature covers. */
  function unsignedFile(envelope, orders, entropy) {
    return fileHead(envelope, entropy === "" ? "" : checkedEntropy(entropy)) +
      fileOrders(orders) + "  </orders>\n";
  }

  /* The signed order file, as `pbem sign` would write it from `unsignedFile`. */
  async function signOrders(envelope, orders, loaded, entropy = freshEntropy()) {
    const message = new TextEncoder().encode(signedText(envelope, orders, entropy));
    const raw = new Uint8Array(await crypto.subtle.sign("Ed25519", loaded.key, message));
    return fileHead(envelope, entropy) + fileOrders(orders) +
      `  <signature alg="ed25519" key="${loaded.fingerprint}">${base64(raw)}</signature>\n` +
      "</orders>\n";
  }

  global.pbemSign = Object.freeze({
    loadKey, signOrders, signedText, unsignedFile, freshEntropy, KeyProblem, OrderProblem,
  });
})(window);
