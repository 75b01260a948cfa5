package script

import (
	"math"
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/world"
)

// This file prints the inside views: queue, cache, expectations, agenda,
// requests and trace. The first four are the world's read model
// (world.View), the same value the page draws, printed as text: the rules
// that make it (which cache entry is stale, when an expectation is
// satisfied) live in the components, and neither shell repeats them. Their formats are fixed, so golden tests and learners
// can rely on them:
//
//   - Tables have a header of upper-case column names, then one line per
//     item. Every column but the last is padded to its widest cell plus two
//     spaces; a line never ends in spaces. Times are simulated, written
//     t=SECONDS with milliseconds (t=2.004s); a cell with nothing to say is
//     "-".
//   - A view that covers several components (queue, cache) prints one block
//     per component, in a fixed order, each starting with a summary line
//     that does not start with a space, its table indented by two spaces.
//   - Items are in a stable order, stated with each view below.
//
// Each view's doc comment shows its format.

// grid lays out a header and rows as the views print tables: every column
// but the last padded to its widest cell plus two spaces, each line indented
// and stripped of trailing spaces.
func grid(indent string, header []string, rows [][]string) string {
	all := append([][]string{header}, rows...)
	widths := make([]int, len(header))
	for _, r := range all {
		for i, cell := range r {
			if i < len(r)-1 {
				widths[i] = max(widths[i], len(cell))
			}
		}
	}
	var b strings.Builder
	for _, r := range all {
		var line strings.Builder
		line.WriteString(indent)
		for i, cell := range r {
			line.WriteString(cell)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-len(cell)+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// dash stands for an empty cell.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// queueView prints the work queues, replicaset then replicationmanager (or
// the one named). Each block is a summary line, a table of its keys — the
// waiting ones in the order Get hands them out, then those being processed
// (by key), then the delayed ones (in the order they come due) — and two
// footnotes, the failures the rate limiter remembers and the idle workers:
//
//	replicaset: 1 waiting, 1 processing, 1 delayed
//	  STATE       KEY          DETAIL
//	  waiting     default/api  -
//	  processing  default/web  by rs-worker-2; added again meanwhile (dirty): back in the queue at Done
//	  delayed     default/db   until t=1.005s (rate-limited back-off of 5ms)
//	  failures: default/db 1
//	  idle workers: rs-worker-1, rs-worker-3, rs-worker-4, rs-worker-5
//
// An empty queue prints "replicaset: empty" and its footnotes.
func (s *Session) queueView(name string) string {
	var b strings.Builder
	for _, c := range s.readModel(0).Controllers {
		if name != "" && c.Queue.Name != name {
			continue
		}
		b.WriteString(queueBlock(c.Queue))
	}
	return b.String()
}

func queueBlock(v world.Queue) string {
	var b strings.Builder
	b.WriteString(v.Name + ": ")
	if len(v.Waiting)+len(v.Processing)+len(v.Delayed) == 0 {
		b.WriteString("empty\n")
	} else {
		b.WriteString(itoa(len(v.Waiting)) + " waiting, " + itoa(len(v.Processing)) + " processing, " +
			itoa(len(v.Delayed)) + " delayed\n")
		var rows [][]string
		for _, k := range v.Waiting {
			rows = append(rows, []string{"waiting", k, "-"})
		}
		for _, h := range v.Processing {
			detail := "by " + dash(h.Worker)
			if slices.Contains(v.Dirty, h.Key) {
				detail += "; added again meanwhile (dirty): back in the queue at Done"
			}
			rows = append(rows, []string{"processing", h.Key, detail})
		}
		for _, d := range v.Delayed {
			why := "AddAfter " + d.Delay
			if d.RateLimited {
				why = "rate-limited back-off of " + d.Delay
			}
			rows = append(rows, []string{"delayed", d.Key, "until t=" + d.ReadyAt + " (" + why + ")"})
		}
		b.WriteString(grid("  ", []string{"STATE", "KEY", "DETAIL"}, rows))
	}
	if len(v.Requeues) > 0 {
		var parts []string
		for _, r := range v.Requeues {
			parts = append(parts, r.Key+" "+itoa(r.Count))
		}
		b.WriteString("  failures: " + strings.Join(parts, ", ") + "\n")
	}
	idle := "none"
	if len(v.IdleWorkers) > 0 {
		idle = strings.Join(v.IdleWorkers, ", ")
	}
	b.WriteString("  idle workers: " + idle + "\n")
	return b.String()
}

// cacheView prints the informers' caches, pods then rs then rc (or the one
// asked for), each compared with the API store. Each block is a summary line
// (the reflector's state, where a re-watch would start, whether the first
// list was processed, the sizes and the requests made), a table of every key
// in the cache or in the API, in key order, with the resourceVersion each
// holds and how they differ, and footnotes for the keys still in the
// DeltaFIFO and the watch faults in force:
//
//	informer/pods: watching from resourceVersion 57, synced; 3 cached, 3 in the API; 1 list, 1 watch
//	  KEY                CACHE  API  DIFF
//	  default/web-4vq9z  12     12   -
//	  default/web-kd2lm  10     14   stale
//	  default/web-x      9      -    gone from the API
//	  default/web-y      -      15   not in the cache
//	  pending: default/web-kd2lm Updated
//	  faults: the next 2 events will be lost; 1 lost since the last list; events arrive 2s late
func (s *Session) cacheView(kind api.Kind) string {
	v := s.readModel(0)
	var b strings.Builder
	for _, inf := range s.watchInformers(kind) {
		for _, iv := range v.Informers {
			if iv.Name == inf.Name() {
				b.WriteString(cacheBlock(iv, v.Faults.Watch))
			}
		}
	}
	return b.String()
}

// cacheBlock prints one informer's block of the cache view, its watch
// faults among faults.
func cacheBlock(v world.Informer, faults []world.WatchFault) string {
	var b strings.Builder
	synced := "not synced"
	if v.Synced {
		synced = "synced"
	}
	b.WriteString(v.Name + ": " + v.State + " from resourceVersion " + uitoa(v.LastSyncRV) + ", " + synced + "; " +
		itoa(v.Cached) + " cached, " + itoa(v.InAPI) + " in the API; " + plural(v.Lists, "list") + ", " +
		pluralAs(v.Watches, "watch", "watches") + "\n")
	entries := byKey(v.Entries)
	if len(entries) > 0 {
		rows := make([][]string, 0, len(entries))
		for _, e := range entries {
			rows = append(rows, []string{e.Key, dash(e.Cache), dash(e.API), dash(e.Diff)})
		}
		b.WriteString(grid("  ", []string{"KEY", "CACHE", "API", "DIFF"}, rows))
	}
	if len(v.Pending) > 0 {
		var parts []string
		for _, p := range v.Pending {
			parts = append(parts, p.Key+" "+strings.Join(p.Deltas, ", "))
		}
		b.WriteString("  pending: " + strings.Join(parts, "; ") + "\n")
	}
	for _, f := range faults {
		if f.Informer != v.Name {
			continue
		}
		var parts []string
		if f.DropNext > 0 {
			parts = append(parts, "the next "+plural(f.DropNext, "event")+" will be lost")
		}
		if f.Lost > 0 {
			parts = append(parts, itoa(f.Lost)+" lost since the last list")
		}
		if f.Delay != "" {
			parts = append(parts, "events arrive "+f.Delay+" late")
		}
		b.WriteString("  faults: " + strings.Join(parts, "; ") + "\n")
	}
	return b.String()
}

// byKey puts a read model's cache entries in key order. The read model
// lists the keys that differ first, then the others, each run in key order;
// the table lists every key in key order, so the two runs are merged.
func byKey(entries []world.CacheEntry) []world.CacheEntry {
	split := 0
	for split < len(entries) && entries[split].Diff != "" {
		split++
	}
	differ, same := entries[:split], entries[split:]
	out := make([]world.CacheEntry, 0, len(entries))
	for len(differ) > 0 && len(same) > 0 {
		if differ[0].Key < same[0].Key {
			out, differ = append(out, differ[0]), differ[1:]
		} else {
			out, same = append(out, same[0]), same[1:]
		}
	}
	return append(append(out, differ...), same...)
}

// expectationsView prints the controllers' expectations, the ReplicaSets'
// then the ReplicationControllers', each by key: the creations and deletions
// still expected, the record's age, whether a sync may act (satisfied:
// fulfilled, or expired after the TTL), and the pods whose deletion is
// awaited:
//
//	CONTROLLER  KEY          ADD  DEL  AGE     SATISFIED       PENDING DELETES
//	rs          default/web  2    0    0.004s  false           -
//	rc          default/db   0    1    0.002s  false           default/db-xk2p
//	rs          default/old  1    0    5m1s    true (expired)  -
//
// With no record at all it prints "no expectations recorded".
func (s *Session) expectationsView() string {
	var rows [][]string
	for _, c := range s.readModel(0).Controllers {
		for _, x := range c.Expectations {
			sat := "false"
			switch {
			case x.Expired:
				sat = "true (expired)"
			case x.Satisfied:
				sat = "true"
			}
			rows = append(rows, []string{c.Kind, x.Key, int64s(x.Add), int64s(x.Del), x.Age, sat,
				dash(strings.Join(x.PendingDeletes, ", "))})
		}
	}
	if len(rows) == 0 {
		return "no expectations recorded\n"
	}
	return grid("", []string{"CONTROLLER", "KEY", "ADD", "DEL", "AGE", "SATISFIED", "PENDING DELETES"}, rows)
}

// agendaView prints the kernel's pending events, soonest first (the order
// Step takes them), the first n (all when n is 0): when each fires, its
// sequence number, the component it is for, and what it will do in words,
// with (background) for periodic housekeeping that does not keep stabilize
// running. A summary line comes first:
//
//	3 pending events (0 background) at t=0.104s
//	AT        SEQ   TO               WHAT
//	t=0.105s  #212  apiserver        create pods default/web- from rs-worker-1 reaches apiserver
//	t=2.106s  #198  kubelets         start the containers of pod/web-5nl64
//
// An empty agenda prints "the agenda is empty at t=…".
func (s *Session) agendaView(n int) string {
	v := s.readModel(n)
	a := v.Agenda
	now := "t=" + v.Clock
	if a.Pending == 0 {
		return "the agenda is empty at " + now + "\n"
	}
	head := plural(a.Pending, "pending event") + " (" + itoa(a.Background) + " background) at " + now + "\n"
	rows := make([][]string, len(a.Next))
	for i, ev := range a.Next {
		what := ev.What
		if ev.Background {
			what += " (background)"
		}
		rows[i] = []string{"t=" + ev.At, "#" + uitoa(ev.Seq), ev.To, what}
	}
	return head + grid("", []string{"AT", "SEQ", "TO", "WHAT"}, rows)
}

// readModel is the world's read model (world.View), which the inside views
// print as text: with every cache entry, no pod, and the first agenda
// events of the agenda, all of them when agenda is 0.
func (s *Session) readModel(agenda int) world.View {
	if agenda <= 0 {
		agenda = math.MaxInt
	}
	return s.w.View(world.ViewOptions{Agenda: agenda, Entries: math.MaxInt})
}

// requestsView prints the API requests received, oldest first, the last n
// (all when n is 0): the request's ID, when it reached the API server, who
// sent it, its verb, resource (with subresource) and key, its outcome ("ok"
// or the failure's reason), and the injected fault rule that failed it:
//
//	ID  AT        FROM         VERB    RESOURCE  KEY                OUTCOME    FAULT
//	41  t=0.103s  rs-worker-1  create  pods      default/web-5nl64  ok         -
//	44  t=0.105s  rs-worker-1  create  pods      default/web-zd2qb  Forbidden  create pods: quota always (fired 1)
//
// With no request yet it prints "no requests yet".
func (s *Session) requestsView(n int) string {
	reqs := s.w.Server.Requests()
	if len(reqs) == 0 {
		return "no requests yet\n"
	}
	if n > 0 && n < len(reqs) {
		reqs = reqs[len(reqs)-n:]
	}
	rows := make([][]string, len(reqs))
	for i, r := range reqs {
		fault := "-"
		if r.Fault != nil {
			fault = r.Fault.String()
		}
		rows[i] = []string{uitoa(r.ID), "t=" + sim.FormatSeconds(r.At), r.From, string(r.Verb), r.Resource, dash(r.Key), r.Outcome, fault}
	}
	return grid("", []string{"ID", "AT", "FROM", "VERB", "RESOURCE", "KEY", "OUTCOME", "FAULT"}, rows)
}

// traceView prints the steps this session ran, the last n (all when n is 0),
// one trace line each in the kernel's documented format (see package sim):
//
//	#57   t=2.004s  worker-1        claimPods          release pod/web-7xk2p (labels no longer match app=web)
//
// The world's start counts: its steps come first, unless the run is so long
// that they are no longer kept (see Steps). After a seek back it shows
// the steps up to the world's present. With no step yet it prints "no steps
// yet".
func (s *Session) traceView(n int) string {
	// The steps after the present, if the world was sought back, are not
	// shown.
	end := s.trace.Index(s.w.Kernel.Steps() + 1)
	if end == 0 {
		return "no steps yet\n"
	}
	start := 0
	if n > 0 && n < end {
		start = end - n
	}
	var b strings.Builder
	for i := start; i < end; i++ {
		b.WriteString(s.trace.At(i).TraceLine())
		b.WriteByte('\n')
	}
	return b.String()
}

func int64s(n int64) string {
	if n < 0 {
		return "-" + uitoa(uint64(-n))
	}
	return uitoa(uint64(n))
}
