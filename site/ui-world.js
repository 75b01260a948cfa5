// ui-world.js draws the world: the nodes as columns, each ReplicaSet and
// ReplicationController as a group holding the pods it controls (each pod in
// its node's column), and the orphans, pods no controller owns, in a group of
// their own. A Deployment is a card around its ReplicaSets' groups, newest
// revision first, each labelled with its revision and pod-template-hash and
// its pods with their images; the card says what the rollout may do (its
// budget), what its last scaling did and why, and its history, all as the
// engine's read model says (world.Deployment): nothing of the controller's
// rule is worked out here. It also runs the small menu that opens when a pod
// is clicked.
//
// The drawing is kept between renders and changed where the view changed
// (see "Drawing, and drawing again only what changed" below): a big world
// plays smoothly, and what is drawn is always what a drawing made from
// nothing would be, so the page never shows a stale pod.

import {h, patch, settle, table} from "./ui-util.js";
import {decorateWorld, decorateWorldPart, restoreTermFocus, termFocus} from "./ui-glossary.js";
import {duration, i18n, t, tParts} from "./i18n.js";

// maxPodsPerOwner is the most pods drawn in one group; the rest are
// counted ("and 40 more").
const maxPodsPerOwner = 60;

/** @type {Record<string, string>} */
const kindNames = {rs: "ReplicaSet", rc: "ReplicationController"};

/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").Pod} Pod */
/** @typedef {import("./bridge-types.js").Owner} Owner */
/** @typedef {import("./bridge-types.js").Node} WorldNode */
/** @typedef {import("./bridge-types.js").Deployment} Deployment */

/**
 * Rollout is what a Deployment's card says of one of its ReplicaSets: its
 * revision and pod-template-hash, its image and whether it is the new one.
 * @typedef {{revision: string, hash: string, image: string, isNew: boolean}} Rollout
 */

/**
 * Head is the record of an owner group's head (newHead): its element,
 * and each part with the signature of what it was drawn from. meta's
 * numbers (nums), the span holding them (replicas) and the note that
 * the status trails (behind) are there once headMeta drew a live owner.
 * @typedef {Object} Head
 * @property {HTMLElement} el
 * @property {Part} title
 * @property {string | null} metaSig
 * @property {HTMLElement | null} meta
 * @property {boolean} decorated
 * @property {Part} failure
 * @property {Part} rev
 * @property {HTMLElement} [replicas]
 * @property {{desired: HTMLElement, current: HTMLElement, ready: HTMLElement, available: HTMLElement}} [nums]
 * @property {{el: HTMLElement, active: HTMLElement} | null} [behind]
 */

/**
 * Part is one part of a head or a card, kept between drawings (redraw):
 * its element, null while it has none to draw, and the signature of
 * what it was drawn from, null before its first drawing.
 * @typedef {{sig: string | null, el: HTMLElement | null}} Part
 */

/**
 * Group is the record of one group's section (newGroup).
 * @typedef {Object} Group
 * @property {HTMLElement} el
 * @property {HTMLElement | null} head
 * @property {Head | null} ownerHead
 * @property {string | null} columns
 * @property {HTMLElement | null} grid
 * @property {HTMLElement[] | null} cells
 * @property {HTMLElement | null} more
 * @property {HTMLElement | null} empty
 * @property {boolean} images
 */

/**
 * DeployCard is the record of a Deployment's card (drawDeployment): its
 * section, its head's parts, the element that holds its ReplicaSets'
 * groups, and the note (empty) that says why it has none. The history
 * is a details element kept between drawings, so that it stays open or
 * closed as the learner left it, with the signature of what it was
 * filled from.
 * @typedef {Object} DeployCard
 * @property {HTMLElement} el
 * @property {HTMLElement} head
 * @property {Part} title
 * @property {Part} meta
 * @property {Part} budget
 * @property {Part} scale
 * @property {string | null} historySig
 * @property {HTMLDetailsElement} history
 * @property {HTMLElement} rss
 * @property {Part} empty
 */

/** @typedef {Map<string, {sig: string, el: HTMLElement}>} Cards */

/**
 * Drawing is what renderWorld keeps of a root's drawing (newDrawing).
 * @typedef {Object} Drawing
 * @property {string} cols
 * @property {{sig: string, el: HTMLElement} | null} nodes
 * @property {HTMLElement | null} showing
 * @property {HTMLElement | null} nothing
 * @property {Cards} pods
 * @property {Map<string, Group>} groups
 * @property {Map<string, DeployCard>} deployments
 * @property {Group | null} orphans
 */

// refKey is how the page names an object in a step's touched list.
/**
 * @param {string} kind
 * @param {string | undefined} namespace
 * @param {string} name
 * @returns {string}
 */
function refKey(kind, namespace, name) {
	return `${kind}/${namespace || ""}/${name}`;
}

// touchedSet collects the objects a step touched.
/**
 * @param {import("./bridge-types.js").Step | null | undefined} step
 * @returns {Set<string>}
 */
function touchedSet(step) {
	/** @type {Set<string>} */
	const set = new Set();
	for (const ref of (step && step.touched) || []) {
		set.add(refKey(ref.kind, ref.namespace, ref.name));
	}
	return set;
}

// podState describes a pod in words and with a marker, so that its state
// never rests on colour alone.
/** @param {Pod} pod */
function podState(pod) {
	if (pod.terminating) {
		return {mark: "⊘", text: t("pod.state.terminating")};
	}
	switch (pod.phase) {
	case "Failed":
		return {mark: "✕", text: t("pod.state.failed")};
	case "Succeeded":
		return {mark: "■", text: t("pod.state.succeeded")};
	case "Pending":
		return {mark: "…", text: pod.node ? t("pod.state.pending") : t("pod.state.pendingUnscheduled")};
	case "Running":
		return pod.ready ? {mark: "✓", text: t("pod.state.runningReady")} : {mark: "○", text: t("pod.state.runningNotReady")};
	default:
		return {mark: "?", text: pod.phase || t("pod.state.unknown")};
	}
}

// kubeletWords are the engine's sentences for what a kubelet does with a
// pod (cluster.KubeletPod.String), each as the message that says it in
// the page's words, with its values.
/** @type {Array<[RegExp, string, string[]]>} */
const kubeletWords = [
	[/^waiting for a kubelet on (.+)$/, "pod.kubelet.waiting", ["node"]],
	[/^starting at t=(\S+)$/, "pod.kubelet.starting", ["at"]],
	[/^running, Ready$/, "pod.kubelet.runningReady", []],
	[/^running, not Ready$/, "pod.kubelet.runningNotReady", []],
	[/^crashed until t=(\S+)$/, "pod.kubelet.crashed", ["at"]],
	[/^stopping at t=(\S+)$/, "pod.kubelet.stopping", ["at"]],
	[/^finished \((.+)\)$/, "pod.kubelet.finished", ["phase"]],
];

// kubeletSays is what the pod's kubelet does with it, in the page's words
// (the engine's, when it says something the page does not know).
/** @param {string} text */
function kubeletSays(text) {
	for (const [re, key, names] of kubeletWords) {
		const m = re.exec(text);
		if (m) {
			/** @type {Record<string, string>} */
			const params = {};
			names.forEach((name, i) => {
				params[name] = name === "at" ? duration(m[i + 1]) : m[i + 1];
			});
			return t(key, params);
		}
	}
	return text;
}

// podButton draws one pod as a button (the test suite and the keyboard
// both rely on it being a real button).
/**
 * @param {Pod} pod
 * @param {Set<string>} touched
 * @param {boolean} [showImage] whether the card shows the pod's image, as
 *   a Deployment's pods do: there it tells the old template from the new.
 * @returns {HTMLButtonElement}
 */
