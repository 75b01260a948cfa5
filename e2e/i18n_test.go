//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/i18n"
	"github.com/reconcilelab/rlab/internal/siteserver"
)

// The tests of this file prove the page in Simplified Chinese (zh-CN): the
// header's Language select switches it, the choice survives a reload and
// travels in a share link, a lesson plays in its translation, no English
// word is left outside the engine's own words (marked lang="en"), and the
// accessibility audit finds nothing serious in Chinese either. The suite's
// browser speaks English (harness_test.go), so every other test sees the
// English page; these choose Chinese as a learner would, or keep the
// choice in localStorage before the page loads. Their screenshots are in
// Chinese.

// chinese is the locale these tests choose.
const chinese = "zh-CN"

// chineseReady is true once the page shows itself in Chinese, drawn and
// not busy: its words are Chinese from the first frame, so "ready" is 就绪.
const chineseReady = `document.documentElement.lang === "zh-CN" && document.body.dataset.state === "ready" &&
	document.getElementById("status")?.textContent === "就绪"`

// openChinesePage opens the page, with fragment as its hash, as a learner
// who chose Chinese before: the choice is in localStorage when the page
// loads. It waits as openPage does.
func openChinesePage(tb testing.TB, fragment string) *page {
	tb.Helper()
	p := newTab(tb)
	p.keepChinese()
	p.navigate(p.s.server.URL + "/" + fragment)
	p.waitChinese()
	return p
}

// keepChinese keeps the choice of Chinese in the tab's localStorage, as a
// learner who chose it before did, before any page of the tab loads (and
// as long as the tab has made no other choice).
func (p *page) keepChinese() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `if (localStorage.getItem("rlab.locale") === null) { localStorage.setItem("rlab.locale", "zh-CN"); }`,
	})
	require.NoError(p.t, err, "keeping the choice of Chinese")
}

// waitChinese waits until the page is ready in Chinese, has started up and
// drew its latest view.
func (p *page) waitChinese() {
	p.t.Helper()
	p.waitFor("the page to be ready in Chinese", loadTimeout, chineseReady)
	p.waitFor("the page to finish starting up", loadTimeout, `window.__rlabStartedUpAt !== undefined`)
	p.waitSettled()
}

