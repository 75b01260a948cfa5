//go:build !js

package e2e

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// This file slows a tab down to a learner's network and machine, with
// Chromium's own throttling, for the tests and benchmarks of a page on a slow
// connection (loading_test.go, bench_test.go).

// A netProfile is a network to emulate.
type netProfile struct {
	name string
	// mbit is the download and upload throughput, in Mbit/s (10⁶ bits).
	mbit float64
	// rtt is the latency Chromium adds before each response's headers.
	rtt time.Duration
}

var (
	// slow4G is Lighthouse's mobile profile, the "1.6 Mbit/s with a 4×
	// slower CPU" of the issue that found "ready" before the engine was:
	// 1.6 Mbit/s and 150 ms of round trip.
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
// emulateNetworkConditionsByRule, but Chromium still runs it, and it is the
// one that throttles everything the tab loads, its workers' requests
// included, without URL patterns.
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
// thread only: see throttleWorkers for the engine's.
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
