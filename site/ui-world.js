// ui-world.js draws the world: the nodes as columns, each ReplicaSet and
// ReplicationController as a group holding the pods it controls (each pod in
// its node's column), and the orphans, pods no controller owns, in a group of
// their own. It also runs the small menu that opens when a pod is clicked.
//
// The drawing is rebuilt from the view at every render: views are capped
// (pods per owner here, pods in all by the engine), so this stays cheap, and
// rebuilding means the page can never show a stale pod.
"use strict";

(() => {
	const UI = globalThis.RlabUI;
	const {h, plural} = UI;

	// maxPodsPerOwner is the most pods drawn in one group; the rest are
	// counted ("and 40 more").
	const maxPodsPerOwner = 60;

	const kindNames = {rs: "ReplicaSet", rc: "ReplicationController"};

	// refKey is how the page names an object in a step's touched list.
	function refKey(kind, namespace, name) {
		return `${kind}/${namespace || ""}/${name}`;
	}

	// touchedSet collects the objects a step touched.
	function touchedSet(step) {
		const set = new Set();
		for (const ref of (step && step.touched) || []) {
			set.add(refKey(ref.kind, ref.namespace, ref.name));
		}
		return set;
	}

	// podState describes a pod in words and with a marker, so that its state
	// never rests on colour alone.
	function podState(pod) {
		if (pod.terminating) {
			return {mark: "⊘", text: "Terminating"};
		}
		switch (pod.phase) {
		case "Failed":
			return {mark: "✕", text: "Failed"};
		case "Succeeded":
			return {mark: "■", text: "Succeeded"};
		case "Pending":
			return {mark: "…", text: pod.node ? "Pending" : "Pending, not scheduled"};
		case "Running":
			return pod.ready ? {mark: "✓", text: "Running, Ready"} : {mark: "○", text: "Running, not ready"};
		default:
			return {mark: "?", text: pod.phase || "unknown"};
		}
	}

	// podButton draws one pod as a button (the test suite and the keyboard
	// both rely on it being a real button).
	function podButton(pod, touched) {
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
			details.push(plural(pod.restarts, "restart"));
		}
		const node = pod.node ? `on ${pod.node}` : "not scheduled";
		// The button's name holds its visible text, in the same order, and
		// only then what the card does not show (WCAG 2.5.3, label in name):
		// a learner who speaks to the page, "click web-x Running", or reads
		// it with a screen reader, meets the words on the card. The node is
		// the card's last line, shown on narrow screens only (wide ones
		// show it as the pod's column), so the name holds the visible text
		// on both.
		const description = [
			`pod ${pod.name}`,
			details.join(", "),
			labels,
			claim ? claim.short : "",
			node,
			pod.namespace !== "default" ? `in namespace ${pod.namespace}` : "",
			pod.owner ? `controlled by ${pod.owner}` : "orphan: no controller",
			labels ? "" : "no labels",
			claim ? claim.long : "",
			pod.kubelet ? `kubelet: ${pod.kubelet}` : "",
			isTouched ? "touched by the last step" : "",
		].filter(Boolean).join(", ");
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
		" ", h("span", {class: "pod-name", text: pod.name}),
		" ", h("span", {class: "pod-state", text: details.join(" · ")}),
		labels ? [" ", h("span", {class: "pod-labels", text: labels})] : null,
		claim ? [" ", h("span", {class: "pod-claim", text: claim.short})] : null,
		" ", h("span", {class: "pod-node", text: node}));
	}

	// claimHint says what the next sync of an owner will do with the pod, as
	// the view computed it from the selectors (upstream's claimPods): release
	// a pod whose labels left its controller's selector, or adopt an orphan
	// whose labels match one. Null when neither.
	function claimHint(pod) {
		if (pod.releasing) {
			return {
				kind: "releasing",
				short: `↗ left ${pod.owner}'s selector`,
				long: `its labels no longer match ${pod.owner}'s selector, so the next sync of ${pod.owner} releases it`,
			};
		}
		const by = pod.adoptableBy || [];
		if (by.length) {
			const owners = by.join(" and ");
			return {
				kind: "adoptable",
				short: `⤵ matches ${owners}`,
				long: `its labels match the selector of ${owners}, so the next sync of ${by.length > 1 ? "either" : owners} adopts it`,
			};
		}
		return null;
	}

	// podGrid lays pods out in the node columns: column 0 holds the pods not
	// bound to a node, then one column per node, in the view's order. A pod on
	// a node the view does not list goes to the first column too.
	function podGrid(pods, columns, touched) {
		const cells = columns.map((col) => h("div", {class: "cell", dataset: {column: col || "-"}}));
		const index = new Map(columns.map((col, i) => [col, i]));
		const shown = pods.slice(0, maxPodsPerOwner);
		for (const pod of shown) {
			cells[index.get(pod.node || "") ?? 0].appendChild(podButton(pod, touched));
		}
		const grid = h("div", {class: "pod-grid"}, cells);
		const more = pods.length - shown.length;
		return [grid, more > 0 ? h("p", {class: "more", text: `and ${more} more ${more === 1 ? "pod" : "pods"} (get pods lists them all)`}) : null];
	}

	// isActive says whether the controller counts a pod as one of its
	// replicas (upstream's FilterActivePods): not finished and not being
	// deleted.
	function isActive(pod) {
		return !pod.terminating && pod.phase !== "Failed" && pod.phase !== "Succeeded";
	}

	// statusLine says what an owner wants and what its status says. The
	// status is what the controller last wrote, at the end of a sync, so
	// between syncs it can trail the pods drawn below it: when it does, the
	// line says so, rather than showing two counts that disagree silently.
	function statusLine(owner, pods) {
		const s = owner.status || {};
		const active = pods.filter(isActive).length;
		const status = `status, as last written: ${s.replicas || 0} current · ${s.readyReplicas || 0} ready · ${s.availableReplicas || 0} available`;
		const behind = active !== (s.replicas || 0)
			? ` (${plural(active, "active pod")} now: the status catches up when the controller next syncs and writes it)`
			: "";
		return `${owner.replicas} desired · ${status}${behind}`;
	}

	// ownerGroup draws one owner with its pods.
	function ownerGroup(owner, pods, columns, touched) {
		const id = `${owner.kind}/${owner.name}`;
		const isTouched = touched.has(refKey(owner.kind, owner.namespace, owner.name));
		const classes = ["owner", "group"];
		if (owner.terminating) {
			classes.push("terminating");
		}
		if (isTouched) {
			classes.push("touched");
		}
		const title = h("h3", {class: "owner-title"},
			isTouched ? h("span", {class: "mark-touched", "aria-hidden": "true", text: "◆ "}) : null,
			h("span", {class: "owner-kind", text: kindNames[owner.kind] || owner.kind}), " ",
			h("span", {class: "owner-name mono", text: id}),
			owner.namespace !== "default" ? h("span", {class: "owner-ns", text: ` in ${owner.namespace}`}) : null,
			owner.terminating ? h("span", {class: "badge warn", text: "⊘ being deleted"}) : null,
			isTouched ? h("span", {class: "visually-hidden", text: " (touched by the last step)"}) : null);
		return h("section", {class: classes.join(" "), dataset: {owner: id, namespace: owner.namespace}, "aria-label": `${kindNames[owner.kind] || owner.kind} ${owner.name}`},
			h("div", {class: "group-head"},
				title,
				h("p", {class: "owner-meta"},
					h("span", {class: "meta-label", text: "selector "}),
					h("code", {class: "selector", text: owner.selector || "(none)"}),
					h("span", {class: "replicas", text: " · " + statusLine(owner, pods)})),
				owner.failure ? h("p", {class: "owner-failure", text: `⚠ ReplicaFailure: ${owner.failure}`}) : null),
			pods.length ? podGrid(pods, columns, touched) : h("p", {class: "empty", text: "no pods"}));
	}

	// nodeHeader draws the node columns' headings.
	function nodeHeader(nodes, touched) {
		const cells = [h("div", {class: "node-col unscheduled"}, h("span", {class: "node-name", text: "not scheduled"}))];
		for (const node of nodes) {
			const notes = [];
			notes.push(node.ready ? "✓ Ready" : "✕ NotReady");
			if (!node.schedulable) {
				notes.push("⊗ cordoned");
			}
			if (!node.kubelet) {
				notes.push("no kubelet");
			}
			if (!node.registered) {
				notes.push("not registered");
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
		return h("div", {class: "node-row", "aria-label": "Nodes"}, cells);
	}

	// lastWorld is what the world shows, as JSON: an unchanged world (a step
	// inside the controller) is not rebuilt.
	let lastWorld = "";

	// renderWorld redraws root (#world) from a view.
	function renderWorld(root, view, touched) {
		const key = JSON.stringify([view.nodes, view.owners, view.pods, view.podsTotal, [...touched]]);
		if (key === lastWorld && root.firstChild) {
			return;
		}
		lastWorld = key;
		const nodes = view.nodes || [];
		const columns = ["", ...nodes.map((n) => n.name)];
		root.style.setProperty("--cols", String(columns.length));
		const pods = view.pods || [];

		// Group the pods by their controller, keyed by namespace and kind/name.
		// A pod whose controller is gone goes with the other pods of that gone
		// owner, even when a new owner of the same name exists (another uid).
		const byOwner = new Map();
		const byGoneOwner = new Map();
		const orphans = [];
		for (const pod of pods) {
			if (!pod.owner) {
				orphans.push(pod);
				continue;
			}
			const groups = pod.ownerGone ? byGoneOwner : byOwner;
			const key = `${pod.namespace}/${pod.owner}`;
			if (!groups.has(key)) {
				groups.set(key, []);
			}
			groups.get(key).push(pod);
		}

		const parts = [];
		const total = view.podsTotal ?? pods.length;
		if (total > pods.length) {
			parts.push(h("p", {class: "note", text: `Showing ${pods.length} of ${total} pods; the console's get pods lists them all.`}));
		}
		parts.push(nodeHeader(nodes, touched));
		for (const owner of view.owners || []) {
			const key = `${owner.namespace}/${owner.kind}/${owner.name}`;
			parts.push(ownerGroup(owner, byOwner.get(key) || [], columns, touched));
			byOwner.delete(key);
		}
		// Pods whose controller is gone from the API (the garbage collector
		// has yet to act on them) keep their owner reference: group them
		// under that name, marked as gone. (A pod under an owner the view
		// does not list is one too.)
		for (const [key, list] of byOwner) {
			const gone = byGoneOwner.get(key) || [];
			byGoneOwner.set(key, gone.concat(list));
		}
		for (const [key, list] of byGoneOwner) {
			const [namespace, kind, name] = key.split("/");
			const group = ownerGroup({kind, namespace, name, selector: "", replicas: 0, status: {}}, list, columns, touched);
			group.classList.add("owner-gone");
			// data-owner names live owners only: a new owner of the same
			// name may be drawn above.
			delete group.dataset.owner;
			group.dataset.goneOwner = `${kind}/${name}`;
			group.setAttribute("aria-label", `${kindNames[kind] || kind} ${name}, gone from the API`);
			group.querySelector(".owner-meta").replaceChildren(h("span", {text: "this owner is gone from the API; the garbage collector will act on its pods"}));
			parts.push(group);
		}
		const orphanHead = h("div", {class: "group-head"},
			h("h3", {class: "owner-title"}, h("span", {"aria-hidden": "true", text: "⚠ "}), "Orphans"),
			h("p", {class: "owner-meta", text: "pods no controller owns: a ReplicaSet whose selector matches one adopts it"}));
		parts.push(h("section", {id: "orphans", class: "group orphans", "aria-label": "Orphan pods"},
			orphanHead,
			orphans.length ? podGrid(orphans, columns, touched) : h("p", {class: "empty", text: "no orphans"})));
		if (!(view.owners || []).length && !pods.length) {
			parts.splice(1, 0, h("p", {class: "note", text: "Nothing here yet: create a ReplicaSet in the console, e.g. create rs web --replicas=3 --selector=app=web"}));
		}
		// The drawing's words (selector, orphan, cordoned, …) become
		// glossary terms; one that had the focus keeps it.
		const focus = UI.termFocus(root);
		root.replaceChildren(...parts);
		UI.decorateWorld(root);
		UI.restoreTermFocus(root, focus);
	}

	// --- The pod menu --------------------------------------------------------

	// labelChanges reads the relabel field: label changes separated by
	// spaces or commas, each key=value (set) or key- (remove), as kubectl
	// label takes them. It returns the changes, or the problem with the
	// first word that is not one, in words that say what would be right.
	// The engine checks the keys and values themselves, with its own errors.
	function labelChanges(text) {
		const words = String(text).split(/[\s,]+/).filter(Boolean);
		const example = "write key=value to set a label or key- to remove one, e.g. app=orphan or tier-";
		if (!words.length) {
			return {changes: [], problem: `Type at least one label change: ${example}.`};
		}
		for (const word of words) {
			if (word.startsWith("-") || !/^[^=]+=[^=]*$|^[^=]+-$/.test(word)) {
				return {changes: [], problem: `"${word}" is not a label change: ${example}.`};
			}
		}
		return {changes: words, problem: ""};
	}

	// PodMenu is the small dialog a pod's button opens: it offers what can
	// happen to a pod, each as the console command that does it, so the
	// learner sees the syntax. It traps focus while open, closes on Escape or
	// a click outside, and gives focus back to the pod.
	class PodMenu {
		constructor(menu, {onCommand, findPod, fallbackFocus}) {
			this.menu = menu;
			this.onCommand = onCommand;
			this.findPod = findPod;
			this.fallbackFocus = fallbackFocus;
			this.pod = null; // {name, namespace, ready, labels}
			this.title = menu.querySelector("#pod-menu-title");
			this.form = menu.querySelector("#relabel-form");
			this.input = menu.querySelector("#relabel-input");
			this.relabelButton = menu.querySelector('[data-action="relabel"]');
			this.error = menu.querySelector("#relabel-error");

			menu.addEventListener("click", (event) => {
				const button = event.target.closest("button");
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
				if (this.isOpen() && !menu.contains(event.target) && !event.target.closest("button.pod")) {
					this.close(false);
				}
			});
		}

		isOpen() {
			return !this.menu.hidden;
		}

		// open shows the menu for the pod a button draws.
		open(button) {
			const d = button.dataset;
			this.pod = {name: d.pod, namespace: d.namespace, ready: d.ready === "true", labels: d.labels || ""};
			this.title.replaceChildren(
				h("span", {class: "visually-hidden", text: "Actions for "}),
				"pod ", h("code", {text: this.pod.name}),
				this.pod.namespace !== "default" ? ` in ${this.pod.namespace}` : "");
			// Set not ready is always offered (a readiness probe can fail
			// at any time); set ready only when the pod is not ready.
			this.menu.querySelector('[data-action="ready"]').hidden = this.pod.ready;
			this.form.hidden = true;
			this.relabelButton.setAttribute("aria-expanded", "false");
			for (const el of document.querySelectorAll('button.pod[aria-expanded="true"]')) {
				el.setAttribute("aria-expanded", "false");
			}
			button.setAttribute("aria-expanded", "true");
			this.menu.hidden = false;
			this.place(button);
			this.menu.querySelector("[data-action]:not([hidden])").focus();
		}

		// place puts the menu under the pod, inside the viewport.
		place(button) {
			const rect = button.getBoundingClientRect();
			const width = this.menu.offsetWidth;
			const left = Math.max(8, Math.min(rect.left + globalThis.scrollX, globalThis.scrollX + document.documentElement.clientWidth - width - 8));
			this.menu.style.left = `${left}px`;
			this.menu.style.top = `${rect.bottom + globalThis.scrollY + 6}px`;
		}

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
			const ns = this.pod.namespace && this.pod.namespace !== "default" ? ` -n ${this.pod.namespace}` : "";
			return `pod/${this.pod.name}${ns}`;
		}

		act(action) {
			const t = this.target();
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
			const first = this.pod.labels.split(",")[0];
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
			const {changes, problem} = labelChanges(this.input.value);
			if (problem) {
				this.error.textContent = problem;
				this.error.hidden = false;
				this.input.setAttribute("aria-invalid", "true");
				this.input.focus();
				return;
			}
			this.run(`label ${this.target()} ${changes.join(" ")} --overwrite`);
		}

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
			const focusable = [...this.menu.querySelectorAll("button, input")].filter((el) => !el.closest("[hidden]") && !el.hidden);
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

	Object.assign(UI, {renderWorld, touchedSet, refKey, PodMenu, labelChanges});
})();
