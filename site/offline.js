// offline.js registers sw.js, the service worker that keeps the page working
// offline after the first visit. It is its own file, loaded last, so that
// registering never delays the page becoming interactive, and a browser
// without service workers (or a page opened from file://) simply skips it.
"use strict";

if ("serviceWorker" in navigator && location.protocol !== "file:") {
	window.addEventListener("load", () => {
		navigator.serviceWorker.register("sw.js").catch((err) => {
			// Offline support is a convenience: say why it is missing, quietly.
			console.warn(`Reconcile Lab will not work offline: ${err.message}`);
		});
	});
}
