// ui-inside.js draws "Inside the controller": the parts of the control loop a
// kubectl user never sees, for each replication manager and, once a
// Deployment woke it, the Deployment controller (its workqueue, its workers
// and its last decisions; it has no expectations). Each panel is named
// after its upstream concept:
// the workqueue (waiting, dirty, processing, delayed, requeues), the workers
// of processNextWorkItem, the ControllerExpectations, the informers (their
// indexer cache against the API store, and the DeltaFIFO's pending deltas),
// the kernel's agenda, the faults in force and the garbage collector.
//
// Its words are the upstream ones, which a learner has mostly never met: each
// is drawn as a term (UI.term, ui-glossary.js) that explains itself on hover
// and focus and leads to the glossary. Labels name their entry directly;
// words inside the engine's own text (a sync's decision, a worker's phase,
// the agenda) are found by UI.termify, once per section.

import {h, patch, plural, table} from "./ui-util.js";
import {phrase, restoreTermFocus, term, termFocus, termify} from "./ui-glossary.js";

// maxEntries is the most cache entries, and the most keys waiting in
// the DeltaFIFO, drawn per informer; the console's cache command shows
// the rest.
const maxEntries = 40;

// maxLastSyncs is how many of a controller's last syncs, the newest, the
// Workers panel lists.
const maxLastSyncs = 5;

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Controller} Manager */
/**
 * A controller whose queue and workers the panels draw: a replication
 * manager, or the Deployment controller, which has no expectations.
 * @typedef {import("./bridge-types.js").Controller | import("./bridge-types.js").DeploymentController} Controller
 */
/** @typedef {import("./bridge-types.js").Informer} Informer */
/** @typedef {import("./bridge-types.js").Agenda} Agenda */
/** @typedef {import("./bridge-types.js").Faults} Faults */
/** @typedef {import("./bridge-types.js").GC} GC */

/** @param {string} text */
function empty(text) {
	return h("p", {class: "empty", text});
}

// keyList draws keys as a list whose items carry data-queue-key.
/**
 * @template T
 * @param {"ol" | "ul"} tag
 * @param {T[]} items
 * @param {(item: T) => Node} render
 */
function keyList(tag, items, render) {
	return h(tag, {class: "keys"}, items.map((item) => render(item)));
}

// queueSection draws one controller's workqueue.
/**
 * @param {Controller} c
 * @param {Set<string>} seen
 */
function queueSection(c, seen) {
	/** @type {Partial<import("./bridge-types.js").Queue>} */
	const q = c.queue || {};
	const waiting = q.waiting || [];
	const dirty = q.dirty || [];
	const processing = q.processing || [];
	const delayed = q.delayed || [];
	const requeues = q.requeues || [];
	/** @type {HTMLElement[]} */
	const parts = [h("h4", null, h("code", {text: q.name || c.kind}), ` (${c.name})`)];
	const nothing = !waiting.length && !dirty.length && !processing.length && !delayed.length && !requeues.length;
	parts.push(h("div", {class: "waiting"},
		h("span", {class: "q-label"}, term("waiting")),
		waiting.length
			? keyList("ol", waiting, (key) => h("li", {dataset: {queueKey: key}}, h("code", {text: key})))
			: h("span", {class: "none", text: "none"})));
	parts.push(h("div", {class: "processing"},
		h("span", {class: "q-label"}, term("processing")),
		processing.length
			? keyList("ul", processing, (p) => h("li", {dataset: {queueKey: p.key}}, h("code", {text: p.key}), p.worker ? ` ← ${p.worker}` : ""))
			: h("span", {class: "none", text: "none"})));
	if (!nothing) {
		parts.push(h("div", {class: "dirty"},
			h("span", {class: "q-label"}, term("dirty")),
			dirty.length
				? keyList("ul", dirty, (key) => h("li", {dataset: {dirtyKey: key}}, h("code", {text: key})))
				: h("span", {class: "none", text: "none"})));
		parts.push(h("div", {class: "delayed"},
			h("span", {class: "q-label"}, term("delayed")),
			delayed.length
				? keyList("ul", delayed, (d) => h("li", {dataset: {queueKey: d.key}},
					h("code", {text: d.key}), termify(` ready at ${d.readyAt} (after ${d.delay}${d.rateLimited ? ", rate limited" : ""})`, ["rate-limited"], seen)))
				: h("span", {class: "none", text: "none"})));
		// Shown whenever the queue holds anything, like delayed, so
		// that the learner meets the rate limiter's count before a
		// failure fills it.
		parts.push(h("div", {class: "requeues"},
			h("span", {class: "q-label"}, term("requeues", "requeues (NumRequeues)")),
			requeues.length
				? keyList("ul", requeues, (r) => h("li", {dataset: {queueKey: r.key}}, h("code", {text: r.key}), ` × ${r.count}`))
				: h("span", {class: "none", text: "none"})));
	}
	const idle = (q.idleWorkers || []).length;
	parts.push(h("p", {class: "q-foot"}, termify(`${plural(idle, "worker")} idle in Get${nothing ? "; the queue is empty" : ""}`, ["worker", "get"], seen)));
	return h("section", {class: "controller-section" + (nothing ? " quiet" : ""), dataset: {controller: c.kind}}, parts);
}