function podButton(pod, touched, showImage = false) {
	const state = podState(pod);
	const isTouched = touched.has(refKey("pod", pod.namespace, pod.name));
	const classes = ["pod", "phase-" + String(pod.phase || "unknown").toLowerCase()];
	if (!pod.owner) {
		classes.push("orphan");
	}
	if (pod.terminating) {
		classes.push("terminating");
	}
	if (pod.phase === "Failed") {
		classes.push("failed");
	}
	if (!pod.ready) {
		classes.push("not-ready");
	}
	if (isTouched) {
		classes.push("touched");
	}
	const labels = Object.entries(pod.labels || {}).map(([k, v]) => `${k}=${v}`).join(",");
	const claim = claimHint(pod);
	if (claim) {
		classes.push(claim.kind);
	}
	const details = [state.text];
	if (pod.restarts) {
		details.push(t("count.restarts", {n: pod.restarts}));
	}
	const node = pod.node ? t("pod.onNode", {node: pod.node}) : t("pod.notScheduled");
	const image = showImage && pod.image ? pod.image : "";
	// The button's name holds its visible text, in the same order, and
	// only then what the card does not show (WCAG 2.5.3, label in name):
	// a learner who speaks to the page, "click web-x Running", or reads
	// it with a screen reader, meets the words on the card. The node is
	// the card's last line, shown on narrow screens only (wide ones
	// show it as the pod's column), so the name holds the visible text
	// on both.
	const description = [
		t("pod.name", {name: pod.name}),
		details.join(t("list.separator")),
		image,
		labels,
		claim ? claim.short : "",
		node,
		pod.namespace !== "default" ? t("pod.inNamespace", {namespace: pod.namespace}) : "",
		pod.owner ? t("pod.controlledBy", {owner: pod.owner}) : t("pod.orphan"),
		labels ? "" : t("pod.noLabels"),
		claim ? claim.long : "",
		pod.kubelet ? t("pod.kubelet", {what: kubeletSays(pod.kubelet)}) : "",
		isTouched ? t("pod.touched") : "",
	].filter(Boolean).join(t("list.separator"));
	return h("button", {
		type: "button",
		class: classes.join(" "),
		"aria-haspopup": "dialog",
		"aria-label": description,
		title: description,
		dataset: {
			pod: pod.name,
			namespace: pod.namespace,
			owner: pod.owner || "",
			phase: pod.phase || "",
			ready: pod.ready ? "true" : "false",
			labels,
		},
	},
	h("span", {class: "pod-marks", "aria-hidden": "true"},
		isTouched ? h("span", {class: "mark-touched", text: "◆"}) : null,
		!pod.owner ? h("span", {class: "mark-orphan", text: "⚠"}) : null,
		h("span", {class: "mark-state", text: state.mark})),
	// The spaces are not drawn (the lines are flex items) but keep the
	// card's text words apart for whatever reads it as text: "web-x
	// Running", not "web-xRunning".
	" ", h("span", {class: "pod-name", lang: "en", text: pod.name}),
	" ", h("span", {class: "pod-state", text: details.join(" · ")}),
	image ? [" ", h("span", {class: "pod-image mono", lang: "en", text: image})] : null,
	labels ? [" ", h("span", {class: "pod-labels", lang: "en", text: labels})] : null,
	claim ? [" ", h("span", {class: "pod-claim", text: claim.short})] : null,
	" ", h("span", {class: "pod-node", text: node}));
}

// claimHint says what the next sync of an owner will do with the pod, as
// the view computed it from the selectors (upstream's claimPods): release
// a pod whose labels left its controller's selector, or adopt an orphan
// whose labels match one. Null when neither.
/**
 * @param {Pod} pod
 * @returns {{kind: string, short: string, long: string} | null}
 */
function claimHint(pod) {
	if (pod.releasing) {
		return {
			kind: "releasing",
			short: t("pod.releasingShort", {owner: pod.owner}),
			long: t("pod.releasingLong", {owner: pod.owner}),
		};
	}
	const by = pod.adoptableBy || [];
	if (by.length) {
		const owners = new Intl.ListFormat(i18n.locale, {type: "conjunction"}).format(by);
		return {
			kind: "adoptable",
			short: t("pod.adoptableShort", {owners}),
			long: by.length > 1 ? t("pod.adoptableLongEither", {owners}) : t("pod.adoptableLong", {owners}),
		};
	}
	return null;
}

// isActive says whether the controller counts a pod as one of its
// replicas (upstream's FilterActivePods): not finished and not being
// deleted.
/** @param {Pod} pod */
function isActive(pod) {
	return !pod.terminating && pod.phase !== "Failed" && pod.phase !== "Succeeded";
}

// The head of an owner's group is kept between drawings, like the
// cards, and changed in place: while a big world plays its counts
// change at almost every drawing, and a head made anew each time (some
// twenty elements, their glossary terms found again) cost a drawing
// about half a millisecond of script and the browser as much again. So
// the head is made of parts, each drawn from what it shows: the title
// (the owner, and whether the step touched it), the selector line,
// whose numbers are elements of their own, written only when they
// change, and the ReplicaFailure line. A head changed in place is the
// head a new drawing makes, node for node (e2e's
// TestWorldUpdatedDrawsWhatAFullDrawingDraws holds it to that).

// titleOf draws the title of an owner's head or of a Deployment's card:
// its kind (as the page names it) and its name ("rs/web"), its namespace
// unless it is default's, the badges of its own (a Deployment's revision
// and rollout state), whether it is being deleted, and whether the last
// step touched it, marked for the eye and said for a screen reader.
/**
 * @param {{kind: string, name: string, namespace: string, terminating?: boolean}} obj
 * @param {boolean} isTouched
 * @param {Array<HTMLElement | null>} [badges]
 */
function titleOf(obj, isTouched, badges = []) {
	return h("h3", {class: "owner-title"},
		isTouched ? h("span", {class: "mark-touched", "aria-hidden": "true", text: "◆ "}) : null,
		h("span", {class: "owner-kind", text: obj.kind}), " ",
		h("span", {class: "owner-name mono", lang: "en", text: obj.name}),
		obj.namespace !== "default" ? h("span", {class: "owner-ns", text: t("owner.inNamespace", {namespace: obj.namespace})}) : null,
		badges,
		obj.terminating ? h("span", {class: "badge warn", text: t("owner.beingDeleted")}) : null,
		isTouched ? h("span", {class: "visually-hidden", text: t("owner.touched")}) : null);
}

// headTitle draws the title of an owner's head: its kind and name, and
// whether it is being deleted or the last step touched it.
/**
 * @param {Owner} owner
 * @param {boolean} isTouched
 */
function headTitle(owner, isTouched) {
	return titleOf({kind: kindNames[owner.kind] || owner.kind, name: `${owner.kind}/${owner.name}`, namespace: owner.namespace, terminating: owner.terminating}, isTouched);
}

// headMeta draws the line under the title: the selector and what the
// owner wants and its status says, with each number in an element of
// its own (countsOf writes them), or, for an owner gone from the API,
// that it is gone.
/**
 * @param {Owner} owner
 * @param {boolean} gone
 * @returns {Partial<Head>}
 */
