// The table desk: score sheets, coach, Chicago and Yardkle for one event, kept in this
// browser (localStorage).  Every score, total and ruling comes from the service's JSON
// operations; the page only adds up the set-asides the service scored in a Yardkle turn.
// Plain ES modules, no build step, nothing from another host: this one is the entry (the
// tabs, drawing the shown one, the start); service.js calls the service, state.js keeps
// the event, dom.js makes the page's pieces, views/ holds one module per tab and pure.js
// the helpers that need no page (unit-tested under Node).

import { showBanner, statusOf } from "./dom.js";
import { awaiting, catalogue, get } from "./service.js";
import { STORAGE_KEY, TABS, connect, event, save, shownTab, undo, updateUndo } from "./state.js";
import { refreshChicago, renderChicago } from "./views/chicago.js";
import { renderCoach } from "./views/coach.js";
import { renderEvent } from "./views/event.js";
import { renderSheets, scheduleCheck } from "./views/sheets.js";
import { refreshYardkle, renderYardkle } from "./views/yardkle.js";

const RENDERERS = { sheets: renderSheets, coach: renderCoach, chicago: renderChicago, yardkle: renderYardkle, event: renderEvent };

function render() {
  const tab = shownTab();
  const focused = document.activeElement?.id;
  for (const button of document.querySelectorAll("button.tab")) {
    button.setAttribute("aria-current", button.dataset.tab === tab ? "page" : "false");
  }
  for (const name of TABS) {
    const panel = document.getElementById(name);
    panel.hidden = name !== tab;
    panel.classList.toggle("printing", name === tab);
    statusOf(name).hidden = name !== tab;
  }
  RENDERERS[tab](document.getElementById(tab));
  if (focused) document.getElementById(focused)?.focus();
}

async function refreshAll() {
  await Promise.all([refreshChicago(), refreshYardkle()]);
  scheduleCheck();
}

/** --bar-height: the sticky header's height (it wraps on narrow screens, and is not sticky
 * on a phone), which the page keeps clear when it scrolls to a control (desk.css). */
function trackHeaderHeight() {
  const bar = document.querySelector("header.bar");
  const measure = () => {
    const sticky = getComputedStyle(bar).position === "sticky";
    document.documentElement.style.setProperty("--bar-height", `${sticky ? bar.offsetHeight : 0}px`);
  };
  new ResizeObserver(measure).observe(bar);
  measure();
}

async function start() {
  connect({ render, refreshAll });
  awaiting(0);
  trackHeaderHeight();
  document.getElementById("undo").addEventListener("click", undo);
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && !["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) {
      e.preventDefault(); undo();
    }
  });
  for (const button of document.querySelectorAll("button.tab")) {
    button.addEventListener("click", async () => {
      event().tab = button.dataset.tab; save();
      if (event().tab === "chicago") await refreshChicago();
      if (event().tab === "yardkle") await refreshYardkle();
      render();
    });
  }
  window.addEventListener("online", () => { scheduleCheck(); });
  updateUndo();
  render();
  const games = await get("/games");
  // The games are kept too, so that a page reopened while the service is out of reach
  // still shows the sheets (they are checked once it answers).
  let list = games.ok ? games.data : null;
  if (list) localStorage.setItem(`${STORAGE_KEY}/games`, JSON.stringify(list));
  else {
    try { list = JSON.parse(localStorage.getItem(`${STORAGE_KEY}/games`) ?? "null"); } catch { list = null; }
    showBanner(games.message);
    if (!list) return;
  }
  catalogue.games = list;
  catalogue.byId = Object.fromEntries(list.map((g) => [g.id, g]));
  await refreshAll();
  render();
  document.body.dataset.ready = "true";
}

start();

