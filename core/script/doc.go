// Package script reads and runs the scenario language: the one small command
// language of the browser console, lesson blocks, golden tests and rlab run.
// Parse turns text into commands; a Session runs them against a world.
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
// The verbs kubectl has (create, scale, label, annotate, delete, cordon, set
// image, rollout, get, describe) read as in kubectl: objects are KIND/NAME or
// KIND NAME, kinds go by their kubectl names too (pods, replicaset, rc,
// deployment, no, ev), and flags are spelled --replicas=3 or --replicas 3,
// -l SEL, -n NS, -o wide. A selector is one word:
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
// example in it. Adding a command is adding a row and, in its group's
// cmd_*.go file, its type, its parse function and its run method.
//
// # Where things live
//
//	doc.go          this overview
//	ast.go          the syntax tree's shared parts: Pos, Source, Command, Script, Ref, Target, Pick, FieldCheck
//	lexer.go        splitting a line into words (quotes, escapes, comments)
//	parser.go       Parse, ParseLine and the machinery: dispatch by the table, flags, values, targets, conditions
//	errors.go       ParseError, ErrorList and did-you-mean suggestions
//	table.go        the command table: every command's words, arguments, flags, examples; kinds, fields, config keys
//	cmd_world.go    create node|rs|rc|deploy|pod, scale, label, annotate, delete, cordon, uncordon
//	cmd_rollout.go  set image, rollout status|history|undo|pause|resume|restart
//	cmd_pods.go     kill, crash, evict, set ready
//	cmd_faults.go   fail, drop|break|expire|delay watch, slow kubelet, heal
//	cmd_time.go     seed, config, step, advance, until sync, stabilize
//	cmd_expect.go   every expect
//	cmd_read.go     get, describe, queue, cache, expectations, agenda, requests, trace
//	cmd_help.go     help
//	exec.go         the Session: building the world, inputs on its timeline, steps, RuntimeError, Run
//	targets.go      how verbs find their objects: by name, or -l SEL in creation order with --pick/--count
//	views.go        the inside views' text formats (queue, cache, expectations, agenda, requests, trace)
//	help.go         help's texts, from the table
//	complete.go     tab completion, from the table and the world's names
//
// Each cmd_*.go file holds, for each of its commands, the command's type, its
// parse function (named in the command's table row) and its run method.
//
// # Deployments
//
// create deploy makes a Deployment whose pods have one container, app
// (image nginx:1.0 unless --image says otherwise), leaving what its flags
// do not give for the API to default as apps/v1 does; a Deployment the API
// refuses (maxSurge and maxUnavailable both 0, say) is a runtime failure
// naming the field. The rollout commands are kubectl's client side, read
// in k8s.io/kubectl v0.31: set image, rollout pause, resume and restart
// write the Deployment; rollout undo reads the Deployment's ReplicaSets
// (by selector and controller reference, core/printers'
// DeploymentReplicaSets), picks the revision, refuses a paused
// Deployment, skips a template that already matches, and writes the
// ReplicaSet's template and annotations back; rollout status and history
// only read. Their messages and errors are kubectl's:
//
//	set image deploy/web app=nginx:2.0      deployment.apps/web image updated
//	rollout undo deploy/web --to-revision=9 ...: unable to find specified revision 9 in history
//	rollout status deploy/web               Waiting for deployment "web" rollout to finish: 1 out of 4 new replicas have been updated...
//
// A Deployment's ReplicaSets have generated names, so expect rs counts
// them by selector, as expect pods counts pods, with owner, revision,
// replicas, ready and available as its filters; expect rs NAME FIELD=VALUE
// still checks one ReplicaSet. expect pods filters by image too:
//
//	expect rs -l app=web count=1 owner=deploy/web revision=2 available=4
//	expect pods -l app=web count=4 image=nginx:2.0
//	expect deploy/web status.updatedReplicas=4 spec.paused=false
//	expect condition deploy/web Progressing=True reason=NewReplicaSetAvailable
//
// # Completion
//
// Tab completion offers what may come at the cursor: commands, kinds, flags,
// enumerated values, config keys and fields from the table, and, wherever
// the line names something that exists, its name. The table says which
// argument, flag or field names what (an object of the command's kinds, a
// node, a namespace, an owner); the names come from the world. CompleteAt
// knows the grammar alone; CompleteIn also asks an ObjectLister (the API
// store) for names, and Session.Complete asks its own world's:
//
//	kill pod/w<Tab>              pod/web-4vq9z  pod/web-kd2lm
//	describe pod <Tab>           stray  web-4vq9z  web-kd2lm
//	scale rs/<Tab>               rs/web
//	create pod p --node=<Tab>    --node=node-1  --node=node-2  --node=node-3
//	expect pods owner=rs/<Tab>   owner=rs/web
//	rollout undo deploy/<Tab>    deploy/web
//	expect rs owner=<Tab>        owner=none  owner=deploy/
//
// Names are sorted, and come from the namespace the line selects with -n
// (anywhere in the line), or default. Completing reads the world and never
// changes it.
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
// (CreateRS, CreateDeploy, Scale, Label, Delete, SetImage, RolloutUndo,
// PodAction, Fail, WatchFault, Step, Stabilize, ExpectPods,
// ExpectOwners, ExpectObject, Get, ...), each with its Source: the
// position, the text as written and the command's name. Every value in them has
// been checked, defaults are filled in (namespace "default", stabilize's
// limits), and the forms are normalized (rs and replicasets are both
// api.KindReplicaSet; --count alone picks the oldest), so each command's run
// method only acts. What can still fail is what only running can
// tell: the API rejects a request, no pod matches a --pick, an expect does not
// hold, stabilize hits its limit.
//
// # Running
//
// A Session carries one world (core/world) through a script:
//
//	s := script.NewSession(script.Options{Out: os.Stdout, Trace: true})
//	err := s.RunScript(parsed)             // or s.Run(cmd), one command at a time
//	code, err := script.Run(src, "web.txt", opts) // parse and run: exit 0, 1 or 2
//
// The world is built at the first command that needs one, from the seed and
// config commands before it, and its start (kubelets registering, informers
// listing, the managers waiting for their caches) runs to rest at once and
// unprinted, so every script starts from a quiet cluster of three Ready nodes.
// Until a command has changed the world, seed and config rebuild it; after,
// seed and the config keys workers, burst-replicas and resync are refused,
// while kubelet-start, kubelet-stop, api-latency and watch-latency change the
// running world.
//
// Every command that changes the world is one input on the world's timeline
// (world.World.Do), so seeking replays a session exactly; --pick=random draws
// inside the input from the world's seeded source. The verbs kubectl has send
// kubectl's requests and then step until kubectl has its answers (those steps
// are real steps: with Options.Trace each prints its trace line), and print
// what kubectl prints ("replicaset.apps/web created", `pod "web-7xk2p"
// deleted`). kill is a delete with grace period 0. crash, evict and set ready
// go to the pods' kubelets and faults to the API store and the informers;
// they step nothing. step N, advance D, until sync and stabilize run the
// kernel: step prints the steps it ran, advance and stabilize say how many,
// until sync says what the sync decided: a replication manager's sync of
// rs/NAME or rc/NAME, or the Deployment controller's of deploy/NAME, which
// is how a lesson walks a rollout one decision at a time.
//
// A verb on pods -l SEL acts on every pod the selector matches, in creation
// order (the order of the API server's successful creates), narrowed by
// --pick and --count. label, annotate and delete print "No resources found"
// when nothing matches, as kubectl does; kill, crash, evict and set ready
// fail. The chosen objects are checked before anything is sent: a label that
// would need --overwrite, or a pod its kubelet cannot crash, fails the whole
// command and changes nothing.
//
// # Runtime failures
//
// A command that parses but cannot be carried out returns a *RuntimeError,
// printed with the command's position like a parse error:
//
//	web.txt:3:1: create rs web: replicasets.apps "web" already exists
//	web.txt:9:1: kill pods -l app=web --pick=3: only 3 pods match -l app=web; --pick=3 needs 4
//	web.txt:12:1: expect pods -l app=web count=3: found 2 (web-4vq9z Running Ready rs/web, web-kd2lm Running Ready rs/web)
//	web.txt:14:1: stabilize: stopped after 100000 steps and 412.030s of simulated time (--max-steps=100000); next on the agenda: ...
//
// A failed expect says what it found and lists the objects involved: for
// pods, each with its phase, readiness and owner (and the pods the selector
// matched that the filters left out); for fields, each field that did not
// hold with its actual value; for queues, events and requests, what is in
// them. A failure of a check (every expect, a --pick with too few matches, a
// missing object, a refused config) leaves the world exactly as it was; one
// the API answered comes after the steps that carried the request.
//
// # Reading
//
// get prints kubectl's tables (core/printers; ages on the simulated clock,
// --show-labels adds LABELS) and -o json and -o yaml manifests; describe
// prints kubectl describe's report. queue, cache, expectations, agenda,
// requests and trace print the inside views in the fixed formats views.go
// documents: a summary line per component, then a table with upper-case
// column names, one line per item, columns padded to the widest cell plus two
// spaces, times as t=SECONDS, "-" for nothing, in a stated stable order
// (queue keys as Get hands them out; cache and expectations by key; agenda
// soonest first; requests and trace oldest first). trace prints the trace
// lines of package sim, the world's start included.
package script
