// ui-loop.js draws the control loop as a picture, and moves each step
// through it: the API server, each informer's reflector, DeltaFIFO, indexer
// and event handlers, each controller's workqueue, workers and sync, and
// around them kubectl, the scheduler, the kubelets, the garbage collector and
// the event recorder.
//
// The engine says where every step happens (core/loop: each step's loop has
// the places it lights and the edge its data travelled, with the token and
// its fault), and which events are on their way along which edge (the view's
// inFlight). This file only draws that: the picture is built once, and each
// render sets classes, texts and positions, so that it is cheap enough for
// every frame of a run, and so that stepping back draws the earlier picture
// exactly: what is drawn is a function of the view and its last step. Only
// the token's flight from one end of its edge to the other is animated, and
// not at all for a reader who asked for less motion.
//
// Every place is a button (one Tab stop for the whole picture; ↓ ↑ Home End
// move between places, as between a panel's terms) that explains itself
// below the picture with its glossary entry and what it holds now, and
// leads to its table among the panels and to the glossary. The step sentence
// above stays the words for what the picture shows.

import {append, h, reducedMotion, settle} from "./ui-util.js";
import {explain, glossaryEntry, openGlossary} from "./ui-glossary.js";
import {has, pageLang, t, tParts} from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Step} Step */
/** @typedef {import("./bridge-types.js").LoopMove} LoopMove */
/** @typedef {{x: number, y: number, w: number, h: number}} Box */
/** @typedef {[number, number]} Point */
/**
 * A place of the picture: its id (core/loop's name), its box, its
 * title (the message that names it: the pictures are made as the page
 * loads, before a page in another language has its words), its glossary
 * entry and the heading of its panel.
 * @typedef {{id: string, box: Box, title: string, gloss: string, panel: string}} Place
 */
/** @typedef {{from: string, to: string, points: Point[], key: string}} Edge */
/** @typedef {{g: SVGGElement, lines: SVGTextElement[], mark: SVGTextElement, place: Place}} PlaceEl */

