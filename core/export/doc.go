// Package export takes a scenario to a real cluster: it writes the world a
// script starts from as manifests for kubectl apply, and what was done in
// it as a shell script of kubectl commands.
//
// A lesson's setup builds the world a learner starts from. The objects it
// creates before it does anything else (ReplicaSets, ReplicationControllers,
// Deployments, bare pods) become world.yaml: apps/v1 and v1 manifests with
// the labels, selectors, templates and annotations the script gave them, and
// nothing a client does not send (no status, no uid, no pods a controller
// made). Everything after that, the rest of the setup and then the
// learner's commands, becomes one kubectl line each, in the same order:
//
//	scale rs/web --replicas=2                    kubectl -n "$NAMESPACE" scale rs/web --replicas=2
//	delete rs web --cascade=orphan               kubectl -n "$NAMESPACE" delete rs/web --cascade=orphan --wait=false
//	kill pods -l app=web --pick=oldest           targets=$(pick pods app=web oldest 1)
//	                                             kubectl -n "$NAMESPACE" delete $targets --grace-period=0 --force --wait=false
//	set image deploy/web app=nginx:2.0           kubectl -n "$NAMESPACE" set image deploy/web app=nginx:2.0
//	advance 5s                                   sleep 5
//
// # Picking the same pod
//
// The simulator's pod names are generated from its seed, so a script picks
// pods (--pick=oldest, newest, an index, random) rather than naming them. A
// cluster names its pods differently, so the export never writes a
// simulator's name: it writes the pick, done on the cluster by the same
// rule (the pick function in the script lists the pods by
// creationTimestamp with kubectl --sort-by). Only random differs: the
// simulator draws with its seed, the script with shuf.
//
// # Waiting where the script stabilizes
//
// stabilize runs the simulator until nothing is left to do; a cluster has no
// such switch, so the export waits for what the simulated world rests in:
// each ReplicaSet and ReplicationController to have its pods available (kubectl
// wait --for=jsonpath), each Deployment to be rolled out (kubectl rollout
// status), each owner deleted since the last stabilize to be gone, and the
// namespace to hold as many pods as the simulated world, as many of them
// Ready, none of them being deleted (the wait_pods function). That is why an export runs the script
// (Run does, in a session of its own): the waits come from the world, not
// from guesses. Where the simulated world rests short of what a cluster
// would reach (a fault still in force, a paused rollout), the wait becomes a
// comment that says so.
//
// # What has no kubectl
//
// Faults (fail, drop/break/expire/delay watch, heal, slow kubelet),
// stepping (step, until sync), the simulator's settings (seed, config), its
// inside views, and what only a kubelet does (crash, evict, set ready)
// become comments that say what the simulator did and what to do by hand on
// a cluster. Nodes are the cluster's own: create node, cordon and uncordon
// become comments too. Expects and reading commands become comments with the
// kubectl to look with. A command in a namespace other than the script's
// default cannot be exported, and says so: an export puts every object in
// one namespace, $NAMESPACE.
//
// # Driving it
//
//	res, err := export.Run(setup.Commands, solution.Commands, "lessons/05-orphans.txtar")
//	os.WriteFile("rlab-export.sh", []byte(res.Script()), 0o755)
//
// or, for what a learner did in the page, from a History: the lesson and
// its setup, the seed, each input with the step it was applied at, and the
// present step. FromHistory replays it in a session of its own, and the
// runs between two inputs become a stabilize where the world was at rest by
// the next one and a step where it was not:
//
//	res, err := export.FromHistory(export.History{Seed: 1, Present: 80,
//		Inputs: []export.Input{{Step: 65, Text: "create rs web --replicas=2"}}})
//
// The page does this in export.wasm (exportwasm/), a program of its own,
// since main.wasm has no room in its size budget for this package; the
// page writes the History from its view. A caller that runs its own
// session can also drive an Exporter itself: New, Add after each command,
// Begin(PartLearner), Result.
//
// The output is a pure function of the commands: the same script exports to
// the same bytes.
package export
