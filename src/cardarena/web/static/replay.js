// The replay page of a finished game: /replay/{key}?seat=N&ply=K. Each step is asked of the server
// (/api/games/{key}/replay), which builds it from the record: what that seat saw at that time (or a spectator,
// or every seat's cards open), drawn by the game's own table module as at the table, or by its text panels.

import {h, replace, getJSON, toast, logItem} from "./dom.js";

const page = {
  key: null,
  seat: "open", // a seat number, "spectator" or "open"
  ply: 0,
  plies: 0,
  step: null, // the latest answer
  module: null, // the game's table module (a promise), or null when it has none
  moduleFor: null,
  pending: 0, // the number of the latest request: older answers are dropped
};

const $ = (id) => document.getElementById(id);

function readLocation() {
  const match = location.pathname.match(/^\/replay\/([^/]+)\/?$/);
  if (!match) return null;
  const params = new URLSearchParams(location.search);
  const seat = params.get("seat") || "open";
  const ply = params.get("ply");
  return {key: decodeURIComponent(match[1]), seat, ply: ply === null ? null : Number(ply)};
}

function stepUrl(api) {
  const params = new URLSearchParams({seat: String(page.seat), ply: String(page.ply)});
  const base = api ? `/api/games/${encodeURIComponent(page.key)}/replay` : `/replay/${encodeURIComponent(page.key)}`;
  return `${base}?${params}`;
}

async function load(ply) {
  const number = ++page.pending;
  const params = new URLSearchParams({seat: String(page.seat)});
  if (ply !== null && ply !== undefined) params.set("ply", String(ply));
  let step;
  try {
    step = await getJSON(`/api/games/${encodeURIComponent(page.key)}/replay?${params}`);
  } catch (error) {
    setStatus("offline");
    toast(`The replay could not be loaded: ${error.message}`);
    $("turn").textContent = error.message;
    return;
  }
  if (number !== page.pending) return; // a newer step was asked for meanwhile
  setStatus("connected", "ready");
  page.step = step;
  page.ply = step.ply;
  page.plies = step.plies;
  history.replaceState(null, "", stepUrl(false));
  render();
}

function setStatus(status, text) {
  $("status").dataset.status = status;
  $("status").textContent = text || status;
}

function nameOf(seat) {
  const row = ((page.step && page.step.seats) || []).find((s) => s.seat === seat);
  return row && row.name ? row.name : `seat ${seat}`;
}

function render() {
  const step = page.step;
  document.title = `${step.title} replay · cardarena`;
  $("title").textContent = `${step.title}: replay`;
  renderViewerChoice(step);
  renderAnalysisChoice(step);
  markAnalysisRow();
  $("slider").max = String(step.plies);
  $("slider").value = String(step.ply);
  $("ply").max = String(step.plies);
  $("ply").value = String(step.ply);
  $("plies").textContent = `of ${step.plies}`;
  $("first").disabled = $("back").disabled = step.ply === 0;
  $("last").disabled = $("forward").disabled = step.ply === step.plies;
  $("share").href = stepUrl(false);
  $("download").href = `/api/games/${encodeURIComponent(page.key)}/record`;
  $("download").setAttribute("download", `${step.game}-${page.key}.json`);
  replace(
    $("seats"),
    step.seats.map((s) => h("li", {class: "seat", dataset: {seat: s.seat}}, h("span", {class: "name"}, s.name || "(open seat)"), h("span", {class: "muted"}, ` seat ${s.seat}`, s.kind === "ai" ? ` · AI ${s.label || ""}` : ""))),
  );
  replace(
    $("log"),
    step.log.map((e) => logItem(e, e.seat === null || e.seat === undefined ? "" : `${nameOf(e.seat)}: `)),
  );
  $("log").scrollTop = $("log").scrollHeight;
  const views = step.views || [step];
  const toAct = views[0].to_act;
  $("turn").textContent = views[0].terminal ? "The game is over." : toAct === null || toAct === undefined ? "" : `${nameOf(toAct)} to act.`;
  renderResult(views[0]);
  drawViews(views).catch((error) => toast(`The table could not be drawn: ${error.message}`));
}

// -- the post-game analysis (/api/games/{key}/analysis?seat=N): started on request, run by the server in the
// background, polled while it runs, then shown as a table of the player's decisions (forced ones left out).
const analysis = {seat: null, answer: null, timer: null, asked: 0};