// chooseLanguage picks locale in the header's Language select, as a
// learner does, and waits until the page has loaded again and ready says
// it is ready. The page reloads itself, so waiting starts only once the
// old document is gone: a poll that the reload cuts short is tried again.
func (p *page) chooseLanguage(locale, ready string) {
	p.t.Helper()
	eval[any](p, `(() => {
		window.__e2eBeforeSwitch = true;
		const s = document.getElementById("language-select");
		s.value = `+js(locale)+`;
		s.dispatchEvent(new Event("change"));
		return null;
	})()`)
	deadline := time.Now().Add(loadTimeout)
	for {
		err := p.poll(time.Until(deadline), `window.__e2eBeforeSwitch === undefined && (`+ready+`)`)
		if err == nil {
			break
		}
		// The reload cuts a poll short ("navigated or closed", "cannot
		// find context"): it is tried again on the new document.
		if time.Now().After(deadline) {
			p.shot("timeout")
			p.t.Fatalf("waiting for the page to load again in %s: %v", locale, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.waitFor("the page to finish starting up", loadTimeout, `window.__rlabStartedUpAt !== undefined`)
	p.waitSettled()
}

// TestSwitchingToChineseChangesThePage switches an English page to Chinese
// with the header's select: the page loads again at the same step, says
// <html lang="zh-CN">, and its words are Chinese; a reload keeps it; a
// share link carries it to a browser that never chose (and says English);
// switching back gives the English page. A browser whose language is
// Chinese gets the Chinese page without any choice.
func TestSwitchingToChineseChangesThePage(t *testing.T) {
	p := openPage(t, "")
	require.True(t, strings.HasPrefix(eval[string](p, `navigator.languages[0]`), "en"), "the suite's browser must speak English")
	assert.Equal(t, "en", eval[string](p, `document.documentElement.lang`))
	p.stepForward()
	step, _ := p.stepCount()
	p.waitFor("the address to hold the present step", quick, `location.hash.includes("at=`+fmt.Sprint(step)+`&")`)

	p.chooseLanguage(chinese, chineseReady)
	p.shot("chinese")
	now, _ := p.stepCount()
	assert.Equal(t, step, now, "switching the language kept the step")
	assert.Equal(t, chinese, p.value("#language-select"))
	assert.Equal(t, chinese, eval[string](p, `localStorage.getItem("rlab.locale")`), "the choice is kept")
	assert.Equal(t, "单步 ▶", p.text("#step-forward"))
	assert.Equal(t, "世界", p.text("#world-heading"))
	assert.Regexp(t, `^第 \d+ 步（共 \d+ 步）$`, p.text("#step-count"))
	assert.Contains(t, p.text(".tagline"), "ReplicaSet 控制器")
	assert.Equal(t, "模拟时间 "+strings.TrimSuffix(eval[string](p, `window.__rlab.view().clock`), "s")+" 秒", p.text("#clock"),
		"the simulated time is written as Chinese writes durations")
	// The step sentence is the page's words around the engine's, which
	// stay English and say so.
	assert.Regexp(t, `^第 \d+ 步 · 时间 [0-9.]+ 秒 · `, p.text("#sentence"))
	assert.Equal(t, "en", eval[string](p, `document.querySelector("#sentence .sentence-summary").lang`))

	p.reload2(chineseReady)
	assert.Equal(t, chinese, eval[string](p, `document.documentElement.lang`), "a reload keeps Chinese")
	again, _ := p.stepCount()
	assert.Equal(t, step, again, "a reload keeps the step")

	// Beside the engine's English sentence of a step whose function the
	// glossary explains, that explanation in Chinese.
	p.untilSync()
	gloss := eval[struct {
		Models, Want, Got, Text string
	}](p, `(() => {
		const models = window.__rlab.view().lastSteps.at(-1).models;
		const fn = models.split(".").pop().toLowerCase();
		const entry = [...RlabUI.buildGlossary().querySelectorAll(".gloss-entry")].find((e) => e.querySelector(".gloss-name").textContent.split(".").pop().toLowerCase() === fn);
		const term = document.querySelector("#sentence .sentence-gloss .term");
		return {Models: models, Want: entry ? entry.dataset.entry : "", Got: term ? term.dataset.term : "", Text: document.querySelector("#sentence .sentence-gloss")?.textContent ?? ""};
	})()`)
	require.NotEmpty(t, gloss.Want, "the sync ended on a step (%s) the glossary does not explain: this proves nothing", gloss.Models)
	assert.Equal(t, gloss.Want, gloss.Got, "the sentence of a step that models %s is not glossed with its entry", gloss.Models)
	// A sentence of its own after the engine's English, the term and then
	// its explanation, with no space beside the full stop.
	assert.Regexp(t, `^。[^ ].*：.+$`, gloss.Text)
	p.shot("glossed")
	p.stepBack()
	step, _ = p.stepCount()

	link := p.shareLink()
	assert.Contains(t, link, "l=zh-CN", "the share link carries the language")
	q := newTab(t)
	q.navigate(link)
	q.waitChinese()
	assert.True(t, strings.HasPrefix(eval[string](q, `navigator.languages[0]`), "en"))
	assert.Nil(t, eval[*string](q, `localStorage.getItem("rlab.locale")`), "the link's reader chose nothing")
	at, _ := q.stepCount()
	assert.Equal(t, step, at, "the link's world, at its step")
	q.shot("link-in-chinese")

	p.chooseLanguage("en", `document.documentElement.lang === "en" && document.getElementById("status")?.textContent === "ready"`)
	assert.Equal(t, "Step ▶", p.text("#step-forward"))
	assert.Equal(t, "en", eval[string](p, `localStorage.getItem("rlab.locale")`))

	// A browser that says Chinese first gets the Chinese page.
	r := newTab(t)
	emulate(r, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: eval[string](p, `navigator.userAgent`), AcceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8",
	})
	r.navigate(r.s.server.URL + "/")
	r.waitChinese()
	assert.Equal(t, "zh-CN", eval[string](r, `navigator.languages[0]`))
	assert.Nil(t, eval[*string](r, `localStorage.getItem("rlab.locale")`), "the browser's language chose, not the learner")
}

// reload2 reloads the tab at the address it shows and waits until ready,
// as reload does, ready being the expression that says so.
func (p *page) reload2(ready string) {
	p.t.Helper()
	p.navigate(eval[string](p, `location.href`))
	p.waitFor("the page to be ready", loadTimeout, ready)
	p.waitSettled()
}

// TestLessonOneInChinese plays the first page of lesson 1 in Chinese, with
// its real translation, through its first check: the title, the guide and
// the question are the translation's, the commands and expects stay
// English, and the engine grades the prediction; a reload returns to the
// lesson, still in Chinese, with the answer kept.
func TestLessonOneInChinese(t *testing.T) {
	const id = "01-the-control-loop"
	p := openChinesePage(t, "")
	p.click("#lessons-button")
	p.waitFor("the list of lessons", quick, `document.getElementById("lessons").open && document.querySelector("#lessons-list li button") !== null`)
	assert.Contains(t, p.text(`#lessons-list li[data-lesson="`+id+`"]`), "控制回路", "the list names the lesson in Chinese")
	p.shot("lessons")
	p.click(`#lessons-list li[data-lesson="` + id + `"] button`)
	p.waitFor("lesson 1", runTimeout, `document.querySelector("#lesson .predict-block") !== null && document.body.dataset.state === "ready"`)
	p.waitSettled()

	assert.Equal(t, "第 1 课：控制回路", p.text("#lesson-title"))
	assert.Equal(t, "写下来的愿望", p.text("#lesson .lesson-page h3"))
	assert.Contains(t, p.text("#lesson .predict-block legend"), "有多少个 Pod")
	assert.Equal(t, "create rs web --replicas=3 --selector=app=web", p.text("#lesson .do-block pre"), "a command is the learner's to type: English")
	assert.Equal(t, "en", eval[string](p, `document.querySelector("#lesson .do-block pre").lang`))
	assert.Equal(t, "第 1 页，共 7 页", p.text("#lesson .page-count"))

	p.click("#predict-1-0-0")
	p.clickText("#lesson .predict-block button", "回答")
	p.clickText("#lesson .do-block button", "运行")
	p.waitFor("the check to hold", runTimeout, `document.querySelector("#lesson .check-block [role=status]")?.textContent === "✓ 成立。"`)
	p.waitFor("the prediction's verdict", runTimeout, `document.querySelector("#lesson .predict-result")?.textContent.startsWith("✓ 对了")`)
	p.waitIdle(runTimeout)
	p.waitSettled()
	assert.Contains(t, p.text("#console-output"), "create rs web --replicas=3 --selector=app=web")
	assert.False(t, eval[bool](p, `document.querySelector("#lesson .lesson-nav button:last-of-type").disabled`), "the first check held, so the next page opens")
	p.shot("first-check")

	// The address follows the learner a moment after they stop (share.js's
	// urlDelay), so a reload sooner than that would start afresh; a
	// learner's reload comes later than a test's.
	step, _ := p.stepCount()
	p.waitFor("the address to hold the lesson's present step", quick,
		`location.hash.includes("w=`+id+`&") && location.hash.includes("at=`+fmt.Sprint(step)+`&")`)
	p.reload2(chineseReady)
	p.waitFor("the lesson again", runTimeout, `document.querySelector("#lesson .predict-block") !== null`)
	assert.Equal(t, chinese, eval[string](p, `document.documentElement.lang`))
	assert.Equal(t, "第 1 课：控制回路", p.text("#lesson-title"))
	assert.True(t, strings.HasPrefix(p.text("#lesson .predict-result"), "✓ 对了"), "the answer is kept across the reload")
	p.shot("reloaded")
}

// TestStaticTextIsTheCatalogue holds index.html's English, which the
// English page shows without translating it, to the English catalogue:
// translating a fresh copy of index.html into English (i18n.js's
// translateStatic, as a page in another language does) changes no text
// and no attribute the catalogue names.
func TestStaticTextIsTheCatalogue(t *testing.T) {
	p := openPage(t, "")
	got := eval[struct {
		Marked  int      `json:"marked"`
		Changed []string `json:"changed"`
	}](p, `(async () => {
		const html = await (await fetch("./")).text();
		const doc = new DOMParser().parseFromString(html, "text/html");
		const norm = (s) => (s ?? "").replace(/\s+/g, " ").trim();
		const attrs = ["aria-label", "title", "placeholder", "label"];
		const marked = [...doc.querySelectorAll("[data-i18n], " + attrs.map((a) => "[data-i18n-" + a + "]").join(", "))];
		const before = marked.map((el) => [norm(el.textContent), ...attrs.map((a) => el.getAttribute(a))]);
		window.RlabUI.translateStatic(doc);
		const out = [];
		marked.forEach((el, i) => {
			const after = [norm(el.textContent), ...attrs.map((a) => el.getAttribute(a))];
			after.forEach((v, j) => {
				if (v !== before[i][j]) {
					out.push((el.dataset.i18n || el.id || el.tagName) + ": " + JSON.stringify(before[i][j]) + " became " + JSON.stringify(v));
				}
			});
		});
		return {marked: marked.length, changed: out};
	})()`)
	assert.Greater(t, got.Marked, 100, "the check read too few marked texts")
	assert.Empty(t, got.Changed, "index.html's English is not the catalogue's:\n%s", strings.Join(got.Changed, "\n"))
}

// TestChineseWorksOffline proves the service worker keeps the page's
// Chinese: after one visit in Chinese, the page loads in Chinese, its
// glossary too, with its server gone. The test serves the site from a
// server of its own, so that it can stop it.
func TestChineseWorksOffline(t *testing.T) {
	p := newTab(t)
	p.keepChinese()
	srv := httptest.NewServer(siteserver.Handler(os.DirFS(p.s.dir)))
	defer srv.Close()
	p.navigate(srv.URL + "/")
	p.waitFor("the page to be ready in Chinese", loadTimeout, chineseReady)
	p.waitFor("the service worker to cache the page's Chinese", runTimeout,
		`navigator.serviceWorker.ready.then(() => caches.open("rlab-site-v1")).then((c) => Promise.all(["main.wasm", "messages-zh-CN.json", "glossary-zh-CN.json"].map((f) => c.match(f)))).then((r) => r.every((x) => x !== undefined))`)

	srv.Close()
	p.navigate(srv.URL + "/")
	p.waitFor("the page to be ready in Chinese, offline", loadTimeout, chineseReady)
	p.shot("offline")
	assert.Equal(t, "单步 ▶", p.text("#step-forward"), "the page's words came from the cache")
	assert.Equal(t, "zh-CN", eval[string](p, `document.querySelector("#queue .sub-note")?.closest("[lang]")?.lang ?? ""`), "the glossary's Chinese came from the cache")
}

// TestChineseFallsBackToEnglish proves that a page whose Chinese cannot be
// had shows itself in English, and says why, rather than nothing: here the
// browser refuses the catalogue's request.
func TestChineseFallsBackToEnglish(t *testing.T) {
	p := newTab(t)
	p.allowConsoleErrors(`messages-zh-CN\.json`)
	p.keepChinese()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{})
	require.NoError(t, err)
	_, err = chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/messages-zh-CN.json", Block: true}},
	})
	require.NoError(t, err, "blocking the catalogue")
	p.navigate(p.s.server.URL + "/")
	p.waitReady()
	p.shot("english")
	assert.Equal(t, "en", eval[string](p, `document.documentElement.lang`))
	assert.Equal(t, "Step ▶", p.text("#step-forward"))
	assert.Contains(t, p.text("#notice"), "The page could not be shown in 中文", "the learner is told why the page is English")
	assert.Equal(t, "en", p.value("#language-select"), "the select says the language shown")
	assert.Equal(t, "zh-CN", eval[string](p, `localStorage.getItem("rlab.locale")`), "the choice is kept for the next visit")
}