function headMeta(owner, gone) {
	if (gone) {
		return {meta: h("p", {class: "owner-meta"}, h("span", {text: t("owner.gone")}))};
	}
	/** @param {string} cls */
	const n = (cls) => h("span", {class: cls});
	const nums = {desired: n("n-desired"), current: n("n-current"), ready: n("n-ready"), available: n("n-available")};
	const replicas = h("span", {class: "replicas"}, tParts("owner.counts", nums));
	const meta = h("p", {class: "owner-meta"},
		h("span", {class: "meta-label", text: t("owner.selector")}),
		owner.selector ? h("code", {class: "selector", lang: "en", text: owner.selector}) : h("code", {class: "selector", text: t("owner.noSelector")}),
		replicas);
	return {meta, replicas, nums, behind: null};
}

// headBehind draws the note that the status trails the pods: it is
// what the controller last wrote, at the end of a sync, so between
// syncs it can trail the pods drawn below it, and the line says so
// rather than show two counts that disagree silently.
function headBehind() {
	const active = h("span", {class: "n-active"});
	const el = h("span", {class: "behind"}, tParts("owner.behind", {active}));
	return {el, active};
}

// drawCounts writes the numbers of a head's selector line, and adds or
// removes the note that the status trails the active pods. A note added
// to a line already drawn gets the glossary terms a whole line drawn
// anew would give it: those of its words not already terms before it.
/**
 * @param {Head} head
 * @param {Owner} owner
 * @param {number} active
 */
function drawCounts(head, owner, active) {
	/** @type {Partial<import("./bridge-types.js").OwnerStatus>} */
	const s = owner.status || {};
	// A live owner's head has its numbers and their span (headMeta).
	const nums = /** @type {NonNullable<Head["nums"]>} */ (head.nums);
	const replicas = /** @type {HTMLElement} */ (head.replicas);
	settle(nums.desired, {text: String(owner.replicas)});
	settle(nums.current, {text: String(s.replicas || 0)});
	settle(nums.ready, {text: String(s.readyReplicas || 0)});
	settle(nums.available, {text: String(s.availableReplicas || 0)});
	const trails = active !== (s.replicas || 0);
	if (trails && !head.behind) {
		head.behind = headBehind();
		replicas.appendChild(head.behind.el);
		if (head.decorated) {
			decorateWorldPart(head.behind.el, ".owner-meta", head.meta);
		}
	} else if (!trails && head.behind) {
		head.behind.el.remove();
		head.behind = null;
	}
	if (head.behind) {
		settle(head.behind.active, {text: t("count.activePods", {n: active})});
	}
}

// headRevision draws the line a ReplicaSet of a Deployment has under its
// title: its revision, its pod-template-hash, its image, and whether it is
// the Deployment's new ReplicaSet (the one with its template) or an old one.
/** @param {Rollout} r */
function headRevision(r) {
	return h("p", {class: "rs-revision"},
		h("span", {class: "badge" + (r.isNew ? " new-rs" : ""), text: t("owner.revision", {revision: r.revision || "?"})}), " · ",
		"pod-template-hash ", r.hash ? h("code", {lang: "en", text: r.hash}) : h("code", {text: t("owner.noSelector")}),
		r.image ? tParts("owner.image", {image: h("code", {lang: "en", text: r.image})}) : null,
		r.isNew ? t("owner.newReplicaSet") : t("owner.oldReplicaSet"));
}

// headFailure draws the owner's ReplicaFailure, if it has one.
/** @param {Owner} owner */
function headFailure(owner) {
	return owner.failure ? h("p", {class: "owner-failure"}, "⚠ ReplicaFailure: ", h("span", {lang: "en", text: owner.failure})) : null;
}

// drawHead draws the head of one owner's group into head (a record
// newHead made), changing only the parts whose data changed, and
// returns its element. A group whose owner is gone from the API has a
// head that says so in place of the selector and counts, which it no
// longer has.
/**
 * @param {Head} head
 * @param {Owner} owner
 * @param {number} active
 * @param {boolean} isTouched
 * @param {boolean} gone
 * @param {Rollout | null} rollout what its Deployment's card says of it,
 *   for a ReplicaSet of a Deployment
 * @returns {HTMLElement}
 */
function drawHead(head, owner, active, isTouched, gone, rollout) {
	const titleSig = `${isTouched} ${gone} ${owner.kind}/${owner.namespace}/${owner.name} ${!!owner.terminating}`;
	const revSig = rollout ? JSON.stringify(rollout) : "";
	const metaSig = gone ? "gone" : `selector ${owner.selector}`;
	const failureSig = gone ? "" : owner.failure || "";
	const title = redraw(head.title, titleSig, () => headTitle(owner, isTouched), ".owner-title");
	if (head.metaSig !== metaSig) {
		head.metaSig = metaSig;
		Object.assign(head, headMeta(owner, gone), {decorated: false});
	}
	if (!gone) {
		drawCounts(head, owner, active);
	}
	if (!head.decorated) {
		// The selector line's words become terms once its text is all
		// there: the first use of each, in the order they are read.
		decorateWorldPart(/** @type {HTMLElement} */ (head.meta), ".owner-meta");
		head.decorated = true;
	}
	const failure = redraw(head.failure, failureSig, () => gone ? null : headFailure(owner), ".owner-failure");
	const rev = redraw(head.rev, revSig, () => rollout ? headRevision(rollout) : null, ".rs-revision");
	reconcile(head.el, [title, rev, head.meta, failure].filter((part) => part !== null));
	return head.el;
}

// redraw draws part anew with draw when sig, the signature of what it
// would draw, is not the one part was drawn from, and gives the new
// element the glossary terms the world's drawing has where selector (one
// of worldTerms') says; null for a part that has none. It returns the
// part's element, null for a part with nothing to draw: a part whose data
// did not change is the element drawn before.
/**
 * @param {Part} part
 * @param {string} sig
 * @param {() => HTMLElement | null} draw
 * @param {string | null} selector
 * @returns {HTMLElement | null}
 */
function redraw(part, sig, draw, selector) {
	if (part.sig !== sig) {
		part.sig = sig;
		part.el = draw();
		if (part.el && selector) {
			decorateWorldPart(part.el, selector);
		}
	}
	return part.el;
}

// newPart makes the record of a part not drawn yet.
/** @returns {Part} */
function newPart() {
	return {sig: null, el: null};
}

// newHead makes the record of an owner's head, with nothing drawn.
/** @returns {Head} */
function newHead() {
	return {el: h("div", {class: "group-head"}), title: newPart(), metaSig: null, meta: null, decorated: false, failure: newPart(), rev: newPart()};
}

// nodeRow draws the node columns' headings.
/**
 * @param {WorldNode[]} nodes
 * @param {Set<string>} touched
 */
function nodeRow(nodes, touched) {
	const cells = [h("div", {class: "node-col unscheduled"}, h("span", {class: "node-name", text: t("pod.notScheduled")}))];
	for (const node of nodes) {
		const notes = [];
		notes.push(node.ready ? "✓ Ready" : "✕ NotReady");
		if (!node.schedulable) {
			notes.push(t("node.cordoned"));
		}
		if (!node.kubelet) {
			notes.push(t("node.noKubelet"));
		}
		if (!node.registered) {
			notes.push(t("node.notRegistered"));
		}
		const isTouched = touched.has(refKey("node", "", node.name));
		const classes = ["node", "node-col"];
		if (!node.ready) {
			classes.push("not-ready");
		}
		if (!node.schedulable) {
			classes.push("cordoned");
		}
		if (isTouched) {
			classes.push("touched");
		}
		cells.push(h("div", {class: classes.join(" "), dataset: {node: node.name}},
			h("span", {class: "node-name mono", text: (isTouched ? "◆ " : "") + node.name}),
			h("span", {class: "node-state", text: notes.join(" · ")})));
	}
	return h("div", {class: "node-row", "aria-label": t("node.row")}, cells);
}