// syncEntry is the glossary entry of the sync a controller's workers run:
// syncReplicaSet for the replication managers, syncDeployment for the
// Deployment controller.
/** @param {Controller} c */
function syncEntry(c) {
	return c.kind === "deploy" ? "sync-deployment" : "sync";
}

// workersSection draws one controller's workers and its last syncs.
/**
 * @param {Controller} c
 * @param {Set<string>} seen
 */
function workersSection(c, seen) {
	const workers = c.workers || [];
	/** @type {HTMLElement[]} */
	const parts = [h("h4", {text: c.name})];
	const busy = workers.filter((w) => w.state !== "idle");
	if (!busy.length && !(c.lastSyncs || []).length) {
		parts.push(h("p", {class: "compact"}, termify(`${plural(workers.length, "worker")}, all idle: ${workers.map((w) => w.name).join(", ")}`, ["worker"], seen)));
	} else {
		seen.add("worker").add("key").add(syncEntry(c));
		parts.push(table(`${c.name} workers`, [term("worker"), "state", term("key"), "phase", term(syncEntry(c), "syncs")], workers.map((w) => ({
			attrs: {class: w.state === "idle" ? "idle" : "active", dataset: {worker: w.name}},
			cells: [
				h("code", {text: w.name}),
				w.state === "syncing" ? "▶ syncing" : w.state,
				w.key ? h("code", {text: w.key}) : "",
				w.phase ? termify(w.phase + (w.waiting ? ` (awaiting ${plural(w.waiting, "answer")})` : ""), ["claim", "adopt", "release", "status"], seen) : "",
				String(w.syncs),
			],
		}))));
	}
	// The view keeps each owner's last sync, listed by key; the newest
	// five, newest first, are those with the highest sequence numbers.
	const syncs = [...(c.lastSyncs || [])].sort((a, b) => b.seq - a.seq).slice(0, maxLastSyncs);
	if (syncs.length) {
		parts.push(h("p", {class: "q-label"}, phrase(c.kind === "deploy" ? "lastSyncsDeploy" : "lastSyncs")));
		parts.push(h("ul", {class: "syncs"}, syncs.map((s) => h("li", null,
			h("code", {text: s.owner}), ` by ${s.worker}, ${s.start}→${s.end}`,
			s.decision ? termify(`: ${s.decision}`, ["slow-start", "burst-replicas", "expectations", "max-surge", "max-unavailable"], seen) : "",
			s.err ? h("span", {class: "err", text: ` ✕ ${s.err}`}) : null))));
	}
	return h("section", {class: "controller-section", dataset: {controller: c.kind}}, parts);
}

// expectationsSection draws one controller's ControllerExpectations.
/**
 * @param {Manager} c
 * @param {Set<string>} seen
 */
function expectationsSection(c, seen) {
	const list = c.expectations || [];
	/** @type {HTMLElement[]} */
	const parts = [h("h4", {text: c.name})];
	if (!list.length) {
		parts.push(h("p", {class: "empty"}, termify("no expectations recorded", ["expectations"], seen)));
	} else {
		parts.push(table(`${c.name} expectations`, [term("key"), term("add"), term("del"), "state", "age"], list.map((x) => ({
			attrs: {dataset: {key: x.key}, class: x.satisfied ? "satisfied" : "waiting"},
			cells: [
				h("code", {text: x.key}),
				{content: String(x.add), class: "add num"},
				{content: String(x.del), class: "del num"},
				termify(x.expired ? "◔ expired: may sync" : x.satisfied ? "✓ satisfied: may sync" : "… waiting for the informer", ["satisfied", "expired", "informer"], seen),
				x.age,
			],
		}))));
		for (const x of list) {
			const deletes = x.pendingDeletes || [];
			if (deletes.length) {
				parts.push(h("p", {class: "compact"}, phrase("deletesAwaited", {key: h("code", {text: x.key}), pods: deletes.join(", ")})));
			}
		}
	}
	return h("section", {class: "controller-section", dataset: {controller: c.kind}}, parts);
}

