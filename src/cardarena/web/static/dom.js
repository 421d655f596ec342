// Small DOM helpers shared by every page. Text from players and games is only ever set with textContent
// (never innerHTML), so a name such as "<script>" is shown as it is typed.

/** Create an element: h("button", {class: "x", onclick: fn, dataset: {card: "7S"}}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/** Append children: strings become text nodes, arrays are flattened, null/false are skipped. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace all children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** One log entry (docs/web.md, the log): the action as its viewer saw it after the actor's name (``who``), then
 * its consequences, one indented line each. ``lines`` has the players' names put in by the server; an entry
 * without it (an older server) shows its ``text``. */
export function logItem(entry, who) {
  const [action, ...told] = entry.lines && entry.lines.length ? entry.lines : [entry.text];
  return h(
    "li",
    {dataset: {n: entry.n, ply: entry.ply}},
    h("span", {class: "who"}, who),
    h("span", {class: "action"}, action),
    told.map((line) => h("div", {class: "told"}, line)),
  );
}

// The signed-in session's CSRF token (docs/web.md, Accounts): sent as X-CSRF-Token with every request that
// changes something. Learnt from any answer that gives it ({account, csrf}: me, signin, register); a page that
// has not learnt it asks /api/accounts/me once before its first such request (the session cookie is HttpOnly:
// only the server knows whether there is one), and a request refused for want of it (code csrf: signed in
// meanwhile in another tab) asks again and is sent once more.
let csrfToken = null;
let csrfAsked = false;

/** Forget or set the session's CSRF token (signing out forgets it). */
export function setCsrf(token) {
  csrfToken = token || null;
}

/** fetch JSON; throws an Error carrying the server's {error: {code, message}} when there is one. */
export async function getJSON(url, options = {}, retried = false) {
  const method = (options.method || "GET").toUpperCase();
  if (method !== "GET" && !csrfToken && !csrfAsked) {
    csrfAsked = true;
    try {
      await getJSON("/api/accounts/me");
    } catch {
      // an older server, or none: the request goes without a token, as before accounts
    }
  }
  const headers = {"Content-Type": "application/json", Accept: "application/json"};
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  const response = await fetch(url, {
    ...options,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    if (err.code === "csrf" && !retried) {
      const me = await getJSON("/api/accounts/me");
      if (me && me.csrf) return getJSON(url, options, true);
    }
    const error = new Error(err.message || `${response.status} ${response.statusText}`);
    error.code = err.code || String(response.status);
    error.status = response.status;
    throw error;
  }
  if (data && typeof data === "object" && "account" in data && "csrf" in data) {
    csrfAsked = true;
    setCsrf(data.csrf);
  }
  return data;
}

/** A non-blocking message at the bottom of the page that goes away by itself. */
export function toast(text, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", {id: "toasts", "aria-live": "polite"});
    document.body.append(box);
  }
  const item = h("div", {class: `toast ${kind}`, role: "status"}, text);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
  return item;
}

/** The player's name, kept in localStorage between visits. */
export function savedName() {
  try {
    return localStorage.getItem("cardarena.name") || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem("cardarena.name", name);
  } catch {
    // storage may be disabled: the name is then asked again next time
  }
}

/** Copy text to the clipboard, falling back to selecting it in a text field. */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (field) {
      field.select();
      return document.execCommand && document.execCommand("copy");
    }
    return false;
  }
}

/** A small dialog that offers `actions` (each with its `text`) as buttons labelled by `label(action)`, and a cancel
 * button: for a click on a table that several actions fit. `onPick(text)` gets the chosen action's text. */
export function chooserDialog(title, actions, label, onPick, onCancel) {
  return h(
    "div",
    {class: "chooser", role: "dialog", "aria-label": title},
    h("div", {class: "chooser-title"}, title),
    h(
      "div",
      {class: "chooser-actions"},
      actions.map((a) => h("button", {type: "button", class: "choice", dataset: {action: a.text}, title: a.text, onclick: () => onPick(a.text)}, label(a))),
      h("button", {type: "button", class: "cancel", onclick: onCancel}, "cancel"),
    ),
  );
}

let openQuestion = null; // the confirmation shown now: {dialog, finish}

/** Ask `question` in a small modal dialog of the page (never window.confirm): resolves true when the player
 * accepts, false on "Cancel", Escape or a newer question. The cancel button has the focus, so a stray Enter or
 * a second tap does not accept; Tab reaches the other button. */
export function confirmDialog(question, yes = "Yes", no = "Cancel") {
  closeConfirm();
  return new Promise((resolve) => {
    const finish = (answer) => {
      if (openQuestion && openQuestion.dialog === dialog) openQuestion = null;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(answer);
    };
    const cancel = h("button", {type: "button", class: "secondary", dataset: {confirm: "no"}, onclick: () => finish(false)}, no);
    const dialog = h(
      "dialog",
      {class: "confirm", "aria-label": question},
      h("p", {class: "confirm-question"}, question),
      h("div", {class: "confirm-buttons"}, cancel, h("button", {type: "button", dataset: {confirm: "yes"}, onclick: () => finish(true)}, yes)),
    );
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault(); // Escape: answer "no" here, so the promise settles
      finish(false);
    });
    document.body.append(dialog);
    openQuestion = {dialog, finish};
    dialog.showModal();
    cancel.focus();
  });
}

/** Close the confirmation shown now, if any, as if it was cancelled (the question no longer applies). */
export function closeConfirm() {
  if (openQuestion) openQuestion.finish(false);
}

