//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// This file slows a tab down to a learner's network and machine, with
// Chromium's own throttling where Chromium has it, for the tests and
// benchmarks of a page on a slow connection (loading_test.go,
// bench_test.go); threadthrottle_linux_test.go holds the throttle for what
// Chromium's does not reach, the engine's Web Worker.

// A netProfile is a network to emulate.
type netProfile struct {
	name string
	// mbit is the download and upload throughput, in Mbit/s (10⁶ bits).
	mbit float64
	// rtt is the latency Chromium adds before each response's headers.
	rtt time.Duration
}

var (
	// slow4G is the network of Lighthouse's mobile profile, whose CPU is
	// 4× slower, as in the issue that found "ready" before the engine
	// was: 1.6 Mbit/s and 150 ms of round trip (Lighthouse uploads at
	// 750 kbit/s; the page uploads next to nothing, so one figure does).
	slow4G = netProfile{name: "1.6 Mbit/s, 150 ms RTT", mbit: 1.6, rtt: 150 * time.Millisecond}
	// fast9M is the network the page's throttled budgets are set for.
	fast9M = netProfile{name: "9 Mbit/s, 60 ms RTT", mbit: 9, rtt: 60 * time.Millisecond}
)

// bytesPerSecond is the profile's throughput as CDP takes it.
func (n netProfile) bytesPerSecond() float64 {
	return n.mbit * 1e6 / 8
}

