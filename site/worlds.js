// worlds.js loads the worlds the learner can be in: a new sandbox (from one
// of its starts), a lesson, or the world a share link describes; and the
// list of lessons, with each one's progress, and its export and import.

import {call, counterText, els, engine, english, parts, reasonOf, sandboxStarts, setStatus, showError, showNotice, state} from "./page.js";
import {fillTimeline} from "./timeline.js";
import {rememberStart} from "./share.js";
import {refresh, scheduleRender, setBusy, setSyncNote} from "./view.js";
import {act, stopPlay} from "./playback.js";
import {progress} from "./progress.js";
import {h} from "./ui-util.js";
import {links} from "./ui-markdown.js";
import {drawLessonList, lessonWords} from "./ui-lesson.js";
import {t, tParts} from "./i18n.js";

// loadSandbox starts a new sandbox from one of sandboxStarts (the
// default: a ReplicaSet ready to step), inside an action.
/**
 * @param {number} [seed]
 * @param {string} [start]
 */
async function loadSandbox(seed, start = "sandbox") {
	// The world's setup ends where the load leaves it: the start
	// commands below are the learner's, counted from there.
	state.base = (await call("load", seed ? {seed} : {})).step;
	parts.lesson.show(null);
	els.worldSelect.value = start;
	state.view = null;
	parts.news.forget();
	state.tl = [];
	setSyncNote("");
	for (const line of sandboxStarts[start] || sandboxStarts.sandbox) {
		await parts.console.exec(line);
	}
	if (!state.view) {
		await refresh(null); // the empty start ran no command
	}
	state.intro = true;
	if (!seed && start === "sandbox") {
		rememberStart();
	}
	// The timeline now holds the command's steps; the world's start
	// (nodes registering, workers starting) is listed once the page is
	// interactive, or at once when this is not the first world.
	if (state.ready) {
		await fillTimeline();
	}
	scheduleRender();
}

/** @param {string} id */
async function loadLesson(id) {
	const res = await call("load", {lesson: id});
	state.view = null;
	state.base = res.step;
	parts.news.forget();
	parts.lesson.show(res.lesson || null, {saved: progress.get(id)});
	els.worldSelect.value = id;
	setSyncNote("");
	await refresh(null);
	state.intro = true;
	await fillTimeline();
	parts.console.print(t("lesson.loaded", {lesson: res.lesson ? lessonWords(res.lesson).title : id, steps: t("count.steps", {n: res.step})}));
	scheduleRender();
}

// restoreLink rebuilds the world a share link describes; it resolves
// false when that failed (the caller then loads the default sandbox).
/**
 * @param {import("./engine.js").ReplayState} link
 * @returns {Promise<boolean>}
 */
async function restoreLink(link) {
	if (link.version !== engine().version) {
		showNotice(t("link.otherVersion", {link: link.version, engine: engine().version}));
	}
	setBusy(true, t("link.restoring"));
	try {
		// A lesson's guide comes with its load; the restore loads again.
		let info = null;
		if (link.world !== "sandbox") {
			info = (await call("load", {lesson: link.world})).lesson || null;
		}
		await engine().restore(link, {onProgress: (key, params) => setStatus(t(key, params))});
		parts.lesson.show(info, {page: link.page, saved: info ? progress.get(info.id) : null});
		els.worldSelect.value = link.world;
		state.view = null;
		parts.news.forget();
		// refresh makes the view it fetched the present, and nothing
		// else runs until this action ends.
		const view = await refresh(null);
		state.intro = false;
		await fillTimeline(link.at);
		// The counter's own words, from the world as restored: a link's
		// at and end are the engine's numbers, which count the setup.
		parts.console.print(t("link.restored", {inputs: t("count.inputs", {n: link.inputs.length}), step: counterText(view.step, view.recordedSteps)}));
		return true;
	} catch (e) {
		// The engine and the page reject with Errors only.
		const err = /** @type {Error} */ (e);
		showError(tParts("link.notReplayed", {reason: reasonOf(err)}));
		return false;
	} finally {
		setBusy(false);
	}
}

async function loadLessonList() {
	try {
		const sources = await engine().call("sources");
		links.sources = new Map((sources.sources || []).map((src) => [src.name, src]));
	} catch (err) {
		// Upstream links then lead to files only; nothing else needs them.
	}
	try {
		const res = await engine().call("lessons");
		const lessons = res.lessons || [];
		state.lessons = lessons;
		if (els.lessonsDialog.open) {
			// Opened before the list arrived: draw it now.
			openLessons();
		}
		if (lessons.length) {
			els.worldSelect.appendChild(h("optgroup", {label: t("world.lessons"), dataset: {lessons: ""}},
				lessons.map((l) => h("option", {value: l.id, text: t("lesson.numbered", {n: l.number, title: lessonWords(l).title})}))));
		}
	} catch (e) {
		state.lessonsError = /** @type {Error} */ (e).message;
		showError(tParts("lessons.notListed", {reason: english(state.lessonsError)}));
		if (els.lessonsDialog.open) {
			openLessons();
		}
	}
}

// openLessons opens the list of lessons, with each one's progress.
function openLessons() {
	if (!state.lessons) {
		els.lessonsList.replaceChildren(h("li", {class: "lesson-item"},
			state.lessonsError ? tParts("lessons.notListed", {reason: english(state.lessonsError)}) : t("lessons.loading")));
		if (!els.lessonsDialog.open) {
			els.lessonsDialog.showModal();
		}
		els.lessonsClose.focus();
		return;
	}
	drawLessonList(els.lessonsList, state.lessons, (id) => progress.get(id), (id) => {
		els.lessonsDialog.close();
		els.worldSelect.value = id;
		act(async () => {
			stopPlay();
			await loadLesson(id);
		});
	});
	els.lessonsNote.textContent = "";
	if (!els.lessonsDialog.open) {
		els.lessonsDialog.showModal();
	}
	/** @type {HTMLButtonElement} */
	const first = els.lessonsList.querySelector(".next button") || els.lessonsList.querySelector("button") || els.lessonsClose;
	first.focus();
}

function exportProgress() {
	const blob = new Blob([progress.exported()], {type: "application/json"});
	const a = h("a", {href: URL.createObjectURL(blob), download: "reconcile-lab-progress.json"});
	document.body.appendChild(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(a.href), 1000);
	els.lessonsNote.replaceChildren(...tParts("lessons.exported", {file: h("code", {lang: "en", text: "reconcile-lab-progress.json"})}));
}

async function importProgress() {
	const file = els.lessonsImport.files && els.lessonsImport.files[0];
	if (!file) {
		return;
	}
	try {
		const res = progress.imported(await file.text(), (state.lessons || []).map((l) => l.id));
		openLessons();
		const lessons = t("count.lessons", {n: res.n});
		els.lessonsNote.replaceChildren(...(res.skipped.length
			? tParts("lessons.importedSome", {lessons, skipped: h("span", {lang: "en", text: res.skipped.join(", ")})})
			: tParts("lessons.imported", {lessons})));
	} catch (e) {
		// progress.imported throws Errors in the page's words; file.text
		// the browser's.
		els.lessonsNote.textContent = t("lessons.notImported", {reason: /** @type {Error} */ (e).message});
	} finally {
		els.lessonsImport.value = "";
	}
}

export {exportProgress, importProgress, loadLesson, loadLessonList, loadSandbox, openLessons, restoreLink};
