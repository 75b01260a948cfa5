// engine.js is the page's side of the engine: it starts the worker that runs
// Go (worker.js), sends it bridge requests and resolves their answers, runs
// long operations in chunks that can be cancelled, and keeps what it needs to
// rebuild the world, so that a Go fatal error (out of memory, a crash in a
// goroutine), which no recover can catch, costs the learner nothing: the page
// notices the dead worker, starts a new one and replays the learner's inputs
// to where they were.
//
// The same replay turns a share link into a world: a link holds the engine
// version, the world (sandbox or lesson), the seed, the learner's inputs with
// the step each was given at, the present step and how far the timeline went.
// The engine is deterministic, so replaying those gives back the same world,
// byte for byte, with no backend. decodeState validates a link completely
// before anything runs: a link is untrusted input, and its commands only ever
// reach the console's parser, never JavaScript.

import {WasmDownload, takeWasmDownload} from "./download.js";

// Limits of a share link. They bound how long a replay may take and how
// much a hostile link can make the page do.
const maxLinkSteps = 1000000;
const maxLinkInputs = 1000;
const maxInputLength = 500;
const maxLinkPages = 100;
// The most steps one step request may run (the bridge's maxStepN).
const maxStepChunk = 10000;

/** @typedef {import("./bridge-types.js").BridgeOps} BridgeOps */
/** @typedef {import("./bridge-types.js").View} View */
/** @typedef {import("./bridge-types.js").StepsResult} StepsResult */
/** @typedef {import("./bridge-types.js").LoadArgs} LoadArgs */

/**
 * ReplayState is what a share link holds: enough to rebuild a world.
 * page, the lesson's page on show, is only in a decoded link's state;
 * lang, the language the page was in, is in a link that carries one.
 * @typedef {Object} ReplayState
 * @property {string} version
 * @property {string} world
 * @property {number} seed
 * @property {Array<{step: number, text: string}>} inputs
 * @property {number} at
 * @property {number} end
 * @property {number} [page]
 * @property {string} [lang]
 */

/** @typedef {import("./download.js").Download} Download */

/**
 * Progress hears how far a restore got: a message of the page's
 * catalogue, by key, and its values.
 * @typedef {(key: string, params: Record<string, string | number>) => void} Progress
 */

/**
 * EngineOptions are RlabEngine's options (see the constructor).
 * @typedef {Object} EngineOptions
 * @property {string} [workerURL]
 * @property {string} [wasmURL]
 * @property {(kind: string, detail?: string) => void} [onStatus]
 * @property {(download: Download) => void} [onProgress]
 * @property {(restart: {reason: string, state: ReplayState | null}) => void} [onRestart]
 * @property {number} [callTimeoutMs]
 */

/**
 * A request in flight, until its answer comes.
 * @typedef {{resolve: (result: unknown) => void, reject: (err: Error) => void, op: string, timer: ReturnType<typeof setTimeout>}} Pending
 */

// Chunks of a run are never smaller than minChunk steps, nor larger than
// maxChunk: below, round trips would be most of the run; above, one
// chunk of a slow world could outlast chunkMs many times over before its
// time was known.
const minChunk = 100;
const maxChunk = 50_000;

