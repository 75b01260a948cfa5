// sw.js is the page's service worker: after the first visit, Reconcile Lab
// works offline. The engine is a static page with no backend, so everything
// it needs is a handful of files this worker keeps in the Cache Storage.
//
// It answers network first and falls back to the cache: a learner online
// always gets the newest build (the server revalidates every file with an
// ETag, so an unchanged main.wasm costs a 304), and a learner offline gets
// the last build they used. Cache first would be faster offline-style, but it
// would keep running an old main.wasm against new scripts after an update,
// and the two must match.
"use strict";

const cacheName = "rlab-site-v1";

// sw is this worker's global scope, self, as the service worker it is
// (tsc's webworker library types self as any worker's scope).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

// shell is cached when the worker installs, so that the first visit already
// makes the next one work offline, even for files the page fetches later.
// export.wasm and export-worker.js are not in it: the page fetches them
// only when the learner first presses Export, and most never do, so the
// install must not download them either; the fetch handler below caches
// them then, like any file the page fetches, for the next export offline.
const shell = [
	// The page itself, as "./": the server redirects index.html there.
	"./",
	"style.css",
	"rlab-start.js",
	"rlab.js",
	"worker.js",
	"wasm_exec.js",
	"main.wasm",
	"lessons.json",
	// The page's words and glossary in its other languages, which a page
	// in one of them fetches before the worker is installed.
	"messages-zh-CN.json",
	"glossary-zh-CN.json",
];

sw.addEventListener("install", (event) => {
	event.waitUntil(
		caches.open(cacheName)
			// One missing file must not stop the others from being cached.
			.then((cache) => Promise.allSettled(shell.map((url) => cache.add(url))))
			.then(() => sw.skipWaiting()),
	);
});

sw.addEventListener("activate", (event) => {
	event.waitUntil(
		caches.keys()
			.then((names) => Promise.all(names.filter((n) => n !== cacheName).map((n) => caches.delete(n))))
			.then(() => sw.clients.claim()),
	);
});

sw.addEventListener("fetch", (event) => {
	const request = event.request;
	const url = new URL(request.url);
	if (request.method !== "GET" || url.origin !== sw.location.origin) {
		return; // the browser handles it as if there were no service worker
	}
	event.respondWith(
		fetch(request)
			.then((response) => {
				if (response.ok && response.type === "basic") {
					const copy = response.clone();
					event.waitUntil(caches.open(cacheName).then((cache) => cache.put(request, copy)));
				}
				return response;
			})
			.catch(() => caches.match(request, {ignoreSearch: true}).then((cached) => {
				if (cached) {
					return cached;
				}
				return new Response("Reconcile Lab is offline and this file was never cached.", {
					status: 503,
					headers: {"Content-Type": "text/plain; charset=utf-8"},
				});
			})),
	);
});
