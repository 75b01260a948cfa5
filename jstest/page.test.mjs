// page.test.mjs tests the pure parts of the page's state under node's test
// runner: share links (engine.js encodes and checks them), the timeline's
// list of steps and forks (timeline.js), and lesson progress read back from
// a file (progress.js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {install} from "./fakedom.mjs";

install();
const {RlabEngine} = await import("../site/engine.js");
const {t} = await import("../site/i18n.js");
const {messages} = await import("../site/messages-en.js");
const {state} = await import("../site/page.js");
const {addSteps, trimTimeline, restoreForks} = await import("../site/timeline.js");
const {cleanProgress} = await import("../site/progress.js");

const view = {
	mode: "lesson", lesson: "02-a-pod-dies", seed: 7, step: 12, recordedSteps: 20,
	inputs: [{step: 3, text: "kill pod web-1", extra: "dropped"}, {step: 9, text: "scale rs web --replicas=5"}],
};

test("a share link holds the world and gives it back", () => {
	const st = RlabEngine.stateFromView(view, "v1.2.3");
	assert.deepEqual(st, {version: "v1.2.3", world: "02-a-pod-dies", seed: 7, at: 12, end: 20,
		inputs: [{step: 3, text: "kill pod web-1"}, {step: 9, text: "scale rs web --replicas=5"}]});
	const link = RlabEngine.encodeState({...st, page: 2});
	assert.equal(link, "v=v1.2.3&w=02-a-pod-dies&seed=7&at=12&end=20&i=3%3Akill+pod+web-1&i=9%3Ascale+rs+web+--replicas%3D5&p=2");
	assert.deepEqual(RlabEngine.decodeState(link), {...st, page: 2});
	assert.equal(RlabEngine.stateFromView({...view, mode: "sandbox"}, "").world, "sandbox");
});

test("a share link is checked whole before anything runs", () => {
	const good = RlabEngine.encodeState(RlabEngine.stateFromView(view, "v1"));
	const bad = {
		"an unknown part": [good + "&x=1", /unknown part "x"/],
		"a missing part": [good.replace("seed=7&", ""), /exactly one "seed" part/],
		"a version that is not one": [good.replace("v=v1", "v=%3Cscript%3E"), /is not a version/],
		"a world that is not one": [good.replace("w=02-a-pod-dies", "w=..%2Fetc"), /neither "sandbox" nor a lesson id/],
		"inputs out of order": [good.replace("i=3%3A", "i=15%3A"), /inputs must be in step order/],
		"an input that is not STEP:COMMAND": [good.replace("i=3%3A", "i=three%3A"), /is not STEP:COMMAND/],
		"a page of a sandbox": [RlabEngine.encodeState({...RlabEngine.stateFromView({...view, mode: "sandbox"}, "v1"), page: 2}), /not a lesson page/],
		"too long a link": [good + "&i=19%3A" + "x".repeat(200000), /too long/],
	};
	for (const [what, [link, want]] of Object.entries(bad)) {
		assert.throws(() => RlabEngine.decodeState(link), want, what);
	}
	assert.throws(() => RlabEngine.encodeState({...RlabEngine.stateFromView(view, "v1"), seed: 2 ** 60}), /too large for a share link/);
});

test("a share link's error is one of the page's messages, whose English engine.js writes", () => {
	const good = RlabEngine.encodeState(RlabEngine.stateFromView(view, "v1"));
	const links = [
		good + "&x=1", good + "&p=2&p=3", good.replace("seed=7&", ""), good.replace("v=v1", "v=%3Cscript%3E"),
		good.replace("w=02-a-pod-dies", "w=..%2Fetc"), good.replace("i=3%3A", "i=15%3A"), good.replace("i=3%3A", "i=three%3A"),
		good.replace("i=3%3Akill", "i=3%3A" + "x".repeat(1000)), good + "&i=19%3Ax".repeat(1001), good.replace("at=12", "at=twelve"),
		RlabEngine.encodeState({...RlabEngine.stateFromView({...view, mode: "sandbox"}, "v1"), page: 2}),
		good + "&l=not%20a%20tag", good + "&i=19%3A" + "x".repeat(200000),
	];
	const keys = new Set();
	for (const link of links) {
		let err;
		try {
			RlabEngine.decodeState(link);
		} catch (e) {
			err = e;
		}
		assert.ok(err instanceof Error, `no error for ${link.slice(0, 80)}`);
		assert.ok(err.key in messages, `engine.js names a message the catalogue lacks: ${err.key}`);
		assert.equal(t(err.key, err.params), err.message, `engine.js's English for ${err.key} is not the catalogue's`);
		keys.add(err.key);
	}
	assert.equal(keys.size, links.length, "each bad link is refused for a reason of its own");
	try {
		RlabEngine.encodeState({...RlabEngine.stateFromView(view, "v1"), seed: 2 ** 60});
		assert.fail("a seed too large for a link was encoded");
	} catch (err) {
		assert.equal(t(err.key, err.params), err.message);
	}
});

const step = (n, trace = `t${n}`) => ({n, trace});