class RlabEngine {
	// options: workerURL and wasmURL (default worker.js and main.wasm);
	// onStatus(kind, detail), kind being loading, starting, restarting,
	// ready (after a restart) or error (a restart failed: detail says
	// why), which the page says in its own words; onProgress(download)
	// (see download);
	// onRestart({reason, state});
	// callTimeoutMs, after which an unanswered request counts as a hung
	// worker (no bridge op runs anywhere near that long).
	/** @param {EngineOptions} [options] */
	constructor(options = {}) {
		this.workerURL = options.workerURL || "worker.js";
		this.wasmURL = options.wasmURL || "main.wasm";
		// module is the compiled main.wasm (a Promise), shared by every
		// worker this engine starts.
		/** @type {Promise<WebAssembly.Module | null> | null} */
		this.module = null;
		// fetched is main.wasm's download once prefetch has asked for
		// it, until compile takes its response.
		/** @type {WasmDownload | null} */
		this.fetched = null;
		// download is how far main.wasm's download has come: the one
		// under way, or the last.
		/** @type {Download} */
		this.download = {loaded: 0, total: 0, wire: 0, done: false};
		this.onStatus = options.onStatus || (() => {});
		this.onProgress = options.onProgress || (() => {});
		this.onRestart = options.onRestart || (() => {});
		this.callTimeoutMs = options.callTimeoutMs || 60000;
		this.version = "";
		this.readyAt = 0;
		// state is the replay state of the world on show, from the last
		// view the page remembered; null before the first.
		/** @type {ReplayState | null} */
		this.state = null;
		/** @type {Worker | null} */
		this.worker = null;
		this.nextID = 1;
		/** @type {Map<number, Pending>} */
		this.pending = new Map();
		// gate holds public calls back while a new worker is rebuilding
		// the world after a death.
		/** @type {Promise<unknown>} */
		this.gate = Promise.resolve();
		this.cancelled = false;
		this.restarts = 0;
		// memoryBytes is the size of the engine's wasm memory after the
		// last answer: the most it has needed so far.
		this.memoryBytes = 0;
		// answerMs is how long the worker took to compute the last
		// answer, in ms, without the time the request waited there.
		this.answerMs = 0;
		// preparedAt is when the worker last finished preparing a step
		// back in idle time (performance.now()), 0 before it ever has.
		this.preparedAt = 0;
		// chunks are the sizes, in steps, of the chunks the last chunked
		// run (stabilize) asked for, in order: how far behind the run a
		// picture of it may be.
		/** @type {number[]} */
		this.chunks = [];
	}

	// start loads main.wasm in a new worker and resolves {version, readyAt}
	// when Go answers. It never says "ready" itself: the page is ready
	// once the engine holds the world it shows, which only the page
	// knows.
	// Calls made before it resolves wait for it.
	/** @returns {Promise<{version: string, readyAt: number}>} */
	start() {
		this.onStatus("loading");
		const started = this.spawn();
		// Between the last byte and Go's first answer the module
		// finishes compiling and Go starts: a while on a slow machine.
		this.compile().then(() => this.onStatus("starting"), () => {});
		// A failed start leaves no worker, and every call then says so.
		this.gate = started.then(() => {}, () => {});
		return started;
	}

	// compile fetches and compiles main.wasm on the page's side, once:
	// compiling runs off the main thread while the bytes stream in, and
	// overlaps the worker's own start; a worker restarted after a crash
	// reuses the module instead of compiling it again. Where modules
	// cannot be compiled here (no compileStreaming), the worker fetches
	// main.wasm itself.
	/** @returns {Promise<WebAssembly.Module | null>} */
	compile() {
		if (!this.module && typeof WebAssembly.compileStreaming !== "function") {
			this.module = Promise.resolve(null);
		} else if (!this.module) {
			const fetched = this.takeDownload();
			this.fetched = null; // a compile that failed fetches anew
			this.module = WebAssembly.compileStreaming(fetched.response.then((r) => {
				if (!r.ok) {
					throw new Error(`${this.wasmURL}: ${r.status} ${r.statusText}; build it with make wasm`);
				}
				return r;
			}));
		}
		return this.module;
	}

	// prefetch asks for main.wasm before start does, so that on a slow
	// network the request's round trip, and the first bytes, overlap the
	// page's first drawing, and the download's size is known (and
	// shown) sooner. Only the download's count reads the body until
	// start, so compiling main.wasm, which on a fast network would cost
	// the first drawing most, still waits for it. A download early.js
	// started (prefetchWasm) is taken over.
	prefetch() {
		if (!this.module && !this.fetched && typeof WebAssembly.compileStreaming === "function") {
			this.fetched = this.takeDownload();
		}
	}

	// takeDownload returns main.wasm's download for this engine: the one
	// prefetch started, else early.js's, else a new one. From then on it
	// reports to this engine's onProgress, at once if it has something to
	// report already.
	/** @returns {WasmDownload} */
	takeDownload() {
		const fetched = this.fetched || takeWasmDownload(this.wasmURL) || new WasmDownload(this.wasmURL);
		this.download = fetched.progress;
		fetched.onProgress = this.onProgress;
		if (fetched.progress.total || fetched.progress.loaded) {
			this.onProgress(fetched.progress);
		}
		return fetched;
	}