// chineseStates walks the page in Chinese through the states the
// accessibility audit visits in English (TestAxeFindsNothingSerious), and
// the help and the glossary, calling visit in each with the tab and when.
func chineseStates(t *testing.T, visit func(p *page, when string)) {
	p := openChinesePage(t, "")
	p.waitFor("the lessons to be listed", runTimeout, `document.querySelector("#world-select optgroup[data-lessons]") !== null`)
	p.waitSettled()
	visit(p, "at first view")

	for range 3 {
		p.stepForward()
	}
	visit(p, "after three steps")

	p.stabilize()
	p.click(`#world button.pod[data-ready="true"]`)
	p.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	visit(p, "at rest, with a pod's menu open")
	p.press(kb.Escape)
	p.waitFor("the pod menu to close", quick, `document.getElementById("pod-menu").hidden`)

	p.click("#help-button")
	p.waitFor("the help", quick, `document.getElementById("help").open`)
	visit(p, "with the help open")
	p.press(kb.Escape)
	p.waitFor("the help to close", quick, `!document.getElementById("help").open`)

	p.click("#glossary-button")
	p.waitFor("the glossary", quick, `document.getElementById("glossary")?.open === true`)
	visit(p, "with the glossary open")
	p.press(kb.Escape)
	p.waitFor("the glossary to close", quick, `!document.getElementById("glossary").open`)

	p.chooseWorld("02-a-pod-dies")
	p.waitFor("the lesson's guide", runTimeout, `document.getElementById("goal-checklist") !== null && document.body.dataset.state === "ready"`)
	p.waitSettled()
	visit(p, "with lesson 02-a-pod-dies open")

	p.click("#lessons-button")
	p.waitFor("the list of lessons", quick, `document.getElementById("lessons").open && document.querySelector("#lessons-list li button") !== null`)
	visit(p, "with the list of lessons open")
	p.click(`#lessons-list li[data-lesson="01-the-control-loop"] button`)
	p.waitFor("lesson 1", runTimeout, `document.querySelector("#lesson .predict-block") !== null && document.body.dataset.state === "ready"`)
	p.waitSettled()
	visit(p, "with lesson 01-the-control-loop's first page open")

	p.click("#share")
	p.waitFor("the share link and its notice", quick,
		`!document.getElementById("share-row").hidden && !document.getElementById("notice").hidden`)
	visit(p, "with the share link and a notice shown")

	bad := openChinesePage(t, "#v=e2e&w=sandbox&seed=12x&at=0&end=0")
	require.False(t, eval[bool](bad, `document.getElementById("error").hidden`), "a wrong share link showed no #error")
	// Why the link is wrong is the page's own words (engine.js names one
	// of its messages), so it is Chinese too; only the values it quotes
	// from the link are marked English.
	assert.Contains(t, bad.text("#error-text"), "链接中的 seed“12x”不是 0 到", "a share link's error is not in the page's language")
	assert.Equal(t, []string{"seed", "12x"}, eval[[]string](bad, `[...document.querySelectorAll("#error-text [lang=en]")].map((e) => e.textContent)`),
		"a share link's error marks as English exactly the values it quotes")
	visit(bad, "with an error shown")

	phone := newPhoneTab(t)
	phone.keepChinese()
	phone.navigate(phone.s.server.URL + "/")
	phone.waitChinese()
	visit(phone, "at 390×844, first view")
	phone.stabilize()
	phone.tap(`#world button.pod[data-ready="true"]`)
	phone.waitFor("the pod menu", quick, `!document.getElementById("pod-menu").hidden`)
	visit(phone, "at 390×844, with a pod's menu open")
}

