// The desk's service worker, served at /desk-sw.js (its scope is the whole origin, "/") by
// diceref.http.desk, which writes into it the version of the desk's files and their list:
// a hash of every file in static/ and of this worker, so any change to any of them is a new
// worker and a new cache, never a stale one.  It keeps the page and its assets in one cache
// per version, answers them from there (so the page opens without the service), and lets
// every other request (the service's JSON operations, the API docs) go to the network.

const VERSION = "__DESK_VERSION__";
const ASSETS = __DESK_ASSETS__;
const PREFIX = "diceref-desk-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `reload`: past the browser's HTTP cache, so a new version never stores an old file.
    await cache.addAll(ASSETS.map((path) => new Request(path, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !ASSETS.includes(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(url.pathname);
    return kept ?? fetch(request);
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "version") event.source?.postMessage({ version: VERSION, cache: CACHE });
});
