// Rlab is Reconcile Lab without a browser: the same engine the page runs,
// driven from a terminal or from CI.
//
// Usage:
//
//	rlab <command> [arguments]
//
// The commands are:
//
//	serve   serve the web page on this machine
//
// Use "rlab help <command>" for a command's flags. Commands that run
// scenarios and lessons headless join serve as the engine grows; each is one
// entry in the commands table of main.go.
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
// # Exit status
//
// 0 on success, 1 if a command fails, 2 if it was called wrongly (an unknown
// command, flag or argument), following the Go command's conventions. Usage
// and errors go to standard error; what the user asked for goes to standard
// output.
package main
