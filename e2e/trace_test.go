//go:build !js

package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This file records a Chromium trace of a tab (the CDP Tracing domain) and
// reads the page's frames from it: which thread is the page's main thread,
// when it began each frame, and how long it worked for each; and, from the
// page's compositor thread, which draws what the screen shows, how many
// frames it drew and how many it dropped. BenchmarkBrowserPlay uses it;
// TestMainThreadFrames and TestScreenFrames pin the reading on traces
// written by hand.

// frameTraceCategories are the trace categories the frame reading needs, and
// no more, since every category costs the browser time while it traces:
//   - toplevel: ThreadControllerImpl::RunTask, each task a thread runs;
//   - disabled-by-default-devtools.timeline: RunTask, the same tasks as
//     DevTools names them, and TracingStartedInBrowser, which says which
//     renderer process holds which frame;
//   - disabled-by-default-devtools.timeline.frame: BeginMainThreadFrame, the
//     start of each frame on a page's main thread, and on its compositor
//     thread BeginFrame (each vsync), DrawFrame and DroppedFrame.
//
// Both names of a task are asked for because Chromium has renamed them before;
// the reading takes whichever is outermost.
var frameTraceCategories = []string{
	"toplevel",
	"disabled-by-default-devtools.timeline",
	"disabled-by-default-devtools.timeline.frame",
}

// traceEvent is one event of a Chromium trace in the JSON trace event format:
// Ph "X" is a complete event (a span with its duration), "I" an instant and
// "M" metadata, such as a thread's name. Times are microseconds of the
// trace's clock.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceRecorder is a trace being recorded in a tab; stop ends it and returns
// its events.
type traceRecorder struct {
	p      *page
	cancel func() // ends the listener
	done   chan struct{}

	mu      sync.Mutex
	raw     [][]byte
	stopped bool
}

// startTrace starts recording a trace of the given categories. The browser
// sends the events once the trace ends (ReportEvents), so recording costs
// the test nothing meanwhile. If the test ends before stop, the trace is
// ended then, so that the browser does not go on tracing.
func (p *page) startTrace(categories ...string) *traceRecorder {
	p.t.Helper()
	r := &traceRecorder{p: p, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(p.ctx)
	r.cancel = cancel
	complete := sync.OnceFunc(func() { close(r.done) })
	// The listener runs in the tab's event loop, so it only keeps the
	// events; they are decoded after the trace.
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			r.mu.Lock()
			for _, v := range ev.Value {
				r.raw = append(r.raw, bytes.Clone(v))
			}
			r.mu.Unlock()
		case *tracing.EventTracingComplete:
			complete()
		}
	})
	if err != nil {
		cancel()
		p.t.Fatalf("listening for the trace's events: %v", err)
	}
	callCtx, callCancel := context.WithTimeout(p.ctx, quick)
	defer callCancel()
	if _, err := chromedp.Call(callCtx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		cancel()
		p.t.Fatalf("starting a trace: %v", err)
	}
	p.t.Cleanup(func() {
		r.mu.Lock()
		stopped := r.stopped
		r.mu.Unlock()
		if !stopped {
			ctx, cancel := context.WithTimeout(p.ctx, quick)
			defer cancel()
			_, _ = chromedp.Call(ctx, tracing.End, cdp.Empty{})
		}
		r.cancel()
	})
	return r
}

// stop ends the trace and returns its events, once the browser has sent
// them all.
func (r *traceRecorder) stop() []traceEvent {
	r.p.t.Helper()
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(r.p.ctx, quick)
	defer cancel()
	if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
		r.p.t.Fatalf("ending the trace: %v", err)
	}
	select {
	case <-r.done:
	case <-time.After(runTimeout):
		r.p.t.Fatalf("the browser sent no end of the trace in %v", runTimeout)
	}
	r.cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	events := make([]traceEvent, len(r.raw))
	for i, raw := range r.raw {
		if err := json.Unmarshal(raw, &events[i]); err != nil {
			r.p.t.Fatalf("decoding trace event %s: %v", raw, err)
		}
	}
	return events
}

