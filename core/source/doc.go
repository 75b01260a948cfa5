// Package source says where, in the upstream Kubernetes code, the function
// each step of a trace models lives: the trace's function column names it
// ("syncReplicaSet", "processDeltas"), and Of gives its Go name, its file in
// the kubernetes repository and its first line at v1.31.14, so the page can
// link a step, and a lesson's "what the real code did", to the code that
// does the same. A learner who has watched processDeltas run can read it.
//
// The table is small and written by hand: which function a step models is a
// judgement (the simulator's "PLEG" is the generic PLEG's Relist), and the
// trace's names are sometimes the ones a reader knows rather than the ones
// of this release (client-go v0.31 calls watchHandler handleWatch). Its
// test holds it to the facts: every name core/loop has a rule for has a
// source here or is Reconcile Lab's own (Own: kubectl, the faults), and
// every file, function and line is the one the committed manifest of the
// upstream release lists (internal/upstream).
package source