// s builds an SVG element, as h builds an HTML one.
/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {import("./ui-util.js").Attrs | null} [attrs]
 * @param {...import("./ui-util.js").Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
function s(tag, attrs, ...children) {
	const el = document.createElementNS(NS, tag);
	for (const [key, value] of Object.entries(attrs || {})) {
		if (value === null || value === undefined || value === false) {
			continue;
		}
		if (key === "class") {
			el.setAttribute("class", String(value));
		} else if (key === "text") {
			el.textContent = String(value);
		} else {
			el.setAttribute(key, String(value));
		}
	}
	append(el, children);
	return el;
}

// --- Geometry -----------------------------------------------------------------
//
// Columns, left to right, are the way a change travels: the API server,
// an informer's four parts, a controller's three. Rows are the informers
// (pods, replicasets, replicationcontrollers); the ReplicaSet controller
// sits on the pods row and the ReplicationController's on its own
// informer's row, so each controller's sync writes back along an edge of
// its own (over the top, or under the bottom). The components that are
// not the controller sit along the top.
//
// Once a Deployment has woken the Deployment controller (the engine keeps
// it asleep until then, and so does the picture), the picture grows a
// fourth row, the Deployment informer's, and the Deployment controller
// sits on the replicasets row, whose changes are most of what wakes it;
// its sync writes back through the gap above that row, and the
// ReplicationController's, as before, under the bottom. A world without
// Deployments draws the picture it always drew, at the same cost.

const boxH = 52;
// tokenH is the height of the token that travels the edges.
const tokenH = 16;
const rowY = {top: 4, pods: 84, replicasets: 160, replicationcontrollers: 236, deployments: 312};
const col = {
	api: {x: 6, w: 78},
	reflector: {x: 120, w: 76},
	fifo: {x: 210, w: 76},
	indexer: {x: 300, w: 76},
	handlers: {x: 390, w: 72},
	queue: {x: 490, w: 104},
	workers: {x: 608, w: 86},
	sync: {x: 706, w: 88},
};
// informers are the informers drawn, each with the controllers whose
// handlers it tells (handlers), and whether the Deployment controller's
// handlers hear it too (deploy); the last is drawn only with Deployments.
const informers = [
	{name: "informer/pods", row: rowY.pods, label: "informer/pods", handlers: ["rs", "rc"], deploy: true},
	{name: "informer/replicasets", row: rowY.replicasets, label: "informer/replicasets", handlers: ["rs"], deploy: true},
	{name: "informer/replicationcontrollers", row: rowY.replicationcontrollers, label: "informer/replicationcontrollers", handlers: ["rc"], deploy: false},
	{name: "informer/deployments", row: rowY.deployments, label: "informer/deployments", handlers: [], deploy: true},
];
// controllers are the view's controllers, by the short name core/loop
// gives their places; the last is drawn only with Deployments.
const controllers = [
	{short: "rs", kind: "rs", row: rowY.pods, name: "ReplicaSet"},
	{short: "rc", kind: "rc", row: rowY.replicationcontrollers, name: "ReplicationController"},
	{short: "deploy", kind: "deploy", row: rowY.replicasets, name: "Deployment"},
];

/** @param {{x: number, w: number}} b */
const right = (b) => b.x + b.w;
/** @param {Box} b */
const midY = (b) => b.y + b.h / 2;
/** @param {Box} b */
const midX = (b) => b.x + b.w / 2;
/** @param {Box} b */
const bottom = (b) => b.y + b.h;

/**
 * Layout is one picture's geometry: its size, the informers and
 * controllers it draws, its places (each with its box, title, glossary
 * entry and panel) and its edges (each a polyline from its first place to
 * its second; a token that travels the other way runs it backwards).
 * @typedef {Object} Layout
 * @property {boolean} deployments
 * @property {number} width
 * @property {number} height
 * @property {typeof informers} informers
 * @property {typeof controllers} controllers
 * @property {Place[]} places
 * @property {Map<string, Place>} placeByID
 * @property {Edge[]} edges
 * @property {Map<string, Edge>} edgeByKey
 */

// layout makes the picture's geometry, with the Deployment controller's
// parts or without them.
/**
 * @param {boolean} deployments
 * @returns {Layout}
 */
function layout(deployments) {
	const infs = deployments ? informers : informers.slice(0, 3);
	const ctls = deployments ? controllers : controllers.slice(0, 2);
	const width = deployments ? 808 : 800;
	const height = deployments ? 394 : 318;
	const last = deployments ? rowY.deployments : rowY.replicationcontrollers;
	const apiBox = {x: col.api.x, y: 48, w: col.api.w, h: last + boxH - 48};
	/** @type {Place[]} */
	const places = [];
	/**
	 * @param {string} id
	 * @param {Box} box
	 * @param {string} title
	 * @param {string} gloss
	 * @param {string} panel
	 */
	const place = (id, box, title, gloss, panel) => {
		places.push({id, box, title, gloss, panel});
	};
	place("kubectl", {x: col.api.x, y: rowY.top, w: col.api.w, h: 34}, "loop.kubectl", "kubectl", "console-heading");
	place("scheduler", {x: col.fifo.x, y: rowY.top, w: 104, h: 34}, "loop.scheduler", "scheduler", "world-heading");
	place("kubelet", {x: col.fifo.x + 114, y: rowY.top, w: 96, h: 34}, "loop.kubelets", "kubelet", "world-heading");
	place("gc", {x: col.fifo.x + 220, y: rowY.top, w: 124, h: 34}, "loop.gc", "garbage-collector", "gc-h");
	place("events", {x: col.sync.x - 40, y: rowY.top, w: col.sync.w + 40, h: 34}, "loop.events", "event-recorder", "agenda-h");
	place("apiserver", apiBox, "loop.apiserver", "api-server", "agenda-h");
	for (const inf of infs) {
		const y = inf.row;
		place(`${inf.name}/reflector`, {x: col.reflector.x, y, w: col.reflector.w, h: boxH}, "loop.reflector", "reflector", "informers-h");
		place(`${inf.name}/fifo`, {x: col.fifo.x, y, w: col.fifo.w, h: boxH}, "loop.fifo", "deltafifo", "informers-h");
		place(`${inf.name}/indexer`, {x: col.indexer.x, y, w: col.indexer.w, h: boxH}, "loop.indexer", "indexer", "informers-h");
		place(`${inf.name}/handlers`, {x: col.handlers.x, y, w: col.handlers.w, h: boxH}, "loop.handlers", "event-handler", "informers-h");
	}
	for (const c of ctls) {
		const y = c.row;
		place(`${c.short}/queue`, {x: col.queue.x, y, w: col.queue.w, h: boxH}, "loop.queue", "workqueue", "queue-h");
		place(`${c.short}/workers`, {x: col.workers.x, y, w: col.workers.w, h: boxH}, "loop.workers", "worker", "workers-h");
		// The replication managers' sync compares pods with replicas under
		// their expectations; the Deployment controller's scales
		// ReplicaSets and has no expectations, so its sync has its own
		// entry and leads to the Workers panel, where its last syncs show
		// what it decided.
		const deploy = c.kind === "deploy";
		place(`${c.short}/syncHandler`, {x: col.sync.x, y, w: col.sync.w, h: boxH}, "loop.sync",
			deploy ? "sync-deployment" : "sync", deploy ? "workers-h" : "expectations-h");
	}
	const placeByID = new Map(places.map((p) => [p.id, p]));
	/** @param {string} id */
	const boxOf = (id) => /** @type {Place} */ (placeByID.get(id)).box;

	// Static edges (reflector → DeltaFIFO, …) are drawn for the reader;
	// the engine's moves use the others.
	/** @type {Edge[]} */
	const edges = [];
	/**
	 * @param {string} from
	 * @param {string} to
	 * @param {Point[]} points
	 */
	const edge = (from, to, points) => {
		edges.push({from, to, points, key: `${from}>${to}`});
	};
	const k = boxOf("kubectl");
	edge("kubectl", "apiserver", [[midX(k), bottom(k)], [midX(k), apiBox.y]]);
	for (const id of ["scheduler", "kubelet", "gc", "events"]) {
		const b = boxOf(id);
		edge(id, "apiserver", [[b.x + 12, bottom(b)], [right(apiBox) - 6, apiBox.y]]);
	}
	for (const inf of infs) {
		const y = inf.row + boxH / 2;
		edge("apiserver", `${inf.name}/reflector`, [[right(apiBox), y], [col.reflector.x, y]]);
		edge(`${inf.name}/reflector`, `${inf.name}/fifo`, [[right(col.reflector), y], [col.fifo.x, y]]);
		// The DeltaFIFO is popped into the indexer and on to the handlers
		// in one step: one way through the indexer.
		edge(`${inf.name}/fifo`, `${inf.name}/handlers`, [[right(col.fifo), y], [col.handlers.x, y]]);
	}
	/**
	 * @param {{row: number}} inf
	 * @returns {Point}
	 */
	const handlersOut = (inf) => [right(col.handlers), inf.row + boxH / 2];
	/**
	 * @param {{row: number}} c
	 * @param {number} dy
	 * @returns {Point}
	 */
	const queueIn = (c, dy) => [col.queue.x, c.row + boxH / 2 + dy];
	const [pods, rsInf, rcInf, dInf] = informers;
	const [rs, rc, deploy] = controllers;
	edge(`${pods.name}/handlers`, "rs/queue", [handlersOut(pods), queueIn(rs, 0)]);
	edge(`${rsInf.name}/handlers`, "rs/queue", [handlersOut(rsInf), queueIn(rs, 14)]);
	edge(`${pods.name}/handlers`, "rc/queue", [[right(col.handlers), pods.row + boxH - 8], queueIn(rc, -14)]);
	edge(`${rcInf.name}/handlers`, "rc/queue", [handlersOut(rcInf), queueIn(rc, 0)]);
	if (deployments) {
		// The Deployment controller hears its Deployments, their
		// ReplicaSets, and (for Recreate) its pods' deletions.
		edge(`${rsInf.name}/handlers`, "deploy/queue", [handlersOut(rsInf), queueIn(deploy, 0)]);
		edge(`${dInf.name}/handlers`, "deploy/queue", [handlersOut(dInf), queueIn(deploy, 14)]);
		edge(`${pods.name}/handlers`, "deploy/queue", [[right(col.handlers), pods.row + boxH - 16], queueIn(deploy, -14)]);
	}
	for (const c of ctls) {
		const y = c.row + boxH / 2;
		edge(`${c.short}/queue`, `${c.short}/workers`, [[right(col.queue), y], [col.workers.x, y]]);
		edge(`${c.short}/workers`, `${c.short}/syncHandler`, [[right(col.workers), y], [col.sync.x, y]]);
	}
	// Writes go back to the API server: the ReplicaSet controller's over
	// the top, the Deployment controller's (its ReplicaSets' creates and
	// scales, its own status) through the gap above its row, the
	// ReplicationController's under the bottom.
	const rsSync = boxOf("rs/syncHandler");
	edge("rs/syncHandler", "apiserver", [[midX(rsSync), rsSync.y], [midX(rsSync), 62], [right(apiBox), 62]]);
	const rcSync = boxOf("rc/syncHandler");
	edge("rc/syncHandler", "apiserver", [[midX(rcSync), bottom(rcSync)], [midX(rcSync), height - 6], [midX(apiBox), height - 6], [midX(apiBox), bottom(apiBox)]]);
	// Events go up the right-hand side to the recorder.
	const ev = boxOf("events");
	edge("rs/syncHandler", "events", [[right(rsSync) - 10, rsSync.y], [right(ev) - 10, bottom(ev)]]);
	const rcX = deployments ? right(col.sync) + 4 : width - 3;
	edge("rc/syncHandler", "events", [[right(rcSync), midY(rcSync)], [rcX, midY(rcSync)], [rcX, midY(ev)], [right(ev), midY(ev)]]);
	if (deployments) {
		const dSync = boxOf("deploy/syncHandler");
		const gap = rowY.replicasets - 19;
		edge("deploy/syncHandler", "apiserver", [[dSync.x + 12, dSync.y], [dSync.x + 12, gap], [right(apiBox), gap]]);
		const dX = right(col.sync) + 10;
		edge("deploy/syncHandler", "events", [[right(dSync), midY(dSync) - 8], [dX, midY(dSync) - 8], [dX, bottom(ev) - 4], [right(ev), bottom(ev) - 4]]);
	}
	return {deployments, width, height, informers: infs, controllers: ctls, places, placeByID, edges, edgeByKey: new Map(edges.map((e) => [e.key, e]))};
}

// The two pictures: without the Deployment controller, and with it.
const layouts = {plain: layout(false), withDeployments: layout(true)};

// way finds the edge of a picture between two places, and whether it runs
// backwards.
/**
 * @param {Layout} geo
 * @param {string} from
 * @param {string} to
 * @returns {{edge: Edge, points: Point[]} | null}
 */
function way(geo, from, to) {
	const fwd = geo.edgeByKey.get(`${from}>${to}`);
	if (fwd) {
		return {edge: fwd, points: fwd.points};
	}
	const back = geo.edgeByKey.get(`${to}>${from}`);
	return back ? {edge: back, points: [...back.points].reverse()} : null;
}

// along returns the point at fraction t of a polyline's length.
/**
 * @param {Point[]} points
 * @param {number} t
 * @returns {Point}
 */
function along(points, t) {
	/** @type {number[]} */
	const lengths = [];
	let total = 0;
	for (let i = 1; i < points.length; i++) {
		const d = Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
		lengths.push(d);
		total += d;
	}
	let left = total * Math.max(0, Math.min(1, t));
	for (let i = 0; i < lengths.length; i++) {
		if (left <= lengths[i] || i === lengths.length - 1) {
			const f = lengths[i] ? left / lengths[i] : 0;
			return [points[i][0] + (points[i + 1][0] - points[i][0]) * f, points[i][1] + (points[i + 1][1] - points[i][1]) * f];
		}
		left -= lengths[i];
	}
	return points[points.length - 1];
}

// --- What each place holds ------------------------------------------------------

/**
 * @param {View} view
 * @param {string} name
 */
function informerOf(view, name) {
	return (view.informers || []).find((i) => i.name === name);
}

/**
 * @param {View} view
 * @param {string} short
 * @returns {import("./bridge-types.js").Controller | import("./bridge-types.js").DeploymentController | undefined}
 */
function controllerOf(view, short) {
	if (short === "deploy") {
		return view.deploymentController || undefined;
	}
	return (view.controllers || []).find((c) => c.kind === short);
}

// queueKeys are the keys a controller's workqueue holds: waiting, then
// being processed, then delayed, each once.
/** @param {import("./bridge-types.js").Controller | import("./bridge-types.js").DeploymentController | undefined} c */
function queueKeys(c) {
	/** @type {Partial<import("./bridge-types.js").Queue>} */
	const q = (c && c.queue) || {};
	const keys = [...(q.waiting || []), ...(q.processing || []).map((p) => p.key), ...(q.delayed || []).map((d) => d.key)];
	return [...new Set(keys)];
}

// showsLastSync says whether place p draws the last sync that ended rather
// than what the place holds now: the Deployment controller's sync box,
// which has no expectations to show.
/**
 * @param {Place} p
 * @param {View} view
 * @returns {boolean}
 */
function showsLastSync(p, view) {
	const [owner, part] = splitPlace(p.id);
	if (!owner || part !== "syncHandler" || !isController(owner)) {
		return false;
	}
	const c = controllerOf(view, owner);
	return Boolean(c && c.kind === "deploy");
}

// contents says, in at most two short lines, what a place holds in view.
/**
 * @param {Place} p
 * @param {View} view
 * @returns {string[]}
 */
function contents(p, view) {
	const [owner, part] = splitPlace(p.id);
	if (owner && owner.startsWith("informer/")) {
		/** @type {Partial<import("./bridge-types.js").Informer>} */
		const inf = informerOf(view, owner) || {};
		switch (part) {
		case "reflector":
			return [inf.state ? (has(`informer.state.${inf.state}`) ? t(`informer.state.${inf.state}`) : inf.state) : "", t("loop.rv", {rv: inf.lastSyncRV ?? 0})];
		case "fifo":
			return [t("loop.waiting", {n: (inf.pending || []).length})];
		case "indexer":
			return [t("loop.cached", {n: inf.cached ?? 0})];
		case "handlers": {
			// Every informer place is one of informers'.
			const i = /** @type {typeof informers[number]} */ (informers.find((x) => x.name === owner));
			const names = [...i.handlers, ...(i.deploy && view.deploymentController ? ["deploy"] : [])];
			// Two names fit on a line of the box; a third goes below.
			return names.length > 2 ? [`${names[0]} · ${names[1]} ·`, names.slice(2).join(" · ")] : [names.join(" · ")];
		}
		}
	}
	if (isController(owner)) {
		const c = controllerOf(view, owner);
		/** @type {Partial<import("./bridge-types.js").Queue>} */
		const q = (c && c.queue) || {};
		switch (part) {
		case "queue": {
			const keys = queueKeys(c);
			const counts = t("loop.queueCounts", {waiting: (q.waiting || []).length, held: (q.processing || []).length});
			return [keys.length ? keys[0] + (keys.length > 1 ? ` +${keys.length - 1}` : "") : t("loop.empty"), counts];
		}
		case "workers": {
			const all = (c && c.workers) || [];
			const busy = all.filter((w) => w.key);
			return busy.length
				? [busy[0].key + (busy.length > 1 ? ` +${busy.length - 1}` : ""), t("loop.workerAndIdle", {worker: busy[0].name.replace(/^.*-worker-/, "#"), n: all.length - busy.length})]
				: [t("loop.idle", {n: all.length})];
		}
		case "syncHandler": {
			if (c && c.kind === "deploy") {
				// The Deployment controller has no expectations: its
				// box shows its last sync, and what that scaled.
				const last = (c.lastSyncs || []).reduce((/** @type {import("./bridge-types.js").Sync | null} */ a, b) => (!a || b.seq > a.seq ? b : a), null);
				return last
					? [last.owner, (last.scales || []).length ? (last.scales || []).map((x) => `${x.from}→${x.to}`).join(" ") : t("loop.noScaling")]
					: [t("loop.noSync")];
			}
			const e = ((c && "expectations" in c && c.expectations) || [])[0];
			return e ? [e.key, t("loop.expects", {add: e.add, del: e.del})] : [t("loop.expectsNothing")];
		}
		}
	}
	switch (p.id) {
	case "apiserver":
		return [t("loop.store"), t("loop.pods", {n: view.podsTotal ?? 0})];
	case "kubelet": {
		const nodes = view.nodes || [];
		return [t("loop.nodesReady", {ready: nodes.filter((n) => n.ready).length, n: nodes.length})];
	}
	case "gc": {
		const owners = (view.gc && view.gc.owners) || [];
		return [owners.length ? t("loop.gcDeleting", {owners: t("count.owners", {n: owners.length})}) : t("loop.gcIdle")];
	}
	}
	return [];
}

// isController says whether owner is the short name of a controller the
// picture draws ("rs", "rc", "deploy").
/** @param {string} owner */
function isController(owner) {
	return controllers.some((c) => c.short === owner);
}

// splitPlace cuts "informer/pods/fifo" into its owner and part; places
// that stand alone have no owner.
/**
 * @param {string} id
 * @returns {[string, string]}
 */
function splitPlace(id) {
	const cut = id.lastIndexOf("/");
	return cut < 0 ? ["", id] : [id.slice(0, cut), id.slice(cut + 1)];
}

// --- Building -------------------------------------------------------------------

// Loop is the picture in one panel: figure holds the SVG, caption the
// words under it, detail the card of the place chosen last.
class Loop {
	/**
	 * @param {{figure: HTMLElement, caption: HTMLElement, detail: HTMLElement, onShowPanel?: (headingID: string) => void}} parts
	 */
	constructor({figure, caption, detail, onShowPanel}) {
		this.figure = figure;
		this.caption = caption;
		this.detail = detail;
		this.onShowPanel = onShowPanel || (() => {});
		this.built = false;
		this.lastN = 0;
		/** @type {string | null} */
		this.chosen = null;
		/** @type {View | null} */
		this.view = null;
		// The picture's parts are made by build, which render calls
		// before anything reads them: until then they are declared
		// only, as a TypeScript field declared with ! would be.
		/** @type {Map<string, SVGPolylineElement>} */
		this.edgeEls = new Map();
		/** @type {Map<string, PlaceEl>} */
		this.placeEls = new Map();
		/** @type {SVGSVGElement} */
		this.svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (null));
		/** @type {SVGGElement} */
		this.badges = /** @type {SVGGElement} */ (/** @type {unknown} */ (null));
		/** @type {string | null} */
		this.badgesSig = null;
		/** @type {HTMLElement} */
		this.token = /** @type {HTMLElement} */ (/** @type {unknown} */ (null));
		/** @type {HTMLElement} */
		this.tokenLayer = /** @type {HTMLElement} */ (/** @type {unknown} */ (null));
		/** @type {Animation | null} */
		this.flight = null;
		// geo is the picture drawn: with the Deployment controller's parts
		// once a Deployment woke it, without them until then.
		/** @type {Layout} */
		this.geo = layouts.plain;
		/** @type {ResizeObserver | null} */
		this.resizes = null;
	}

	// build draws the picture of this.geo, anew: at the first render, and
	// when the Deployment controller wakes (or, after a seek back, sleeps
	// again).
	build() {
		const geo = this.geo;
		const svg = s("svg", {viewBox: `0 0 ${geo.width} ${geo.height}`, class: "loop-svg", role: "group", "aria-label": t("loop.label")});
		const defs = s("defs", null, s("marker", {id: "loop-arrow", viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse"},
			s("path", {d: "M0,0 L8,4 L0,8 z", class: "loop-arrowhead"})));
		svg.appendChild(defs);
		const lanes = s("g", {class: "loop-lanes", "aria-hidden": "true"});
		for (const inf of geo.informers) {
			lanes.appendChild(s("text", {x: col.reflector.x, y: inf.row - 5, class: "loop-lane", lang: "en", text: inf.label}));
		}
		for (const c of geo.controllers) {
			lanes.appendChild(s("text", {x: col.queue.x, y: c.row - 5, class: "loop-lane", text: t("loop.controller", {name: c.name})}));
		}
		svg.appendChild(lanes);
		this.edgeEls = new Map();
		const edgeLayer = s("g", {class: "loop-edges", "aria-hidden": "true"});
		for (const e of geo.edges) {
			const line = s("polyline", {points: e.points.map((p) => p.join(",")).join(" "), class: "loop-edge", "marker-end": "url(#loop-arrow)", "data-edge": e.key});
			edgeLayer.appendChild(line);
			this.edgeEls.set(e.key, line);
		}
		svg.appendChild(edgeLayer);
		this.placeEls = new Map();
		const placeLayer = s("g", {class: "loop-places"});
		for (const p of geo.places) {
			const b = p.box;
			/** @type {SVGTextElement[]} */
			const lines = [];
			for (let i = 0; i < 2; i++) {
				lines.push(s("text", {x: b.x + 6, y: b.y + 31 + i * 13, class: "loop-line"}));
			}
			// The spaces between the texts are for the words a reader
			// hears: SVG draws each text where it is told, but its
			// words would otherwise run together ("DeltaFIFO0 waiting").
			const g = s("g", {class: "loop-place", role: "button", tabindex: "-1", "data-place": p.id},
				s("rect", {x: b.x, y: b.y, width: b.w, height: b.h, rx: 5, class: "loop-box"}),
				s("text", {x: b.x + 6, y: b.y + (b.h < 40 ? 21 : 16), class: "loop-title", text: t(p.title)}),
				b.h < 40 ? null : lines.map((line) => [" ", line]),
				s("text", {x: right(b) - 5, y: bottom(b) - 5, class: "loop-mark", "text-anchor": "end", "aria-hidden": "true"}));
			placeLayer.appendChild(g);
			// The mark is the group's last text, above.
			this.placeEls.set(p.id, {g, lines, mark: /** @type {SVGTextElement} */ (g.querySelector(".loop-mark")), place: p});
		}
		svg.appendChild(placeLayer);
		this.badges = s("g", {class: "loop-badges", "aria-hidden": "true"});
		this.badgesSig = null; // what drawBadges last drew them from
		svg.appendChild(this.badges);
		// The token is not part of the SVG: it is an element of its own
		// on a layer over the picture, in the picture's units (fitLayer
		// keeps the layer on the SVG). An animation of an HTML
		// element's transform runs on the compositor, so the token
		// flies at every frame while the page's main thread draws the
		// world, or does nothing at all; the same animation of an SVG
		// element would have the main thread restyle and repaint the
		// whole picture at every frame.
		this.token = h("div", {class: "loop-token hidden"}, h("span", {class: "loop-token-text"}, h("span"), h("span", {lang: "en"})));
		this.tokenLayer = h("div", {class: "loop-token-layer", "aria-hidden": "true"}, this.token);
		this.svg = svg;
		this.figure.replaceChildren(svg, this.tokenLayer);
		if (typeof ResizeObserver === "function") {
			if (this.resizes) {
				this.resizes.disconnect();
			}
			this.resizes = new ResizeObserver((entries) => {
				const box = entries[entries.length - 1].contentRect;
				this.fitLayer(box.width, box.height);
			});
			this.resizes.observe(svg);
		}
		/** @type {PlaceEl} */ (this.placeEls.get("apiserver")).g.tabIndex = 0;
		svg.addEventListener("click", (event) => {
			const g = placeAt(event.target);
			if (g) {
				this.choose(/** @type {string} */ (g.dataset.place), {focus: false});
			}
		});
		svg.addEventListener("keydown", (event) => this.onKey(event));
		svg.addEventListener("focusin", (event) => {
			const g = placeAt(event.target);
			if (g) {
				this.rove(g);
			}
		});
		this.built = true;
	}

	// rebuild draws the picture of geo in place of the one drawn, if any:
	// the Deployment controller's parts come in with the first
	// Deployment (and go again on a seek back before it). The part that
	// had the keyboard's focus keeps it, and the part chosen stays
	// chosen, if the new picture has them.
	/** @param {Layout} geo */
	rebuild(geo) {
		const active = document.activeElement;
		const focused = this.built && active && this.svg.contains(active) ? placeAt(active) : null;
		this.land();
		this.geo = geo;
		this.build();
		if (this.chosen !== null && !geo.placeByID.has(this.chosen)) {
			this.chosen = null;
			this.detail.hidden = true;
		}
		if (this.chosen !== null) {
			/** @type {PlaceEl} */ (this.placeEls.get(this.chosen)).g.classList.add("chosen");
		}
		if (focused) {
			const again = this.placeEls.get(/** @type {string} */ (focused.dataset.place)) || /** @type {PlaceEl} */ (this.placeEls.get("apiserver"));
			this.rove(again.g);
			again.g.focus({preventScroll: true});
		}
	}

	// fitLayer puts the token's layer on the SVG, drawn w × h pixels: the
	// SVG scales its picture to fit and centres it (preserveAspectRatio's
	// default, xMidYMid meet), and the layer, in the picture's units,
	// takes the same scale and offset. A ResizeObserver calls it with
	// the SVG's size, so no render has to measure the page.
	/**
	 * @param {number} w
	 * @param {number} h
	 */
	fitLayer(w, h) {
		const {width, height} = this.geo;
		const scale = Math.min(w / width, h / height);
		if (!(scale > 0)) {
			return;
		}
		const dx = (w - width * scale) / 2;
		const dy = (h - height * scale) / 2;
		this.tokenLayer.style.transform = `translate(${dx.toFixed(2)}px, ${dy.toFixed(2)}px) scale(${scale.toFixed(5)})`;
	}

	// onKey: Enter and Space choose the place in focus; ↓ ↑ Home End move
	// between places, in reading order (← → stay the page's Step keys).
	/** @param {KeyboardEvent} event */
	onKey(event) {
		const g = placeAt(event.target);
		if (!g || event.ctrlKey || event.metaKey || event.altKey) {
			return;
		}
		if (event.key === "Enter" || event.key === " ") {
			event.preventDefault();
			this.choose(/** @type {string} */ (g.dataset.place), {focus: false});
			return;
		}
		const order = this.geo.places.map((p) => p.id);
		const at = order.indexOf(/** @type {string} */ (g.dataset.place));
		/** @type {Record<string, number>} */
		const moves = {ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: order.length - 1};
		if (!(event.key in moves)) {
			return;
		}
		event.preventDefault();
		const to = /** @type {PlaceEl} */ (this.placeEls.get(order[Math.max(0, Math.min(order.length - 1, moves[event.key]))]));
		this.rove(to.g);
		to.g.focus();
	}

	// rove makes g the picture's one Tab stop.
	/** @param {SVGGElement} g */
	rove(g) {
		for (const el of this.placeEls.values()) {
			el.g.tabIndex = el.g === g ? 0 : -1;
		}
	}

	// choose shows the place's card: what it is (its glossary entry), what
	// it holds now, and the ways to its table and to the glossary.
	/**
	 * @param {string} id
	 * @param {{focus: boolean}} options
	 */
	choose(id, {focus}) {
		this.chosen = id;
		for (const el of this.placeEls.values()) {
			el.g.classList.toggle("chosen", el.place.id === id);
		}
		this.drawDetail(focus);
	}

	/** @param {boolean} focus */
	drawDetail(focus) {
		const p = this.chosen === null ? undefined : this.geo.placeByID.get(this.chosen);
		if (!p || !this.view) {
			this.detail.hidden = true;
			return;
		}
		const entry = glossaryEntry(p.gloss);
		const held = contents(p, this.view).filter(Boolean);
		// replaceChildren, unlike h, takes null for the text "null": the
		// parts a place does not have are left out first (a place that
		// holds nothing, such as the scheduler, showed "null").
		this.detail.replaceChildren(...[
			h("h3", {class: "loop-detail-title"}, h("span", {text: placeName(p)}),
				entry && entry.upstream ? h("code", {class: "loop-upstream", lang: "en", text: entry.upstream.name}) : null),
			entry ? h("p", {lang: entry.lang === (pageLang() || "en") ? null : entry.lang}, explain(entry)) : null,
			// The Deployment controller's sync box shows its last sync,
			// which has ended, not what it holds now.
			held.length ? h("p", {class: "loop-held"}, tParts(showsLastSync(p, this.view) ? "loop.lastSync" : "loop.now", {held: held.join(t("loop.heldSeparator"))})) : null,
			h("p", {class: "loop-detail-actions"},
				h("button", {type: "button", class: "small", "data-loop-action": "panel", text: t("loop.showTable")}),
				entry ? h("button", {type: "button", class: "small", "data-loop-action": "glossary", text: t("loop.inGlossary")}) : null),
		].filter((part) => part !== null));
		this.detail.hidden = false;
		// Drawn just above.
		/** @type {HTMLElement} */ (this.detail.querySelector("[data-loop-action=panel]")).addEventListener("click", () => this.onShowPanel(p.panel));
		const gloss = this.detail.querySelector("[data-loop-action=glossary]");
		if (gloss) {
			gloss.addEventListener("click", () => openGlossary(p.gloss));
		}
		if (focus) {
			/** @type {HTMLButtonElement} */ (this.detail.querySelector("button")).focus();
		}
	}

	// render draws view, whose last step is last; animate moves the
	// token along its edge when last is the step after the one drawn
	// before.
	/**
	 * @param {View} view
	 * @param {Step | null} last
	 * @param {{animate?: boolean, stepMs?: number}} [options]
	 */
	render(view, last, {animate = false, stepMs = 400} = {}) {
		const geo = view.deploymentController ? layouts.withDeployments : layouts.plain;
		if (!this.built || geo !== this.geo) {
			this.rebuild(geo);
		}
		this.view = view;
		const move = (last && last.loop) || null;
		const lit = new Set(move ? move.lit : []);
		const main = move && move.lit ? move.lit[0] : null;
		for (const el of this.placeEls.values()) {
			const id = el.place.id;
			const isLit = lit.has(id);
			el.g.classList.toggle("lit", isLit);
			el.g.classList.toggle("main", id === main);
			settle(el.mark, {text: id === main ? "◉" : isLit ? "●" : ""});
			const held = contents(el.place, view);
			for (let i = 0; i < el.lines.length; i++) {
				const text = held[i] || "";
				if (el.lines[i].textContent !== text) {
					el.lines[i].textContent = text;
				}
			}
			// The name starts with the words the box shows, as a
			// reader who sees them would say them, then says whose
			// part it is and whether this step lit it.
			const shown = [t(el.place.title), ...(el.lines.length ? held.slice(0, el.lines.length) : [])].filter(Boolean).join(" ");
			const more = el.lines.length ? "" : held.filter(Boolean).join(t("list.separator"));
			const what = more ? t("loop.labelHolds", {shown, more}) : shown;
			const label = t(id === main ? "loop.labelMain" : isLit ? "loop.labelLit" : "loop.labelPlain", {what, owner: ownerOf(el.place)});
			if (el.g.getAttribute("aria-label") !== label) {
				el.g.setAttribute("aria-label", label);
			}
			const [owner, part] = splitPlace(id);
			if (part === "queue" && isController(owner)) {
				const keys = queueKeys(controllerOf(view, owner)).join(" ");
				if (el.g.dataset.keys !== keys) {
					el.g.dataset.keys = keys;
				}
			}
		}
		const travelled = move && move.from ? `${move.from}>${move.to}` : "";
		// A move from a place goes to one.
		const wayNow = move && move.from ? way(this.geo, move.from, /** @type {string} */ (move.to)) : null;
		for (const [key, line] of this.edgeEls) {
			const on = wayNow && wayNow.edge.key === key;
			line.classList.toggle("travelled", !!on);
			line.classList.toggle("fault", !!on && !!move?.fault);
		}
		this.drawBadges(view, wayNow ? wayNow.edge.key : "");
		// A token flies when the world moved forward, from the step drawn
		// before (Play may have run several steps since: the newest
		// one's token flies); Back and a jump draw it where it rests.
		this.drawToken(move, wayNow, Boolean(animate && last && last.n > this.lastN && this.lastN > 0), stepMs);
		this.lastN = last ? last.n : 0;
		// Only what changed is written: Play draws the picture ten times
		// a second, and a text written again, even the same, is a new
		// text node for the browser to lay out.
		settle(this.svg, {
			"data-step": String(last ? last.n : 0),
			"data-lit": move ? move.lit.join(" ") : "",
			"data-edge": travelled,
			"data-fault": move && move.fault ? move.fault : "",
		});
		// The caption is drawn again only when what it says changes.
		const caption = captionOf(this.geo, move);
		const said = JSON.stringify(caption.map((part) => (typeof part === "string" ? part : [part.textContent])));
		if (this.caption.dataset.said !== said) {
			this.caption.dataset.said = said;
			this.caption.replaceChildren(...caption);
		}
		if (this.chosen && !this.detail.hidden) {
			this.drawDetail(false);
		}
	}

	// drawBadges counts, on each edge, the events on their way along it
	// (×N), but for the edge the step's own token is on.
	/**
	 * @param {View} view
	 * @param {string} skip
	 */
	drawBadges(view, skip) {
		const flights = view.inFlight || [];
		// The badges are drawn anew only when they change, which, with
		// many events on their way, is less often than the picture.
		const sig = JSON.stringify([skip, flights]);
		if (sig === this.badgesSig) {
			return;
		}
		this.badgesSig = sig;
		/** @type {SVGGElement[]} */
		const badges = [];
		for (const f of flights) {
			const w = way(this.geo, f.from, f.to);
			if (!w) {
				continue;
			}
			const [x, y] = along(w.points, w.edge.key === skip ? 0.25 : 0.5);
			const text = f.count > 1 ? `×${f.count}` : "1";
			badges.push(s("g", {class: "loop-badge", "data-edge": w.edge.key, "data-count": f.count, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`},
				s("title", {text: t("loop.onTheWay", {n: f.count, next: f.next})}),
				s("rect", {x: -3 - text.length * 3.2, y: -8, width: 6 + text.length * 6.4, height: 16, rx: 8}),
				s("text", {x: 0, y: 4, "text-anchor": "middle", text})));
		}
		this.badges.replaceChildren(...badges);
	}

	// land ends the token's flight, if it is still on its way.
	land() {
		if (this.flight) {
			this.flight.cancel();
			this.flight = null;
			delete this.svg.dataset.flying;
		}
	}

	// drawToken puts what the step carried on its edge: near its end, or
	// half-way and fallen off for a dropped watch event, bounced back
	// towards the sync for a failed request.
	/**
	 * @param {LoopMove | null} move
	 * @param {{edge: Edge, points: Point[]} | null} wayNow
	 * @param {boolean} animate
	 * @param {number} stepMs
	 */
	drawToken(move, wayNow, animate, stepMs) {
		const token = this.token;
		if (!move || !wayNow) {
			// A flight must not go on behind a hidden token: Chromium
			// cannot run an animation with no visible change on the
			// compositor, so it would tick on the main thread, asking
			// for a main-thread frame at every vsync until it ends.
			this.land();
			token.classList.add("hidden");
			return;
		}
		token.classList.remove("hidden");
		token.classList.toggle("dropped", move.fault === "dropped");
		token.classList.toggle("delayed", move.fault === "delayed");
		token.classList.toggle("failed", move.fault === "failed");
		// The mark of a fault is the page's; what the token carries is the
		// engine's words.
		const mark = move.fault === "dropped" ? t("loop.lost") : move.fault === "failed" ? "✕ " : move.fault === "delayed" ? "⏳ " : "";
		const carried = move.token || "";
		const room = Math.max(0, 28 - mark.length);
		const words = carried.length > room ? carried.slice(0, Math.max(0, room - 1)) + "…" : carried;
		// The token holds its text's span (build), which holds the mark
		// and the words.
		const label = /** @type {HTMLElement} */ (token.firstChild);
		const [markEl, wordsEl] = /** @type {HTMLElement[]} */ ([...label.children]);
		settle(markEl, {text: mark});
		settle(wordsEl, {text: words});
		// Its size is set, in the picture's units, rather than taken
		// from its text, so that placing it needs no layout: the
		// transform puts its centre on the point.
		const w = Math.max(20, (label.textContent || "").length * 5.6 + 10);
		token.style.width = `${w.toFixed(1)}px`;
		/** @param {Point} point */
		const place = ([px, py]) => `translate(${(px - w / 2).toFixed(1)}px, ${(py - tokenH / 2).toFixed(1)}px)`;
		// It rests half-way along its edge (fallen below it when lost).
		const end = 0.5;
		const [x, y] = along(wayNow.points, end);
		// A lost one lies below its lane, clear of the boxes the edge joins.
		/** @type {Point} */
		const at = move.fault === "dropped" ? [x, y + boxH / 2 + 10] : [x, y];
		token.style.transform = place(at);
		this.land();
		if (!animate || reducedMotion() || typeof token.animate !== "function") {
			return;
		}
		/** @type {Keyframe[]} */
		const frames = [];
		const n = 8;
		for (let i = 0; i <= n; i++) {
			frames.push({transform: place(along(wayNow.points, (end * i) / n))});
		}
		if (move.fault === "dropped") {
			frames.push({transform: place(at), opacity: 0.6});
		}
		// The flight takes as long as the step stays on screen (up to
		// 0.6 s), so that while Play runs the picture moves on every
		// frame; svg's data-flying says a token is on its way.
		const flight = token.animate(frames, {duration: Math.max(120, Math.min(600, stepMs)), easing: "ease-out"});
		this.flight = flight;
		this.svg.dataset.flying = "true";
		flight.onfinish = () => {
			if (this.flight === flight) {
				this.flight = null;
				delete this.svg.dataset.flying;
			}
		};
	}
}

// placeAt is the place (its group) an event's target is in, if any.
/**
 * @param {EventTarget | null} target
 * @returns {SVGGElement | null}
 */
function placeAt(target) {
	const el = /** @type {Element | null} */ (target);
	return el && el.closest ? /** @type {SVGGElement | null} */ (el.closest(".loop-place")) : null;
}

// controllerName is the name of the controller whose places have short.
/** @param {string} short */
function controllerName(short) {
	// Only a controller's places have a short name.
	return /** @type {typeof controllers[number]} */ (controllers.find((x) => x.short === short)).name;
}

// ownerOf says whose part a place is, for its accessible name.
/** @param {Place} p */
function ownerOf(p) {
	const [owner] = splitPlace(p.id);
	if (owner.startsWith("informer/")) {
		return t("loop.partOfInformer", {informer: owner});
	}
	if (isController(owner)) {
		return t("loop.partOfController", {name: controllerName(owner)});
	}
	return t("loop.partOfCluster");
}

// placeName names a place for a reader: its title and whose it is.
/** @param {Place} p */
function placeName(p) {
	const [owner] = splitPlace(p.id);
	if (owner.startsWith("informer/")) {
		return t("loop.placeOfInformer", {place: t(p.title), informer: owner});
	}
	if (isController(owner)) {
		return t("loop.placeOfController", {place: t(p.title), name: controllerName(owner)});
	}
	return t(p.title);
}

// captionOf says in words what the step moved, under the picture: what
// it carried is the engine's words, put in marked lang="en".
/**
 * @param {Layout} geo
 * @param {LoopMove | null} move
 * @returns {Array<string | Node>}
 */
function captionOf(geo, move) {
	if (!move) {
		return [];
	}
	// kubectl is a name of its own; every other part is "the" part.
	/** @param {string} id */
	const name = (id) => {
		const p = geo.placeByID.get(id);
		return !p ? id : p.id === "kubectl" ? "kubectl" : t("loop.thePlace", {place: placeName(p)});
	};
	if (!move.from) {
		return [t("loop.happensIn", {place: name(move.lit[0])})];
	}
	// A move that travels has both ends.
	const ends = {from: name(move.from), to: name(/** @type {string} */ (move.to)), token: h("span", {lang: "en", text: move.token || ""})};
	const fault = move.fault === "dropped" || move.fault === "delayed" || move.fault === "failed" ? move.fault : "";
	return tParts(`loop.travels${move.token ? "" : "Untitled"}${fault ? "." + fault : ""}`, ends);
}

export {Loop};