function analysisUrl(seat) {
  return `/api/games/${encodeURIComponent(page.key)}/analysis?seat=${encodeURIComponent(seat)}`;
}

function renderAnalysisChoice(step) {
  const select = $("analysis-seat");
  if (select.options.length) return;
  replace(select, step.seats.map((s) => h("option", {value: String(s.seat)}, `${s.name || `seat ${s.seat}`} (seat ${s.seat})`)));
  const seat = /^\d+$/.test(String(page.seat)) ? String(page.seat) : "0";
  select.value = seat;
  askAnalysis(Number(seat), false);
}

async function askAnalysis(seat, start) {
  clearTimeout(analysis.timer);
  analysis.seat = seat;
  const number = ++analysis.asked;
  let answer;
  try {
    answer = await getJSON(analysisUrl(seat), start ? {method: "POST"} : {});
  } catch (error) {
    if (number !== analysis.asked) return;
    $("analysis-status").textContent = error.code === "busy" ? "The server is busy with other analyses; try again in a while." : `No analysis: ${error.message}`;
    $("analyse").disabled = false;
    return;
  }
  if (number !== analysis.asked) return; // another player was chosen meanwhile
  analysis.answer = answer;
  renderAnalysis();
  if (answer.status === "running") analysis.timer = setTimeout(() => askAnalysis(seat, false), 1000);
}

function pct(p) {
  return p === null || p === undefined ? "" : `${Math.round(100 * p)}%`;
}

function renderAnalysis() {
  const answer = analysis.answer;
  const progress = $("analysis-progress");
  const status = $("analysis-status");
  const table = $("analysis-table");
  const summary = $("analysis-summary");
  $("analyse").hidden = answer.status === "done" || answer.status === "running";
  $("analyse").disabled = false;
  progress.hidden = answer.status !== "running";
  table.hidden = summary.hidden = answer.status !== "done";
  if (answer.status === "none") status.textContent = `${nameOf(answer.seat)}'s decisions are not analysed yet.`;
  else if (answer.status === "failed") status.textContent = answer.error;
  else if (answer.status === "running") {
    progress.max = answer.total || 1;
    progress.value = answer.done || 0;
    status.textContent = answer.total === null || answer.total === undefined ? "Analysing…" : `Analysing: ${answer.done} of ${answer.total} decisions`;
  } else {
    const data = answer.analysis;
    const s = data.summary[String(answer.seat)];
    const model = data.model ? `the trained model ${data.model}` : "the game's own evaluation";
    status.textContent = `by ${data.agent} (${model})`;
    const worst = data.decisions.filter((d) => d.biggest).sort((a, b) => b.swing - a.swing);
    replace(
      summary,
      h("strong", {}, `${nameOf(answer.seat)}: ${s.mistakes} mistake${s.mistakes === 1 ? "" : "s"}`),
      ` (a swing of ${Math.round(100 * data.mistake)} points of win probability or more) in ${s.decisions - s.forced} rated decisions (${s.forced} forced); mean swing ${(100 * s.mean_swing).toFixed(1)} points.`,
      worst.length ? ` Biggest: ${worst.map((d) => `#${d.ply + 1} (${Math.round(100 * d.swing)})`).join(", ")}.` : "",
    );
    const head = h("thead", {}, h("tr", {}, ["#", "turn", "played", "win", "best found", "win", "swing", ""].map((t) => h("th", {}, t))));
    const rows = data.decisions
      .filter((d) => !d.forced)
      .map((d) =>
        h(
          "tr",
          {class: [d.mistake ? "mistake" : "", d.biggest ? "biggest" : "", d.ply === page.ply ? "here" : ""].join(" ").trim(), dataset: {ply: d.ply}, title: "Show the position before this decision", onclick: () => go(d.ply)},
          h("td", {class: "num"}, String(d.ply + 1)),
          h("td", {class: "num"}, String(d.turn)),
          h("td", {}, d.played_text),
          h("td", {class: "num"}, pct(d.p_played)),
          h("td", {}, d.best === d.played ? "=" : d.best_text),
          h("td", {class: "num"}, pct(d.p_best)),
          h("td", {class: "num"}, d.swing ? String(Math.round(100 * d.swing)) : ""),
          h("td", {class: "flag"}, [d.mistake ? "mistake" : "", d.biggest ? "★" : ""].join(" ").trim()),
        ),
      );
    replace(table, head, h("tbody", {}, rows));
  }
}

