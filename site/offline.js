// offline.js registers sw.js, the service worker that keeps the page working
// offline after the first visit. It is its own file, loaded last, and a
// browser without service workers (or a page opened from file://) simply
// skips it.
//
// It registers once the engine is up (app.js fires "rlab:engine-ready"), not
// at the window's load event: installing the worker fetches the page's files,
// main.wasm among them, and at load main.wasm is still on its way, so a first
// visit downloaded it twice at once, each at half the speed. Once the page
// has it, the worker's copy is a request the learner no longer waits on.

if ("serviceWorker" in navigator && location.protocol !== "file:") {
	window.addEventListener("rlab:engine-ready", () => {
		navigator.serviceWorker.register("sw.js").catch((err) => {
			// Offline support is a convenience: say why it is missing, quietly.
			console.warn(`Reconcile Lab will not work offline: ${err.message}`);
		});
	}, {once: true});
}
