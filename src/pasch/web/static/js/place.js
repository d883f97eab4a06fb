// Where each die is drawn. After a keep, the kept dice stay where they were (and stay held), the thrown ones
// fill the other places and only they roll. Pure bookkeeping on the store: no drawing here.
import { app } from "./store.js";

// The places of `values` among the drawn dice, held places first.
function placesOf(values) {
  const free = new Set(app.arr.map((_, i) => i));
  const out = [];
  for (const v of values) {
    let i = [...app.held].find((j) => free.has(j) && app.arr[j] === v);
    if (i === undefined) i = [...free].find((j) => app.arr[j] === v);
    if (i !== undefined) { out.push(i); free.delete(i); }
  }
  return { places: out, free };
}

// `events`: the update's events (null: a fresh view, e.g. a welcome after a reconnect).
export function placeDice(prev, s, events) {
  const dice = s.dice || [];
  if (!dice.length) { app.arr = []; app.held.clear(); app.rolling = new Set(); return; }
  const keep = events && events.find((e) => e.startsWith("keep"));
  const threw = Boolean(events && events.some((e) => e.startsWith("throw") || e.startsWith("enter")));
  const sameTurn = prev && prev.dice && prev.current === s.current && prev.round === s.round &&
    s.throws > prev.throws && app.arr.length === prev.dice.length;
  if (keep !== undefined && sameTurn) {
    const { places, free } = placesOf(keep.split(" ").slice(1).map(Number));
    const rest = dice.slice();
    for (const i of places) rest.splice(rest.indexOf(app.arr[i]), 1);
    const arr = app.arr.slice();
    const thrown = [...free].sort((a, b) => a - b);
    thrown.forEach((i, k) => { arr[i] = rest[k]; });
    if (arr.every((v) => v !== undefined) && rest.length === thrown.length) {
      app.arr = arr;
      app.held = new Set(places);
      app.rolling = new Set(thrown);
      return;
    }
  }
  if (!threw && app.arr.length === dice.length &&
      app.arr.slice().sort((a, b) => a - b).join() === dice.slice().sort((a, b) => a - b).join()) {
    app.rolling = new Set();  // the same dice (a score, a seats frame, a reconnect): nothing moves
    return;
  }
  app.arr = dice.slice();
  app.held.clear();
  app.rolling = threw ? new Set(dice.map((_, i) => i)) : new Set();
}

// The places of the dice the hint keeps.
export function adviseKeep() {
  const m = app.hint;
  if (!m || !m.suggest || !m.suggest.startsWith("keep") || !app.state || m.seq !== app.state.seq) return new Set();
  return new Set(placesOf(m.suggest.split(" ").slice(1).map(Number)).places);
}

// The action the Throw button stands for now: "roll", "keep 3 3" (the held dice) or null.
export function throwAction() {
  const s = app.state;
  if (!s) return null;
  if (s.can_roll) return "roll";
  if (s.can_keep && app.held.size < app.arr.length) {
    return ("keep " + [...app.held].map((i) => app.arr[i]).sort((a, b) => a - b).join(" ")).trim();
  }
  return null;
}