// --- Drawing, and drawing again only what changed -----------------------
//
// While a world of 1,000 pods plays, the panel is drawn up to ten times
// a second, and a step changes a few pods at most. Building it anew each
// time cost the page's main thread some 20 ms a draw (the script, and
// then the browser's style, layout and paint of every card), so the
// drawing is kept between draws instead: each element is keyed by what
// it draws (a pod card by the pod's namespace and name, a group by its
// owner, the node row by the nodes), and remembers the view data it was
// drawn from. A draw builds anew the elements whose data changed, puts
// the others where the view says, removes what the view no longer
// holds, and leaves the rest, most of it, alone: the browser has only
// the changed cards to style, lay out and paint (e2e's
// TestWorldRedrawsOnlyWhatChanged holds the page to that).
//
// What is built is built by the same functions whatever was there
// before, so a drawing updated step by step is the drawing of the same
// view made from nothing, node for node (and e2e's
// TestWorldUpdatedDrawsWhatAFullDrawingDraws holds it to that).

// drawings holds what each root renderWorld draws into shows: a root
// it has not drawn into yet (a test may draw into a detached element)
// gets a drawing of its own, made from nothing.
/** @type {WeakMap<HTMLElement, Drawing>} */
const drawings = new WeakMap();

/** @returns {Drawing} */
function newDrawing() {
	return {
		cols: "", // the --cols value set on the root
		nodes: null, // the node row: {sig, el}
		showing: null, // the note "Showing n of m pods"
		nothing: null, // the note of an empty world
		pods: new Map(), // a pod's namespace/name → {sig, el}, its card
		groups: new Map(), // an owner group's key → its group record
		deployments: new Map(), // a Deployment's key → its card's record
		orphans: null, // the orphans' group record
	};
}

// A group record is one group's section (el) and the parts it holds:
// its head (head; an owner's is drawn from the record ownerHead), the
// grid of node columns (grid, cells, for the columns named by columns),
// the note counting the pods not drawn (more) and the one saying there
// are none (empty), each made when first needed.
/**
 * @param {HTMLElement} el
 * @returns {Group}
 */
function newGroup(el) {
	return {el, head: null, ownerHead: null, columns: null, grid: null, cells: null, more: null, empty: null, images: false};
}

// reconcile makes nodes the children of parent, in order, moving as
// few as it can: the children not in nodes are removed first, so that
// when cards are only added or removed (the usual step) none of those
// that stay is moved, which would make the browser lay it out again.
/**
 * @param {Node} parent
 * @param {Node[]} nodes
 */
function reconcile(parent, nodes) {
	const keep = new Set(nodes);
	for (let child = parent.firstChild; child;) {
		const next = child.nextSibling;
		if (!keep.has(child)) {
			child.remove();
		}
		child = next;
	}
	let at = parent.firstChild;
	for (const node of nodes) {
		if (node === at) {
			at = at.nextSibling;
		} else {
			parent.insertBefore(node, at);
		}
	}
}

// keepText returns el holding parts (a message's, tParts), made as a tag
// of class cls when el is null; an element that holds them already is
// left alone.
/**
 * @param {HTMLElement | null} el
 * @param {"p"} tag
 * @param {string} cls
 * @param {Array<string | Node>} parts
 * @returns {HTMLElement}
 */
function keepText(el, tag, cls, parts) {
	if (!el) {
		return h(tag, {class: cls}, parts);
	}
	patch(el, parts);
	return el;
}

// getPods is the console's command that lists every pod, as the notes
// that count the pods not drawn name it.
const getPods = () => h("code", {lang: "en", text: "get pods"});

// card returns the card of a pod, and records it in drawn: the card
// drawn before when it was drawn from the same pod, as touched or not,
// or a new one. The pod's fields, as JSON, are everything its card
// shows; the engine writes them in a fixed order, so equal pods give
// equal JSON.
/**
 * @param {Drawing} drawing
 * @param {Cards} drawn
 * @param {Pod} pod
 * @param {Set<string>} touched
 * @param {boolean} showImage
 */
function card(drawing, drawn, pod, touched, showImage) {
	const key = `${pod.namespace}/${pod.name}`;
	const sig = (touched.has(refKey("pod", pod.namespace, pod.name)) ? "◆" : "") + (showImage ? "▣" : "") + JSON.stringify(pod);
	const before = drawing.pods.get(key);
	const el = before && before.sig === sig ? before.el : podButton(pod, touched, showImage);
	drawn.set(key, {sig, el});
	return el;
}

// drawPods lays a group's pods out in its grid's node columns: column
// 0 holds the pods not bound to a node, then one column per node, in
// the view's order (a pod on a node the view does not list goes to the
// first column too). Past maxPodsPerOwner pods are counted, not drawn:
// total counts the group's pods, those the view left out too. It
// returns what follows the group's head: the grid, and the count.
/**
 * @param {Drawing} drawing
 * @param {Cards} drawn
 * @param {Group} group
 * @param {Pod[]} pods
 * @param {number} total
 * @param {string[]} columns
 * @param {Set<string>} touched
 * @returns {HTMLElement[]}
 */
function drawPods(drawing, drawn, group, pods, total, columns, touched) {
	const columnsKey = columns.join("\n");
	let {cells, grid} = group;
	if (group.columns !== columnsKey || !cells || !grid) {
		group.columns = columnsKey;
		cells = group.cells = columns.map((col) => h("div", {class: "cell", dataset: {column: col || "-"}}));
		grid = group.grid = h("div", {class: "pod-grid"}, group.cells);
	}
	const index = new Map(columns.map((col, i) => [col, i]));
	/** @type {HTMLElement[][]} */
	const lists = columns.map(() => []);
	const shown = Math.min(pods.length, maxPodsPerOwner);
	for (let i = 0; i < shown; i++) {
		lists[index.get(pods[i].node || "") ?? 0].push(card(drawing, drawn, pods[i], touched, group.images));
	}
	cells.forEach((cell, i) => reconcile(cell, lists[i]));
	const more = Math.max(total, pods.length) - shown;
	if (more <= 0) {
		return [grid];
	}
	// A view capped in all (a world of many owners) may list none of
	// a group's pods.
	group.more = keepText(group.more, "p", "more", shown
		? tParts("world.morePods", {n: more, command: getPods()})
		: tParts("world.podsNotDrawn", {pods: t("count.pods", {n: more}), command: getPods()}));
	return [grid, group.more];
}

// drawBody makes a group's section hold its head and its pods, or the
// note that it has none.
/**
 * @param {Drawing} drawing
 * @param {Cards} drawn
 * @param {Group} group
 * @param {Pod[]} pods
 * @param {number} total
 * @param {string[]} columns
 * @param {Set<string>} touched
 * @param {string} none
 */
function drawBody(drawing, drawn, group, pods, total, columns, touched, none) {
	let body;
	if (pods.length || total > 0) {
		body = drawPods(drawing, drawn, group, pods, total, columns, touched);
	} else {
		group.empty = group.empty || h("p", {class: "empty", text: none});
		body = [group.empty];
	}
	// The caller drew the group's head.
	reconcile(group.el, [/** @type {HTMLElement} */ (group.head), ...body]);
}

