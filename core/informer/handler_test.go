package informer

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func note(name string) notification {
	return notification{kind: notifyAdd, obj: pod(name, 1)}
}

func popped(l *listener) string { return objectOf(l.pop().obj).Meta().Name }

// TestListenerBufferKeepsOrderAndReusesItsArray pins the buffer a handler's
// notifications wait in: first in, first out, whatever the interleaving of
// pushes and pops, and a handler that hears one notification at a time (the
// usual case) reuses one array instead of getting a new one for each.
func TestListenerBufferKeepsOrderAndReusesItsArray(t *testing.T) {
	l := &listener{}
	var want, got []string
	next := 0
	push := func() {
		name := "p" + strconv.Itoa(next)
		next++
		want = append(want, name)
		l.push(note(name))
	}
	for round := range 50 {
		for range round%4 + 1 {
			push()
		}
		for range round % 3 {
			if l.waiting() > 0 {
				got = append(got, popped(l))
			}
		}
		snap := l.cloneState()
		require.Equal(t, l.waiting(), snap.waiting())
	}
	for l.waiting() > 0 {
		got = append(got, popped(l))
	}
	assert.Equal(t, want, got)
	assert.LessOrEqual(t, cap(l.buffer), 2*next, "the consumed front is reused")

	one := &listener{}
	allocs := testing.AllocsPerRun(100, func() {
		one.push(notification{kind: notifyDelete})
		one.pop()
	})
	assert.Zero(t, allocs, "one notification at a time needs no new array")
}