// shownText is one piece of text the page shows a reader: the text of a
// block (a paragraph, an item, a cell, a heading, a control), its inline
// parts (a term, a link, emphasis) and all, or an element's aria-label,
// title or placeholder, or a select's option on show, outside every
// element marked lang="en", with where it is. A block's text is read
// whole, so that the English after a term in its first use (a term
// button, then （controller）) is read after its translation.
type shownText struct {
	Where string `json:"where"`
	Text  string `json:"text"`
}

// collectShown is run in the page: it returns every shownText, and the
// names of the world's objects, which are the learner's data, not words.
// An attribute's text leaves out the words of the element's children that
// are marked lang="en" (a pod's name, inside its button's name).
const collectShown = `(() => {
	const out = [];
	const english = (el) => {
		const l = el.closest("[lang]");
		return l !== null && l.getAttribute("lang").toLowerCase().startsWith("en");
	};
	const visible = (el) => el.checkVisibility({checkVisibilityCSS: true, visibilityProperty: true});
	const where = (el) => {
		const parts = [];
		for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
			parts.unshift(e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.classList.length ? "." + [...e.classList].join(".") : ""));
			if (e.id) {
				break;
			}
		}
		return parts.join(" > ");
	};
	// A block's text is that of its text nodes that are not in a block of
	// their own; text marked lang="en" is a space.
	const inline = "span, a, code, strong, em, b, i, kbd, abbr, small, sup, sub, mark, button.term";
	const blockOf = (el) => {
		let e = el;
		while (e.matches(inline) && e.parentElement) {
			e = e.parentElement;
		}
		return e;
	};
	const blocks = new Map();
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const el = n.parentElement;
		if (!el || !n.data.trim() || el.closest("script, style, noscript, option") || !visible(el)) {
			continue;
		}
		const block = blockOf(el);
		if (english(block)) {
			continue;
		}
		blocks.set(block, (blocks.get(block) || "") + (english(el) ? " " : n.data));
	}
	for (const [block, text] of blocks) {
		if (text.trim()) {
			out.push({where: where(block), text});
		}
	}
	for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]")) {
		if (!visible(el) || english(el)) {
			continue;
		}
		for (const attr of ["aria-label", "title", "placeholder"]) {
			let text = el.getAttribute(attr);
			if (!text) {
				continue;
			}
			for (const en of el.querySelectorAll("[lang]")) {
				if (en.getAttribute("lang").startsWith("en") && en.textContent.trim().length > 1) {
					text = text.split(en.textContent.trim()).join(" ");
				}
			}
			out.push({where: where(el) + "[" + attr + "]", text});
		}
	}
	for (const s of document.body.querySelectorAll("select")) {
		const o = s.selectedOptions[0];
		if (o && visible(s) && !english(o)) {
			out.push({where: where(s) + " (its option)", text: o.textContent});
		}
	}
	const v = window.__rlab.view() || {};
	const names = [...(v.owners || []), ...(v.pods || []), ...(v.nodes || []), ...(v.deployments || [])].map((o) => o.name)
		.concat((v.pods || []).map((o) => o.namespace));
	return {shown: out, names: [...new Set(names)]};
})()`