// drawOwner draws the group of one owner's pods, under key, and returns
// its section; counts are the group's (see countGroups). A group whose
// owner is gone from the API (gone) is drawn with a head that says so,
// and data-gone-owner in place of data-owner: data-owner names live
// owners only, since a new owner of the same name may be drawn above it.
/**
 * @param {Drawing} drawing
 * @param {Cards} drawn
 * @param {Map<string, Group>} groups
 * @param {string} key
 * @param {Owner} owner
 * @param {Pod[]} pods
 * @param {{pods: number, active: number}} counts
 * @param {boolean} gone
 * @param {string[]} columns
 * @param {Set<string>} touched
 * @param {Rollout | null} [rollout] what its Deployment's card says of a
 *   ReplicaSet of a Deployment: its group is labelled with it, and its
 *   pods show their images
 */
function drawOwner(drawing, drawn, groups, key, owner, pods, counts, gone, columns, touched, rollout = null) {
	const id = `${owner.kind}/${owner.name}`;
	const isTouched = touched.has(refKey(owner.kind, owner.namespace, owner.name));
	const classes = ["owner", "group"];
	if (owner.terminating) {
		classes.push("terminating");
	}
	if (isTouched) {
		classes.push("touched");
	}
	if (gone) {
		classes.push("owner-gone");
	}
	let group = drawing.groups.get(key);
	if (!group) {
		const kind = kindNames[owner.kind] || owner.kind;
		group = newGroup(gone
			? h("section", {class: classes.join(" "), dataset: {namespace: owner.namespace}, "aria-label": t("owner.labelGone", {kind, name: owner.name})})
			: h("section", {class: classes.join(" "), dataset: {owner: id, namespace: owner.namespace}, "aria-label": t("owner.label", {kind, name: owner.name})}));
		if (gone) {
			group.el.dataset.goneOwner = id;
		}
	} else if (group.el.className !== classes.join(" ")) {
		group.el.className = classes.join(" ");
	}
	groups.set(key, group);
	group.images = rollout !== null;
	settle(group.el, {
		"data-revision": rollout ? rollout.revision : null,
		"data-hash": rollout ? rollout.hash : null,
		"data-new": rollout ? String(rollout.isNew) : null,
	});
	group.ownerHead = group.ownerHead || newHead();
	group.head = drawHead(group.ownerHead, owner, counts.active, isTouched, gone, rollout);
	drawBody(drawing, drawn, group, pods, counts.pods, columns, touched, t("world.noPods"));
	return group.el;
}

// drawOrphans draws the group of the pods no controller owns, total of
// them.
/**
 * @param {Drawing} drawing
 * @param {Cards} drawn
 * @param {Pod[]} orphans
 * @param {number} total
 * @param {string[]} columns
 * @param {Set<string>} touched
 */
function drawOrphans(drawing, drawn, orphans, total, columns, touched) {
	let group = drawing.orphans;
	if (!group) {
		group = drawing.orphans = newGroup(h("section", {id: "orphans", class: "group orphans", "aria-label": t("orphans.label")}));
		group.head = h("div", {class: "group-head"},
			h("h3", {class: "owner-title"}, h("span", {"aria-hidden": "true", text: "⚠ "}), t("orphans.title")),
			h("p", {class: "owner-meta", text: t("orphans.note")}));
		decorateWorld(group.head);
	}
	drawBody(drawing, drawn, group, orphans, total, columns, touched, t("orphans.none"));
	return group.el;
}

// --- A Deployment's card -------------------------------------------------
//
// A Deployment is drawn as a card around the groups of its ReplicaSets,
// which drawOwner draws as it draws any owner's. Its head has the parts
// below, each kept between drawings and drawn anew only when what it shows
// changed, as an owner's head is: a rollout changes the budget and the
// last scaling at many steps, and the rest seldom.

// deployTitle draws a Deployment's title: its name, its revision, and
// whether it is rolling out, paused or being deleted.
/**
 * @param {Deployment} d
 * @param {boolean} isTouched
 */
function deployTitle(d, isTouched) {
	// ‖, not the pause sign ⏸: the common text fonts have it, and a system
	// without an emoji font drew ⏸ as an empty box.
	const state = d.terminating ? "" : d.paused ? t("deploy.paused") : d.rolling ? t("deploy.rolling") : t("deploy.rolledOut");
	return titleOf({kind: "Deployment", name: `deploy/${d.name}`, namespace: d.namespace, terminating: d.terminating}, isTouched, [
		d.revision ? h("span", {class: "badge", text: t("owner.revision", {revision: d.revision})}) : null,
		state ? h("span", {class: "badge" + (d.rolling && !d.paused ? " rolling" : ""), text: state}) : null,
	]);
}

// deployMeta draws the line under a Deployment's title: its selector, its
// size, its strategy with maxSurge and maxUnavailable resolved to pods
// (by the engine, from spec.replicas), its template's image and its
// status.
/** @param {Deployment} d */
function deployMeta(d) {
	const st = d.status || /** @type {import("./bridge-types.js").DeploymentStatus} */ ({});
	const strategy = d.strategy === "RollingUpdate"
		? tParts("deploy.rollingUpdate", {surge: h("span", {class: "n-surge", text: String(d.maxSurge || 0)}), unavailable: h("span", {class: "n-unavailable", text: String(d.maxUnavailable || 0)})})
		: [d.strategy || t("deploy.noStrategy")];
	return h("p", {class: "deploy-meta"},
		h("span", {class: "meta-label", text: t("owner.selector")}),
		d.selector ? h("code", {class: "selector", lang: "en", text: d.selector}) : h("code", {class: "selector", text: t("owner.noSelector")}),
		tParts("deploy.desired", {desired: h("span", {class: "n-desired", text: String(d.replicas)}), strategy: fragment(strategy)}),
		d.image ? tParts("owner.image", {image: h("code", {lang: "en", text: d.image})}) : null,
		t("deploy.status", {updated: st.updatedReplicas || 0, ready: st.readyReplicas || 0, available: st.availableReplicas || 0}));
}

// deployBudget draws what a RollingUpdate may do now, as the engine
// computed it from the controller's own functions (world.Budget): at most
// so many pods wanted, at least so many available, and where the
// ReplicaSets stand against that. The numbers are also data attributes,
// and each pair is a meter.
/** @param {Deployment} d */
function deployBudget(d) {
	const b = d.budget;
	if (!b) {
		return null;
	}
	const replicas = d.replicas;
	return h("div", {
		class: "deploy-budget" + (d.rolling ? " rolling" : ""),
		dataset: {maxPods: b.maxPods, minAvailable: b.minAvailable, wanted: b.wanted, available: b.available, pods: b.pods, rolling: String(!!d.rolling)},
	},
	h("p", {class: "budget-line"},
		h("span", {class: "budget-label", text: d.rolling ? t("deploy.budgetRolling") : t("deploy.budget")}),
		tParts("deploy.wanted", {wanted: h("strong", {text: String(b.wanted)}), max: b.maxPods, replicas: t("count.replicas", {n: replicas}), surge: d.maxSurge || 0}),
		" ", h("meter", {min: 0, max: Math.max(b.maxPods, 1), value: Math.min(b.wanted, Math.max(b.maxPods, 1)), "aria-label": t("deploy.wantedMeter", {wanted: b.wanted, max: b.maxPods})})),
	h("p", {class: "budget-line"},
		tParts("deploy.available", {available: h("strong", {text: String(b.available)}), min: b.minAvailable, replicas: t("count.replicas", {n: replicas}), unavailable: d.maxUnavailable || 0}),
		" ", h("meter", {min: 0, max: Math.max(replicas, b.available, 1), low: b.minAvailable, optimum: replicas, value: b.available, "aria-label": t("deploy.availableMeter", {available: b.available, min: b.minAvailable})}),
		t("deploy.activeNow", {pods: t("count.activePods", {n: b.pods})})));
}

