package informer

import "time"

// View is a read-only picture of an informer for the page and the `cache`
// command: plain values, built on demand.
type View struct {
	Name      string
	Kind      string
	Namespace string

	// State is what the reflector is doing; LastSyncRV where a re-watch would
	// start; HasSynced whether the first list has been fully processed.
	State      WatchState
	LastSyncRV uint64
	HasSynced  bool
	// Lists and Watches count the requests the reflector has made.
	Lists, Watches int

	// Cache lists the cached objects in the order they entered the cache.
	Cache []CachedObject

	// Pending lists the keys with deltas not yet processed, in the order they
	// will be processed.
	Pending []PendingKey

	// Handlers lists each handler with the notifications waiting for it.
	Handlers []HandlerView

	// Faults describes the watch faults in force.
	Faults FaultView
}

// CachedObject is one cache entry.
type CachedObject struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Key             string
	ResourceVersion string
}

// PendingKey is one key waiting in the DeltaFIFO, with its delta types oldest
// first ("Added", "Updated", "Deleted (tombstone)").
type PendingKey struct {
	Key    string
	Deltas []string
}

// HandlerView is one registered handler.
type HandlerView struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Name string
	// Waiting is how many notifications are buffered for it.
	Waiting int
	// ResyncPeriod is the handler's resync period, 0 when it never resyncs.
	ResyncPeriod time.Duration
}

// FaultView describes the watch faults in force.
type FaultView struct {
	// DropNext is how many of the next events will be lost; Lost how many were
	// lost since the last list.
	DropNext, Lost int
	// Delay is how late each event arrives.
	Delay time.Duration
}

// View returns the informer's current picture.
func (inf *Informer) View() View {
	v := View{
		Name: inf.cfg.Name, Kind: string(inf.cfg.Kind), Namespace: inf.cfg.Namespace,
		State: inf.state, LastSyncRV: inf.lw.RV(), HasSynced: inf.HasSynced(),
		Lists: inf.lists, Watches: inf.watches,
		Faults: FaultView{DropNext: inf.faults.drop, Lost: inf.faults.lost, Delay: inf.faults.delay},
	}
	// The table holds each object's key: reading it there rather than
	// joining it again saves an allocation per cached object, and a view of
	// a 10,000-pod world is drawn twice a second while it runs.
	v.Cache = make([]CachedObject, 0, inf.ix.Len())
	inf.ix.table.each(func(_ uint64, s *slot) {
		v.Cache = append(v.Cache, CachedObject{Key: s.key, ResourceVersion: s.obj.Meta().ResourceVersion})
	})
	for key, deltas := range inf.fifo.Pending() {
		p := PendingKey{Key: key}
		for _, d := range deltas {
			name := string(d.Type)
			if _, tomb := d.Object.(DeletedFinalStateUnknown); tomb {
				name += " (tombstone)"
			}
			p.Deltas = append(p.Deltas, name)
		}
		v.Pending = append(v.Pending, p)
	}
	for _, l := range inf.listeners {
		v.Handlers = append(v.Handlers, HandlerView{Name: l.handler.Name, Waiting: l.buffer.len(), ResyncPeriod: l.resyncPeriod})
	}
	return v
}
