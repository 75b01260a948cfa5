//go:build !linux && !js

package e2e

import (
	"errors"
	"time"
)

// Outside Linux there is no throttle for a worker's thread (see
// threadthrottle_linux_test.go): the throttled benchmark fails, saying so,
// rather than measure an engine running at full speed beside a slowed page.

type threadThrottle struct{}

type throttleResult struct {
	ran, stopped time.Duration
	stops        int
	gone         bool
	err          error
}

type thread struct{ pid, tid int }

var errNoThreadThrottle = errors.New("throttling a Web Worker's CPU needs Linux's ptrace(2); Chromium's CPU throttling does not reach workers")

func startThreadThrottle(pid, tid int, rate float64) (*threadThrottle, error) {
	return nil, errNoThreadThrottle
}

func (t *threadThrottle) stop() throttleResult { return throttleResult{} }

func threadCPU(pid, tid int) (time.Duration, error) { return 0, errNoThreadThrottle }

func threadsNamed(root int, name string) ([]thread, error) { return nil, errNoThreadThrottle }
