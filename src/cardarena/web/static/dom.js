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

/** fetch JSON; throws an Error carrying the server's {error: {code, message}} when there is one. */
export async function getJSON(url, options = {}) {
  const response = await fetch(url, {
    headers: {"Content-Type": "application/json", Accept: "application/json"},
    ...options,
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
    const error = new Error(err.message || `${response.status} ${response.statusText}`);
    error.code = err.code || String(response.status);
    error.status = response.status;
    throw error;
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