// deployScale draws the last sync that scaled one of the Deployment's
// ReplicaSets: which, from and to, the function that decided it, and why,
// in the controller's own words (world.Scale).
/** @param {Deployment} d */
function deployScale(d) {
	const s = d.lastScaling;
	if (!s || !(s.scales || []).length) {
		return null;
	}
	return h("div", {class: "deploy-last-scale", dataset: {seq: s.seq}},
		h("p", {class: "scale-head"}, tParts("deploy.lastScaling", {seq: s.seq, worker: h("code", {lang: "en", text: s.worker}), end: duration(s.end)})),
		h("ul", {class: "scales"}, (s.scales || []).map((x) => h("li", {dataset: {rs: `rs/${x.replicaSet}`, from: x.from, to: x.to, by: x.by}},
			h("code", {lang: "en", text: `rs/${x.replicaSet}`}), ` ${x.from} → ${x.to} `,
			h("span", {class: "scale-dir", "aria-hidden": "true", text: x.to > x.from ? "▲" : "▼"}),
			" (", h("code", {lang: "en", text: x.by}), "): ", h("span", {lang: "en", text: x.why})))));
}

// deployHistory fills the history's details element: its summary, and a
// table of the revisions, oldest first as kubectl rollout history lists
// them, the current one marked.
/**
 * @param {HTMLDetailsElement} el
 * @param {Deployment} d
 */
function deployHistory(el, d) {
	const revisions = d.history || [];
	el.replaceChildren(
		h("summary", null, t("deploy.history", {revisions: t("count.revisions", {n: revisions.length})})),
		revisions.length
			? table(t("deploy.historyOf", {name: `deploy/${d.name}`}), [t("deploy.revision"), "ReplicaSet", t("deploy.image"), "change-cause"], revisions.map((r) => {
				const current = String(r.revision) === d.revision;
				return {
					attrs: {class: current ? "current" : "", dataset: {revision: r.revision, ...(current ? {current: "true"} : {})}},
					cells: [
						current ? t("deploy.currentRevision", {revision: r.revision}) : String(r.revision),
						h("code", {lang: "en", text: r.replicaSet}),
						r.image ? h("code", {lang: "en", text: r.image}) : "",
						r.changeCause ? h("span", {lang: "en", text: r.changeCause}) : "<none>",
					],
				};
			}), "grid history")
			: h("p", {class: "empty", text: t("deploy.noRevision")}));
}

// deployEmpty draws what a card with no ReplicaSet says in place of their
// groups: why there is none, and whether the next sync makes one. As
// upstream's syncDeployment does, it asks first whether the Deployment is
// being deleted (its sync then writes only its status), then whether it is
// paused (its sync then scales the ReplicaSets it has but makes no new one).
/** @param {Deployment} d */
function deployEmpty(d) {
	const why = d.terminating
		? t("deploy.emptyDeleting")
		: d.paused
			? t("deploy.emptyPaused")
			: t("deploy.emptyNext");
	return h("p", {class: "empty", text: why});
}

// newDeployCard makes the record of a Deployment's card, with nothing
// drawn.
/**
 * @param {Deployment} d
 * @returns {DeployCard}
 */
function newDeployCard(d) {
	const el = h("section", {class: "group deployment", dataset: {deployment: `deploy/${d.name}`, namespace: d.namespace}, "aria-label": t("owner.label", {kind: "Deployment", name: d.name})});
	return {
		el, head: h("div", {class: "group-head deploy-head"}),
		title: newPart(), meta: newPart(), budget: newPart(), scale: newPart(),
		historySig: null, history: h("details", {class: "deploy-history"}),
		rss: h("div", {class: "deploy-rss"}),
		empty: newPart(),
	};
}

// drawDeployment draws a Deployment's card under key, around rss, its
// ReplicaSets' groups (drawn by drawOwner, in the order the engine lists
// them: newest revision first), and returns its section.
/**
 * @param {Drawing} drawing
 * @param {Map<string, DeployCard>} cards
 * @param {string} key
 * @param {Deployment} d
 * @param {HTMLElement[]} rss
 * @param {Set<string>} touched
 */
function drawDeployment(drawing, cards, key, d, rss, touched) {
	const card = drawing.deployments.get(key) || newDeployCard(d);
	cards.set(key, card);
	const isTouched = touched.has(refKey("deploy", d.namespace, d.name));
	const classes = ["group", "deployment"];
	if (d.terminating) {
		classes.push("terminating");
	}
	if (isTouched) {
		classes.push("touched");
	}
	if (card.el.className !== classes.join(" ")) {
		card.el.className = classes.join(" ");
	}
	const title = redraw(card.title, JSON.stringify([isTouched, d.name, d.namespace, d.revision, d.rolling, d.paused, d.terminating]),
		() => deployTitle(d, isTouched), ".owner-title");
	const meta = redraw(card.meta, JSON.stringify([d.selector, d.replicas, d.strategy, d.maxSurge, d.maxUnavailable, d.image, d.status]),
		() => deployMeta(d), ".deploy-meta");
	const budget = redraw(card.budget, JSON.stringify([d.budget, d.rolling, d.replicas, d.maxSurge, d.maxUnavailable]),
		() => deployBudget(d), ".deploy-budget");
	const scale = redraw(card.scale, JSON.stringify(d.lastScaling || null), () => deployScale(d), ".deploy-last-scale");
	const historySig = JSON.stringify([d.history, d.revision]);
	if (card.historySig !== historySig) {
		card.historySig = historySig;
		deployHistory(card.history, d);
	}
	reconcile(card.head, [title, meta, budget, scale, card.history].filter((part) => part !== null));
	reconcile(card.rss, rss);
	// The note is drawn only while the card has no ReplicaSet to show.
	const body = rss.length ? card.rss : redraw(card.empty, JSON.stringify([!!d.terminating, !!d.paused]), () => deployEmpty(d), null);
	reconcile(card.el, [card.head, /** @type {HTMLElement} */ (body)]);
	return card.el;
}

// countGroups reads the view's count of each group's pods (the view
// lists at most maxPodsPerOwner of a group, the page asks it so): by
// the key renderWorld groups pods under, "namespace/kind/name", with
// "gone " before it for an owner gone from the API, and "" for all the
// orphans together. A group the view does not count (a view made by
// hand, say) is counted from the pods it lists.
/**
 * @param {View} view
 * @returns {(key: string) => {pods: number, active: number}}
 */
function countGroups(view) {
	/** @type {Map<string, {pods: number, active: number}>} */
	const counts = new Map();
	/**
	 * @param {string} key
	 * @param {number} pods
	 * @param {number} active
	 */
	const add = (key, pods, active) => {
		const c = counts.get(key) || {pods: 0, active: 0};
		counts.set(key, {pods: c.pods + pods, active: c.active + active});
	};
	if (view.podGroups) {
		for (const g of view.podGroups) {
			add(!g.owner ? "" : `${g.ownerGone ? "gone " : ""}${g.namespace}/${g.owner}`, g.pods, g.active);
		}
		return (key) => counts.get(key) || {pods: 0, active: 0};
	}
	for (const pod of view.pods || []) {
		add(!pod.owner ? "" : `${pod.ownerGone ? "gone " : ""}${pod.namespace}/${pod.owner}`, 1, isActive(pod) ? 1 : 0);
	}
	return (key) => counts.get(key) || {pods: 0, active: 0};
}

