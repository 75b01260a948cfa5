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
//
// The panels' own words are the page's (i18n.js); the engine's (a
// worker's phase, a sync's decision, what the agenda will run, names of
// controllers and informers) stay English, marked lang="en" (english),
// and their terms are explained in the page's language all the same.

import {h, patch, table} from "./ui-util.js";
import {phrase, restoreTermFocus, term, termFocus, termify} from "./ui-glossary.js";
import {duration, has, t, tParts} from "./i18n.js";

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

// english holds the engine's words (text, or what termify made of them)
// in a span marked lang="en".
/** @param {import("./ui-util.js").Child} words */
function english(words) {
	return h("span", {lang: "en"}, words);
}

// engineState is one of the engine's fixed words for a state (an
// informer's "watching", a worker's "idle") in the page's words, where the
// catalogue has it as prefix.state, and else as the engine says it.
/**
 * @param {string} prefix
 * @param {string} state
 */
function engineState(prefix, state) {
	const key = `${prefix}.${state}`;
	return has(key) ? t(key) : state;
}

// none is what a part of the workqueue holds when it holds nothing.
const none = () => h("span", {class: "none", text: t("inside.none")});

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
	const parts = [h("h4", null, h("code", {lang: "en", text: q.name || c.kind}), " (", english(c.name), ")")];
	const nothing = !waiting.length && !dirty.length && !processing.length && !delayed.length && !requeues.length;
	parts.push(h("div", {class: "waiting"},
		h("span", {class: "q-label"}, term("waiting")),
		waiting.length
			? keyList("ol", waiting, (key) => h("li", {dataset: {queueKey: key}}, h("code", {lang: "en", text: key})))
			: none()));
	parts.push(h("div", {class: "processing"},
		h("span", {class: "q-label"}, term("processing")),
		processing.length
			? keyList("ul", processing, (p) => h("li", {dataset: {queueKey: p.key}}, h("code", {lang: "en", text: p.key}), p.worker ? [" ← ", english(p.worker)] : ""))
			: none()));
	if (!nothing) {
		parts.push(h("div", {class: "dirty"},
			h("span", {class: "q-label"}, term("dirty")),
			dirty.length
				? keyList("ul", dirty, (key) => h("li", {dataset: {dirtyKey: key}}, h("code", {lang: "en", text: key})))
				: none()));
		parts.push(h("div", {class: "delayed"},
			h("span", {class: "q-label"}, term("delayed")),
			delayed.length
				? keyList("ul", delayed, (d) => h("li", {dataset: {queueKey: d.key}},
					h("code", {lang: "en", text: d.key}), termify(t(d.rateLimited ? "inside.delayedRateLimited" : "inside.delayedUntil", {at: duration(d.readyAt), delay: duration(d.delay)}), ["rate-limited"], seen)))
				: none()));
		// Shown whenever the queue holds anything, like delayed, so
		// that the learner meets the rate limiter's count before a
		// failure fills it.
		parts.push(h("div", {class: "requeues"},
			h("span", {class: "q-label"}, term("requeues", t("inside.requeues"))),
			requeues.length
				? keyList("ul", requeues, (r) => h("li", {dataset: {queueKey: r.key}}, h("code", {lang: "en", text: r.key}), ` × ${r.count}`))
				: none()));
	}
	const idle = (q.idleWorkers || []).length;
	parts.push(h("p", {class: "q-foot"}, termify(t(nothing ? "inside.idleInGetEmpty" : "inside.idleInGet", {workers: t("count.workers", {n: idle})}), ["worker", "get"], seen)));
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
	const parts = [h("h4", {lang: "en", text: c.name})];
	const busy = workers.filter((w) => w.state !== "idle");
	if (!busy.length && !(c.lastSyncs || []).length) {
		parts.push(h("p", {class: "compact"}, termify(t("inside.allIdle", {workers: t("count.workers", {n: workers.length}), names: workers.map((w) => w.name).join(", ")}), ["worker"], seen)));
	} else {
		seen.add("worker").add("key").add(syncEntry(c));
		parts.push(table(tParts("inside.workersOf", {name: english(c.name)}), [term("worker"), t("inside.state"), term("key"), t("inside.phase"), term(syncEntry(c), t("inside.syncs"))], workers.map((w) => ({
			attrs: {class: w.state === "idle" ? "idle" : "active", dataset: {worker: w.name}},
			cells: [
				h("code", {lang: "en", text: w.name}),
				w.state === "syncing" ? `▶ ${engineState("worker.state", w.state)}` : engineState("worker.state", w.state),
				w.key ? h("code", {lang: "en", text: w.key}) : "",
				w.phase ? [english(termify(w.phase, ["claim", "adopt", "release", "status"], seen)), w.waiting ? t("inside.awaiting", {answers: t("count.answers", {n: w.waiting})}) : ""] : "",
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
			h("code", {lang: "en", text: s.owner}), t("inside.syncBy", {worker: s.worker, start: duration(s.start), end: duration(s.end)}),
			s.decision ? [t("inside.decisionColon"), english(termify(s.decision, ["slow-start", "burst-replicas", "expectations", "max-surge", "max-unavailable"], seen))] : "",
			s.err ? h("span", {class: "err", lang: "en", text: ` ✕ ${s.err}`}) : null))));
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
	const parts = [h("h4", {lang: "en", text: c.name})];
	if (!list.length) {
		parts.push(h("p", {class: "empty"}, termify(t("inside.noExpectations"), ["expectations"], seen)));
	} else {
		parts.push(table(tParts("inside.expectationsOf", {name: english(c.name)}), [term("key"), term("add"), term("del"), t("inside.state"), t("inside.age")], list.map((x) => ({
			attrs: {dataset: {key: x.key}, class: x.satisfied ? "satisfied" : "waiting"},
			cells: [
				h("code", {lang: "en", text: x.key}),
				{content: String(x.add), class: "add num"},
				{content: String(x.del), class: "del num"},
				termify(x.expired ? t("inside.expired") : x.satisfied ? t("inside.satisfied") : t("inside.waitingForInformer"), ["satisfied", "expired", "informer"], seen),
				duration(x.age),
			],
		}))));
		for (const x of list) {
			const deletes = x.pendingDeletes || [];
			if (deletes.length) {
				parts.push(h("p", {class: "compact"}, phrase("deletesAwaited", {key: h("code", {lang: "en", text: x.key}), pods: h("span", {lang: "en", text: deletes.join(", ")})})));
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
	const line = t(differing.length ? "inside.informerLineDiffer" : "inside.informerLine", {
		synced: inf.synced ? "✓ HasSynced" : t("inside.notSynced"), rv: inf.lastSyncRV,
		lists: t("count.lists", {n: inf.lists}), watches: t("count.watches", {n: inf.watches}),
		cached: inf.cached, inAPI: inf.inAPI, differ: differing.length,
	});
	/** @type {HTMLElement[]} */
	const parts = [
		h("h4", null, h("code", {lang: "en", text: inf.name}), termify(` · ${engineState("informer.state", inf.state)}`, ["list", "watch", "backing-off"], seen)),
		h("p", {class: "compact"}, termify(line, ["has-synced", "last-sync-rv", "list", "watch", "cache", "api-server", "differ"], seen)),
	];
	if (pending.length) {
		// As many as the cache's rows: the deaths in a big world leave
		// hundreds of keys waiting, and drawing them all took more of
		// Play's frame than all the other panels together.
		const first = pending.slice(0, maxEntries);
		parts.push(h("div", {class: "pending"},
			h("span", {class: "q-label"}, phrase("pendingDeltas")),
			h("ol", {class: "keys"}, first.map((p) => h("li", {dataset: {pendingKey: p.key}},
				h("code", {lang: "en", text: p.key}), ": ", english(termify((p.deltas || []).join(" → "), ["delta", "tombstone", "relist", "resync"], seen))))),
			pending.length > first.length ? h("p", {class: "more"}, tParts("inside.moreKeys", {n: pending.length - first.length, command: cacheCommand()})) : null));
	}
	if (shown.length) {
		seen.add("differ");
		parts.push(table(t("inside.cacheOf", {name: inf.name}), [t("inside.key"), term("resource-version", t("inside.cacheRV")), term("resource-version", t("inside.apiRV")), term("differ", t("inside.diff"))], shown.map((e) => ({
			attrs: {class: e.diff ? "diff" : "", dataset: {entry: e.key}},
			cells: [
				h("code", {lang: "en", text: e.key}),
				{content: e.cache || "—", class: "num"},
				{content: e.api || "—", class: "num"},
				e.diff ? h("span", {lang: "en", text: `≠ ${e.diff}`}) : "=",
			],
		}))));
		if (total > shown.length) {
			parts.push(h("p", {class: "more"}, tParts("inside.moreEntries", {n: total - shown.length, command: cacheCommand()})));
		}
	}
	return h("section", {class: "informer-section" + (entries.length || pending.length ? "" : " quiet"), dataset: {informer: inf.name}}, parts);
}

/** @param {Partial<Agenda>} agenda */
function agendaBody(agenda) {
	const next = agenda.next || [];
	const seen = new Set();
	const ids = ["periodic", "resync", "relist", "tombstone", "expectations", "slow-start", "garbage-collector"];
	const pending = t("count.events", {n: agenda.pending || 0});
	/** @type {HTMLElement[]} */
	const parts = [h("p", {class: "compact"}, termify(agenda.background ? t("inside.agendaPendingPeriodic", {events: pending, n: agenda.background}) : t("inside.agendaPending", {events: pending}), ids, seen))];
	if (next.length) {
		parts.push(h("ol", {class: "agenda-list"}, next.map((ev, i) => h("li", {class: ev.background ? "background" : (i === 0 ? "next" : "")},
			h("span", {class: "mono at", text: duration(ev.at)}), " ",
			h("span", {class: "to", lang: "en", text: ev.to}), ": ", english(termify(ev.what, ids, seen)),
			ev.background ? termify(t("inside.periodic"), ids, seen) : "",
			i === 0 ? h("span", {class: "badge", text: t("inside.next")}) : null))));
	} else {
		parts.push(empty(t("inside.agendaIdle")));
	}
	return parts;
}

/** @param {Faults} faults */
function faultsBody(faults) {
	const api = faults.api || [];
	const watch = faults.watch || [];
	if (!api.length && !watch.length) {
		return [empty(t("inside.noFaults"))];
	}
	/** @type {HTMLElement[]} */
	const parts = [];
	if (api.length) {
		parts.push(h("ul", {class: "faults-list"}, api.map((f) => h("li", {dataset: {fault: f.id}}, h("span", {"aria-hidden": "true", text: "⚠ "}), `#${f.id} `, english(f.text)))));
	}
	if (watch.length) {
		parts.push(h("ul", {class: "faults-list"}, watch.map((w) => h("li", null, h("span", {"aria-hidden": "true", text: "⚠ "}),
			h("code", {lang: "en", text: w.informer}), ": ",
			[w.dropNext ? t("inside.dropNext", {events: t("count.events", {n: w.dropNext})}) : "", w.lost ? t("inside.lost", {n: w.lost}) : "", w.delay ? t("inside.late", {delay: duration(w.delay)}) : ""].filter(Boolean).join(t("list.separator"))))));
	}
	return parts;
}

/** @param {GC} gc */
function gcBody(gc) {
	const owners = gc.owners || [];
	const dependents = gc.dependents || [];
	if (!owners.length && !dependents.length) {
		return [h("p", {class: "empty"}, termify(t("inside.gcIdle"), ["owner"]))];
	}
	/** @type {HTMLElement[]} */
	const parts = [];
	if (owners.length) {
		const seen = new Set(["attempt-to-orphan"]);
		parts.push(h("p", {class: "q-label"}, phrase("gcOwners")));
		parts.push(table(t("inside.gcOwners"), [term("owner"), term("propagation", t("inside.mode")), t("inside.phase"), term("dependent", t("inside.dependents"))], owners.map((o) => [
			h("code", {lang: "en", text: (o.namespace ? o.namespace + "/" : "") + o.owner}), o.mode, english(termify(o.phase, ["graph", "finalizer", "attempt-to-orphan"], seen)), english((o.dependents || []).join(", "))])));
	}
	if (dependents.length) {
		parts.push(h("p", {class: "q-label"}, phrase("gcDependents")));
		parts.push(table("attemptToDelete", [term("dependent"), term("owner"), t("inside.state")], dependents.map((d) => [
			h("code", {lang: "en", text: (d.namespace ? d.namespace + "/" : "") + d.object}), english(d.owner), english(d.state)])));
	}
	return parts;
}

// cacheCommand is the console's command that lists an informer's cache,
// as the notes that count what is not drawn name it.
const cacheCommand = () => h("code", {lang: "en", text: "cache"});

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
