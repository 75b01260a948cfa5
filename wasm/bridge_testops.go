//go:build rlabtest

package main

import "errors"

// This file exists only in builds with the rlabtest tag, which the browser
// tests use (e2e/). It adds two ops that break the engine on purpose, to
// prove that the page survives both kinds of failure:
//
//	panic   panics inside the op: the bridge recovers and answers {error},
//	        and the world goes on
//	crash   panics in a new goroutine, where nothing can recover: the Go
//	        program dies, as it would on running out of memory, and the page
//	        must notice the dead worker, start another and replay its world
//
// Neither is reachable in the page's real build, which has no such ops.

func init() {
	testOps = map[string]op{
		"panic": func(*Bridge, []byte) (any, error) {
			panic("injected by the rlabtest build's panic op")
		},
		"crash": func(*Bridge, []byte) (any, error) {
			go func() { panic(errors.New("injected by the rlabtest build's crash op")) }()
			return map[string]string{"crash": "the Go program dies as soon as the worker is idle"}, nil
		},
	}
}