// pageMainThread finds the main thread of the page at url in a trace: the
// renderer process that TracingStartedInBrowser names for the frame whose
// URL starts with url, and in it the thread named CrRendererMain. Other
// renderers (a spare one Chromium keeps ready, other tabs) have threads of
// the same name, so the name alone does not say which is the page's.
func pageMainThread(events []traceEvent, url string) (pid, tid int, err error) {
	var pids []int
	for _, e := range events {
		if e.Name != "TracingStartedInBrowser" {
			continue
		}
		var args struct {
			Data struct {
				Frames []struct {
					ProcessID int    `json:"processId"`
					URL       string `json:"url"`
				} `json:"frames"`
			} `json:"data"`
		}
		if err := json.Unmarshal(e.Args, &args); err != nil {
			return 0, 0, fmt.Errorf("reading TracingStartedInBrowser: %w", err)
		}
		for _, f := range args.Data.Frames {
			if strings.HasPrefix(f.URL, url) && !slices.Contains(pids, f.ProcessID) {
				pids = append(pids, f.ProcessID)
			}
		}
	}
	if len(pids) != 1 {
		return 0, 0, fmt.Errorf("the trace names %d renderer processes for %s (%v), not one", len(pids), url, pids)
	}
	pid = pids[0]
	for _, e := range events {
		if e.Ph != "M" || e.Name != "thread_name" || e.Pid != pid {
			continue
		}
		var args struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(e.Args, &args); err == nil && args.Name == "CrRendererMain" {
			return pid, e.Tid, nil
		}
	}
	return 0, 0, fmt.Errorf("renderer process %d has no thread named CrRendererMain in the trace", pid)
}

// A frame is one frame of the page's main thread, from the trace.
type frame struct {
	// At is when the main thread began the frame, in the trace's
	// microseconds.
	At float64
	// IntervalMs is the time since the main thread began the frame
	// before.
	IntervalMs float64
	// MainMs is how long the main thread worked for the frame: its
	// top-level tasks since the one that drew the frame before, up to and
	// including the one that drew this frame.
	MainMs float64
}

// mainThreadFrames reads the frames of one thread from a trace, every frame
// but the first, which has no frame before it to measure from.
//
// A frame's boundary is BeginMainThreadFrame, the instant at which the main
// thread begins a frame, when the compositor asks it to (BeginMainFrame).
// It is the boundary to take because it is on the thread measured and only
// there: the compositor's BeginFrame ticks at every vsync whether or not the
// main thread keeps up, so its intervals say nothing of the main thread; and
// DrawFrame also counts the frames the compositor draws alone. Chromium's
// DevTools draws its frames from the same events.
//
// The main thread's work is its top-level tasks: the complete events with
// no other complete event of the thread around them (ThreadControllerImpl::
// RunTask or RunTask, whichever is outermost; taking the outermost of all
// spans, rather than one of the names, keeps the reading right when Chromium
// renames a task). Each task counts for one frame: BeginMainThreadFrame falls
// inside the task that begins the frame, so a frame's work runs from the task
// after the one that drew the frame before, to the one that draws it; the
// work that made a frame late counts for that frame.
func mainThreadFrames(events []traceEvent, pid, tid int) []frame {
	var tasks, spans []traceEvent
	var begins []float64
	for _, e := range events {
		if e.Pid != pid || e.Tid != tid {
			continue
		}
		switch {
		case e.Ph == "X":
			spans = append(spans, e)
		case e.Name == "BeginMainThreadFrame":
			begins = append(begins, e.Ts)
		}
	}
	// Outer spans first: by start, the longest of those that start
	// together first.
	slices.SortFunc(spans, func(a, b traceEvent) int {
		if a.Ts != b.Ts {
			return cmp.Compare(a.Ts, b.Ts)
		}
		return cmp.Compare(b.Dur, a.Dur)
	})
	end := math.Inf(-1)
	for _, s := range spans {
		if s.Ts >= end {
			tasks = append(tasks, s)
			end = s.Ts + s.Dur
		}
	}
	slices.Sort(begins)

	// drawer[i] is the index of the task during which frame i began: the
	// last task that started at or before it.
	drawer := make([]int, len(begins))
	for i, at := range begins {
		j, found := slices.BinarySearchFunc(tasks, at, func(t traceEvent, at float64) int { return cmp.Compare(t.Ts, at) })
		if !found {
			j--
		}
		drawer[i] = j
	}
	var frames []frame
	for i := 1; i < len(begins); i++ {
		var main float64
		for _, t := range tasks[drawer[i-1]+1 : drawer[i]+1] {
			main += t.Dur
		}
		frames = append(frames, frame{
			At:         begins[i],
			IntervalMs: (begins[i] - begins[i-1]) / 1000,
			MainMs:     main / 1000,
		})
	}
	return frames
}