// englishLeft returns, for each piece of text the page shows in p that has
// an English word terms does not keep, where it is, the text and the words.
// The names of the world's objects are taken out of the text first.
func englishLeft(p *page, terms *i18n.Terms) []string {
	p.t.Helper()
	got := eval[struct {
		Shown []shownText `json:"shown"`
		Names []string    `json:"names"`
	}](p, collectShown)
	require.NotEmpty(p.t, got.Shown, "the page showed no text at all")
	names := slices.Clone(got.Names)
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	var res []*regexp.Regexp
	for _, n := range names {
		if len(n) > 1 {
			res = append(res, regexp.MustCompile(`(^|[^\w.-])`+regexp.QuoteMeta(n)+`($|[^\w.-])`))
		}
	}
	var left []string
	for _, s := range got.Shown {
		text := s.Text
		for _, re := range res {
			text = re.ReplaceAllString(text, "$1 $2")
		}
		if words := terms.UntranslatedWords(text); len(words) > 0 {
			left = append(left, fmt.Sprintf("%s: %q has %q", s.Where, strings.TrimSpace(s.Text), words))
		}
	}
	return left
}

// TestChineseLeavesNoEnglishWord proves that the page in Chinese shows no
// English word that i18n/terms.zh-CN.md does not keep, outside the
// elements marked lang="en" (the engine's words, code, object names): in
// every state the English audit visits, every visible text, aria-label,
// title and placeholder. It proves first that the check can fail, on a
// probe in English, and that it skips the same probe marked lang="en".
func TestChineseLeavesNoEnglishWord(t *testing.T) {
	terms, err := i18n.Load(chinese)
	require.NoError(t, err)
	first := true
	chineseStates(t, func(p *page, when string) {
		if first {
			first = false
			eval[any](p, `document.getElementById("hint").after(Object.assign(document.createElement("p"), {id: "i18n-probe", textContent: "这是 an English probe"})), null`)
			probed := strings.Join(englishLeft(p, terms), "\n")
			assert.Contains(t, probed, `#i18n-probe: "这是 an English probe" has ["an" "English" "probe"]`, "the check missed the probe")
			eval[any](p, `document.getElementById("i18n-probe").lang = "en", null`)
			assert.NotContains(t, strings.Join(englishLeft(p, terms), "\n"), "i18n-probe", "the check read the probe marked lang=en")
			eval[any](p, `document.getElementById("i18n-probe").remove(), null`)
		}
		left := englishLeft(p, terms)
		p.shot(strings.NewReplacer(" ", "-", ",", "", "'", "").Replace(when))
		if len(left) > 0 {
			t.Errorf("%s: %d texts have English words that are not kept terms:\n\t%s", when, len(left), strings.Join(left, "\n\t"))
		}
	})
}

// TestAxeFindsNothingSeriousInChinese runs axe-core, as
// TestAxeFindsNothingSerious does in English, on the page in Chinese in the
// same states: no violation of serious or critical impact, nor any of the
// rules the page used to break.
func TestAxeFindsNothingSeriousInChinese(t *testing.T) {
	source := axeSource(t)
	chineseStates(t, func(p *page, when string) {
		p.checkAxe(source, when+" (in Chinese)")
	})
}
