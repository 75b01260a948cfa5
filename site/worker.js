// worker.js runs Reconcile Lab's engine, Go compiled to WebAssembly, in a Web
// Worker, so that no step, however long, can freeze the page: the page's own
// thread only draws and listens, and talks to this worker by messages.
//
// The protocol (engine.js is the other side):
//
//	page → worker  {module}           first, once: main.wasm compiled by the
//	                                  page (a WebAssembly.Module), or null to
//	                                  have the worker fetch and compile it
//	               {id, request}      request is the JSON text of one bridge
//	                                  request, {"op": …, "args": …}
//	worker → page  {type: "ready", version, readyAt}   once, when Go is up
//	               {type: "answer", id, answer, memory} answer is the bridge's
//	                                  JSON text, {"result": …} or {"error": …};
//	                                  memory the wasm linear memory in bytes
//	               {type: "prepared", memory}           the idle work that
//	                                  makes the next step back fast is done
//	                                  (see prepareSlice)
//	               {type: "dead", reason}               Go exited or crashed;
//	                                  the page starts a new worker
//
// Beside main.wasm the worker fetches lessons.json, the lessons as data, and
// hands it to the engine (the bridge's setLessons) before it says ready.
//
// Requests are answered one at a time, in order: rlab.call runs to completion
// before the next message is read, and between two messages the worker's
// event loop runs, which is what makes chunked runs cancellable.
"use strict";

importScripts("wasm_exec.js");

let dead = false;
// memory is the Go program's linear memory, which only grows: its size is the
// most the engine has ever needed, which the page and its tests report.
/** @type {WebAssembly.Memory | null} */
let memory = null;

function memoryBytes() {
	return memory ? memory.buffer.byteLength : 0;
}

/** @param {unknown} reason */
function die(reason) {
	if (dead) {
		return;
	}
	dead = true;
	postMessage({type: "dead", reason: String(reason)});
}

const go = new Go();

// GOMEMLIMIT is the heap the Go runtime's collector keeps the engine under,
// as far as it can. DESIGN.md gives the page 128 MiB of wasm memory, and a
// wasm memory never grows back smaller, so what counts is the most the heap
// ever took. With only GOGC's default, the heap grows to twice what is live
// before each collection: the 10,000-pod world, 65 MiB live at rest, left
// 124-134 MiB of wasm memory; under this limit, 110-121 MiB (November 2026,
// BenchmarkBrowserResponsive). It is a soft limit: a world whose live heap
// nears it runs slower, the collector running more often and taking at most
// half the time, rather than failing. That is why the snapshots a large
// world keeps for seeking are bounded (core/world's SnapshotBudget): since
// they were cut to what 20,000 objects weigh, the same world keeps 37 MiB
// live natively at rest, leaves 85 MiB of wasm memory, and stabilizes 6 to
// 8% faster, with the collector further from this limit. It is set here,
// where the page starts the engine, rather than in main.wasm, whose other
// users (the tests under node) need none.
//
// GOGC stays at its default. At 200 under this limit, the 10,000-pod world
// stabilized 12% faster in Chromium (1.66 s against 1.82 to 2.00) and left
// 104-111 MiB of wasm memory where the default leaves 80-83 (November 2026,
// BenchmarkBrowserResponsive; under node, wasm's BenchmarkStabilizeThroughTheBridge
// reports the same trade as sys-MiB). Both meet the budgets; the memory
// is kept for the phones and the larger worlds that need it more.
go.env = {GOMEMLIMIT: "120MiB"};

// wasm_exec.js calls exit when the Go program ends: normally never (main
// parks forever), so any exit is a death, typically a fatal error such as
// running out of memory or a panic in a goroutine. Go has already written the
// reason to the console (console.error), which the page's developer sees.
go.exit = (/** @type {number} */ code) => die(`the Go program exited with code ${code}`);

// lessons is what the engine's setLessons is to get: lessons.json's text,
// or why it could not be had. main.wasm does not carry the lessons (see
// the bridge's SetLessons). The worker asks for them as soon as it runs,
// while the page still downloads main.wasm: asked for once the module had
// arrived, their download would come after main.wasm's instead of beside
// it, and the engine would wait for both in turn.
const lessons = fetchLessons();

// main.wasm calls onRlabReady once globalThis.rlab is installed. The
// worker hands the engine its lessons before it says it is ready, so the
// page's first request finds them.
self.onRlabReady = () => {
	lessons.then((args) => {
		setLessons(args);
		postMessage({type: "ready", version: self.rlab.version, readyAt: self.__rlabReadyAt});
	});
};

// setLessons hands the engine its lessons. A bundle it cannot read (one
// from another build) is passed on as the reason there are none, which
// the page shows when a lesson is asked for.
/** @param {{bundle: string} | {unavailable: string}} args */
function setLessons(args) {
	const answer = self.rlab.call(JSON.stringify({op: "setLessons", args}));
	const parsed = typeof answer === "string" ? JSON.parse(answer) : {error: "no answer"};
	if (parsed.error && "bundle" in args) {
		setLessons({unavailable: String(parsed.error)});
	}
}

// The first message hands over the module; every later one is a request.
self.onmessage = (event) => {
	self.onmessage = serve;
	start(event.data.module);
};

