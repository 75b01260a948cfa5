package controller

// SlowStartInitialBatchSize is the size of the first batch of creates. It
// models upstream's constant of the same name.
const SlowStartInitialBatchSize = 1

// Slow start is how manageReplicas creates many pods without flooding the API
// server with requests that are all going to fail. It models upstream's
// slowStartBatch: the creates go out in batches of 1, 2, 4, 8, … (each batch
// at most what is left); every call of a batch runs at once, the next batch
// waits for the whole batch, and a batch in which any call fails is the last.
// A ReplicaSet over its namespace's pod quota therefore makes one failing call
// per sync instead of hundreds, and emits one failure event instead of
// hundreds.
//
// Upstream runs a batch's calls on goroutines and waits for them. Here the
// kernel issues them as events, so slow start is split into a plan
// (slowStartBatches) and a small state machine (slowStart) that is told how
// each batch went and says what comes next.

// slowStartBatches returns the batch sizes slow start would use to make count
// calls if every call succeeded: initial, then doubling, the last batch cut to
// what remains. For count 10 and initial 1 that is [1 2 4 3]. A count or
// initial size below 1 means no calls at all, as in upstream's loop.
func slowStartBatches(count, initial int) []int {
	var sizes []int
	for s := newSlowStart(count, initial); s.next() > 0; {
		size := s.next()
		sizes = append(sizes, size)
		s.batchDone(size, nil)
	}
	return sizes
}

// slowStart follows one run of slow start. It is a plain value, so a
// component holding one snapshots it by copying.
//
// The driving loop:
//
//	s := newSlowStart(n, SlowStartInitialBatchSize)
//	for size := s.next(); size > 0; size = s.next() {
//		// issue size calls, wait for all of them, then:
//		s.batchDone(successes, firstErr)
//	}
//	successes, skipped, err := s.result()
type slowStart struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// count is the number of calls wanted, remaining those not yet issued.
	count, remaining int

	// batch is the size of the batch to issue next (or in flight); 0 once
	// slow start has finished, because every call was made or a batch
	// failed.
	batch int

	// calls counts the calls issued, successes those that succeeded.
	calls, successes int

	// err is the first error of the failing batch, nil while none failed.
	err error
}

// newSlowStart plans count calls starting with a batch of initial.
func newSlowStart(count, initial int) slowStart {
	s := slowStart{count: max(count, 0), remaining: max(count, 0)}
	s.batch = max(min(s.remaining, initial), 0)
	return s
}

// next returns the size of the batch to issue now, or 0 when slow start has
// finished.
func (s *slowStart) next() int { return s.batch }

// batchDone records how the batch of size next() went: how many of its calls
// succeeded, and the first error among those that failed (nil when all
// succeeded). A failed batch ends slow start; a successful one makes the next
// batch twice as large, cut to what remains. successes is clamped to the
// batch's size.
func (s *slowStart) batchDone(successes int, firstErr error) {
	if s.batch == 0 {
		return
	}
	s.calls += s.batch
	s.successes += min(max(successes, 0), s.batch)
	if firstErr != nil {
		s.err = firstErr
		s.batch = 0
		return
	}
	s.remaining -= s.batch
	s.batch = min(2*s.batch, s.remaining)
}

// done reports whether slow start has finished.
func (s *slowStart) done() bool { return s.batch == 0 }

// issued returns how many calls have been issued so far, counting the calls
// of batches reported with batchDone.
func (s *slowStart) issued() int { return s.calls }

// result returns how many calls succeeded, how many of the count were skipped
// (failed, or never issued because an earlier batch failed), and the first
// error of the failing batch. manageReplicas lowers its creation
// expectations once per skipped pod, so that they wait only for pods that
// were created.
func (s *slowStart) result() (successes, skipped int, err error) {
	return s.successes, s.count - s.successes, s.err
}

// slowStartBatch makes up to count calls of fn in slow-start batches and
// returns how many succeeded and the first error. It is upstream's
// slowStartBatch for callers that can make the calls on the spot: the calls of
// a batch run one after another rather than at once, every call of a failing
// batch is still made, and "first error" is the first in call order.
func slowStartBatch(count, initial int, fn func() error) (int, error) {
	s := newSlowStart(count, initial)
	for size := s.next(); size > 0; size = s.next() {
		successes := 0
		var firstErr error
		for range size {
			if err := fn(); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			successes++
		}
		s.batchDone(successes, firstErr)
	}
	successes, _, err := s.result()
	return successes, err
}