	/** @returns {Promise<{version: string, readyAt: number}>} */
	spawn() {
		const module = this.compile();
		return new Promise((resolve, reject) => {
			const worker = new Worker(this.workerURL);
			this.worker = worker;
			module.then((m) => worker.postMessage({module: m}), (err) => {
				// A module that cannot be fetched or compiled leaves
				// nothing to run; the worker is not needed.
				this.module = null;
				worker.terminate();
				if (worker === this.worker) {
					this.worker = null;
				}
				reject(failure("engine.couldNotStart", {reason: err.message}, `the simulator could not start: ${err.message}`));
			});
			let started = false;
			worker.onmessage = (event) => {
				const msg = event.data;
				if (worker !== this.worker) {
					return; // a message from a worker already replaced
				}
				switch (msg.type) {
				case "ready":
					started = true;
					this.version = msg.version;
					this.readyAt = msg.readyAt;
					resolve({version: msg.version, readyAt: msg.readyAt});
					break;
				case "answer":
					this.memoryBytes = msg.memory;
					this.answerMs = msg.ms;
					this.answer(msg.id, msg.answer);
					break;
				case "prepared":
					// The worker used an idle moment to make the next
					// step back fast (see worker.js); its memory may
					// have grown meanwhile.
					this.memoryBytes = msg.memory;
					this.preparedAt = performance.now();
					break;
				case "dead":
					if (!started) {
						reject(failure("engine.couldNotStart", {reason: msg.reason}, `the simulator could not start: ${msg.reason}`));
					}
					this.died(worker, msg.reason);
					break;
				}
			};
			worker.onerror = (event) => {
				event.preventDefault();
				const reason = event.message || "the worker failed";
				if (!started) {
					reject(failure("engine.couldNotStart", {reason}, `the simulator could not start: ${reason}`));
				}
				this.died(worker, reason);
			};
		});
	}

	/**
	 * @param {number} id
	 * @param {string} text
	 */
	answer(id, text) {
		const p = this.pending.get(id);
		if (!p) {
			return;
		}
		this.pending.delete(id);
		clearTimeout(p.timer);
		let answer;
		try {
			answer = JSON.parse(text);
		} catch (err) {
			p.reject(new Error(`${p.op}: the simulator answered something that is not JSON`));
			return;
		}
		if (answer.error !== undefined) {
			p.reject(new Error(answer.error));
		} else {
			p.resolve(answer.result);
		}
	}

	// call sends one request and resolves its result; it waits while the
	// world is being rebuilt after a crash. The op's name types its
	// arguments and its answer (bridge-types.js, from the Go types).
	/**
	 * @template {keyof BridgeOps} Op
	 * @param {Op} op
	 * @param {BridgeOps[Op]["args"]} [args]
	 * @returns {Promise<BridgeOps[Op]["result"]>}
	 */
	call(op, args) {
		return this.gate.then(() => this.send(op, args));
	}

	/**
	 * @template {keyof BridgeOps} Op
	 * @param {Op} op
	 * @param {BridgeOps[Op]["args"]} [args]
	 * @returns {Promise<BridgeOps[Op]["result"]>}
	 */
	send(op, args) {
		return new Promise((resolve, reject) => {
			if (!this.worker) {
				reject(failure("engine.notStarted", {}, "the simulator is not started"));
				return;
			}
			const id = this.nextID++;
			const worker = this.worker;
			const timer = setTimeout(() => {
				this.died(worker, `${op} did not answer within ${this.callTimeoutMs / 1000} s`);
			}, this.callTimeoutMs);
			// The answer to op is op's result (bridge-types.js).
			this.pending.set(id, {resolve: /** @type {(result: unknown) => void} */ (resolve), reject, op, timer});
			const request = args === undefined ? {op} : {op, args};
			worker.postMessage({id, request: JSON.stringify(request)});
		});
	}

	// died handles the death of worker: every request in flight fails,
	// and a new worker rebuilds the world the page last remembered.
	/**
	 * @param {Worker} worker
	 * @param {string} reason
	 */
	died(worker, reason) {
		if (worker !== this.worker) {
			return;
		}
		worker.terminate();
		this.worker = null;
		const err = failure("engine.crashed", {reason}, `the simulator crashed (${reason}); it is being restarted`);
		for (const p of this.pending.values()) {
			clearTimeout(p.timer);
			p.reject(err);
		}
		this.pending.clear();
		this.restarts++;
		this.onStatus("restarting");
		const state = this.state;
		this.gate = this.spawn()
			.then(() => (state ? this.replay(state, () => {}) : null))
			.then(() => {
				this.onStatus("ready");
				this.onRestart({reason, state});
			}, (restartErr) => {
				this.onStatus("error", restartErr.message);
				throw restartErr;
			});
		// A gate that failed fails every later call with its reason; this
		// only keeps the browser from also reporting it as unhandled.
		this.gate.catch(() => {});
	}