/** @param {MessageEvent<{id: number, request: string}>} event */
function serve(event) {
	// A preparation under way is abandoned by the request itself (the
	// bridge's Handle); the worker starts another once the page is quiet.
	clearTimeout(prepareTimer);
	preparing = false;
	const {id, request} = event.data;
	if (dead) {
		postMessage({type: "answer", id, answer: JSON.stringify({error: "the simulator has stopped"})});
		return;
	}
	let answer;
	const began = performance.now();
	try {
		answer = self.rlab.call(request);
	} catch (err) {
		// A JavaScript exception out of rlab.call means Go itself is gone
		// ("Go program has already exited"): Go's own panics come back as
		// {error} answers.
		die(err instanceof Error ? err.message : err);
		return;
	}
	if (typeof answer !== "string") {
		// callback in main_js.go answers an object {error} when the call
		// itself failed outside the bridge.
		const failed = /** @type {{error?: unknown} | null | undefined} */ (answer);
		answer = JSON.stringify(failed && failed.error ? {error: String(failed.error)} : {error: "no answer"});
	}
	// ms is how long Go took to answer, without the time the request
	// waited behind others here: what a chunked run sizes its chunks by.
	postMessage({type: "answer", id, answer, memory: memoryBytes(), ms: performance.now() - began});
	prepareTimer = setTimeout(prepareSlice, prepareAfterMs);
}

// Idle work. A long run of a large world leaves its last snapshot far
// behind the present (the 10,000-pod world's, 39,000 steps), and the first
// step back would replay all of them: 208 ms in Chromium. While the page
// sends nothing, the worker prepares that step back instead (the bridge's
// prepare op, core/world's PrepareStepBack), a slice at a time. A slice is
// sized to take about prepareSliceMs, by how long the last one took, so a
// request that arrives meanwhile waits for one slice at most; the request
// then finds the world back at the present, since every other op abandons
// a preparation under way. Preparing starts only after the page has been
// quiet for prepareAfterMs: a chunked run or playback sends its next
// request sooner, and work begun between two of them would only be
// abandoned. A world that needs no preparation, or is still running (the
// bridge prepares only a world at rest), answers the first slice with
// done, at once.
const prepareAfterMs = 250;
const prepareSliceMs = 15;
let prepareTimer = 0;
// prepareSteps is the size of the next slice, in steps.
let prepareSteps = 2000;
// preparing is set once a slice has left work for the next one: the
// page hears of a preparation that took slices, or replayed any step.
let preparing = false;

function prepareSlice() {
	prepareTimer = 0;
	if (dead) {
		return;
	}
	const began = performance.now();
	let answer;
	try {
		answer = self.rlab.call(JSON.stringify({op: "prepare", args: {maxSteps: prepareSteps}}));
	} catch (err) {
		die(err instanceof Error ? err.message : err);
		return;
	}
	const ms = performance.now() - began;
	let done = true;
	let replayed = 0;
	try {
		// An error (a replay that diverged, which a seek would report
		// too) ends the idle work as done does.
		const parsed = JSON.parse(String(answer));
		done = !parsed.result || parsed.result.done;
		replayed = parsed.result?.replayed ?? 0;
	} catch {
		done = true;
	}
	if (done) {
		if (preparing || replayed > 0) {
			postMessage({type: "prepared", memory: memoryBytes()});
		}
		preparing = false;
		return;
	}
	preparing = true;
	prepareSteps = Math.min(50000, Math.max(200, Math.round(prepareSteps * prepareSliceMs / Math.max(ms, 1))));
	prepareTimer = setTimeout(prepareSlice, 0);
}

// start runs Go from module, or, without one, from main.wasm fetched and
// compiled here. The page normally compiles it: it can start the download
// before this worker exists, and keeps the compiled module to start a new
// worker at once after a crash.
/** @param {WebAssembly.Module | null} module */
function start(module) {
	const instantiated = module
		? WebAssembly.instantiate(module, go.importObject)
		: WebAssembly.instantiateStreaming(fetchWasm(), go.importObject).then((result) => result.instance);
	instantiated
		.then((instance) => {
			// Go's module exports its memory as mem.
			memory = /** @type {WebAssembly.Memory} */ (instance.exports.mem);
			return go.run(instance);
		})
		.then(() => die("the Go program ended"))
		.catch((err) => die(err instanceof Error ? err.message : err));
}

// fetchWasm fetches main.wasm for compiling while the bytes stream in. It
// checks the response first, because instantiateStreaming's own message for
// a 404 does not name the file.
function fetchWasm() {
	return fetch("main.wasm").then((response) => {
		if (!response.ok) {
			throw new Error(`main.wasm: ${response.status} ${response.statusText}; build it with make wasm`);
		}
		return response;
	});
}

// fetchLessons fetches lessons.json, which make wasm writes beside
// main.wasm, as text; a failure is not thrown but said, since the sandbox
// works without lessons.
function fetchLessons() {
	return fetch("lessons.json")
		.then((response) => {
			if (!response.ok) {
				throw new Error(`lessons.json: ${response.status} ${response.statusText}; build it with make wasm`);
			}
			return response.text();
		})
		.then((bundle) => ({bundle}), (err) => ({unavailable: err instanceof Error ? err.message : String(err)}));
}
