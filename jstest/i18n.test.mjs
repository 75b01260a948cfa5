// i18n.test.mjs tests the page's words (i18n.js) under node's test runner:
// how the locale is chosen, how a message's places are filled with text
// and with nodes, its plural forms, and how durations and numbers are
// written in each language.
import {test} from "node:test";
import assert from "node:assert/strict";
import {install, outline} from "./fakedom.mjs";

install();
const {chooseLocale, linkLocale, supportedLocale, t, tParts, useLocale, duration, formatNumber} = await import("../site/i18n.js");
const {messages} = await import("../site/messages-en.js");

test("the locale is the learner's choice, else the link's, else the browser's, else English", () => {
	assert.equal(chooseLocale({}), "en");
	assert.equal(chooseLocale({languages: ["fr-FR", "de"]}), "en", "a browser in languages the page lacks gets English");
	assert.equal(chooseLocale({languages: ["fr-FR", "zh-TW", "en"]}), "zh-CN", "the first language the page has wins; any zh is zh-CN");
	assert.equal(chooseLocale({link: "zh-CN", languages: ["en-GB"]}), "zh-CN", "a link's language beats the browser's");
	assert.equal(chooseLocale({stored: "en", link: "zh-CN", languages: ["zh"]}), "en", "the learner's own choice beats all");
	assert.equal(chooseLocale({stored: "klingon", link: "xx", languages: ["zh-Hans-CN"]}), "zh-CN", "what the page does not have is passed over");
	assert.equal(supportedLocale("ZH_cn"), "zh-CN");
	assert.equal(supportedLocale(null), "");
	assert.equal(linkLocale("#v=1&w=sandbox&l=zh-CN"), "zh-CN");
	assert.equal(linkLocale("#v=1&w=sandbox"), null);
});

test("t fills places, and picks the plural form by n", () => {
	useLocale("en", messages);
	assert.equal(t("step.counter", {n: 3, total: 10}), "step 3 of 10");
	assert.equal(t("restore.input", {n: 1, total: 2}), "replaying input 1 of 2: {command}", "a place not given stays, visibly");
	const counting = {"pods": {one: "{n} pod", other: "{n} pods"}, "hi": "hello {who}"};
	useLocale("en", counting);
	assert.equal(t("pods", {n: 1}), "1 pod");
	assert.equal(t("pods", {n: 0}), "0 pods");
	assert.equal(t("pods", {n: 2}), "2 pods");
	useLocale("zh-CN", {"pods": "{n} 个 Pod", "hi": "你好，{who}"});
	assert.equal(t("pods", {n: 1}), "1 个 Pod", "a language with one form writes one string");
	useLocale("zh-CN", {"pods": {other: "{n} 个 Pod"}, "hi": "你好，{who}"});
	assert.equal(t("pods", {n: 1}), "1 个 Pod", "zh's only plural category is other");
	useLocale("en", messages);
});

test("tParts puts nodes where the translation put their places", () => {
	const code = document.createElement("code");
	code.textContent = "rs/web";
	useLocale("en", {"m": "sync {owner} now, {who}"});
	assert.equal(tParts("m", {owner: code, who: "you"}).map((p) => (typeof p === "string" ? p : outline(p))).join("|"), "sync |<code>rs/web</code>| now, you");
	useLocale("zh-CN", {"m": "{who}，现在同步 {owner}"});
	assert.equal(tParts("m", {owner: code, who: "你"}).map((p) => (typeof p === "string" ? p : outline(p))).join("|"), "你，现在同步 |<code>rs/web</code>");
	useLocale("en", messages);
});

test("durations and numbers are written for the locale", () => {
	useLocale("en", messages);
	assert.equal(duration("0.102s"), "0.102s", "English keeps the engine's own form");
	assert.equal(formatNumber(1.5, {minimumFractionDigits: 1}), "1.5");
	useLocale("zh-CN", {"unit.seconds": "{n} 秒", "unit.milliseconds": "{n} 毫秒", "unit.minutes": "{n} 分钟"});
	assert.equal(duration("1.5s"), "1.5 秒");
	assert.equal(duration("5ms"), "5 毫秒");
	assert.equal(duration("1m30s"), "1 分钟 30 秒");
	assert.equal(duration("rs/web"), "rs/web", "what is not a duration stays as it is");
	assert.equal(duration("5msx"), "5msx");
	assert.equal(duration("2.000s"), "2.000 秒", "the engine's precision stays");
	useLocale("en", messages);
});

test("Chinese leaves a space between its characters and a Latin word or a number put into a place", () => {
	const messages = {"m": "从{from}传到{to}。", "n": "第 {n} 步", "o": "{owner}期望{pods}"};
	useLocale("zh-CN", messages);
	assert.equal(t("m", {from: "API 服务器", to: "反射器"}), "从 API 服务器传到反射器。");
	assert.equal(t("m", {from: "反射器", to: "informer/pods"}), "从反射器传到 informer/pods。");
	assert.equal(t("n", {n: 3}), "第 3 步", "a space the message has is not doubled");
	const code = document.createElement("code");
	code.textContent = "rs/web";
	assert.equal(tParts("o", {owner: code, pods: "3 个 Pod"}).map((p) => (typeof p === "string" ? p : outline(p))).join("|"), "<code>rs/web</code>| 期望 3 个 Pod");
	useLocale("en", {"m": "from{from}"});
	assert.equal(t("m", {from: "x"}), "fromx", "English is left as it is written");
	useLocale("en", messages);
});

test("Chinese text keeps no space between its characters, nor beside its punctuation", () => {
	useLocale("zh-CN", {"m": "同步从 {start} 运行到 {end}。", "k": "按 {key} 键"});
	assert.equal(t("m", {start: "0.102 秒", end: "0.108 秒"}), "同步从 0.102 秒运行到 0.108 秒。");
	assert.equal(t("m", {start: "rs/web", end: "现在 ）"}), "同步从 rs/web 运行到现在）。");
	assert.equal(t("k", {key: "Esc"}), "按 Esc 键", "a space between Chinese and Latin stays");
	useLocale("en", {"m": "a  b"});
	assert.equal(t("m"), "a  b", "English is left as it is written");
});