// screenFrames are the frames of a page as its compositor thread saw them:
// Vsyncs is how many times the display asked for a frame (BeginFrame),
// Drawn how many frames the compositor drew (DrawFrame), and Dropped at how
// many vsyncs an update was due and missed it (DroppedFrame), so that the
// screen went on showing the frame before: each dropped frame is a frame
// that came at least two vsyncs, 33 ms at 60 Hz, after the one before. A
// vsync at which nothing had changed is neither drawn nor dropped. Chromium's
// own dropped-frames metric counts the same way.
type screenFrames struct {
	Vsyncs, Drawn, Dropped int
}

// pageScreenFrames reads screenFrames from a trace, for the renderer process
// pid: its thread named Compositor. While the page animates on the
// compositor (the loop's token), the compositor draws the frames the page's
// main thread has no part in, which only its thread records.
func pageScreenFrames(events []traceEvent, pid int) (screenFrames, error) {
	var threads []int
	for _, e := range events {
		if e.Ph != "M" || e.Name != "thread_name" || e.Pid != pid {
			continue
		}
		var args struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(e.Args, &args); err == nil && args.Name == "Compositor" && !slices.Contains(threads, e.Tid) {
			threads = append(threads, e.Tid)
		}
	}
	if len(threads) != 1 {
		return screenFrames{}, fmt.Errorf("renderer process %d has %d threads named Compositor in the trace, not one", pid, len(threads))
	}
	var f screenFrames
	for _, e := range events {
		if e.Pid != pid || e.Tid != threads[0] {
			continue
		}
		switch e.Name {
		case "BeginFrame":
			f.Vsyncs++
		case "DrawFrame":
			f.Drawn++
		case "DroppedFrame":
			f.Dropped++
		}
	}
	return f, nil
}

// percentile is the nearest-rank p-th percentile of xs (0 < p ≤ 100): the
// smallest value that at least p% of xs are no greater than.
func percentile(xs []float64, p float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[max(rank, 1)-1]
}

// TestMainThreadFrames reads a trace written by hand, in the shape Chromium
// 156 writes: the page's renderer is found by its URL, not by its main
// thread's name, which a spare renderer shares; a frame's main-thread time
// is the outermost tasks since the frame before, counted once however deeply
// they nest, up to the task that draws it; and events of other threads and
// processes count for nothing.
func TestMainThreadFrames(t *testing.T) {
	const url = "http://127.0.0.1:4242/"
	ms := func(v float64) float64 { return v * 1000 }
	task := func(pid, tid int, name string, from, to float64) traceEvent {
		return traceEvent{Name: name, Ph: "X", Pid: pid, Tid: tid, Ts: ms(from), Dur: ms(to - from)}
	}
	// One task as Chromium 156 records it: ThreadControllerImpl::RunTask
	// (toplevel) around RunTask (DevTools' name) around what ran.
	runTask := func(pid, tid int, from, to float64) []traceEvent {
		return []traceEvent{
			task(pid, tid, "ThreadControllerImpl::RunTask", from, to),
			task(pid, tid, "RunTask", from, to),
			task(pid, tid, "FunctionCall", from, to-(to-from)/2),
		}
	}
	begin := func(pid, tid int, at float64) traceEvent {
		return traceEvent{Name: "BeginMainThreadFrame", Ph: "I", Pid: pid, Tid: tid, Ts: ms(at)}
	}
	threadName := func(pid, tid int, name string) traceEvent {
		return traceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid, Args: json.RawMessage(`{"name":` + js(name) + `}`)}
	}
	events := []traceEvent{
		{Name: "TracingStartedInBrowser", Ph: "I", Pid: 1, Tid: 1, Args: json.RawMessage(`{"data":{"frames":[` +
			`{"processId":10,"url":"` + url + `","isOutermostMainFrame":true}]}}`)},
		threadName(1, 1, "CrBrowserMain"),
		threadName(10, 11, "CrRendererMain"),
		threadName(10, 12, "Compositor"),
		threadName(20, 21, "CrRendererMain"), // a spare renderer
	}
	events = slices.Concat(events,
		runTask(10, 11, 0, 2), []traceEvent{begin(10, 11, 1)}, // the first frame: none before it
		runTask(10, 11, 5, 9),   // script
		runTask(10, 11, 10, 40), // long script, which delays the next frame
		runTask(10, 11, 41, 45), []traceEvent{begin(10, 11, 42)},
		// A frame that begins in the same microsecond as its task.
		runTask(10, 11, 51, 53), []traceEvent{begin(10, 11, 51)},
		runTask(10, 11, 60, 61), // after the last frame: no frame to count it for
		// Another renderer's frames and tasks, and the compositor's.
		runTask(20, 21, 30, 50), []traceEvent{begin(20, 21, 44)},
		runTask(10, 12, 20, 30),
	)
	// The order of events in a trace is not the order of time.
	slices.Reverse(events)

	pid, tid, err := pageMainThread(events, url)
	require.NoError(t, err)
	assert.Equal(t, []int{10, 11}, []int{pid, tid})

	frames := mainThreadFrames(events, pid, tid)
	assert.Equal(t, []frame{
		{At: ms(42), IntervalMs: 41, MainMs: 4 + 30 + 4},
		{At: ms(51), IntervalMs: 9, MainMs: 2},
	}, frames)

	_, _, err = pageMainThread(events, "http://127.0.0.1:9/")
	assert.ErrorContains(t, err, "names 0 renderer processes", "a page the trace does not name is not guessed at")
}