	// cancel stops the chunked operation in progress at its next chunk.
	cancel() {
		this.cancelled = true;
	}

	// stabilize runs the world towards rest, chunk steps per request,
	// until it is at rest or cancel is called. onChunk sees every chunk's
	// answer. The first answer lists the steps its chunk ran (the newest
	// 500 at most, as every answer of the bridge's does); with steps
	// given, later answers list only their newest steps, for a caller
	// that draws only those while the run goes on and fetches the rest
	// at its end: the worker spends a fifth of a chunk's time listing
	// 500 steps. It resolves the last answer with cancelled set.
	//
	// With chunkMs given, chunk is only the first chunk's size: each
	// next one is sized to take about chunkMs, from how long the last
	// took (see RlabEngine.nextChunk), so that a world whose steps are
	// slow still answers Cancel soon, and one whose steps are fast does
	// not spend its run on round trips.
	/**
	 * @param {{chunk?: number, chunkMs?: number, steps?: number, onChunk?: (res: StepsResult) => void}} [options]
	 * @returns {Promise<StepsResult & {cancelled: boolean}>}
	 */
	async stabilize({chunk = 1000, chunkMs, steps, onChunk = () => {}} = {}) {
		this.cancelled = false;
		this.chunks = [];
		/** @type {import("./bridge-types.js").StabilizeArgs} */
		let args = {maxSteps: chunk};
		/** @type {StepsResult | undefined} */
		let res;
		for (;;) {
			this.chunks.push(chunk);
			res = await this.call("stabilize", args);
			if (chunkMs !== undefined) {
				// The worker's own time for this answer (the answer
				// resolves the call as it arrives, before any other):
				// a picture of the world the page asked for meanwhile,
				// which the chunk waited behind, is not counted.
				chunk = RlabEngine.nextChunk(chunk, this.answerMs, chunkMs);
			}
			args = steps === undefined ? {maxSteps: chunk} : {maxSteps: chunk, steps};
			onChunk(res);
			if (res.atRest || res.idle || this.cancelled) {
				break;
			}
		}
		// The loop ran at least once, so res is an answer.
		const last = /** @type {StepsResult} */ (res);
		const cancelled = this.cancelled && !last.atRest;
		this.cancelled = false;
		return Object.assign({}, last, {cancelled});
	}

	// nextChunk sizes the next chunk of a run from the last: chunk steps
	// took took ms, and the next should take about target ms. It at most
	// doubles or halves the size, so that one chunk slowed by something
	// else (a collection, a machine busy with other work) does not swing
	// the next, and keeps it within minChunk and maxChunk. An answer that
	// did not say how long it took (a worker.js older than this file, still
	// in a cache) leaves the size as it was.
	/**
	 * @param {number} chunk
	 * @param {number} took
	 * @param {number} target
	 * @returns {number}
	 */
	static nextChunk(chunk, took, target) {
		if (!Number.isFinite(took)) {
			return chunk;
		}
		const scaled = chunk * target / Math.max(took, 1);
		return Math.round(Math.min(maxChunk, Math.max(minChunk, chunk / 2, Math.min(scaled, chunk * 2))));
	}

	// remember records the replay state of the world a view shows.
	/** @param {View} view */
	remember(view) {
		this.state = RlabEngine.stateFromView(view, this.version);
	}

	// restore rebuilds the world a state describes (a share link's). It
	// can be cancelled between chunks; onProgress(key, params) hears how
	// far it got, as a message of the page's catalogue (restore.input:
	// replaying input n of total, the command; restore.step: at step n of
	// total) for the page to say in its words.
	/**
	 * @param {ReplayState} state
	 * @param {{onProgress?: Progress}} [options]
	 */
	async restore(state, {onProgress = () => {}} = {}) {
		this.cancelled = false;
		try {
			await this.gate;
			await this.replay(state, onProgress);
		} finally {
			this.cancelled = false;
		}
	}

