// glossary.test.mjs tests the glossary in another language than English
// (ui-glossary.js) under node: each text in that language where the
// page's glossary data has it, and glossary.js's English, marked so, where
// it has none; terms found by the engine's English words and by the
// page's own words for them; code in a text drawn as code. Its glossary
// data is a small one of its own, in the shape of glossary-zh-CN.json.
import {test} from "node:test";
import assert from "node:assert/strict";
import {install, outline} from "./fakedom.mjs";

install();
const {useLocale} = await import("../site/i18n.js");
const {messages} = await import("../site/messages-en.js");
const {glossary, glossaryEntry, phrase, term, termify, useGlossaryLanguage, explain} = await import("../site/ui-glossary.js");

// small is a glossary in zh-CN with two entries, one label and one
// caption: every other text stays English.
const small = {
	lang: "zh-CN",
	text: {title: "术语表", close: "关闭"},
	labels: {pendingDeltas: "{{deltafifo|DeltaFIFO}}：尚未送达"},
	groups: [{id: "queue", title: "工作队列"}],
	captions: {agenda: "模拟器接下来要运行的事；{{periodic|周期性}}定时器不会让世界保持忙碌。"},
	entries: [
		{id: "workqueue", group: "queue", term: "工作队列（workqueue）", short: "控制器的待办清单，例如 `default/web`。", long: "{{key|键}}在这里等待。"},
		{id: "key", group: "queue", term: "键（key）", short: "名字空间和名称。", long: ""},
	],
	matchZh: {workqueue: ["工作队列"], periodic: ["周期性"]},
};

useLocale("zh-CN", {}, small);
useGlossaryLanguage();

/** @param {Array<Node | string>} parts */
const drawn = (parts) => parts.map((p) => (typeof p === "string" ? p : outline(p))).join("");

test("an entry the data has is in its language; one it lacks, or has in part, stays English, marked", () => {
	const queue = glossaryEntry("workqueue");
	assert.equal(queue.term, "工作队列（workqueue）");
	assert.equal(queue.lang, "zh-CN");
	assert.equal(queue.upstream.name, "workqueue.Typed", "upstream names are glossary.js's");
	const key = glossaryEntry("key");
	assert.equal(key.lang, "en", "an entry with an empty text is not mixed with the English");
	assert.equal(key.term, "key");

	const zhTerm = term("workqueue");
	assert.equal(zhTerm.textContent, "工作队列（workqueue）");
	assert.equal(zhTerm.getAttribute("lang"), null, "a term in the page's language needs no mark");
	const enTerm = term("key");
	assert.equal(enTerm.getAttribute("lang"), "en");
	assert.equal(term("key", "键").getAttribute("lang"), null, "words given are the text's, whatever the entry's language");
});

test("texts the data lacks stay English, and say so", () => {
	assert.equal(glossary.text.title, "术语表");
	assert.equal(glossary.langs["text.title"], "zh-CN");
	assert.equal(glossary.text.intro.startsWith("The words the panels use"), true);
	assert.equal(glossary.langs["text.intro"], "en");
	assert.equal(glossary.groups[0].title, "工作队列");
	assert.equal(glossary.groups[1].title, "Workers and syncs");
	assert.equal(glossary.langs["groups.workers"], "en");
	assert.equal(drawn(phrase("pendingDeltas")), "<button>DeltaFIFO</button>：尚未送达");
	assert.equal(drawn(phrase("gcOwners")).startsWith("<span>owners whose dependents"), true, "an English label is in a span of its own (marked lang=en)");
});

test("terms are found by the engine's English and by the page's words", () => {
	const ids = ["workqueue", "periodic"];
	assert.equal(drawn(termify("工作队列里有两个键，周期性定时器", ids)), "<button>工作队列</button>里有两个键，<button>周期性</button>定时器");
	assert.equal(drawn(termify("the workqueue holds keys; a periodic timer", ids)), "the <button>workqueue</button> holds keys; a <button>periodic</button> timer");
	assert.equal(drawn(termify("工作队列 and workqueue", ids)), "<button>工作队列</button> and workqueue", "each entry once, at its first use");
});

test("a text's code is drawn as code, in English", () => {
	const parts = explain(glossaryEntry("workqueue"));
	assert.equal(drawn(parts), "控制器的待办清单，例如 <code>default/web</code>。");
	const code = parts.find((p) => typeof p !== "string");
	assert.equal(code.getAttribute("lang"), "en");
});

test("a one-line explanation names other entries by their words, as text", () => {
	assert.equal(drawn(explain({short: "不超出 {{max-surge|maxSurge}} 和 {{workqueue}} 的限度。"})), "不超出 maxSurge 和 工作队列（workqueue） 的限度。");
});