// informerSection draws one informer: its state, its cache against the
// API store, and the deltas its DeltaFIFO has not delivered yet.
/**
 * @param {Informer} inf
 * @param {Set<string>} seen
 */
function informerSection(inf, seen) {
	const entries = inf.entries || [];
	const pending = inf.pending || [];
	const total = inf.entriesTotal ?? entries.length;
	const differing = entries.filter((e) => e.diff);
	const shown = differing.concat(entries.filter((e) => !e.diff)).slice(0, maxEntries);
	/** @type {HTMLElement[]} */
	const parts = [
		h("h4", null, h("code", {text: inf.name}), termify(` · ${inf.state}`, ["list", "watch", "backing-off"], seen)),
		h("p", {class: "compact"}, termify(`${inf.synced ? "✓ HasSynced" : "✕ not synced"} · lastSyncResourceVersion ${inf.lastSyncRV} · ${plural(inf.lists, "list")}, ${plural(inf.watches, "watch", "watches")} · ${inf.cached} cached, ${inf.inAPI} in the API${differing.length ? ` · ${differing.length} differ` : ""}`,
			["has-synced", "last-sync-rv", "list", "watch", "cache", "api-server", "differ"], seen)),
	];
	if (pending.length) {
		// As many as the cache's rows: the deaths in a big world leave
		// hundreds of keys waiting, and drawing them all took more of
		// Play's frame than all the other panels together.
		const first = pending.slice(0, maxEntries);
		parts.push(h("div", {class: "pending"},
			h("span", {class: "q-label"}, phrase("pendingDeltas")),
			h("ol", {class: "keys"}, first.map((p) => h("li", {dataset: {pendingKey: p.key}},
				h("code", {text: p.key}), ": ", termify((p.deltas || []).join(" → "), ["delta", "tombstone", "relist", "resync"], seen)))),
			pending.length > first.length ? h("p", {class: "more", text: `and ${pending.length - first.length} more keys waiting (the console's cache command lists them)`}) : null));
	}
	if (shown.length) {
		seen.add("differ");
		parts.push(table(`${inf.name} cache`, ["key", term("resource-version", "cache RV"), term("resource-version", "API RV"), term("differ", "diff")], shown.map((e) => ({
			attrs: {class: e.diff ? "diff" : "", dataset: {entry: e.key}},
			cells: [
				h("code", {text: e.key}),
				{content: e.cache || "—", class: "num"},
				{content: e.api || "—", class: "num"},
				e.diff ? `≠ ${e.diff}` : "=",
			],
		}))));
		if (total > shown.length) {
			parts.push(h("p", {class: "more", text: `and ${total - shown.length} more entries (the console's cache command lists them)`}));
		}
	}
	return h("section", {class: "informer-section" + (entries.length || pending.length ? "" : " quiet"), dataset: {informer: inf.name}}, parts);
}

/** @param {Partial<Agenda>} agenda */
function agendaBody(agenda) {
	const next = agenda.next || [];
	const seen = new Set();
	const ids = ["periodic", "resync", "relist", "tombstone", "expectations", "slow-start", "garbage-collector"];
	/** @type {HTMLElement[]} */
	const parts = [h("p", {class: "compact"}, termify(`${plural(agenda.pending || 0, "event")} pending${agenda.background ? `, ${agenda.background} of them periodic` : ""}`, ids, seen))];
	if (next.length) {
		parts.push(h("ol", {class: "agenda-list"}, next.map((ev, i) => h("li", {class: ev.background ? "background" : (i === 0 ? "next" : "")},
			h("span", {class: "mono at", text: ev.at}), " ",
			h("span", {class: "to", text: ev.to}), ": ", termify(ev.what, ids, seen),
			ev.background ? termify(" (periodic)", ids, seen) : "",
			i === 0 ? h("span", {class: "badge", text: "next"}) : null))));
	} else {
		parts.push(empty("nothing: the world is idle"));
	}
	return parts;
}

