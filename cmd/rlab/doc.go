// Rlab is Reconcile Lab without a browser: the same engine the page runs,
// driven from a terminal or from CI.
//
// Usage:
//
//	rlab <command> [arguments]
//
// The commands are:
//
//	run        run scenario scripts headless
//	trace      print the event trace of scenario scripts
//	lessons    list the lessons, or prove that they work
//	export     write a lesson's or a script's world and commands for a real cluster
//	serve      serve the web page on this machine
//	wasm       build the engine for the web page (main.wasm, export.wasm)
//	bundle     join the web page's scripts into rlab-start.js and rlab.js
//	compress   precompress the web page for serving
//
// Use "rlab help <command>" for a command's flags, and "rlab help scenario
// [topic]" for the scenario language: the same help, from the same command
// table (core/script), as the page's console prints. Each command is one
// entry in the commands table of main.go.
//
// # Run scripts
//
//	rlab run [--seed=N] [--trace] FILE...
//
// Run executes scenario scripts (spec/SCENARIO.md; core/script implements
// them) without a browser, each in a fresh world, one after another, and
// prints to standard output what their commands print:
//
//	$ rlab run web.txt
//	replicaset.apps/web created
//	the world is at rest after 156 steps (t=2.118s)
//
// Every file is parsed before any runs. A parse error anywhere runs nothing:
// each error is printed as the Go toolchain prints them, and the status is 2.
//
//	$ rlab run typo.txt
//	typo.txt:2:1: unknown command "scael"; did you mean "scale"?
//
// A command that cannot be carried out, or an expect that does not hold, is a
// runtime failure: its file stops at that line, keeping what ran before it,
// the failure is printed, and the status is 1. The next file still runs,
// since its world is its own, so one run reports every failing file.
//
//	$ rlab run fail.txt
//	replicaset.apps/web created
//	the world is at rest after 156 steps (t=2.118s)
//	fail.txt:3:1: expect pods -l app=web count=4: found 3 (web-5nl64 Running Ready rs/web, ...)
//
// --seed=N seeds every world with N instead of the script's seed command (or
// the default seed, 1), so one script can be tried under other generated
// names and random picks; 0 keeps the scripts' own seeds. --trace prints,
// among the commands' output and as they happen, one line per kernel event
// (step) in the kernel's fixed-column trace format (package sim):
//
//	#66   t=0.101s  apiserver       registry.Create    create replicasets default/web from kubectl: ok (resourceVersion 4)
//
// The columns are the step number, the simulated time in seconds, the actor,
// the upstream function the step models and what happened; each is padded
// to its width (6, 10, 16 and 19 characters) and never truncated. The steps
// of the world's start (kubelets registering, informers listing), which
// every world runs before its script, are not printed by --trace.
//
// # Trace scripts
//
//	rlab trace [--seed=N] FILE...
//
// Trace runs scripts as run does but prints only the event trace of each
// world, the world's start included, in the format above, and discards what
// the commands print: the view to read or diff when a scenario behaves
// unexpectedly. A file that fails prints its trace up to the failure, then the
// failure, with the exit statuses of run.
//
// # Export to a real cluster
//
//	rlab export [--out=DIR] FILE
//
// Export (package core/export) writes a lesson's world (the objects its
// setup creates) as manifests for kubectl apply, and what its solution does
// (all of a scenario script) as kubectl commands, with each --pick done on
// the cluster by creation time and each stabilize a wait for the state the
// simulated world rests in. What only the simulator can do becomes comments
// that say what to do by hand. Without --out it prints one self-contained
// bash script; with --out it writes DIR/world.yaml and an executable
// DIR/replay.sh that applies it first. Both work in $NAMESPACE (default
// rlab), which they create:
//
//	$ rlab export lessons/05-orphans.txtar > orphans.sh
//	$ NAMESPACE=orphans bash orphans.sh     # against your kind or minikube cluster
//
// # Lessons
//
//	rlab lessons [--check] [--dir=path] [--site=path] [ID...]
//
// Lessons lists the lessons built into rlab (package lessons embeds them), or
// those named by ID, which may be a lesson's ID (02-a-pod-dies), its number
// (01 or 1) or its slug (self-healing):
//
//	$ rlab lessons
//	ID               LEVEL     TITLE
//	02-a-pod-dies  beginner  Self-healing
//
// --check proves each lesson as CI does (core/lesson's Check): setup +
// solution meets the goal, setup alone does not, every page's checks hold
// after its do and step blocks, every predict is decided as ticked, and
// every do block run twice leaves the goal in reach; and it checks every
// link (internal/lessonlint) against the page's glossary, the glossary.js
// in --site (default site, so run it in the repository's root), and the
// upstream code at v1.31.14. It proves every language of a lesson so:
// English, and each translation (guide.zh-CN.md, hints.zh-CN), which must
// have the English's pages, blocks, commands, choices and hints and leave
// no English word that its table of terms (i18n/terms.zh-CN.md) does not
// keep; and every lesson must ship in every language the project ships, en
// and zh-CN, so a lesson written from now on is written in both.
// The table gains a CHECK column, ok or FAIL, and a LANGUAGES column, the
// languages proven; each failure is printed on standard error, naming the
// lesson, the proof and the line that broke it, and the exit status is 1:
//
//	$ rlab lessons --check --dir=lessons
//	ID         LEVEL     TITLE         CHECK  LANGUAGES
//	07-broken  beginner  Self-healing  FAIL   en, zh-CN
//	lesson 07-broken.txtar: setup + solution must meet the goal: lesson 07-broken.txtar, goal:2:1: expect requests verb=create resource=pods count=4: found 3 ...
//	rlab lessons: 1 of 1 lessons failed their check
//
// --dir reads the lessons of a directory instead, so an author can check a
// lesson without rebuilding rlab. A lesson that does not parse is reported
// with every problem's position (exit status 1); an unknown ID is a usage
// error (exit status 2).
//
// # Serve the page
//
//	rlab serve [--addr=host:port] [--dir=path]
//
// Serve serves the static page in --dir (default site, which make wasm fills
// with main.wasm and wasm_exec.js) at --addr (default 127.0.0.1:8080) and prints
// the address to open:
//
//	$ rlab serve
//	serving site/ on http://127.0.0.1:8080
//
// It listens on the loopback interface unless --addr names another one, so
// that a development server is not reachable from the network by accident.
// Every response carries the Content-Security-Policy the page is written for
// (scripts only from the site itself, plus 'wasm-unsafe-eval' so that
// WebAssembly may compile; no inline scripts or styles; no framing) and
// X-Content-Type-Options: nosniff, so a page that works here also works behind
// a strict production server. .wasm files are served as application/wasm,
// without which WebAssembly.instantiateStreaming refuses them. Interrupt
// (Ctrl-C) stops the server cleanly: requests in flight finish and the exit
// status is 0.
//
// A file with an up-to-date FILE.br or FILE.gz beside it, as rlab compress
// writes them, is sent from that sibling to a browser that accepts the
// coding, with the original's content type; a sibling older than its file is
// ignored. Every response says Cache-Control: no-cache and carries a strong
// ETag, so a reload revalidates every file, never runs a stale main.wasm, and
// costs a 304 for each file that has not changed. Package
// internal/siteserver is the server.
//
// # Build the engine for the page
//
//	rlab wasm [--out=file] [--version=v] [--tags=t,…] [--go=path]
//
// Wasm compiles package wasm for js/wasm into --out (default site/main.wasm)
// with the flags of internal/wasmbuild, which every build of the page shares:
// make wasm, the wasm program's size test and the browser suite. It prints the
// go command it runs, so the line can be pasted:
//
//	$ rlab wasm --version=v0.3.0
//	GOOS=js GOARCH=wasm go build -trimpath '-ldflags=-s -w -X main.version=v0.3.0' -gcflags=all=-l …
//
// Inlining is off outside the Go runtime: on wasm it makes the file bigger
// and the page no faster, since the browser inlines hot wasm code itself
// (internal/wasmbuild's documentation has the figures).
//
// Beside --out it writes lessons.json, the lessons, and export.wasm, built
// from package exportwasm with the same flags: the exporter, which the page
// fetches on the first Export only, so that main.wasm does not carry it.
//
// # Bundle the page's scripts
//
//	rlab bundle [--dir=path]
//
// Bundle writes rlab-start.js and rlab.js in the page's directory: the
// page's ES modules joined into the two scripts index.html loads
// (siteserver.PageScripts), each module in its own scope after the modules it
// imports (siteserver.JoinScripts). rlab-start.js is early.js and locale.js
// and what they import: small, so that main.wasm's download starts, and its
// progress shows, before the rest of the page has arrived. rlab.js is app.js
// and offline.js and every other module. Two files bring a cold page to
// interactive sooner than a request per module does. A script newer than
// every module it holds is left alone, and make wasm runs it, so after
// editing a module run make wasm (make run does).
//
// # Precompress the page
//
//	rlab compress [--dir=path]
//
// Compress writes FILE.gz (gzip at its best compression) and FILE.br
// (brotli) beside every .wasm, .js, .css, .html, .svg and .webmanifest file
// in --dir (default site), for rlab serve to send, and prints one line per
// file it compressed:
//
//	$ rlab compress
//	site/index.html: 10925 bytes, 3452 gzip, 2806 brotli
//	site/main.wasm: 6922929 bytes, 1739108 gzip, 1247765 brotli
//
// make wasm runs it after building main.wasm. A file whose two siblings are
// no older than it is skipped, so a second run prints nothing and takes
// milliseconds. Each sibling is written to a temporary file and renamed into
// place, so a running server never sends half of one, and it takes its
// original's modification time. Brotli is at quality 11, its smallest,
// because that copy is what a learner downloads and what the page's budget
// is on; it takes main.wasm about 30 seconds, once per build (quality 9
// would take 2, for a file 14% larger). internal/siteserver's compress.go
// has the figures.
//
// # Exit status
//
// 0 on success, 1 if a command fails, 2 if it was called wrongly (an unknown
// command, flag or argument), following the Go command's conventions. Usage
// and errors go to standard error; what the user asked for goes to standard
// output.
package main
