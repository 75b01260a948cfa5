package controller

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSlowStartBatch reproduces upstream's test of the same name (spec §5.1,
// item 28): ten calls wanted, a function that fails after callLimit calls.
// It runs each case twice: through slowStartBatch, which makes the calls on
// the spot, and through the slowStart state machine the kernel drives, fed
// one batch result at a time.
func TestSlowStartBatch(t *testing.T) {
	fakeErr := errors.New("fake error")
	tests := []struct {
		name          string
		count         int
		callLimit     int
		wantSuccesses int
		wantErr       error
		wantCalls     int
		wantBatches   []int
	}{
		{
			name: "callLimit = 0 (all fail)", count: 10, callLimit: 0,
			wantSuccesses: 0, wantErr: fakeErr, wantCalls: 1, // the first batch is always tried
			wantBatches: []int{1},
		},
		{
			name: "callLimit = count (all succeed)", count: 10, callLimit: 10,
			wantSuccesses: 10, wantErr: nil, wantCalls: 10, // 1 + 2 + 4 + 3
			wantBatches: []int{1, 2, 4, 3},
		},
		{
			name: "callLimit < count (some succeed)", count: 10, callLimit: 5,
			wantSuccesses: 5, wantErr: fakeErr, wantCalls: 7, // 1 + 2 + 4
			wantBatches: []int{1, 2, 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name+", on the spot", func(t *testing.T) {
			calls := 0
			fn := func() error {
				calls++
				if calls > tt.callLimit {
					return fakeErr
				}
				return nil
			}
			successes, err := slowStartBatch(tt.count, SlowStartInitialBatchSize, fn)
			assert.Equal(t, tt.wantSuccesses, successes)
			assert.Equal(t, tt.wantErr, err)
			assert.Equal(t, tt.wantCalls, calls, "no calls after a failing batch")
		})

		t.Run(tt.name+", as a state machine", func(t *testing.T) {
			s := newSlowStart(tt.count, SlowStartInitialBatchSize)
			calls := 0
			var batches []int
			for size := s.next(); size > 0; size = s.next() {
				batches = append(batches, size)
				successes := 0
				var firstErr error
				for range size {
					calls++
					if calls > tt.callLimit {
						if firstErr == nil {
							firstErr = fakeErr
						}
						continue
					}
					successes++
				}
				s.batchDone(successes, firstErr)
			}
			assert.True(t, s.done())
			assert.Equal(t, tt.wantBatches, batches)
			assert.Equal(t, tt.wantCalls, s.issued())
			successes, skipped, err := s.result()
			assert.Equal(t, tt.wantSuccesses, successes)
			assert.Equal(t, tt.count-tt.wantSuccesses, skipped, "skipped counts the failed calls and those never made")
			assert.Equal(t, tt.wantErr, err)
		})
	}
}

// TestSlowStartBatches checks the plan: batches double from the initial size
// and the last one takes what remains.
func TestSlowStartBatches(t *testing.T) {
	tests := []struct {
		count, initial int
		want           []int
	}{
		{10, 1, []int{1, 2, 4, 3}},
		{1, 1, []int{1}},
		{7, 1, []int{1, 2, 4}},
		{8, 1, []int{1, 2, 4, 1}},
		{500, 1, []int{1, 2, 4, 8, 16, 32, 64, 128, 245}},
		{10, 3, []int{3, 6, 1}},
		{2, 5, []int{2}},
		{0, 1, nil},
		{-3, 1, nil},
		{10, 0, nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, slowStartBatches(tt.count, tt.initial), "count %d, initial %d", tt.count, tt.initial)
	}
}

// TestSlowStartIgnoresReportsAfterTheEnd checks that a finished slow start
// is not moved by further reports, and that a batch's successes are clamped
// to its size.
func TestSlowStartIgnoresReportsAfterTheEnd(t *testing.T) {
	s := newSlowStart(3, 1)
	s.batchDone(5, nil) // more successes than calls: clamped to 1
	assert.Equal(t, 2, s.next())
	s.batchDone(2, nil)
	assert.True(t, s.done())
	s.batchDone(1, errors.New("late"))
	successes, skipped, err := s.result()
	assert.Equal(t, 3, successes)
	assert.Equal(t, 0, skipped)
	assert.NoError(t, err)
}
