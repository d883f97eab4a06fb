// Words: the chosen language, t() with plurals (Intl.PluralRules), numbers (Intl.NumberFormat), and the
// names of boxes, actions, seat kinds and Knaster lines. The string tables are ../i18n.js.
import { STRINGS } from "../i18n.js";

let lang = localStorage.getItem("pasch:lang") || (navigator.language || "en").slice(0, 2);
if (!STRINGS[lang]) lang = "en";

export function getLang() { return lang; }
export function setLang(code) {
  if (!STRINGS[code]) return;
  lang = code;
  localStorage.setItem("pasch:lang", code);
}

// "{n} throws left" / "{n} throw left": a key with a "_one" (or "_two", ...) form is chosen by the
// language's plural rule for vars.n.
export function t(key, vars) {
  let k = key;
  if (vars && typeof vars.n === "number") {
    const form = new Intl.PluralRules(lang).select(vars.n);
    if (form !== "other" && (STRINGS[lang][key + "_" + form] || STRINGS.en[key + "_" + form])) k = key + "_" + form;
  }
  let s = (STRINGS[lang] && STRINGS[lang][k]) || STRINGS.en[k] || key.replace(/_/g, " ");
  for (const name in vars || {}) {
    const v = vars[name];
    s = s.replace("{" + name + "}", typeof v === "number" && !Number.isInteger(v) ? num(v) : v);
  }
  return s;
}
export function has(key) { return Boolean(STRINGS.en[key]); }

// A number in the page's language: num(134.7) is "134,7" in German.
export function num(x, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}
// A signed difference: +3,2 / −1,5 / ±0,0.
export function signed(x) { return (x > 0 ? "+" : x < 0 ? "−" : "±") + num(Math.abs(x)); }
export function percent(p) { return t("percent", { p: num(100 * p) }); }

const DETAILED = new Set(["bad_action", "illegal", "not_your_turn", "bad_request", "bad_message", "broken"]);
export function errorText(code, message) {
  const key = "err_" + code;
  if (!STRINGS[lang][key] && !STRINGS.en[key]) return message || code;
  // The server's detail ("'enter 7 1 2 3 4': 7 is not a die") is kept after the translated sentence.
  return DETAILED.has(code) && message ? t(key) + " " + message : t(key);
}

let yatzy = false;  // Yatzy rule sets call the five-alike box "Yatzy"
export function setRuleSet(id) { yatzy = Boolean(id && id.startsWith("yatzy")); }
export function boxName(id) { return id === "yahtzee" && yatzy ? "Yatzy" : t(id); }

// The seat kinds and their order are the server's (pasch.app.seat_kinds, per rule set in /api/rules).
export function kindLabel(kind) {
  if (kind === "human") return t("human");
  const bot = kind.slice(4);
  return has("bot_" + bot) ? t("bot_" + bot) : "Bot (" + bot + ")";
}

// A rule set's name from its id, a base id and modifier ids ("yatzy+forced+sharp" -> "Yatzy + top to bottom
// + ×2 in one throw"): the page's own words where it has them for every part, else the server's name.
export function ruleSetName(id, name) {
  const [base, ...mods] = String(id).split("+");
  const key = "rules_" + base.replace(/-/g, "_");
  const baseName = has(key) ? t(key) : mods.length ? null : name;
  if (baseName === null || !mods.every((m) => has("mod_" + m))) return name;
  return [baseName, ...mods.map((m) => t("mod_" + m))].join(" + ");
}

export function lineName(k) {
  if (k < 5) return t("line_row", { n: k + 1 });
  if (k < 10) return t("line_column", { c: "abcde"[k - 5] });
  return t("line_diagonal", { d: k === 10 ? "a1-e5" : "e1-a5" });
}

function boxOf(word) {
  const parts = word.split(":");
  const col = parts.length > 1 ? " (" + t("column", { n: parts[0] }) + ")" : "";
  return boxName(parts[parts.length - 1]) + col;
}

// An action text in words: "score 2:full_house" -> "Full house (col. 2)", "keep 3 3" -> "keep 3 3".
export function actionLabel(text) {
  if (typeof text !== "string") return "";  // no action (a hint still being prepared, a frame from an older server)
  const w = text.split(" ");
  if (w[0] === "roll") return t("throw");
  if (w[0] === "enter") return t("enter_dice");
  if (w[0] === "keep") return w.length > 1 ? t("keep_dice", { d: w.slice(1).join(" ") }) : t("reroll_all");
  if (w[0] === "score") return boxOf(w[1]);
  if (w[0] === "announce") return t("announce") + ": " + boxOf(w[1]);
  if (w[0] === "write") return t("write_at", { n: w[1], cell: w[3] });
  if (w[0] === "circle") return t("circle_at", { cell: w[1] });
  if (w[0] === "pass") return t("pass");
  return text;
}

// One event of the move log in words.
export function moveText(text) {
  const w = text.split(" ");
  if (w[0] === "roll") return t("log_roll");
  if (w[0] === "throw") return t("log_throw", { d: w.slice(1).join(" ") });
  if (w[0] === "enter") return t("log_enter", { d: w.slice(1).filter((x) => x !== "sharp").join(" ") });
  if (w[0] === "keep") return w.length > 1 ? t("log_keep", { d: w.slice(1).join(" ") }) : t("reroll_all");
  if (w[0] === "score") return t("log_score", { box: boxOf(w[1]) });
  return actionLabel(text);
}

export function ago(sec) {
  if (sec < 60) return t("ago_now");
  if (sec < 3600) return t("ago_min", { n: Math.floor(sec / 60) });
  if (sec < 86400) return t("ago_h", { n: Math.floor(sec / 3600) });
  return t("ago_d", { n: Math.floor(sec / 86400) });
}

// Every element with data-t gets its words; the caller redraws the rest.
export function translateStatic() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.tLabel)); });
}
