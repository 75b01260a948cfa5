// messages-en.js is the page's English: every message the page writes, by
// key, as i18n.js reads them (t and tParts). The page's bundle carries it,
// so an English page fetches no catalogue. Each other language has
// messages-<locale>.json, with the same keys and the same {places}, which
// internal/i18n's TestEveryLocaleTranslatesThePage holds it to.
//
// A message is a whole sentence or phrase: where the page puts a value
// in, it names it, {name}, so that a translation may put it anywhere. A
// message that counts has a form per plural category (one, other), chosen
// by its {n}. The engine's own words (step sentences, the console's
// output, upstream names) are not here: they stay English everywhere.
//
// The file keeps to the form internal/i18n reads: one object literal of
// double-quoted strings, with comments.
export const messages = {
	// --- The page's state (#status) and its messages ------------------------
	"status.ready": "ready",
	"status.busy": "busy…",
	"status.loading": "loading the simulator…",
	"status.starting": "starting the simulator…",
	"status.restarting": "the simulator crashed; restarting…",
	"status.restartFailed": "the simulator could not be restarted: {reason}",
	"status.loadingSize": "loading the simulator ({size})…",
	"status.loadingDone": "loading the simulator: {percent} done",
	"status.waiting": "{status} (what you asked for runs then)",
	"status.error": "error: {reason}",
	"status.firstWorldFailed": "error: the first world could not be loaded",
	"engine.notStarted": "the simulator is not started",
	"engine.loadFailed": "the simulator could not be loaded",

	// --- Steps, as the page counts them from the end of the setup -----------
	"step.name": "step {n}",
	"step.nameStart": "Step {n}",
	"step.setupName": "setup step {n}",
	"step.setupNameStart": "Setup step {n}",
	"step.counter": "step {n} of {total}",
	"step.setupCounter": "setup step {n} of {total}",

	// --- Units ----------------------------------------------------------------
	"unit.hours": "{n}h",
	"unit.minutes": "{n}m",
	"unit.seconds": "{n}s",
	"unit.milliseconds": "{n}ms",
	"unit.microseconds": "{n}µs",
	"unit.nanoseconds": "{n}ns",
	"unit.megabytes": "{n} MB",
	"unit.percent": "{n}%",

	// --- The page's language ----------------------------------------------------
	"language.label": "Language",
	"language.failed": "The page could not be shown in {language} ({reason}), so it is in English.",

	// --- Loading, the sandbox, the page's other notes ----------------------------
	"load.ofTotal": "{loaded} of {total} MB",
	"load.compressed": "{progress} ({wire} MB compressed)",
	"load.starting": "{progress}, starting…",
	"engine.unsupported": "this browser cannot run WebAssembly in a worker",
	"engine.restarted": "The simulator crashed ({reason}) and was restarted; your world was rebuilt.",
	"link.unusable": "This share link cannot be used: {reason}. Showing the default sandbox instead.",
	"sandbox.badSeed": "The seed must be a whole number from 1 to {max}, not \"{seed}\".",
	"sandbox.new": "New sandbox.",
	"sandbox.newWithSeed": "New sandbox with seed {seed}.",
	"console.cancelled": "cancelled",
	"console.atRestAt": "at rest at {step}",
	"loop.show": "Show the loop",
	"loop.hide": "Hide the loop",
	"lesson.lower": "Lower the lesson",
	"lesson.raise": "Raise the lesson",

	// --- Restoring a shared world ------------------------------------------------
	"restore.input": "replaying input {n} of {total}: {command}",
	"restore.step": "replaying: step {n} of {total}",
};
