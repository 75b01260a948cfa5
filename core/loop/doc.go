// Package loop places every step of a world on a picture of the control
// loop, so that a page can draw the step as movement: a watch event
// travelling from the API server to a reflector, a key going into a
// workqueue, a worker taking it, a create request going back.
//
// The picture's parts are Places, named the way the trace names the actors
// and the way upstream names the code:
//
//	kubectl ─────────────┐
//	                     ▼
//	               ┌ apiserver (store · watch) ◀─────────────────────────┐
//	               │      │ watch events                                │ writes
//	               │      ▼                                             │
//	informer/pods: │  reflector → fifo (DeltaFIFO) → indexer → handlers ┐
//	informer/…:    │  reflector → fifo → indexer → handlers ────────────┤
//	               │                                                    ▼
//	rs:            │  queue (waiting · dirty · processing · delayed) → workers → syncHandler
//	               │
//	scheduler, kubelet, gc, events: their own informers and writes
//
// Of turns one step (a sim.StepResult) into a Move: the places it lights,
// and the edge its data travelled along, with the token that travelled and
// the fault that befell it, if any. The rules are one table, rules, keyed by
// the actor's role and the upstream function the step models; a step whose
// actor or function has no rule is not placed (Of reports it), and the tests
// run every golden script and every lesson to prove that none is left out.
//
// Which edge a step draws is the way its data came in: the event that ran
// (a watch delivery, an API response, a request reaching the API server), or,
// for an event handler, the key it handed to a workqueue (sim.Handoff), for
// the handoff is the step's whole effect. A step that only woke a component
// (a timer, a start) lights its place and draws no edge. The rules read
// what the event carried from its gist (sim.GistOf), never from the data
// itself: a step the session has packed keeps only the gist, and is drawn
// as it was when it ran.
//
// The package reads steps only; it never changes a world, and the same step
// always gives the same Move.
package loop
