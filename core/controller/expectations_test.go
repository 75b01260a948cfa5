package controller

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unitClock is a logical clock the tests move by hand.
type unitClock struct{ now time.Duration }

func (c *unitClock) Now() time.Duration { return c.now }

// TestControllerExpectations reproduces upstream's test of the same name
// (spec §5.2, item 31): counts go below zero, and a TTL of 30 s makes a
// record that is still waiting satisfied once it has passed.
func TestControllerExpectations(t *testing.T) {
	const ttl = 30 * time.Second
	clock := &unitClock{}
	e := NewControllerExpectations(ExpectationsConfig{Now: clock.Now, TTL: ttl})
	const key = "default/foobar"
	adds, dels := 10, 30

	// The controller fires off creates and deletes, then sets expectations.
	e.SetExpectations(key, adds, dels)
	for range adds + 1 {
		e.CreationObserved(key)
	}
	assert.False(t, e.SatisfiedExpectations(key), "deletions are still expected")
	for range dels + 1 {
		e.LowerExpectations(key, 0, 1) // upstream's base DeletionObserved
	}

	tests := []struct {
		name             string
		set              []int
		expire           bool
		wantAdd, wantDel int64
		wantSatisfied    bool
	}{
		{
			name:          "expectations have been surpassed",
			wantAdd:       -1,
			wantDel:       -1,
			wantSatisfied: true,
		},
		{
			name:          "old expectations are cleared because of the TTL",
			set:           []int{1, 2},
			expire:        true,
			wantAdd:       1,
			wantDel:       2,
			wantSatisfied: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.set != nil {
				e.SetExpectations(key, tt.set[0], tt.set[1])
			}
			add, del, exists := e.GetExpectations(key)
			require.True(t, exists)
			assert.Equal(t, tt.wantAdd, add)
			assert.Equal(t, tt.wantDel, del)
			assert.Equal(t, tt.wantSatisfied, e.SatisfiedExpectations(key))

			if tt.expire {
				clock.now += ttl
				assert.False(t, e.SatisfiedExpectations(key), "at exactly the TTL the record is still waited for")
				clock.now++
				assert.True(t, e.SatisfiedExpectations(key), "the record should have expired")
			}
		})
	}
}

// TestUIDExpectations reproduces upstream's test of the same name (spec §5.2,
// item 32): each controller expects the deletion of its own pod keys, is
// satisfied once each is observed, and DeleteExpectations removes the set.
func TestUIDExpectations(t *testing.T) {
	e := NewControllerExpectations(ExpectationsConfig{})
	for _, replicas := range []int{2, 1, 0, 5} {
		name := "rc-" + strconv.Itoa(replicas)
		t.Run(name, func(t *testing.T) {
			key := "default/" + name
			var podKeys []string
			for i := range 5 {
				podKeys = append(podKeys, "default/pod"+strconv.Itoa(i)+"-"+name)
			}
			assert.Nil(t, e.ExpectDeletions(key, podKeys))
			assert.False(t, e.SatisfiedExpectations(key), "satisfied before any deletion was seen")

			for _, p := range podKeys {
				assert.True(t, e.DeletionObserved(key, p))
			}
			assert.True(t, e.SatisfiedExpectations(key), "not satisfied after every deletion was seen")
			assert.Equal(t, []string{}, e.GetUIDs(key), "an emptied set still exists")

			e.DeleteExpectations(key)
			assert.Nil(t, e.GetUIDs(key), "DeleteExpectations must remove the pod-key set")
			_, _, exists := e.GetExpectations(key)
			assert.False(t, exists)
		})
	}
}

// TestDeletionObservedCountsOnce pins the reason the UID layer exists: a
// graceful delete is seen twice (deletionTimestamp set, then the delete), and
// must lower the count once; a pod nobody expected lowers nothing.
func TestDeletionObservedCountsOnce(t *testing.T) {
	e := NewControllerExpectations(ExpectationsConfig{})
	const key = "default/web"
	e.ExpectDeletions(key, []string{"default/a", "default/b", "default/a"})

	_, del, _ := e.GetExpectations(key)
	assert.Equal(t, int64(2), del, "duplicate pod keys collapse")

	assert.True(t, e.DeletionObserved(key, "default/a"))
	assert.False(t, e.DeletionObserved(key, "default/a"), "the second sighting of a pod counts for nothing")
	assert.False(t, e.DeletionObserved(key, "default/stranger"))
	assert.False(t, e.DeletionObserved("default/other", "default/b"), "a key without a set observes nothing")

	add, del, _ := e.GetExpectations(key)
	assert.Equal(t, int64(0), add)
	assert.Equal(t, int64(1), del)
	assert.Equal(t, []string{"default/b"}, e.GetUIDs(key))
	assert.False(t, e.SatisfiedExpectations(key))

	assert.True(t, e.DeletionObserved(key, "default/b"))
	assert.True(t, e.SatisfiedExpectations(key))
}

// TestExpectDeletionsClobbers checks that a new set replaces a non-empty old
// one and reports what it dropped, as upstream logs "clobbering".
func TestExpectDeletionsClobbers(t *testing.T) {
	e := NewControllerExpectations(ExpectationsConfig{})
	const key = "default/web"
	assert.Nil(t, e.ExpectDeletions(key, []string{"default/b", "default/a"}))
	assert.Equal(t, []string{"default/a", "default/b"}, e.ExpectDeletions(key, []string{"default/c"}))
	assert.Equal(t, []string{"default/c"}, e.GetUIDs(key))

	e.DeletionObserved(key, "default/c")
	assert.Nil(t, e.ExpectDeletions(key, []string{"default/d"}), "an emptied set is not clobbered")
}

