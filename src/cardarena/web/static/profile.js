// A player's page, /players/{name} (issue 32): ratings per game with the history of each as a small plot, games in
// progress, and finished games with the result, the opponents, the rating change and links to the replay (where the
// analysis is asked for). Data from GET /api/players/{name}; every text from the server is put in with textContent.

import {getJSON, h, replace} from "./dom.js";
import {startSettings} from "./settings.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const OUTCOME = {win: "Won", loss: "Lost", draw: "Draw", unfinished: "No result"};

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The history of one rating as a line with its deviation as a band (presentation attributes: no inline style). */
export function historyPlot(history, width = 320, height = 90) {
  const plot = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "history", role: "img"});
  // from the rating before the first game (drawn with that game's deviation) to the latest
  const start = history.length ? [{rating: history[0].before ?? history[0].rating, rd: history[0].rd}] : [];
  const points = [...start, ...history].map((p) => ({y: p.rating, lo: p.rating - p.rd, hi: p.rating + p.rd}));
  if (points.length < 1) return plot;
  const low = Math.min(...points.map((p) => p.lo));
  const high = Math.max(...points.map((p) => p.hi));
  const pad = 6;
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - low) / Math.max(1, high - low)) * (height - 2 * pad);
  const band = [...points.map((p, i) => `${x(i)},${y(p.hi)}`), ...points.map((p, i) => `${x(i)},${y(p.lo)}`).reverse()];
  plot.append(svg("polygon", {points: band.join(" "), fill: "#1f6f4a", "fill-opacity": 0.15, stroke: "none"}));
  plot.append(svg("polyline", {points: points.map((p, i) => `${x(i)},${y(p.y)}`).join(" "), fill: "none", stroke: "#1f6f4a", "stroke-width": 2}));
  for (const [i, p] of points.entries()) plot.append(svg("circle", {cx: x(i), cy: y(p.y), r: 2.5, fill: "#1f6f4a"}));
  // the first and the latest rating, written beside their points
  const label = (i, anchor) => {
    const text = svg("text", {x: x(i) + (anchor === "start" ? 4 : -4), y: Math.max(10, y(points[i].y) - 5), "text-anchor": anchor, "font-size": 10, fill: "#1d1d1f"});
    text.textContent = String(Math.round(points[i].y));
    return text;
  };
  plot.append(label(0, "start"));
  if (points.length > 1) plot.append(label(points.length - 1, "end"));
  const title = svg("title");
  title.textContent = `from ${history[0].before ?? history[0].rating} to ${history[history.length - 1].rating} over ${history.length} rated game${history.length === 1 ? "" : "s"}`;
  plot.append(title);
  return plot;
}

function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""} ± ${Math.round(r.rd)}`;
}

function draw(p) {
  document.title = `${p.name} · cardarena`;
  $("title").textContent = p.name;
  $("name").textContent = p.bot ? `${p.name} (a bot: the ${p.bot} AI)` : p.name;
  $("since").textContent = `Playing since ${new Date(p.created).toLocaleDateString()}`;
  $("ratings-note").textContent = p.ratings.length ? "A ? marks a provisional rating (few games yet); ± is its deviation." : "No rated game yet.";
  replace(
    $("ratings"),
    p.ratings.map((r) =>
      h(
        "li",
        {dataset: {key: r.key}},
        h("div", {class: "info"}, h("strong", {}, r.title), " ", h("span", {class: "rating"}, ratingText(r)), h("div", {class: "muted"}, `${r.games} rated game${r.games === 1 ? "" : "s"} · `, h("a", {href: `/leaderboard/${encodeURIComponent(r.key)}`}, "leaderboard"))),
        r.history.length ? historyPlot(r.history) : null,
      ),
    ),
  );
  $("playing-note").textContent = p.playing.length ? "" : "None.";
  replace(
    $("playing"),
    p.playing.map((g) =>
      h(
        "li",
        {dataset: {key: g.key}},
        h("div", {class: "info"}, h("strong", {}, g.title), g.rated ? h("span", {class: "tag"}, "rated") : null, g.turn_based ? h("span", {class: "tag"}, "turn-based") : null, h("div", {class: "muted"}, `against ${g.opponents.join(", ")}`)),
        p.owner ? h("a", {class: "button", href: `/play/${encodeURIComponent(g.key)}#account`}, "Play") : h("a", {class: "button secondary", href: g.watch}, "Watch"),
      ),
    ),
  );
  $("finished-note").textContent = p.finished.length ? "" : "None yet.";
  replace(
    $("finished"),
    p.finished.map((g) =>
      h(
        "li",
        {dataset: {key: g.key}, class: `outcome-${g.outcome}`},
        h(
          "div",
          {class: "info"},
          h("strong", {class: "outcome"}, OUTCOME[g.outcome] || g.outcome),
          ` ${g.title}`,
          g.rated ? h("span", {class: "tag"}, "rated") : null,
          g.rating_change !== null && g.rating_change !== undefined ? h("span", {class: "change"}, ` ${g.rating_change >= 0 ? "+" : ""}${Math.round(g.rating_change)}`) : null,
          h("div", {class: "muted"}, `against ${g.opponents.join(", ")} · ${new Date(g.ended).toLocaleString()}`),
        ),
        h("a", {class: "button secondary", href: g.replay}, "Replay and analysis"),
      ),
    ),
  );
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/players/")[1] || "");
  try {
    const found = await getJSON(`/api/players/${encodeURIComponent(name)}`);
    draw(found);
    if (found.owner) startSettings();
  } catch (error) {
    $("ratings-note").textContent = error.status === 404 ? "There is no such player." : `The page could not be loaded (${error.message}).`;
    $("name").textContent = name;
  }
}

start();
