package apistore

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/cow"
)

// CheckInvariants verifies the store's internal consistency and returns an
// error describing every violation, or nil. Tests call it after every
// operation, as container/heap's tests call verify; other packages' tests may
// call it too. It is slow (it replays the whole watch history) and is not
// meant for production paths.
//
// The invariants:
//   - Each kind's watch log is in strictly increasing resourceVersion order,
//     and no resourceVersion appears in two kinds' logs: one global counter
//     orders every write.
//   - Every resourceVersion in a log or on a stored object is at most the
//     global counter, and every remembered event is newer than the newest
//     forgotten one.
//   - The remembered log tells the truth: replaying it gives, pointer for
//     pointer, every stored object written since the newest forgotten event,
//     and no object that is not stored; every other stored object was written
//     before that event (with nothing forgotten, there is no other); and a
//     key's history starts with an ADDED unless its start was forgotten. That
//     is what lets an informer's cache, built from list and watch, equal the
//     store. (The store keeps no copy of the state as of the forgotten
//     history: it cost a map write for every event forgotten, and a map clone
//     after every snapshot, for this check alone.)
//   - Each object is stored under its own namespace and name, in the slot of its
//     kind; cluster-scoped objects have no namespace; the counts are right; no
//     namespace entry is empty.
//   - No two objects share a uid.
//   - Timestamps are whole seconds.
//   - No object whose deletion is complete (deletionTimestamp set, grace period
//     over or zero, no finalizers) is still stored.
func (s *Store) CheckInvariants() error {
	var problems []string
	fail := func(msg string) { problems = append(problems, msg) }

	uids := make(map[string]string)
	var allRVs []uint64
	for i := range s.kinds {
		info := &kindInfos[i]
		ks := &s.kinds[i]
		name := info.resource

		// The log.
		log := ks.hist.slice(0)
		if len(log) > s.window {
			fail(name + ": the log holds " + strconv.Itoa(len(log)) + " events, more than the window of " + strconv.Itoa(s.window))
		}
		prev := ks.compacted
		for j, ev := range log {
			if ev.ResourceVersion <= prev {
				fail(name + ": log event " + strconv.Itoa(j) + " has resourceVersion " + u(ev.ResourceVersion) +
					", not after " + u(prev))
			}
			prev = ev.ResourceVersion
			if ev.ResourceVersion > s.rv {
				fail(name + ": log event at " + u(ev.ResourceVersion) + " is newer than the global resourceVersion " + u(s.rv))
			}
			if ev.Object == nil || ev.Object.Kind() != info.kind {
				fail(name + ": log event at " + u(ev.ResourceVersion) + " does not hold a " + string(info.kind))
				continue
			}
			if got := ev.Object.Meta().ResourceVersion; got != u(ev.ResourceVersion) {
				fail(name + ": log event at " + u(ev.ResourceVersion) + " carries an object at resourceVersion " + got)
			}
			allRVs = append(allRVs, ev.ResourceVersion)
		}

		// Replay. The remembered log tells the recent history of every key it
		// names; a key it does not name was last written before the window
		// (or, with nothing forgotten, never). A key's first remembered event
		// may be a MODIFIED or DELETED only if its earlier history was
		// forgotten.
		replayed := make(map[string]api.Object)
		named := make(map[string]bool)
		for _, ev := range log {
			if ev.Object == nil {
				continue
			}
			key := keyOf(ev.Object.Meta())
			if ev.Key != key {
				fail(name + ": the event at " + u(ev.ResourceVersion) + " carries the key " + ev.Key + " for " + key)
			}
			_, present := replayed[key]
			forgotten := !named[key] && ks.compacted > 0
			named[key] = true
			switch ev.Type {
			case Added:
				if present {
					fail(name + ": ADDED at " + u(ev.ResourceVersion) + " for " + key + ", which already exists")
				}
				replayed[key] = ev.Object
			case Modified:
				if !present && !forgotten {
					fail(name + ": MODIFIED at " + u(ev.ResourceVersion) + " for " + key + ", which does not exist")
				}
				replayed[key] = ev.Object
			case Deleted:
				if !present && !forgotten {
					fail(name + ": DELETED at " + u(ev.ResourceVersion) + " for " + key + ", which does not exist")
				}
				delete(replayed, key)
			default:
				fail(name + ": event of unknown type " + string(ev.Type))
			}
		}

		// The stored objects.
		count := 0
		stored := make(map[string]api.Object, ks.count)
		for _, ns := range cow.SortedKeys(ks.spaces) {
			sp := ks.spaces.Read()[ns]
			if len(sp.Read()) == 0 {
				fail(name + ": namespace " + strconv.Quote(ns) + " has an entry but no objects")
			}
			if !info.namespaced && ns != "" {
				fail(name + ": cluster-scoped objects stored under namespace " + strconv.Quote(ns))
			}
			for _, objName := range cow.SortedKeys(sp) {
				entry := sp.Read()[objName]
				obj := entry.obj
				count++
				key := api.Key(ns, objName)
				if entry.key != key {
					fail(name + ": " + key + " is stored under the key " + strconv.Quote(entry.key))
				}
				stored[key] = obj
				problems = append(problems, checkObject(s, info, key, ns, objName, obj, uids)...)
			}
		}
		if count != ks.count {
			fail(name + ": counted " + strconv.Itoa(ks.count) + " objects, holds " + strconv.Itoa(count))
		}
		for _, key := range slices.Sorted(maps.Keys(stored)) {
			obj := stored[key]
			switch {
			case named[key] && replayed[key] != obj:
				fail(name + ": replaying the watch history gives a different " + key + " than the one stored")
			case !named[key] && ks.compacted == 0:
				fail(name + ": " + key + " is stored, but the watch history, of which nothing was forgotten, never names it")
			case !named[key] && obj.Meta().ResourceVersion != "" && parseRV(obj.Meta().ResourceVersion) > ks.compacted:
				fail(name + ": " + key + " was written at resourceVersion " + obj.Meta().ResourceVersion +
					", after the forgotten history, yet the remembered history does not name it")
			}
		}
		for _, key := range slices.Sorted(maps.Keys(replayed)) {
			if _, ok := stored[key]; !ok {
				fail(name + ": replaying the watch history gives " + key + ", which is not stored")
			}
		}
	}

	slices.Sort(allRVs)
	for i := 1; i < len(allRVs); i++ {
		if allRVs[i] == allRVs[i-1] {
			fail("resourceVersion " + u(allRVs[i]) + " appears in more than one event")
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New("apistore invariants violated:\n  " + strings.Join(problems, "\n  "))
}

// checkObject checks one stored object.
func checkObject(s *Store, info *kindInfo, key, ns, name string, obj api.Object, uids map[string]string) []string {
	var problems []string
	fail := func(msg string) { problems = append(problems, info.resource+" "+key+": "+msg) }
	if obj == nil {
		fail("stored as nil")
		return problems
	}
	if obj.Kind() != info.kind {
		fail("is a " + string(obj.Kind()))
	}
	m := obj.Meta()
	if m.Namespace != ns || m.Name != name {
		fail("stored under the wrong key; its metadata says " + api.Key(m.Namespace, m.Name))
	}
	rv, err := strconv.ParseUint(m.ResourceVersion, 10, 64)
	if err != nil || rv == 0 {
		fail("has resourceVersion " + strconv.Quote(m.ResourceVersion))
	} else if rv > s.rv {
		fail("has resourceVersion " + m.ResourceVersion + ", newer than the global " + u(s.rv))
	}
	if m.UID == "" {
		fail("has no uid")
	} else if other, ok := uids[m.UID]; ok {
		fail("shares uid " + m.UID + " with " + other)
	} else {
		uids[m.UID] = info.resource + " " + key
	}
	if m.CreationTimestamp.IsZero() || !wholeSecond(m.CreationTimestamp.Time) {
		fail("has creationTimestamp " + m.CreationTimestamp.String())
	}
	if m.DeletionTimestamp != nil {
		if !wholeSecond(m.DeletionTimestamp.Time) {
			fail("has deletionTimestamp " + m.DeletionTimestamp.String())
		}
		done := m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0
		if done && len(m.Finalizers) == 0 {
			fail("has finished its deletion (no grace period, no finalizers) but is still stored")
		}
	}
	if info.hasGeneration && m.Generation < 1 {
		fail("has generation " + strconv.FormatInt(m.Generation, 10))
	}
	return problems
}

func wholeSecond(t time.Time) bool { return t.Nanosecond() == 0 }

func u(v uint64) string { return strconv.FormatUint(v, 10) }
