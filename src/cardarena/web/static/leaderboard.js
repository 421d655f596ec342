// A game's leaderboard, /leaderboard/{key} (issue 32): every account's rating in that game (or Tash-Kalar mode),
// people and the bots on one scale, highest first, provisional ratings marked. Data from GET /api/leaderboard/{key};
// the game menu lists the rating keys (GET /api/ratings/keys). Every text from the server is put in with textContent.

import {getJSON, h, replace} from "./dom.js";

const $ = (id) => document.getElementById(id);

function row(entry, rank) {
  const who = entry.bot ? `${entry.name} (bot)` : entry.name;
  return h(
    "tr",
    {class: entry.bot ? "bot" : "", dataset: {account: entry.account}},
    h("td", {}, String(rank)),
    h("td", {}, entry.bot ? who : h("a", {href: `/players/${encodeURIComponent(entry.name)}`}, who)),
    h("td", {class: "rating"}, `${Math.round(entry.rating)}${entry.provisional ? "?" : ""}`),
    h("td", {}, String(Math.round(entry.rd))),
    h("td", {}, entry.bot ? "—" : String(entry.games)),
  );
}

async function show(key) {
  try {
    const board = await getJSON(`/api/leaderboard/${encodeURIComponent(key)}`);
    const title = board.title || key;
    $("title").textContent = `Leaderboard: ${title}`;
    document.title = `${title} leaderboard · cardarena`;
    const people = board.players.filter((p) => !p.bot).length;
    $("board-note").textContent = people
      ? "A ? marks a provisional rating (few games yet); ± is its deviation. The bots' ratings are fixed: they anchor the scale."
      : "Nobody has played a rated game of this yet: the bots' ratings, which anchor the scale, are all there is.";
    replace($("board").querySelector("tbody"), board.players.map((p, i) => row(p, i + 1)));
  } catch (error) {
    $("board-note").textContent = error.status === 404 ? "There is no such game." : `The leaderboard could not be loaded (${error.message}).`;
  }
}

async function start() {
  const key = decodeURIComponent(location.pathname.split("/leaderboard/")[1] || "");
  try {
    const keys = await getJSON("/api/ratings/keys");
    replace($("board-key"), keys.map((k) => h("option", {value: k.key}, k.title)));
    $("board-key").value = key;
    $("board-key").addEventListener("change", () => location.assign(`/leaderboard/${encodeURIComponent($("board-key").value)}`));
  } catch {
    $("board-key").hidden = true;
  }
  show(key);
}

start();
