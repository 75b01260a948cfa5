package script

import (
	"maps"
	"slices"
	"strings"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/controller"
	"github.com/reconcilelab/rlab/core/informer"
	"github.com/reconcilelab/rlab/core/sim"
	"github.com/reconcilelab/rlab/core/workqueue"
)

// This file prints the inside views: queue, cache, expectations, agenda,
// requests and trace. Their formats are fixed, so golden tests and learners
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
	for _, m := range []*controller.Manager{s.w.RS, s.w.RC} {
		v := m.Queue().View()
		if name != "" && v.Name != name {
			continue
		}
		b.WriteString(queueBlock(v))
	}
	return b.String()
}

func queueBlock(v workqueue.View) string {
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
			if isDirty(h.Key, v) {
				detail += "; added again meanwhile (dirty): back in the queue at Done"
			}
			rows = append(rows, []string{"processing", h.Key, detail})
		}
		for _, d := range v.Delayed {
			why := "AddAfter " + d.Delay.String()
			if d.RateLimited {
				why = "rate-limited back-off of " + d.Delay.String()
			}
			rows = append(rows, []string{"delayed", d.Key, "until t=" + sim.FormatSeconds(d.ReadyAt) + " (" + why + ")"})
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
	var b strings.Builder
	for _, inf := range s.watchInformers(kind) {
		b.WriteString(s.cacheBlock(inf))
	}
	return b.String()
}

func (s *Session) cacheBlock(inf *informer.Informer) string {
	v := inf.View()
	cached := map[string]string{}
	for _, c := range v.Cache {
		cached[c.Key] = c.ResourceVersion
	}
	inAPI := map[string]string{}
	for _, o := range s.w.Store.Objects(inf.Kind(), "") {
		inAPI[api.Key(o.Meta().Namespace, o.Meta().Name)] = o.Meta().ResourceVersion
	}
	var b strings.Builder
	synced := "not synced"
	if v.HasSynced {
		synced = "synced"
	}
	b.WriteString(v.Name + ": " + string(v.State) + " from resourceVersion " + uitoa(v.LastSyncRV) + ", " + synced + "; " +
		itoa(len(cached)) + " cached, " + itoa(len(inAPI)) + " in the API; " + plural(v.Lists, "list") + ", " +
		pluralAs(v.Watches, "watch", "watches") + "\n")
	keys := slices.Sorted(maps.Keys(cached))
	for _, k := range slices.Sorted(maps.Keys(inAPI)) {
		if _, ok := cached[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		rows := make([][]string, 0, len(keys))
		for _, k := range keys {
			c, inCache := cached[k]
			a, inStore := inAPI[k]
			diff := "-"
			switch {
			case !inStore:
				diff = "gone from the API"
			case !inCache:
				diff = "not in the cache"
			case c != a:
				diff = "stale"
			}
			rows = append(rows, []string{k, dash(c), dash(a), diff})
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
	var faults []string
	if f := v.Faults; f.DropNext > 0 {
		faults = append(faults, "the next "+plural(f.DropNext, "event")+" will be lost")
	}
	if f := v.Faults; f.Lost > 0 {
		faults = append(faults, itoa(f.Lost)+" lost since the last list")
	}
	if f := v.Faults; f.Delay > 0 {
		faults = append(faults, "events arrive "+f.Delay.String()+" late")
	}
	if len(faults) > 0 {
		b.WriteString("  faults: " + strings.Join(faults, "; ") + "\n")
	}
	return b.String()
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
	for _, m := range []*controller.Manager{s.w.RS, s.w.RC} {
		for _, v := range m.Expectations().Views() {
			sat := "false"
			switch {
			case v.Expired:
				sat = "true (expired)"
			case v.Satisfied:
				sat = "true"
			}
			rows = append(rows, []string{shortName(m.Kind()), v.Key, int64s(v.Add), int64s(v.Del),
				sim.FormatSeconds(v.Age), sat, dash(strings.Join(v.PendingDeletes, ", "))})
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
	k := s.w.Kernel
	evs := k.Agenda()
	now := "t=" + sim.FormatSeconds(k.Now())
	if len(evs) == 0 {
		return "the agenda is empty at " + now + "\n"
	}
	background := 0
	for _, ev := range evs {
		if ev.Background {
			background++
		}
	}
	head := plural(len(evs), "pending event") + " (" + itoa(background) + " background) at " + now + "\n"
	if n > 0 && n < len(evs) {
		evs = evs[:n]
	}
	rows := make([][]string, len(evs))
	for i, ev := range evs {
		what := k.Describe(ev)
		if ev.Background {
			what += " (background)"
		}
		rows[i] = []string{"t=" + sim.FormatSeconds(ev.At), "#" + uitoa(ev.Seq), ev.To, what}
	}
	return head + grid("", []string{"AT", "SEQ", "TO", "WHAT"}, rows)
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
	steps := s.trace
	for len(steps) > 0 && steps[len(steps)-1].N > s.w.Kernel.Steps() {
		steps = steps[:len(steps)-1] // sought back: the steps after the present
	}
	if len(steps) == 0 {
		return "no steps yet\n"
	}
	if n > 0 && n < len(steps) {
		steps = steps[len(steps)-n:]
	}
	var b strings.Builder
	for _, res := range steps {
		b.WriteString(res.TraceLine())
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