// renderWorld draws the view into root (#world), changing only what
// differs from what root shows.
/**
 * @param {HTMLElement} root
 * @param {View} view
 * @param {Set<string>} touched
 */
function renderWorld(root, view, touched) {
	// A glossary term that had the focus keeps it when its part of the
	// drawing is drawn anew.
	const focus = termFocus(root);
	let drawing = drawings.get(root);
	if (!drawing) {
		drawing = newDrawing();
		drawings.set(root, drawing);
	}
	const nodes = view.nodes || [];
	const columns = ["", ...nodes.map((n) => n.name)];
	if (drawing.cols !== String(columns.length)) {
		drawing.cols = String(columns.length);
		root.style.setProperty("--cols", drawing.cols);
	}
	const pods = view.pods || [];
	const countOf = countGroups(view);

	// Group the pods by their controller, keyed by namespace and kind/name.
	// A pod whose controller is gone goes with the other pods of that gone
	// owner, even when a new owner of the same name exists (another uid).
	/** @type {Map<string, Pod[]>} */
	const byOwner = new Map();
	/** @type {Map<string, Pod[]>} */
	const byGoneOwner = new Map();
	/** @type {Pod[]} */
	const orphans = [];
	for (const pod of pods) {
		if (!pod.owner) {
			orphans.push(pod);
			continue;
		}
		const groups = pod.ownerGone ? byGoneOwner : byOwner;
		const key = `${pod.namespace}/${pod.owner}`;
		let list = groups.get(key);
		if (!list) {
			list = [];
			groups.set(key, list);
		}
		list.push(pod);
	}

	// drawn and groups become the drawing's cards and groups: those
	// this view draws, and no others.
	/** @type {Cards} */
	const drawn = new Map();
	/** @type {Map<string, Group>} */
	const groups = new Map();
	/** @type {HTMLElement[]} */
	const parts = [];
	const total = view.podsTotal ?? pods.length;
	if (total > pods.length) {
		drawing.showing = keepText(drawing.showing, "p", "note", tParts("world.showing", {shown: pods.length, total, max: maxPodsPerOwner, command: getPods()}));
		parts.push(drawing.showing);
	}
	const nodesSig = JSON.stringify(nodes.map((node) => [touched.has(refKey("node", "", node.name)), node]));
	if (!drawing.nodes || drawing.nodes.sig !== nodesSig) {
		drawing.nodes = {sig: nodesSig, el: nodeRow(nodes, touched)};
		decorateWorld(drawing.nodes.el);
	}
	parts.push(drawing.nodes.el);
	// A Deployment's card holds its ReplicaSets' groups, in the order the
	// engine lists them (newest revision first); the other owners follow,
	// each a group of its own.
	const deployments = view.deployments || [];
	/** @type {Map<string, DeployCard>} */
	const cards = new Map();
	/** @type {Set<string>} */
	const inCards = new Set();
	if (deployments.length) {
		const owners = new Map((view.owners || []).map((o) => [`${o.namespace}/${o.kind}/${o.name}`, o]));
		for (const d of deployments) {
			const images = new Map((d.history || []).map((r) => [r.replicaSet, r.image || ""]));
			/** @type {HTMLElement[]} */
			const rss = [];
			for (const name of d.replicaSets || []) {
				const key = `${d.namespace}/rs/${name}`;
				const owner = owners.get(key);
				if (!owner) {
					continue; // the engine lists owners and Deployments at the same step
				}
				const rollout = {revision: owner.revision || "", hash: owner.templateHash || "", image: images.get(name) || "", isNew: name === d.newReplicaSet};
				rss.push(drawOwner(drawing, drawn, groups, key, owner, byOwner.get(key) || [], countOf(key), false, columns, touched, rollout));
				byOwner.delete(key);
				inCards.add(key);
			}
			parts.push(drawDeployment(drawing, cards, `${d.namespace}/deploy/${d.name}`, d, rss, touched));
		}
	}
	for (const owner of view.owners || []) {
		const key = `${owner.namespace}/${owner.kind}/${owner.name}`;
		if (inCards.has(key)) {
			continue;
		}
		parts.push(drawOwner(drawing, drawn, groups, key, owner, byOwner.get(key) || [], countOf(key), false, columns, touched));
		byOwner.delete(key);
	}
	// Pods whose controller is gone from the API (the garbage collector
	// has yet to act on them) keep their owner reference: group them
	// under that name, marked as gone. (A pod under an owner the view
	// does not list is one too: the engine lists its owners and pods at
	// the same step, so there is none.)
	for (const [key, list] of byOwner) {
		const gone = byGoneOwner.get(key) || [];
		byGoneOwner.set(key, gone.concat(list));
	}
	for (const [key, list] of byGoneOwner) {
		const [namespace, kind, name] = key.split("/");
		// An owner gone from the API has no status: its head says it
		// is gone, and drawCounts does not read it.
		/** @type {Owner} */
		const owner = {kind, namespace, name, selector: "", replicas: 0, status: /** @type {import("./bridge-types.js").OwnerStatus} */ ({})};
		parts.push(drawOwner(drawing, drawn, groups, "gone " + key, owner, list, countOf("gone " + key), true, columns, touched));
	}
	parts.push(drawOrphans(drawing, drawn, orphans, countOf("").pods, columns, touched));
	if (!(view.owners || []).length && !pods.length && !deployments.length) {
		drawing.nothing = drawing.nothing || h("p", {class: "note"}, tParts("world.nothing", {
			rs: h("code", {lang: "en", text: "create rs web --replicas=3 --selector=app=web"}),
			deploy: h("code", {lang: "en", text: "create deploy web --replicas=4 --selector=app=web"}),
		}));
		parts.splice(1, 0, drawing.nothing);
	}
	drawing.pods = drawn;
	drawing.groups = groups;
	drawing.deployments = cards;
	reconcile(root, parts);
	restoreTermFocus(root, focus);
}

// --- The pod menu --------------------------------------------------------

// labelChanges reads the relabel field: label changes separated by
// spaces or commas, each key=value (set) or key- (remove), as kubectl
// label takes them. It returns the changes, or the problem with the
// first word that is not one, in words that say what would be right.
// The engine checks the keys and values themselves, with its own errors.
/**
 * @param {string} text
 * @returns {{changes: string[], problem: string, parts: Array<string | Node>}}
 */
function labelChanges(text) {
	const words = String(text).split(/[\s,]+/).filter(Boolean);
	/** @param {string} code */
	const en = (code) => h("code", {lang: "en", text: code});
	const example = () => tParts("relabel.example", {set: en("key=value"), remove: en("key-"), one: en("app=orphan"), other: en("tier-")});
	/** @param {Array<string | Node>} parts */
	const problem = (parts) => ({changes: [], problem: parts.map((p) => (typeof p === "string" ? p : p.textContent)).join(""), parts});
	if (!words.length) {
		return problem(tParts("relabel.none", {example: fragment(example())}));
	}
	for (const word of words) {
		if (word.startsWith("-") || !/^[^=]+=[^=]*$|^[^=]+-$/.test(word)) {
			return problem(tParts("relabel.notAChange", {word: en(word), example: fragment(example())}));
		}
	}
	return {changes: words, problem: "", parts: []};
}

// fragment holds parts (text and nodes) as one node, for a message's
// place.
/** @param {Array<string | Node>} parts */
function fragment(parts) {
	const frag = document.createDocumentFragment();
	frag.append(...parts);
	return frag;
}