// emulateNetworkConditionsParams are the parameters of
// Network.emulateNetworkConditions. cdproto v0.159 no longer lists the
// command, which the protocol marks deprecated in favour of
// emulateNetworkConditionsByRule, but Chromium 156 still runs it, and it
// throttles everything the tab loads with no URL patterns to get right.
type emulateNetworkConditionsParams struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`            // ms
	DownloadThroughput float64 `json:"downloadThroughput"` // bytes/s
	UploadThroughput   float64 `json:"uploadThroughput"`   // bytes/s
}

// throttleNetwork makes the tab's network n. It also turns the HTTP cache
// off and has every request bypass the service worker, so that every load
// downloads everything, through the throttle.
func (p *page) throttleNetwork(n netProfile) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	c := chromedp.FromContext(ctx)
	if err := c.Target.Call(ctx, "Network.emulateNetworkConditions", emulateNetworkConditionsParams{
		Latency:            float64(n.rtt.Milliseconds()),
		DownloadThroughput: n.bytesPerSecond(),
		UploadThroughput:   n.bytesPerSecond(),
	}, nil); err != nil {
		p.t.Fatalf("throttling the network to %s: %v", n.name, err)
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		p.t.Fatalf("disabling the HTTP cache: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		p.t.Fatalf("bypassing the service worker: %v", err)
	}
}

// throttleCPU slows the tab's main thread rate times, with
// Emulation.setCPUThrottlingRate. Chromium applies it to the page's main
// thread only: throttleWorkers slows the engine's.
func (p *page) throttleCPU(rate float64) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		p.t.Fatalf("throttling the CPU %v×: %v", rate, err)
	}
}

// resourceTiming is what the page's Resource Timing says about one
// download, in ms from navigation start and bytes.
type resourceTiming struct {
	RequestStart  float64 `json:"requestStart"`
	ResponseStart float64 `json:"responseStart"`
	ResponseEnd   float64 `json:"responseEnd"`
	Encoded       float64 `json:"encodedBodySize"`
	Decoded       float64 `json:"decodedBodySize"`
}

// timing returns the page's Resource Timing entry for the URL ending in
// name; the test fails if there is none.
func (p *page) timing(name string) resourceTiming {
	p.t.Helper()
	return eval[resourceTiming](p, fmt.Sprintf(`(() => {
		const e = performance.getEntriesByType("resource").find((e) => e.name.endsWith(%s));
		if (!e) {
			throw new Error("no resource timing for " + %[1]s);
		}
		return e.toJSON();
	})()`, js("/"+name)))
}

// workerThrottles slows every Web Worker a tab starts as throttleCPU slows
// its page: the engine runs in one, and a slow machine is slow there too.
//
// Workers are targets of their own, which the tab's own throttling does not
// reach, and the engine's starts running Go at once. So the tab
// auto-attaches to its workers with waitForDebuggerOnStart: each new worker
// waits, paused before its first line, until it is throttled and told to
// run (Runtime.runIfWaitingForDebugger). Chromium 156 refuses
// Emulation.setCPUThrottlingRate on a worker ("Operation is only supported
// for pages, not workers"); then the worker's thread is throttled from
// outside instead (threadThrottle), to the same rate. A Chromium that
// accepts the command gets it.
type workerThrottles struct {
	p    *page
	rate float64
	// browser is the browser's process, whose descendants hold the
	// worker threads.
	browser int
	// known are the worker threads that were there before, not this
	// tab's.
	known map[thread]bool

	mu      sync.Mutex
	workers []*throttledWorker
	errs    []error
}

// A throttledWorker is one worker of the tab, and how it was throttled.
type throttledWorker struct {
	url string
	// byCDP is set when Chromium throttled it itself.
	byCDP bool
	// thread, throttle and cpu0 are set when the throttle is ours: the
	// thread, the throttle and the thread's CPU time when it began.
	thread   thread
	throttle *threadThrottle
	cpu0     time.Duration
	began    time.Time
	detach   func()
}

// A workerReport says how one worker was throttled: by Chromium, or by
// threadThrottle, with what that did and the CPU time the thread used.
type workerReport struct {
	url    string
	byCDP  bool
	result throttleResult
	cpu    time.Duration
	wall   time.Duration
}

// throttleWorkers starts throttling, rate times, the workers the tab starts
// from now on; stop ends it and reports. Call it before navigating.
func (p *page) throttleWorkers(rate float64) *workerThrottles {
	p.t.Helper()
	c := chromedp.FromContext(p.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		p.t.Fatalf("throttling workers needs the browser's process, which chromedp did not start")
	}
	w := &workerThrottles{p: p, rate: rate, browser: c.Browser.Process().Pid, known: map[thread]bool{}}
	before, err := threadsNamed(w.browser, workerThreadName)
	if err != nil {
		p.t.Fatalf("listing the browser's worker threads: %v", err)
	}
	for _, th := range before {
		w.known[th] = true
	}
	chromedp.Listen(p.ctx, func(ev any) {
		if ev, ok := ev.(*target.EventAttachedToTarget); ok && ev.TargetInfo.Type == "worker" {
			// Attaching runs commands, which a listener must not.
			go w.attach(ev.TargetInfo.TargetID, ev.TargetInfo.URL)
		}
	})
	ctx, cancel := context.WithTimeout(p.ctx, quick)
	defer cancel()
	if _, err := chromedp.Call(ctx, target.SetAutoAttach, target.SetAutoAttachParams{
		AutoAttach:             true,
		WaitForDebuggerOnStart: true,
		Flatten:                &[]bool{true}[0],
		// Only dedicated workers: a service worker paused here would
		// wait for ever, since nothing resumes it.
		Filter: target.Filter{{Type: "worker"}, {Exclude: true}},
	}); err != nil {
		p.t.Fatalf("auto-attaching to the tab's workers: %v", err)
	}
	return w
}

// workerThreadName is what Chromium names a dedicated worker's thread
// ("DedicatedWorker thread", which Linux cuts to 15 bytes).
const workerThreadName = "DedicatedWorker"

// attach throttles the worker id, which waits for it, and lets it run.
func (w *workerThrottles) attach(id target.ID, url string) {
	fail := func(format string, args ...any) {
		err := fmt.Errorf("worker %s: "+format, append([]any{url}, args...)...)
		// Logged at once too: a worker left paused hangs the page, and the
		// wait for it fails before stop reports this.
		w.p.logf("throttling the tab's workers: %v", err)
		w.mu.Lock()
		w.errs = append(w.errs, err)
		w.mu.Unlock()
	}
	// A context of its own on the worker, which detaches when cancelled
	// rather than closing the worker.
	wctx, detach := chromedp.NewContext(w.p.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	tw := &throttledWorker{url: url, detach: detach}
	// The first Do attaches, and runs the session's event loop on the
	// context it is given for as long as that lives: no timeout on it.
	if err := chromedp.Do(wctx); err != nil {
		fail("attaching: %v", err)
		detach()
		return
	}
	ctx, cancel := context.WithTimeout(wctx, quick)
	defer cancel()
	_, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: w.rate})
	switch {
	case err == nil:
		tw.byCDP = true
	case strings.Contains(err.Error(), "only supported for pages"):
		if err := w.throttleThread(tw); err != nil {
			fail("%v", err)
		}
	default:
		fail("Emulation.setCPUThrottlingRate: %v", err)
	}
	w.mu.Lock()
	w.workers = append(w.workers, tw)
	w.mu.Unlock()
	// Let it run, throttled or not: a worker that never runs would hang
	// the page rather than fail the benchmark with the reason.
	if _, err := chromedp.Call(ctx, runtime.RunIfWaitingForDebugger, cdp.Empty{}); err != nil {
		fail("Runtime.runIfWaitingForDebugger: %v", err)
	}
}

// throttleThread finds the thread of the worker that was just created, the
// one worker thread of the browser that was not there before, and throttles
// it. The worker is paused on its thread, so the thread is there, or about
// to be.
func (w *workerThrottles) throttleThread(tw *throttledWorker) error {
	deadline := time.Now().Add(quick)
	for {
		all, err := threadsNamed(w.browser, workerThreadName)
		if err != nil {
			return err
		}
		var fresh []thread
		w.mu.Lock()
		for _, th := range all {
			if !w.known[th] {
				fresh = append(fresh, th)
			}
		}
		if len(fresh) == 1 {
			w.known[fresh[0]] = true
		}
		w.mu.Unlock()
		switch {
		case len(fresh) > 1:
			return fmt.Errorf("%d new worker threads (%v): cannot tell which is this worker's", len(fresh), fresh)
		case len(fresh) == 1:
			tw.thread = fresh[0]
			cpu0, err := threadCPU(tw.thread.pid, tw.thread.tid)
			if err != nil {
				return err
			}
			throttle, err := startThreadThrottle(tw.thread.pid, tw.thread.tid, w.rate)
			if err != nil {
				return err
			}
			tw.throttle, tw.cpu0, tw.began = throttle, cpu0, time.Now()
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("no new %s thread in the browser's processes after %v", workerThreadName, quick)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitWorker waits until the tab has started a worker and it has been
// throttled (or failed to be), for a caller that stops before the engine is
// up.
func (w *workerThrottles) waitWorker() {
	w.p.t.Helper()
	deadline := time.Now().Add(runTimeout)
	for {
		w.mu.Lock()
		n := len(w.workers) + len(w.errs)
		w.mu.Unlock()
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			w.p.t.Fatalf("the page started no worker within %v", runTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop ends the throttles of the tab's workers and reports on each; a
// worker that could not be throttled fails the benchmark.
func (w *workerThrottles) stop() []workerReport {
	w.p.t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, err := range w.errs {
		w.p.t.Errorf("throttling the tab's workers: %v", err)
	}
	var reports []workerReport
	for _, tw := range w.workers {
		r := workerReport{url: tw.url, byCDP: tw.byCDP}
		if tw.throttle != nil {
			cpu, err := threadCPU(tw.thread.pid, tw.thread.tid)
			r.wall = time.Since(tw.began)
			r.result = tw.throttle.stop()
			if err == nil {
				r.cpu = cpu - tw.cpu0
			}
			if r.result.err != nil {
				w.p.t.Errorf("throttling worker %s's thread: %v", tw.url, r.result.err)
			}
		}
		tw.detach()
		reports = append(reports, r)
	}
	w.workers = nil
	return reports
}