function markAnalysisRow() {
  for (const row of document.querySelectorAll("#analysis-table tbody tr")) row.classList.toggle("here", Number(row.dataset.ply) === page.ply);
}

function renderViewerChoice(step) {
  const select = $("viewer");
  if (select.options.length) {
    select.value = String(page.seat);
    return;
  }
  const options = [h("option", {value: "open"}, "Everyone (all cards open)"), h("option", {value: "spectator"}, "A spectator")];
  for (const s of step.seats) options.push(h("option", {value: String(s.seat)}, `${s.name || `seat ${s.seat}`} (seat ${s.seat})`));
  replace(select, options);
  select.value = String(page.seat);
}

function renderResult(view) {
  const box = $("result");
  if (!view.terminal) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const returns = view.returns || [];
  const best = Math.max(...returns);
  const winners = returns.map((r, seat) => (r === best ? seat : null)).filter((x) => x !== null);
  const line = !returns.length || winners.length === returns.length ? "Draw." : `${winners.map(nameOf).join(" and ")} win${winners.length === 1 ? "s" : ""}.`;
  replace(box, h("strong", {}, line), h("span", {class: "muted"}, ` returns: ${returns.join(", ")}`));
}

/** The game's table module, or null when it has none (its text panels are drawn then). */
async function tableModule(game) {
  if (page.moduleFor !== game) {
    page.moduleFor = game;
    page.module = import(new URL(`./tables/${game}.js`, import.meta.url).href).catch(() => null);
  }
  return page.module;
}

async function drawViews(views) {
  const module = await tableModule(page.step.game);
  const area = $("table");
  const noAct = () => toast("This is a replay: nothing can be chosen.");
  const blocks = views.map((view, index) => {
    const seat = page.step.views ? index : page.step.seat;
    const box = h("div", {class: "replay-view", dataset: {seat: seat === null ? "spectator" : seat}});
    const message = {...view, ply: page.step.ply, legal: []};
    if (module) module.render(box, message, noAct, {seat, seats: page.step.seats, nameOf});
    else drawPanels(box, view.board || []);
    if (!page.step.views) return box;
    return h("section", {class: "replay-seat"}, h("h3", {}, `As ${nameOf(seat)} saw it`), box);
  });
  replace(area, blocks);
}

function drawPanels(area, panels) {
  replace(
    area,
    h(
      "div",
      {class: "panels"},
      panels.map((p) => h("section", {class: "panel", dataset: {seat: p.seat === null || p.seat === undefined ? "shared" : p.seat}}, h("h3", {}, p.title), h("pre", {}, (p.lines || []).join("\n")))),
    ),
  );
}

function go(ply) {
  const target = Math.max(0, Math.min(page.plies, Number(ply) || 0));
  load(target);
}

function wire() {
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(page.ply - 1));
  $("forward").addEventListener("click", () => go(page.ply + 1));
  $("last").addEventListener("click", () => go(page.plies));
  $("slider").addEventListener("input", (event) => go(event.target.value));
  $("ply").addEventListener("change", (event) => go(event.target.value));
  $("controls").addEventListener("submit", (event) => {
    event.preventDefault();
    go($("ply").value);
  });
  $("analysis-seat").addEventListener("change", (event) => askAnalysis(Number(event.target.value), false));
  $("analysis-controls").addEventListener("submit", (event) => {
    event.preventDefault();
    $("analyse").disabled = true;
    askAnalysis(Number($("analysis-seat").value), true);
  });
  $("viewer").addEventListener("change", (event) => {
    page.seat = event.target.value;
    load(page.ply);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") go(page.ply - 1);
    else if (event.key === "ArrowRight") go(page.ply + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(page.plies);
  });
}

async function start() {
  wire();
  const where = readLocation();
  if (!where) {
    $("turn").textContent = "No replay here: open a replay link of a finished game.";
    setStatus("offline");
    return;
  }
  page.key = where.key;
  page.seat = where.seat;
  await load(where.ply);
}

// What the page shows, for tests: the latest step.
window.__replay = {step: () => page.step, go, ready: () => page.step !== null && page.pending > 0, analysis: () => analysis.answer};

window.addEventListener("error", (event) => toast(`Page error: ${event.message}`));
start().catch((error) => toast(`Could not start the replay: ${error.message}`));