	/**
	 * @param {ReplayState} state
	 * @param {Progress} onProgress
	 * @returns {Promise<{failures: string[]}>}
	 */
	async replay(state, onProgress) {
		/** @type {LoadArgs} */
		const args = state.world === "sandbox" ? {} : {lesson: state.world};
		if (state.seed) {
			args.seed = state.seed;
		}
		const loaded = await this.send("load", args);
		let step = loaded.step;
		const failures = [];
		for (const [i, input] of state.inputs.entries()) {
			if (input.step < step) {
				throw failure("link.inputBehind", {n: i + 1, command: input.text, step: input.step, at: step},
					`input ${i + 1} ("${input.text}") is at step ${input.step}, but the world is already at step ${step}: the link does not describe a run of this engine`);
			}
			step = await this.stepTo(step, input.step, onProgress);
			onProgress("restore.input", {n: i + 1, total: state.inputs.length, command: input.text});
			const res = await this.send("run", {line: input.text});
			if (res.failure) {
				failures.push(`${input.text}: ${res.failure.error}`);
			}
			step = res.step;
		}
		step = await this.stepTo(step, state.end, onProgress);
		if (step !== state.at) {
			await this.send("seek", {step: state.at});
		}
		return {failures};
	}

	// stepTo runs steps from step to target, in chunks.
	/**
	 * @param {number} step
	 * @param {number} target
	 * @param {Progress} onProgress
	 * @returns {Promise<number>}
	 */
	async stepTo(step, target, onProgress) {
		while (step < target) {
			if (this.cancelled) {
				throw failure("restore.cancelled", {step, target}, `cancelled at step ${step} of ${target}`);
			}
			const res = await this.send("step", {n: Math.min(maxStepChunk, target - step)});
			if (res.step === step) {
				throw failure("restore.nothingLeft", {step, target}, `the world had nothing left to do at step ${step}, before step ${target}`);
			}
			step = res.step;
			onProgress("restore.step", {n: step, total: target});
		}
		return step;
	}

	// stateFromView is the replay state of the world view shows.
	/**
	 * @param {View} view
	 * @param {string} [version]
	 * @returns {ReplayState}
	 */
	static stateFromView(view, version) {
		return {
			version: String(version || ""),
			// A lesson's view always names its lesson.
			world: view.mode === "lesson" ? /** @type {string} */ (view.lesson) : "sandbox",
			seed: view.seed,
			inputs: (view.inputs || []).map((input) => ({step: input.step, text: input.text})),
			at: view.step,
			end: view.recordedSteps,
		};
	}

	// encodeState writes a state as the fragment of a share link:
	// v=VERSION&w=WORLD&seed=N&at=N&end=N&i=STEP:COMMAND&i=…, p=N, the
	// lesson's page on show, when the state has one past the first, and
	// l=LANG, the page's language, when the state has one.
	/**
	 * @param {ReplayState} state
	 * @returns {string}
	 */
	static encodeState(state) {
		if (!Number.isSafeInteger(state.seed)) {
			throw failure("link.seedTooLarge", {seed: state.seed, max: Number.MAX_SAFE_INTEGER}, `seed ${state.seed} is too large for a share link (at most ${Number.MAX_SAFE_INTEGER})`);
		}
		const p = new URLSearchParams();
		p.append("v", state.version);
		p.append("w", state.world);
		p.append("seed", String(state.seed));
		p.append("at", String(state.at));
		p.append("end", String(state.end));
		for (const input of state.inputs) {
			p.append("i", `${input.step}:${input.text}`);
		}
		if (state.page !== undefined && state.page > 1) {
			p.append("p", String(state.page));
		}
		if (state.lang) {
			p.append("l", state.lang);
		}
		return p.toString();
	}