/** @param {Faults} faults */
function faultsBody(faults) {
	const api = faults.api || [];
	const watch = faults.watch || [];
	if (!api.length && !watch.length) {
		return [empty("none in force")];
	}
	/** @type {HTMLElement[]} */
	const parts = [];
	if (api.length) {
		parts.push(h("ul", {class: "faults-list"}, api.map((f) => h("li", {dataset: {fault: f.id}}, h("span", {"aria-hidden": "true", text: "⚠ "}), `#${f.id} ${f.text}`))));
	}
	if (watch.length) {
		parts.push(h("ul", {class: "faults-list"}, watch.map((w) => h("li", null, h("span", {"aria-hidden": "true", text: "⚠ "}),
			h("code", {text: w.informer}), ": ",
			[w.dropNext ? `next ${plural(w.dropNext, "event")} dropped` : "", w.lost ? `${w.lost} lost since the last list` : "", w.delay ? `events ${w.delay} late` : ""].filter(Boolean).join(", ")))));
	}
	return parts;
}

/** @param {GC} gc */
function gcBody(gc) {
	const owners = gc.owners || [];
	const dependents = gc.dependents || [];
	if (!owners.length && !dependents.length) {
		return [h("p", {class: "empty"}, termify("idle: no owner is being deleted", ["owner"]))];
	}
	/** @type {HTMLElement[]} */
	const parts = [];
	if (owners.length) {
		const seen = new Set(["attempt-to-orphan"]);
		parts.push(h("p", {class: "q-label"}, phrase("gcOwners")));
		parts.push(table("owners being deleted", [term("owner"), term("propagation", "mode"), "phase", term("dependent", "dependents")], owners.map((o) => [
			h("code", {text: (o.namespace ? o.namespace + "/" : "") + o.owner}), o.mode, termify(o.phase, ["graph", "finalizer", "attempt-to-orphan"], seen), (o.dependents || []).join(", ")])));
	}
	if (dependents.length) {
		parts.push(h("p", {class: "q-label"}, phrase("gcDependents")));
		parts.push(table("attemptToDelete", [term("dependent"), term("owner"), "state"], dependents.map((d) => [
			h("code", {text: (d.namespace ? d.namespace + "/" : "") + d.object}), d.owner, d.state])));
	}
	return parts;
}

// body returns a panel's body element.
/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function body(id) {
	// index.html has a body for each panel renderInside draws.
	return /** @type {HTMLElement} */ (document.querySelector(`#${id} > .sub-body`));
}

// drawn remembers what each panel shows, as JSON, so a panel whose data
// did not change is not rebuilt (most steps change one or two panels);
// one whose data did is patched (patch), so that only its changed
// rows are drawn again.
/** @type {Map<string, string>} */
const drawn = new Map();
/**
 * @param {string} id
 * @param {unknown} data
 * @param {() => import("./ui-util.js").Child[]} build
 */
function panel(id, data, build) {
	const key = JSON.stringify(data);
	if (drawn.get(id) === key) {
		return;
	}
	drawn.set(id, key);
	const el = body(id);
	const focus = termFocus(el);
	patch(el, build());
	restoreTermFocus(el, focus);
}

// renderInside redraws the panels whose data changed.
/** @param {View} view */
function renderInside(view) {
	const managers = view.controllers || [];
	// The Deployment controller's queue and workers are drawn after the
	// replication managers', once a Deployment woke it.
	/** @type {Controller[]} */
	const controllers = view.deploymentController ? [...managers, view.deploymentController] : managers;
	// Each panel's sections share one set of the entries already
	// drawn as terms in the engine's words, so that a word repeated in
	// every section (HasSynced in each informer's line) is a term once.
	/**
	 * @template T
	 * @param {T[]} list
	 * @param {(item: T, seen: Set<string>) => HTMLElement} draw
	 */
	const sections = (list, draw) => () => {
		/** @type {Set<string>} */
		const seen = new Set();
		return list.map((item) => draw(item, seen));
	};
	panel("queue", controllers.map((c) => c.queue), sections(controllers, queueSection));
	panel("workers", controllers.map((c) => [c.workers, c.lastSyncs]), sections(controllers, workersSection));
	panel("expectations", managers.map((c) => c.expectations), sections(managers, expectationsSection));
	panel("informers", view.informers, sections(view.informers || [], informerSection));
	panel("agenda", view.agenda, () => agendaBody(view.agenda || {}));
	panel("faults", view.faults, () => faultsBody(view.faults || {}));
	panel("gc", view.gc, () => gcBody(view.gc || {}));
	const faults = view.faults || {};
	/** @type {HTMLElement} */ (document.getElementById("faults")).classList.toggle("active", Boolean((faults.api || []).length || (faults.watch || []).length));
}

export {renderInside};
