// early.js starts what the page needs soonest: main.wasm's download, the
// longest wait of a page load, and the sight of its progress. It is the
// first entry of the first of the page's two scripts (rlab-start.js: this,
// download.js, loading.js, locale.js and i18n.js, what it takes to start the
// download, draw it and choose the language), which is small (17 KB
// compressed) so that it arrives long before the rest of the page (rlab.js,
// 106 KB). The page (app.js) takes the download and its drawing over when it
// runs (RlabEngine's prefetch).
//
// On a slow network (1.6 Mbit/s, 150 ms of round trip, a 4× slower CPU, as
// BenchmarkBrowserLoadThrottled has it) the download's size shows at 0.88 s,
// where it showed at 1.38 s when main.wasm was asked for once the whole page
// had arrived. The price is bandwidth: main.wasm's first bytes share the
// network with rlab.js, and the page is interactive at 1.44 s rather than
// 1.23 s. The engine, which is what a learner waits for, is ready at 9.37 s
// rather than 9.55 s (five loads each, medians, November 2026).
import {prefetchWasm} from "./download.js";
import {drawDownload, onceAFrame} from "./loading.js";

// The first news of the download (its headers, with main.wasm's size) is
// drawn at once; what follows, once a frame at most.
/** @type {import("./download.js").Download | null} */
let latest = null;
const draw = onceAFrame(() => {
	if (latest) {
		drawDownload(latest);
	}
});
prefetchWasm("main.wasm", (download) => {
	if (!latest) {
		drawDownload(download);
	}
	latest = download;
	draw();
});