// TestScreenFrames reads the compositor's frames from a trace written by
// hand: only the page's compositor thread counts, not its main thread nor
// another renderer's compositor; and a renderer with no compositor thread is
// an error, not zero frames.
func TestScreenFrames(t *testing.T) {
	instant := func(pid, tid int, name string, at float64) traceEvent {
		return traceEvent{Name: name, Ph: "I", Pid: pid, Tid: tid, Ts: at * 1000}
	}
	threadName := func(pid, tid int, name string) traceEvent {
		return traceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid, Args: json.RawMessage(`{"name":` + js(name) + `}`)}
	}
	events := []traceEvent{
		threadName(10, 11, "CrRendererMain"),
		threadName(10, 12, "Compositor"),
		threadName(10, 13, "CompositorTileWorker1"),
		threadName(20, 22, "Compositor"), // another renderer's
	}
	for i, at := range []float64{0, 16.7, 33.3, 50, 66.7} {
		events = append(events, instant(10, 12, "BeginFrame", at), instant(20, 22, "BeginFrame", at))
		switch i {
		case 0, 1, 4:
			events = append(events, instant(10, 12, "DrawFrame", at+3))
		case 2:
			events = append(events, instant(10, 12, "DroppedFrame", at+3))
		}
		// vsync 3 had nothing to draw.
	}
	events = append(events,
		instant(10, 11, "BeginMainThreadFrame", 1), instant(10, 11, "DrawFrame", 2),
		instant(20, 22, "DroppedFrame", 40))

	f, err := pageScreenFrames(events, 10)
	require.NoError(t, err)
	assert.Equal(t, screenFrames{Vsyncs: 5, Drawn: 3, Dropped: 1}, f)

	_, err = pageScreenFrames(events, 30)
	assert.ErrorContains(t, err, "0 threads named Compositor")
}

func TestPercentileIsNearestRank(t *testing.T) {
	var xs []float64
	for i := 20; i >= 1; i-- {
		xs = append(xs, float64(i))
	}
	assert.Equal(t, 19.0, percentile(xs, 95))
	assert.Equal(t, 20.0, percentile(xs, 100))
	assert.Equal(t, 10.0, percentile(xs, 50))
	assert.Equal(t, 10.0, percentile(xs[10:], 95), "of 10 values, the 95th percentile is the largest")
	assert.Equal(t, 7.0, percentile([]float64{7}, 95))
	assert.Equal(t, 20.0, xs[0], "percentile leaves its input as it was")
}
