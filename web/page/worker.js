// mtrain web's worker: holds the engine (WebAssembly) and answers the page's requests, so the
// page never waits on a search. Messages in: {wasm: bytes} once, then {id, request} where
// request is a JSON object with `op` (web/src/lib.rs); out: {ready} or {failed}, then
// {id, answer, ms} with the answer as JSON text and the milliseconds the call took.
"use strict";
let ex = null;
let broken = null;

function call(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const ptr = ex.mt_alloc(bytes.length);
  new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
  ex.mt_call(ptr, bytes.length);
  const at = ex.mt_answer_ptr();
  const len = ex.mt_answer_len();
  return new TextDecoder().decode(new Uint8Array(ex.memory.buffer, at, len));
}

self.onmessage = async (e) => {
  const m = e.data;
  if (m.wasm) {
    try {
      const mod = await WebAssembly.compile(m.wasm);
      // The engine calls nothing outside itself; a dependency's unused bindings still name
      // imports, which get functions that say so if ever called.
      const imports = {};
      for (const i of WebAssembly.Module.imports(mod)) {
        if (i.kind !== "function") throw new Error(`the engine imports a ${i.kind} (${i.module}.${i.name})`);
        (imports[i.module] = imports[i.module] || {})[i.name] = () => {
          throw new Error(`${i.module}.${i.name} is not available in the page`);
        };
      }
      ex = (await WebAssembly.instantiate(mod, imports)).exports;
      self.postMessage({ ready: true });
    } catch (err) {
      self.postMessage({ failed: String(err && err.message ? err.message : err) });
    }
    return;
  }
  const t0 = performance.now();
  let answer;
  if (broken) {
    answer = JSON.stringify({ ok: false, error: `the engine stopped after an internal error (${broken}): reload the page` });
  } else {
    try {
      answer = call(m.request);
    } catch (err) {
      // A panic aborts the engine (a trap); its memory is no longer to be trusted.
      broken = String(err && err.message ? err.message : err);
      answer = JSON.stringify({ ok: false, error: `internal error in the engine: ${broken}` });
    }
  }
  self.postMessage({ id: m.id, answer, ms: performance.now() - t0 });
};
