// Package script reads the scenario language: the one small command language
// of the browser console, lesson blocks, golden tests and rlab run. This half
// of the package parses; executing the parsed commands against a world is the
// other half.
//
// A script is one command per line. # starts a comment (outside double
// quotes), blank lines are ignored, words are separated by spaces or tabs, and
// "double quotes" group a word with spaces (\" and \\ escape inside them):
//
//	seed 4                                        # only as the first command
//	create rs web --replicas=3 --selector=app=web
//	stabilize
//	expect rs/web status.readyReplicas=3
//	label pods -l app=web --pick=oldest app=db --overwrite
//	until sync rs/web
//	expect pods -l app=web count=3 owner=rs/web
//	expect pods -l "app in (web,db)" count=4
//
// The verbs kubectl has (create, scale, label, annotate, delete, cordon, get,
// describe) read as in kubectl: objects are KIND/NAME or KIND NAME, kinds go by
// their kubectl names too (pods, replicaset, rc, no, ev), and flags are spelled
// --replicas=3 or --replicas 3, -l SEL, -n NS, -o wide. A selector is one word:
// quote it when it holds spaces. The other verbs are the simulator's own: things
// that happen to pods (kill, crash, evict, set ready), faults (fail, drop/
// break/expire/delay watch, slow kubelet, heal), time (seed, config, step,
// advance, until sync, stabilize), assertions (expect) and views of the
// machinery (queue, cache, expectations, agenda, requests, trace). The command
// help lists them all; help COMMAND explains one.
//
// # One table
//
// Every command is one row of the table in table.go: its words, arguments,
// flags (type, default, allowed values, whether required, help) and examples.
// The parser, help (HelpText), the page's help panel (Commands, Kinds, Fields,
// ConfigKeys) and completion (Complete) all read it, and a test parses every
// example in it. Adding a command is adding a row and its parse function.
//
// # Parsing
//
// Parse reads a whole script before anything runs. Whatever is wrong with it
// (an unknown command, kind, flag or field, a malformed value, a missing
// argument, a selector a ReplicaSet cannot hold, seed after another command) is
// a *ParseError that names the line and column, what was wrong and what is
// valid, with suggestions ranked by Levenshtein distance:
//
//	3:1: unknown command "scael"; did you mean "scale"?
//	5:15: unknown field "status.ready"; did you mean "status.readyReplicas"?
//	2:31: the selector "tier" goes on after a space; did you forget quotes around the selector? write -l "tier in (a,b)"
//
// Parse returns an ErrorList holding the first error of each bad line;
// FirstError picks the first. ParseLine reads one console line.
//
// A parsed Script is a list of Commands, one Go type per command family
// (CreateRS, Scale, Label, Delete, PodAction, Fail, WatchFault, Step,
// Stabilize, ExpectPods, ExpectObject, Get, ...), each with its Source: the
// position, the text as written and the command's name. Every value in them has
// been checked, defaults are filled in (namespace "default", stabilize's
// limits), and the forms are normalized (rs and replicasets are both
// api.KindReplicaSet; --count alone picks the oldest), so the executor
// switches on the type and acts. What can still fail is what only running can
// tell: the API rejects a request, no pod matches a --pick, an expect does not
// hold, stabilize hits its limit.
package script