	// decodeState reads a share link's fragment (with or without its
	// leading #) and validates every part of it; it throws an Error
	// naming what is wrong and what is valid.
	/**
	 * @param {string} hash
	 * @returns {ReplayState & {page: number}}
	 */
	static decodeState(hash) {
		const text = String(hash).replace(/^#/, "");
		if (text.length > 200000) {
			throw failure("link.tooLong", {}, "the link is too long to be a Reconcile Lab link");
		}
		const p = new URLSearchParams(text);
		const known = new Set(["v", "w", "seed", "at", "end", "i", "p", "l"]);
		for (const key of p.keys()) {
			if (!known.has(key)) {
				throw failure("link.unknownPart", {part: clip(key), valid: [...known].join(", ")}, `the link has an unknown part "${clip(key)}" (valid: ${[...known].join(", ")})`);
			}
		}
		for (const key of ["p", "l"]) {
			if (p.getAll(key).length > 1) {
				throw failure("link.atMostOne", {part: key}, `the link must have at most one "${key}" part`);
			}
		}
		for (const key of ["v", "w", "seed", "at", "end"]) {
			if (p.getAll(key).length !== 1) {
				throw failure("link.exactlyOne", {part: key}, `the link must have exactly one "${key}" part`);
			}
		}
		// Each of v, w, seed, at and end is there exactly once (above).
		const version = /** @type {string} */ (p.get("v"));
		if (!/^[\w.+-]{1,64}$/.test(version)) {
			throw failure("link.badVersion", {version: clip(version), chars: ". + - _", max: 64}, `the link's version "${clip(version)}" is not a version (letters, digits, . + - _, at most 64)`);
		}
		const world = /** @type {string} */ (p.get("w"));
		if (world !== "sandbox" && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(world)) {
			throw failure("link.badWorld", {world: clip(world), sandbox: "sandbox", example: "02-a-pod-dies"}, `the link's world "${clip(world)}" is neither "sandbox" nor a lesson id such as 02-a-pod-dies`);
		}
		const seed = number(p.get("seed"), "seed", Number.MAX_SAFE_INTEGER);
		const end = number(p.get("end"), "end", maxLinkSteps);
		const at = number(p.get("at"), "at", end);
		const raw = p.getAll("i");
		if (raw.length > maxLinkInputs) {
			throw failure("link.tooManyInputs", {n: raw.length, max: maxLinkInputs}, `the link has ${raw.length} inputs; at most ${maxLinkInputs} are allowed`);
		}
		const inputs = [];
		let last = 0;
		for (const [n, item] of raw.entries()) {
			const m = /^(\d{1,7}):(.+)$/s.exec(item);
			if (!m) {
				throw failure("link.notStepCommand", {n: n + 1, input: clip(item), form: "STEP:COMMAND"}, `input ${n + 1} of the link, "${clip(item)}", is not STEP:COMMAND`);
			}
			const step = Number(m[1]);
			const command = m[2];
			if (step < last || step > end) {
				throw failure("link.inputOutOfOrder", {n: n + 1, step, last: `end=${end}`}, `input ${n + 1} of the link is at step ${step}; inputs must be in step order and at most end=${end}`);
			}
			if (command.length > maxInputLength || /[\u0000-\u001f\u007f]/.test(command)) {
				throw failure("link.inputTooLong", {n: n + 1, max: maxInputLength}, `input ${n + 1} of the link is not one console line of at most ${maxInputLength} characters`);
			}
			last = step;
			inputs.push({step, text: command});
		}
		// p, the lesson's page, is a hint for the guide: a page past
		// the lesson's last opens its last.
		const page = p.has("p") ? number(p.get("p"), "page", maxLinkPages) : 1;
		if (page < 1 || (page > 1 && world === "sandbox")) {
			throw failure("link.badPage", {page}, `the link's page "${page}" is not a lesson page (from 1, and only with a lesson)`);
		}
		// l, the page's language, is a language tag; the page uses it
		// only if it has that language.
		const lang = p.get("l");
		if (lang !== null && !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(lang)) {
			throw failure("link.badLanguage", {lang: clip(lang), a: "en", b: "zh-CN"}, `the link's language "${clip(lang)}" is not a language tag such as en or zh-CN`);
		}
		/** @type {ReplayState & {page: number}} */
		const state = {version, world, seed, inputs, at, end, page};
		if (lang !== null) {
			state.lang = lang;
		}
		return state;
	}
}

// failure makes an Error whose message is the English of one of the page's
// messages: key names it in the page's catalogues (messages-en.js and its
// translations) and params are its values, so that the page shows it in the
// learner's language (page.js's reasonOf) while a test or the console reads
// the English. jstest/page.test.mjs holds each English text here equal to
// the catalogue's.
/**
 * @param {string} key
 * @param {Record<string, string | number>} params
 * @param {string} english
 * @returns {Error & {key: string, params: Record<string, string | number>}}
 */
function failure(key, params, english) {
	return Object.assign(new Error(english), {key, params});
}

/**
 * @param {string | null} text
 * @param {string} name
 * @param {number} max
 * @returns {number}
 */
function number(text, name, max) {
	if (text === null || !/^\d{1,16}$/.test(text) || Number(text) > max) {
		throw failure("link.notANumber", {part: name, value: clip(text), max}, `the link's ${name} "${clip(text)}" is not a whole number from 0 to ${max}`);
	}
	return Number(text);
}

// clip shortens untrusted text quoted in an error message.
/**
 * @param {unknown} text
 * @returns {string}
 */
function clip(text) {
	const s = String(text);
	return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

export {RlabEngine};