test("addSteps keeps the steps it has, replaces a changed future and starts over after a gap", () => {
	state.tl = [];
	addSteps([step(1), step(2), step(3)]);
	const kept = state.tl[1];
	addSteps([step(2), step(3)]);
	assert.deepEqual(state.tl.map((e) => e.n), [1, 2, 3]);
	assert.equal(state.tl[1], kept, "a step seen again keeps its entry (and its drawn item)");
	addSteps([step(2, "other")]);
	assert.deepEqual(state.tl.map((e) => [e.n, e.step.trace]), [[1, "t1"], [2, "other"]], "a changed step drops the steps after it");
	addSteps([step(9)]);
	assert.deepEqual(state.tl.map((e) => e.n), [9], "a gap starts the timeline over");
	addSteps(undefined);
	assert.deepEqual(state.tl.map((e) => e.n), [9]);
});

test("addSteps keeps the newest 500 steps", () => {
	state.tl = [];
	addSteps(Array.from({length: 700}, (_, i) => step(i + 1)));
	assert.equal(state.tl.length, 500);
	assert.equal(state.tl[0].n, 201);
	assert.equal(state.tl[499].n, 700);
});

test("trimTimeline drops steps past the recorded end but keeps a fork's note", () => {
	const fork = {n: 2.5, fork: 2, dropped: 3};
	state.tl = [{n: 1, step: step(1)}, {n: 2, step: step(2)}, fork, {n: 3, step: step(3)}, {n: 4, step: step(4)}];
	trimTimeline(2);
	assert.deepEqual(state.tl.map((e) => e.n), [1, 2, 2.5]);
	state.tl = [{n: 1, step: step(1)}, {n: 2, step: step(2)}];
	restoreForks([fork, {n: 0.5, fork: 0, dropped: 1}]);
	assert.deepEqual(state.tl.map((e) => e.n), [1, 2], "a fork note goes back only between steps the timeline holds");
	state.tl.push({n: 3, step: step(3)});
	restoreForks([fork]);
	assert.deepEqual(state.tl.map((e) => e.n), [1, 2, 2.5, 3]);
});

test("cleanProgress keeps of a progress file only what the lesson player reads", () => {
	assert.equal(cleanProgress(null), null);
	assert.equal(cleanProgress("page 3"), null);
	assert.deepEqual(cleanProgress({
		page: 3, completed: true, bySolution: "yes", passed: [1, 2, "3", 0, 2.5],
		answers: {
			"1/0": {choice: 2, step: 14, decided: 1, verdict: "wrong", extra: "<b>"},
			"2/1": {choice: 0, step: "x", verdict: "maybe"},
			"bad": {choice: 1},
			"3/0": {choice: -1},
		},
		unknown: {a: 1},
	}), {
		page: 3, completed: true, bySolution: false, passed: [1, 2],
		answers: {
			"1/0": {choice: 2, step: 14, decided: 1, verdict: "wrong"},
			"2/1": {choice: 0, step: 0, decided: null, verdict: null},
		},
	});
	assert.equal(cleanProgress({page: 0}).page, 1, "a page before the first is the first");
});

test("a chunked run sizes each chunk to take about chunkMs of the worker's time", async () => {
	// A fake worker that runs 100 steps a millisecond and comes to rest
	// at step 120,000.
	const eng = Object.create(RlabEngine.prototype);
	eng.cancelled = false;
	const asked = [];
	let step = 0;
	eng.call = async (op, args) => {
		assert.equal(op, "stabilize");
		asked.push(args.maxSteps);
		step = Math.min(120_000, step + args.maxSteps);
		eng.answerMs = args.maxSteps / 100;
		return {step, atRest: step === 120_000, steps: []};
	};
	const res = await eng.stabilize({chunk: 1000, chunkMs: 100, steps: 30});
	assert.equal(res.step, 120_000);
	assert.equal(res.cancelled, false);
	assert.deepEqual(asked.slice(0, 6), [1000, 2000, 4000, 8000, 10_000, 10_000], "it doubles towards 100 ms, then holds");

	// Without chunkMs every chunk is chunk steps.
	asked.length = 0;
	step = 0;
	await eng.stabilize({chunk: 5000});
	assert.ok(asked.every((n) => n === 5000), String(asked));
});

test("a chunk at most doubles or halves, and stays within its bounds", () => {
	assert.equal(RlabEngine.nextChunk(1000, 1, 100), 2000, "a fast chunk doubles, no more");
	assert.equal(RlabEngine.nextChunk(1000, 1000, 100), 500, "a slow one halves, no less");
	assert.equal(RlabEngine.nextChunk(1000, 125, 100), 800);
	assert.equal(RlabEngine.nextChunk(150, 1000, 100), 100, "never below 100 steps");
	assert.equal(RlabEngine.nextChunk(40_000, 1, 100), 50_000, "never above 50,000");
	assert.equal(RlabEngine.nextChunk(1000, 0, 100), 2000, "an answer timed at 0 ms is not a division by zero");
	assert.equal(RlabEngine.nextChunk(1000, undefined, 100), 1000, "an answer without its time leaves the size as it was");
});
