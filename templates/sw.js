/* Service worker of Kartenrunde (served by companion.views.app at /sw.js, scope "/").
   Static files: from the cache; a hashed name (collectstatic's manifest storage) never
   changes its content, any other is refreshed in the background (stale-while-revalidate).
   Pages: from the network, stored; offline, the stored copy (a score sheet opened before
   opens without the network), else a short offline page. Online a page is no slower with
   the worker: navigation preload asks the network while the worker starts, and the worker
   answers with that response; the layout's files need no worker at all where the browser
   has static routing. htmx requests, polls and posts are never answered from the cache. */
"use strict";
const STATIC = "kartenrunde-static-{{ version }}";  // a new name with every new set of files
const PAGES = "kartenrunde-pages";
const STATIC_PREFIX = {{ static_prefix|safe }};
const SHELL = {{ shell|safe }};
const OFFLINE_PAGE = {{ offline_page|safe }};
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;  // name.0123456789ab.css: content fixed

function addRoute(event, rule) {
  try {
    Promise.resolve(event.addRoutes(rule)).catch(() => null);
  } catch (error) { /* a browser without these conditions: the fetch handler decides */ }
}

self.addEventListener("install", (event) => {
  // The layout's files, stored just below, are answered from this cache by the browser
  // itself where it can (static routing, Chrome 123+): no worker start, no fetch event
  // for each. Only hashed names (their content never changes) and only these files
  // (stored before this worker works); every other file goes through the fetch handler.
  if (event.addRoutes && SHELL.length && SHELL.every((url) => HASHED.test(url))) {
    addRoute(event, {
      condition: { or: SHELL.map((url) => ({ urlPattern: new URLPattern({ pathname: url }) })) },
      source: { cacheName: STATIC },
    });
  }
  // What the fetch handler never answers (htmx requests, the sheet's polls, posts, the
  // manifest) goes to the network without starting or waking the worker.
  if (event.addRoutes) {
    addRoute(event, {
      condition: { not: { or: [{ requestMode: "navigate" },
        { urlPattern: new URLPattern({ pathname: STATIC_PREFIX + "*" }) }] } },
      source: "network",
    });
  }
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const preload = self.registration.navigationPreload;
  event.waitUntil(Promise.all([
    preload ? preload.enable() : null,
    caches.keys().then((names) => Promise.all(names
      .filter((name) => name.startsWith("kartenrunde-static") && name !== STATIC)
      .map((name) => caches.delete(name)))),
  ]).then(() => self.clients.claim()));
});

// A page that loaded before this worker took over names its files: store them too.
self.addEventListener("message", (event) => {
  if (!event.data || !Array.isArray(event.data.store)) { return; }
  const urls = event.data.store.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(urls))
    .catch(() => null).then(() => event.ports[0] && event.ports[0].postMessage("stored")));
});

function fromCacheThenRefresh(request) {
  return caches.open(STATIC).then((cache) => cache.match(request).then((stored) => {
    if (stored && HASHED.test(new URL(request.url).pathname)) { return stored; }
    const fresh = fetch(request).then((response) => {
      if (response.ok) { cache.put(request, response.clone()); }
      return response;
    });
    if (stored) {
      fresh.catch(() => null);
      return stored;
    }
    return fresh;
  }));
}

// The page as the network answers it: the navigation preload's response where the browser
// made one (started while this worker was starting), else a request of its own.
function pageFromNetwork(event) {
  const request = event.request;
  return Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(request))
    .then((response) => {
      if (response.ok && !response.redirected && response.type === "basic") {
        const copy = response.clone();
        event.waitUntil(caches.open(PAGES).then((cache) => cache.put(request, copy)));
      }
      return response;
    }).catch(() => caches.open(PAGES).then((cache) => cache.match(request, { ignoreVary: true })).then((stored) =>
      stored || new Response(OFFLINE_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } })));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromCacheThenRefresh(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageFromNetwork(event));
  }
});
