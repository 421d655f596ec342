// "Your games" (issue 32, turn-based play): the seats this browser holds (localStorage cardarena.seat.KEY.SEAT, as
// the table's page keeps them) and, signed in, the account's seats (opened by the account: /play/KEY#account),
// which of them wait for you now, and how long you have. The count of games waiting
// is in the page's title; where the browser allows it, a notification says when a game starts waiting for you.
// The secrets go to the server in a POST body (POST /api/seats/status), never in a URL.

import {getJSON, h, replace} from "./dom.js";

const SEATS = "cardarena.seat.";
const POLL_MS = 20000;
const BASE_TITLE = document.title;
const STATUS_WORDS = {open: "waiting for players", running: "being played", finished: "finished", abandoned: "abandoned"};

const mine = {waiting: null, games: [], signedIn: false};

/** Whether the browser is signed in (account.js says): then the account's games are asked for too. */
/** Whether someone is signed in on this page (the account bar says so). */
export function isSignedIn() {
  return mine.signedIn;
}

export function setSignedIn(signedIn) {
  mine.signedIn = Boolean(signedIn);
  refreshMine();
}

/** Every seat this browser holds whose secret it has (an invitation not yet taken is not a seat yet). */
function heldSeats() {
  const held = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (!name || !name.startsWith(SEATS)) continue;
      const rest = name.slice(SEATS.length);
      const dot = rest.lastIndexOf(".");
      const key = rest.slice(0, dot);
      const value = JSON.parse(localStorage.getItem(name) || "null");
      if (key && value && typeof value.secret === "string" && value.secret) held.push({key, secret: value.secret});
    }
  } catch {
    return []; // storage disabled or unreadable: no seats to show
  }
  return held.slice(-50);
}

/** Time left to answer, in words. */
function leftText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h left`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min left`;
  if (s >= 60) return `${Math.floor(s / 60)} min left`;
  return `${s} s left`;
}

function draw(games) {
  const box = document.getElementById("mine-box");
  const list = document.getElementById("mine");
  if (!box || !list) return;
  const shown = games.filter((g) => g.status === "open" || g.status === "running");
  shown.sort((a, b) => Number(b.your_turn) - Number(a.your_turn) || (a.left ?? Infinity) - (b.left ?? Infinity));
  box.hidden = shown.length === 0;
  const waiting = shown.filter((g) => g.your_turn).length;
  document.getElementById("mine-count").textContent = waiting ? `${waiting} waiting for you` : "none waiting for you";
  replace(
    list,
    shown.map((g) =>
      h(
        "li",
        {dataset: {key: g.key}, class: g.your_turn ? "your-turn" : ""},
        h(
          "div",
          {class: "info"},
          h("strong", {}, g.title || g.game),
          g.turn_based ? h("span", {class: "tag"}, "turn-based") : null,
          g.rated ? h("span", {class: "tag"}, "rated") : null,
          ` ${g.your_turn ? "" : STATUS_WORDS[g.status] || g.status}`,
          g.your_turn ? h("span", {class: "turn-badge"}, "Your turn") : null,
          g.your_turn && g.left !== null ? ` (${leftText(g.left)})` : "",
          h("div", {class: "muted"}, (g.players || []).join(" · ")),
        ),
        h("a", {class: g.your_turn ? "button" : "button secondary", href: g.play}, g.your_turn ? "Play" : "Open"),
      ),
    ),
  );
  document.title = waiting ? `(${waiting}) ${BASE_TITLE}` : BASE_TITLE;
}

/** Tell the person, where they allowed notifications, of each game that starts waiting for them. */
function notify(games) {
  const now = new Set(games.filter((g) => g.your_turn).map((g) => g.key));
  const before = mine.waiting;
  mine.waiting = now;
  if (before === null || !("Notification" in window) || Notification.permission !== "granted") return;
  for (const g of games) {
    if (!g.your_turn || before.has(g.key)) continue;
    const note = new Notification(`Your turn: ${g.title || g.game}`, {body: (g.players || []).join(" · "), tag: g.key});
    note.onclick = () => {
      window.focus();
      location.assign(g.play);
    };
  }
}

export async function refreshMine() {
  const seats = heldSeats();
  if (!seats.length && !mine.signedIn) {
    draw([]);
    return;
  }
  try {
    const games = await getJSON("/api/seats/status", {method: "POST", body: {seats}});
    mine.games = games;
    draw(games);
    notify(games);
  } catch {
    // the next poll tries again; the list keeps what it showed
  }
}

function offerNotifications() {
  const button = document.getElementById("notify-me");
  if (!button) return;
  const can = "Notification" in window && Notification.permission === "default";
  button.hidden = !can;
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.hidden = true;
  });
}

export function startMine() {
  offerNotifications();
  refreshMine();
  setInterval(refreshMine, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshMine();
  });
}
