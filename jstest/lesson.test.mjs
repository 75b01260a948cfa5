// lesson.test.mjs tests the lesson player's bookkeeping under node: when an
// answer to a predict block is graded, against which world. The browser
// suite (e2e/) plays every lesson in a real page; this test pins the order
// of events that a slow machine, or a quick learner, could otherwise change.
import {test} from "node:test";
import assert from "node:assert/strict";
import {install} from "./fakedom.mjs";

install();
const {Lesson} = await import("../site/ui-lesson.js");

// world is what the fake engine holds: the last console line it ran. The
// predict block's answer 0 holds only in the world "advance 500ms" left.
function fakeEngine() {
	const log = [];
	let world = "setup";
	let chain = Promise.resolve();
	// act is the page's one queue of actions (playback.js), in little.
	const act = (fn) => (chain = chain.then(fn));
	const hooks = {
		run: (lines, page, after) => act(async () => {
			for (const line of lines) {
				// A command takes the engine a while to answer.
				await new Promise((resolve) => setTimeout(resolve, 5));
				world = line;
				log.push(`ran ${line}`);
			}
			if (after) {
				await after();
			}
		}),
		grade: async () => {
			log.push(`graded in ${world}`);
			return {decided: world === "advance 500ms" ? 0 : 1, holds: []};
		},
		check: async () => ({met: false, lines: []}),
		step: () => log.length,
		announce: () => {},
		shown: () => {},
	};
	return {log, act, hooks, run: (line) => act(async () => {
		world = line;
		log.push(`ran ${line}`);
	})};
}

// panel stands for index.html's lesson panel, with its title and body.
const panel = () => /** @type {any} */ ({querySelector: () => document.createElement("div")});

const page = {
	n: 3,
	text: "",
	blocks: [
		{kind: "predict", text: "", predict: {question: "Is the new ReplicaSet there yet?", choices: [{text: "no"}, {text: "yes"}]}},
		{kind: "do", text: "advance 500ms"},
		{kind: "do", text: "stabilize"},
	],
};

test("a do block's answers are graded in the world it left, before the learner's next action runs", async () => {
	const eng = fakeEngine();
	const lesson = new Lesson(panel(), eng.hooks);
	// The player's drawing and its refresh after an action are not what
	// this test is about.
	lesson.update = () => {};
	lesson.refresh = () => Promise.resolve();
	lesson.answers.set("3/0", {choice: 0, step: 0, decided: null, verdict: null});

	const block = lesson.doBlock(page, page.blocks[1], 1);
	const button = block.children.find((c) => c.tagName === "BUTTON");
	assert.ok(button, "the do block has a Run button");
	const [clicked] = button.dispatch("click");
	// The learner types the next command at once, while the block runs.
	const next = eng.run("stabilize");
	await clicked;
	await next;

	assert.deepEqual(eng.log, ["ran advance 500ms", "graded in advance 500ms", "ran stabilize"]);
	assert.equal(lesson.answers.get("3/0").verdict, "right");
	assert.ok(lesson.ran.has("3/1"), "the block is marked as run");
});

test("an answer is graded once, though a refresh asks while the do block's action does", async () => {
	const eng = fakeEngine();
	const lesson = new Lesson(panel(), eng.hooks);
	lesson.update = () => {};
	lesson.answers.set("3/0", {choice: 1, step: 0, decided: null, verdict: null});
	lesson.ran.set("3/1", 1);
	await Promise.all([lesson.grade(page), lesson.grade(page)]);
	assert.deepEqual(eng.log, ["graded in setup"]);
	assert.equal(lesson.answers.get("3/0").verdict, "right");
});

test("a long reason folds its lists of objects behind which; a short one is shown whole", async () => {
	const {why} = await import("../site/ui-lesson.js");
	const {outline} = await import("./fakedom.mjs");
	const short = "— found 0";
	assert.equal(outline(why(short)), `<span> ${short}</span>`);
	const pods = Array.from({length: 10}, (_, i) => `web-${i} Running Ready rs/web`).join(", ");
	const long = `— found 3 (a Pending, b Pending, c Pending); 10 more pods match -l app=web but not the filters (${pods})`;
	assert.equal(outline(why(long)),
		`<span> — found 3; 10 more pods match -l app=web but not the filters <details><summary>which</summary><span>${long}</span></details></span>`);
});