// TestSettingOneKindWipesTheOther pins gotcha §6.1: counts are replaced
// wholesale, while an old pod-key set survives ExpectCreations and its
// stragglers still lower the (new) deletion count.
func TestSettingOneKindWipesTheOther(t *testing.T) {
	e := NewControllerExpectations(ExpectationsConfig{})
	const key = "default/web"
	e.ExpectDeletions(key, []string{"default/a", "default/b"})
	e.ExpectCreations(key, 3)

	add, del, _ := e.GetExpectations(key)
	assert.Equal(t, int64(3), add)
	assert.Equal(t, int64(0), del, "ExpectCreations wipes outstanding deletions")
	assert.Equal(t, []string{"default/a", "default/b"}, e.GetUIDs(key), "but not the pod-key set")

	assert.True(t, e.DeletionObserved(key, "default/a"))
	_, del, _ = e.GetExpectations(key)
	assert.Equal(t, int64(-1), del)
}

// TestLowerAndRaiseNeedARecord checks that adjusting a key without a record
// does nothing, and that adjusting never refreshes the record's time.
func TestLowerAndRaiseNeedARecord(t *testing.T) {
	clock := &unitClock{}
	e := NewControllerExpectations(ExpectationsConfig{Now: clock.Now})
	const key = "default/web"

	e.LowerExpectations(key, 1, 1)
	e.RaiseExpectations(key, 1, 1)
	e.CreationObserved(key)
	_, _, exists := e.GetExpectations(key)
	assert.False(t, exists, "no record is created by adjusting")
	assert.True(t, e.SatisfiedExpectations(key), "a key without a record is satisfied")

	e.ExpectCreations(key, 1)
	clock.now = 4 * time.Minute
	e.RaiseExpectations(key, 2, 1)
	add, del, _ := e.GetExpectations(key)
	assert.Equal(t, int64(3), add)
	assert.Equal(t, int64(1), del)

	clock.now = ExpectationsTimeout + 1
	assert.True(t, e.SatisfiedExpectations(key), "raising must not postpone expiry")
}

// TestExpectationsView checks what the page shows of one key.
func TestExpectationsView(t *testing.T) {
	clock := &unitClock{now: 10 * time.Second}
	e := NewControllerExpectations(ExpectationsConfig{Now: clock.Now})
	const key = "default/web"
	_, ok := e.View(key)
	assert.False(t, ok)

	e.ExpectDeletions(key, []string{"default/b", "default/a"})
	clock.now = 70 * time.Second
	v, ok := e.View(key)
	require.True(t, ok)
	assert.Equal(t, ExpectationsView{
		Key:            key,
		Del:            2,
		PendingDeletes: []string{"default/a", "default/b"},
		SetAt:          10 * time.Second,
		Age:            time.Minute,
	}, v)

	e.DeletionObserved(key, "default/a")
	e.DeletionObserved(key, "default/b")
	v, _ = e.View(key)
	assert.Nil(t, v.PendingDeletes)
	assert.True(t, v.Fulfilled)
	assert.True(t, v.Satisfied)
	assert.False(t, v.Expired)

	e.ExpectCreations("default/api", 1)
	clock.now += ExpectationsTimeout + time.Second
	views := e.Views()
	require.Len(t, views, 2)
	assert.Equal(t, "default/api", views[0].Key, "views come in key order")
	assert.True(t, views[0].Expired)
	assert.True(t, views[0].Satisfied)
	assert.False(t, views[0].Fulfilled)
	assert.Equal(t, []string{"default/api", "default/web"}, e.Keys())
}

// TestExpectationsSnapshotRestore checks that a snapshot is unaffected by
// later changes, including changes to a pod-key set it shares, and can be
// restored more than once.
func TestExpectationsSnapshotRestore(t *testing.T) {
	e := NewControllerExpectations(ExpectationsConfig{})
	e.ExpectDeletions("default/web", []string{"default/a", "default/b"})
	e.ExpectCreations("default/api", 2)
	snap := e.Snapshot()
	before := e.Views()

	e.DeletionObserved("default/web", "default/a")
	e.CreationObserved("default/api")
	e.DeleteExpectations("default/gone")
	e.ExpectDeletions("default/new", []string{"default/x"})

	for range 2 {
		e.Restore(snap)
		assert.Equal(t, before, e.Views())
		assert.Equal(t, []string{"default/a", "default/b"}, e.GetUIDs("default/web"))

		// Changing the restored state must not reach into the snapshot.
		e.DeletionObserved("default/web", "default/b")
		assert.Equal(t, []string{"default/a"}, e.GetUIDs("default/web"))
	}

	// A set made after a snapshot is private until the next one.
	e.Restore(snap)
	e.ExpectDeletions("default/web", []string{"default/p", "default/q"})
	snap2 := e.Snapshot()
	e.DeletionObserved("default/web", "default/p")
	e.Restore(snap2)
	assert.Equal(t, []string{"default/p", "default/q"}, e.GetUIDs("default/web"))
}

// TestExpectationsZeroValue checks that the zero ControllerExpectations works
// as one made from the zero config: a clock stopped at 0 and the default TTL.
func TestExpectationsZeroValue(t *testing.T) {
	var e ControllerExpectations
	assert.Equal(t, ExpectationsTimeout, e.TTL())
	assert.True(t, e.SatisfiedExpectations("default/web"))
	e.ExpectDeletions("default/web", []string{"default/a"})
	assert.False(t, e.SatisfiedExpectations("default/web"))
	assert.True(t, e.DeletionObserved("default/web", "default/a"))
	assert.True(t, e.SatisfiedExpectations("default/web"))
}