// PodMenu is the small dialog a pod's button opens: it offers what can
// happen to a pod, each as the console command that does it, so the
// learner sees the syntax. It traps focus while open, closes on Escape or
// a click outside, and gives focus back to the pod.
class PodMenu {
	/**
	 * @param {HTMLElement} menu
	 * @param {{onCommand: (line: string) => Promise<unknown>, findPod: (namespace: string | undefined, name: string | undefined) => HTMLElement | null, fallbackFocus: () => HTMLElement}} hooks
	 */
	constructor(menu, {onCommand, findPod, fallbackFocus}) {
		this.menu = menu;
		this.onCommand = onCommand;
		this.findPod = findPod;
		this.fallbackFocus = fallbackFocus;
		/** @type {{name: string | undefined, namespace: string | undefined, ready: boolean, labels: string} | null} */
		this.pod = null;
		// index.html gives the menu each of these.
		this.title = /** @type {HTMLElement} */ (menu.querySelector("#pod-menu-title"));
		this.form = /** @type {HTMLFormElement} */ (menu.querySelector("#relabel-form"));
		this.input = /** @type {HTMLInputElement} */ (menu.querySelector("#relabel-input"));
		this.relabelButton = /** @type {HTMLButtonElement} */ (menu.querySelector('[data-action="relabel"]'));
		this.error = /** @type {HTMLElement} */ (menu.querySelector("#relabel-error"));

		menu.addEventListener("click", (event) => {
			// A click lands on an element of the menu.
			const button = /** @type {Element} */ (event.target).closest("button");
			if (!button || !menu.contains(button)) {
				return;
			}
			if (button.hasAttribute("data-close")) {
				this.close(true);
			} else if (button.dataset.action) {
				this.act(button.dataset.action);
			}
		});
		this.form.addEventListener("submit", (event) => {
			event.preventDefault();
			this.applyRelabel();
		});
		menu.addEventListener("keydown", (event) => this.keydown(event));
		document.addEventListener("pointerdown", (event) => {
			const target = /** @type {Element} */ (event.target);
			if (this.isOpen() && !menu.contains(target) && !target.closest("button.pod")) {
				this.close(false);
			}
		});
	}

	isOpen() {
		return !this.menu.hidden;
	}

	// open shows the menu for the pod a button draws.
	/** @param {HTMLElement} button */
	open(button) {
		const d = button.dataset;
		this.pod = {name: d.pod, namespace: d.namespace, ready: d.ready === "true", labels: d.labels || ""};
		this.title.replaceChildren(...tParts(this.pod.namespace !== "default" ? "pod.menuTitleNamespace" : "pod.menuTitle", {
			actions: h("span", {class: "visually-hidden", text: t("pod.actionsFor")}),
			pod: h("code", {lang: "en", text: this.pod.name}),
			namespace: this.pod.namespace || "",
		}));
		// Set not ready is always offered (a readiness probe can fail
		// at any time); set ready only when the pod is not ready.
		/** @type {HTMLElement} */ (this.menu.querySelector('[data-action="ready"]')).hidden = this.pod.ready;
		this.form.hidden = true;
		this.relabelButton.setAttribute("aria-expanded", "false");
		for (const el of document.querySelectorAll('button.pod[aria-expanded="true"]')) {
			el.setAttribute("aria-expanded", "false");
		}
		button.setAttribute("aria-expanded", "true");
		this.menu.hidden = false;
		this.place(button);
		/** @type {HTMLElement} */ (this.menu.querySelector("[data-action]:not([hidden])")).focus();
	}

	// place puts the menu under the pod, inside the viewport.
	/** @param {HTMLElement} button */
	place(button) {
		const rect = button.getBoundingClientRect();
		const width = this.menu.offsetWidth;
		const left = Math.max(8, Math.min(rect.left + globalThis.scrollX, globalThis.scrollX + document.documentElement.clientWidth - width - 8));
		this.menu.style.left = `${left}px`;
		this.menu.style.top = `${rect.bottom + globalThis.scrollY + 6}px`;
	}

	/** @param {boolean} returnFocus */
	close(returnFocus) {
		if (!this.isOpen()) {
			return;
		}
		this.menu.hidden = true;
		const pod = this.pod;
		this.pod = null;
		const button = pod && this.findPod(pod.namespace, pod.name);
		if (button) {
			button.setAttribute("aria-expanded", "false");
		}
		if (returnFocus) {
			(button || this.fallbackFocus()).focus();
		}
	}

	// target is how a command names the pod.
	target() {
		// Only asked while the menu is open for a pod.
		const pod = /** @type {NonNullable<PodMenu["pod"]>} */ (this.pod);
		const ns = pod.namespace && pod.namespace !== "default" ? ` -n ${pod.namespace}` : "";
		return `pod/${pod.name}${ns}`;
	}

	/** @param {string} action */
	act(action) {
		const t = this.target();
		/** @type {Record<string, string>} */
		const commands = {
			kill: `kill ${t}`,
			evict: `evict ${t}`,
			crash: `crash ${t}`,
			delete: `delete ${t}`,
			"not-ready": `set ready ${t} false`,
			ready: `set ready ${t} true`,
		};
		if (action === "relabel") {
			this.showRelabel();
			return;
		}
		const line = commands[action];
		if (line) {
			this.run(line);
		}
	}

	showRelabel() {
		this.form.hidden = false;
		this.error.hidden = true;
		this.error.textContent = "";
		this.input.removeAttribute("aria-invalid");
		this.relabelButton.setAttribute("aria-expanded", "true");
		// Suggest taking the pod out of its owner's selector: the first
		// label, set to "orphan".
		const first = /** @type {NonNullable<PodMenu["pod"]>} */ (this.pod).labels.split(",")[0];
		const key = first ? first.split("=")[0] : "app";
		this.input.value = `${key}=orphan`;
		this.input.focus();
		this.input.select();
	}

	// applyRelabel runs the label command for what the learner typed,
	// once it is nothing but label changes: the text becomes words of a
	// console line, where anything starting with - would be read as a
	// flag (--dry-run, -n kube-system), so it is checked first, and what
	// is wrong is said in the form, next to the field.
	applyRelabel() {
		const {changes, problem, parts} = labelChanges(this.input.value);
		if (problem) {
			this.error.replaceChildren(...parts);
			this.error.hidden = false;
			this.input.setAttribute("aria-invalid", "true");
			this.input.focus();
			return;
		}
		this.run(`label ${this.target()} ${changes.join(" ")} --overwrite`);
	}

	/** @param {string} line */
	run(line) {
		const pod = this.pod;
		this.close(false);
		this.onCommand(line).finally(() => {
			// The world has been redrawn: give focus to the pod's new
			// button, or to the step button when the pod is gone.
			const button = pod && this.findPod(pod.namespace, pod.name);
			(button || this.fallbackFocus()).focus();
		});
	}

	/** @param {KeyboardEvent} event */
	keydown(event) {
		if (event.key === "Escape") {
			event.preventDefault();
			event.stopPropagation();
			this.close(true);
			return;
		}
		if (event.key !== "Tab") {
			return;
		}
		// Keep focus inside the menu while it is open.
		const focusable = [.../** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */ (this.menu.querySelectorAll("button, input"))].filter((el) => !el.closest("[hidden]") && !el.hidden);
		if (!focusable.length) {
			return;
		}
		const first = focusable[0];
		const last = focusable[focusable.length - 1];
		if (event.shiftKey && document.activeElement === first) {
			event.preventDefault();
			last.focus();
		} else if (!event.shiftKey && document.activeElement === last) {
			event.preventDefault();
			first.focus();
		}
	}
}

export {renderWorld, touchedSet, refKey, PodMenu, labelChanges, maxPodsPerOwner};
