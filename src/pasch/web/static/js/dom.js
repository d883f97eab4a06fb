// Small DOM helpers shared by the views.
export const $ = (id) => document.getElementById(id);

// el("button", {className: "die", type: "button"}, "text") -> a new element.
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("aria") || k === "role" || k === "title" || k === "scope") node.setAttribute(k === "ariaLabel" ? "aria-label" : k, v);
    else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// The second click of a double click (detail 2) is not a new decision: it may arrive after the first one
// moved the game on, where the position check cannot tell them apart.
export function once(fn) { return (ev) => { if (ev && ev.detail > 1) return; fn(ev); }; }

// Focus survives a redraw: a control is known by data-key (or its id); when the focused one is replaced or
// disabled, the redraw focuses its successor, or the Throw button when that one is gone.
let focusKey = null;
const keyOf = (node) => (node && node.dataset && node.dataset.key) || (node && node.id ? "#" + node.id : null);
document.addEventListener("focusin", (ev) => { focusKey = keyOf(ev.target); });
document.addEventListener("focusout", (ev) => {
  const node = ev.target;
  // Focus the user moved away on purpose (a click on the table, Escape, a blur) is not put back.
  setTimeout(() => {
    const lost = document.activeElement === document.body || document.activeElement === null;
    if (lost && node.isConnected && !node.disabled && !node.closest("[hidden]")) focusKey = null;
  }, 0);
});
function usable(node) { return node && !node.disabled && !node.closest("[hidden]") && node.getClientRects().length > 0; }
export function keepFocus() {
  const active = document.activeElement;
  if (!focusKey || (active && active !== document.body)) return;
  const key = focusKey;
  const again = key.startsWith("#") ? $(key.slice(1)) : document.querySelector('[data-key="' + CSS.escape(key) + '"]');
  const next = usable(again) ? again : usable($("throw")) ? $("throw") : null;
  if (next) { next.focus({ preventScroll: true }); focusKey = key.startsWith("#") || next === again ? keyOf(next) : key; }
}