// ---------------------------------------------------------------------------------------------- card viewer
// Every card face up on a table can be read: ``describeCard(el, info)`` attaches what it says, and the page's one
// card viewer shows it on mouse hover, on keyboard focus, and on touch when the card is held for a moment (a
// long press, which then does not also act on the card). ``showCard(info)`` opens the viewer from code (a
// chooser, a "read" button). ``info`` = {name, cost?, kind?, text: string | string[], notes?: string[]}: ``kind``
// a short category ("spell", "soldier · 2/3"), ``notes`` the game's notation on this card explained in words.

const HOLD_MS = 450; // a touch held this long reads the card
let viewer = null;
let holdTimer = null;
let swallowClick = false;
let anchor = null; // the element the viewer is shown beside (null: a sheet, or closed)

function viewerBox() {
  if (viewer) return viewer;
  viewer = h("aside", {id: "card-viewer", class: "card-viewer", role: "dialog", "aria-label": "card", hidden: true});
  document.body.append(viewer);
  return viewer;
}

/** Show ``info`` in the card viewer; ``near``: the element it describes (a hover puts the viewer beside it;
 *  without it, or on a touch screen, the viewer is a sheet at the bottom of the screen with a close button). */
export function showCard(info, near = null) {
  const box = viewerBox();
  const lines = Array.isArray(info.text) ? info.text : [info.text || ""];
  replace(
    box,
    h("div", {class: "card-viewer-head"}, h("strong", {class: "card-viewer-name"}, info.name), info.cost !== undefined && info.cost !== null ? h("span", {class: "card-viewer-cost", title: "cost"}, `cost ${info.cost}`) : null),
    info.kind ? h("div", {class: "card-viewer-kind muted"}, info.kind) : null,
    lines.filter((l) => l).map((l) => h("p", {class: "card-viewer-text"}, l)),
    (info.notes || []).length ? h("ul", {class: "card-viewer-notes"}, info.notes.map((n) => h("li", {}, n))) : null,
    near ? null : h("button", {type: "button", class: "secondary card-viewer-close", onclick: hideCard}, "Close"),
  );
  anchor = near;
  box.classList.toggle("sheet", !near);
  box.hidden = false;
  if (near) {
    const r = near.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    const left = Math.max(8, Math.min(r.right + 8, window.innerWidth - width - 8));
    const top = Math.max(8, Math.min(r.top, window.innerHeight - box.offsetHeight - 8));
    Object.assign(box.style, {left: `${left}px`, top: `${top}px`, width: `${width}px`});
  } else {
    Object.assign(box.style, {left: "", top: "", width: ""});
  }
}

export function hideCard() {
  if (viewer) viewer.hidden = true;
  anchor = null;
}

/** Close the viewer shown beside a card that a redraw took off the page (a sheet stays until Close): the
 *  table shell calls it after every redraw, so no viewer is left describing a card that is gone. */
export function dropDetachedCard() {
  if (anchor && !anchor.isConnected) hideCard();
}

/** Attach ``info`` (see showCard) to a card element: it is then readable by hover, focus and a long press. */
export function describeCard(el, info) {
  el.cardInfo = info;
  el.classList.add("has-info");
  if (!el.hasAttribute("tabindex") && !["BUTTON", "A"].includes(el.tagName)) el.setAttribute("tabindex", "0");
  const text = Array.isArray(info.text) ? info.text.join(" ") : info.text || "";
  el.setAttribute("aria-description", `${info.name}${info.cost !== undefined && info.cost !== null ? `, cost ${info.cost}` : ""}: ${text}`);
  return el;
}

function infoOf(target) {
  const el = target instanceof Element ? target.closest(".has-info") : null;
  return el && el.cardInfo ? el : null;
}

document.addEventListener("pointerover", (event) => {
  if (event.pointerType !== "mouse") return;
  const el = infoOf(event.target);
  if (el) showCard(el.cardInfo, el);
});
document.addEventListener("pointerout", (event) => {
  if (event.pointerType !== "mouse" || !viewer || viewer.classList.contains("sheet")) return;
  const el = infoOf(event.target);
  if (el && !el.contains(event.relatedTarget)) hideCard();
});
document.addEventListener("focusin", (event) => {
  const el = infoOf(event.target);
  // the end of a long press focuses the card: the sheet it opened stays (with its Close button)
  if (el && !(viewer && !viewer.hidden && viewer.classList.contains("sheet"))) showCard(el.cardInfo, el);
});
document.addEventListener("focusout", (event) => {
  if (infoOf(event.target) && viewer && !viewer.classList.contains("sheet")) hideCard();
});
document.addEventListener("pointerdown", (event) => {
  clearTimeout(holdTimer);
  swallowClick = false; // a long press that ended without a click (a touch screen's usual): the next tap acts
  if (event.pointerType === "mouse") return;
  const el = infoOf(event.target);
  if (!el) return;
  holdTimer = setTimeout(() => {
    swallowClick = true; // the press read the card: the click that ends it does not also act
    showCard(el.cardInfo);
  }, HOLD_MS);
});
for (const type of ["pointerup", "pointercancel", "pointermove"]) {
  document.addEventListener(type, (event) => {
    if (type === "pointermove" && (Math.abs(event.movementX) + Math.abs(event.movementY) < 6)) return;
    clearTimeout(holdTimer);
  });
}
document.addEventListener(
  "click",
  (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopPropagation();
    event.preventDefault();
  },
  true,
);
document.addEventListener("contextmenu", (event) => {
  if (infoOf(event.target) && event.pointerType !== "mouse") event.preventDefault(); // a long press reads the card
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") hideCard();
});
