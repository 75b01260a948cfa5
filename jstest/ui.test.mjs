// ui.test.mjs tests the page's pure helpers under node's test runner (node
// --test jstest/, which make test runs): the words the page writes, the
// offsets it converts for the engine, the Markdown subset lessons are
// written in, the relabel field and the console's completion.
import {test} from "node:test";
import assert from "node:assert/strict";
import {install, outline} from "./fakedom.mjs";

// ui-glossary.js, which the drawing modules import, makes its tooltips'
// store when it loads: it needs a document first.
install();
const {plural, byteOffset, charOffset, isTyping} = await import("../site/ui-util.js");
const {markdown, inline} = await import("../site/ui-markdown.js");
const {labelChanges} = await import("../site/ui-world.js");
const {replaceWord} = await import("../site/ui-console.js");

test("plural says one thing or many", () => {
	assert.equal(plural(0, "pod"), "0 pods");
	assert.equal(plural(1, "pod"), "1 pod");
	assert.equal(plural(2, "pod"), "2 pods");
	assert.equal(plural(3, "replica", "replicas!"), "3 replicas!");
	assert.equal(plural(1, "replica", "replicas!"), "1 replica");
});

test("byteOffset and charOffset convert between a field's characters and the engine's UTF-8 bytes", () => {
	// é is 2 bytes, ✓ 3, and 🙂 4 bytes in UTF-8 but 2 UTF-16 units.
	const line = "a é✓🙂 b";
	const pairs = [[0, 0], [2, 2], [3, 4], [4, 7], [6, 11], [7, 12], [8, 13]];
	for (const [chars, bytes] of pairs) {
		assert.equal(byteOffset(line, chars), bytes, `byteOffset(${chars})`);
		assert.equal(charOffset(line, bytes), chars, `charOffset(${bytes})`);
	}
	assert.equal(charOffset(line, 1000), line.length, "an offset past the end is the end");
});

test("isTyping is true only for fields that take text", () => {
	assert.equal(isTyping(null), false);
	assert.equal(isTyping({tagName: "INPUT"}), true);
	assert.equal(isTyping({tagName: "TEXTAREA"}), true);
	assert.equal(isTyping({tagName: "SELECT"}), true);
	assert.equal(isTyping({tagName: "DIV", isContentEditable: true}), true);
	assert.equal(isTyping({tagName: "BUTTON", isContentEditable: false}), false);
});

test("markdown draws the subset lessons use, and HTML as text", () => {
	const text = "# Title\n\nA *b* **c** `d <i>`\nnext line\n\n- one\n- two\n\n1. a\n2. b\n\n```\ncode <b>\n```\n";
	assert.equal(outline(markdown(text)),
		"<h3>Title</h3><p>A <em>b</em> <strong>c</strong> <code>d <i></code> next line</p>" +
		"<ul><li>one</li><li>two</li></ul><ol><li>a</li><li>b</li></ol><pre><code>code <b></code></pre>");
	const tags = [];
	const walk = (n) => {
		if (n.tagName) {
			tags.push(n.tagName);
		}
		n.childNodes.forEach(walk);
	};
	walk(markdown("<b>bold?</b> <script>x</script>"));
	assert.deepEqual(tags, ["P"], "markup in a lesson is text, never elements");
});

test("markdown follows only the links a lesson may make", () => {
	const drawn = outline(inline("[w](https://example.org/a) [u](upstream:pkg/controller/x.go) [j](javascript:alert) [f](ftp:x)"));
	assert.equal(drawn,
		"<a https://example.org/a>w</a> <a https://github.com/kubernetes/kubernetes/blob/v1.31.14/pkg/controller/x.go>u</a> j f");
});

test("markdown runs a lesson's special blocks where they stand", () => {
	const drawn = markdown("before\n\n```check\nwant x\n```\n\nafter", {check: (body) => document.createTextNode(`[check: ${body}]`)});
	assert.equal(outline(drawn), "<p>before</p>[check: want x]<p>after</p>");
});

test("labelChanges reads kubectl label's changes and says what is wrong", () => {
	assert.deepEqual(labelChanges("app=web, tier-  env="), {changes: ["app=web", "tier-", "env="], problem: "", parts: []});
	assert.match(labelChanges("  ").problem, /^Type at least one label change/);
	for (const bad of ["x", "-app", "a=b=c", "=v"]) {
		const got = labelChanges(`app=web ${bad}`);
		assert.deepEqual(got.changes, [], bad);
		assert.equal(got.problem.startsWith(`"${bad}" is not a label change`), true, bad);
	}
});

test("replaceWord puts a completion in place of the word at the cursor", () => {
	// The engine's column is 1-based and counts bytes.
	assert.equal(replaceWord("kill po", 6, "pod/web-1"), "kill pod/web-1");
	assert.equal(replaceWord("create rs web --repl", 15, "--replicas="), "create rs web --replicas=");
	// A flag's value completes after its =, a flag's name before it.
	assert.equal(replaceWord("scale rs web --replicas=3", 14, "5"), "scale rs web --replicas=5");
	assert.equal(replaceWord("scale rs web --repl=3", 14, "--replicas"), "scale rs web --replicas=3");
	assert.equal(replaceWord("é x", 4, "yes"), "é yes", "a column after a 2-byte character");
});
