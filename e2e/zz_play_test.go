//go:build !js

package e2e

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// TestZZPlayProfile plays a 1,000-pod world and prints where the main
// thread's time goes: trace event totals and JS self times.
func TestZZPlayProfile(t *testing.T) {
	p := openPage(t, "")
	p.waitEngine()
	p.command("create rs big --replicas=1000 --selector=app=big")
	p.stabilize()
	p.command("kill pods -l app=big --count=300")
	eval[any](p, `(() => { const s = document.getElementById("speed"); s.value = "50"; s.dispatchEvent(new Event("change", {bubbles: true})); return null; })()`)
	p.click("#play")
	time.Sleep(time.Second)
	prof := os.Getenv("ZZPROF") != ""
	if prof {
		ctx, cancel := context.WithTimeout(p.ctx, quick)
		chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
		chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100})
		chromedp.Call(ctx, profiler.Start, cdp.Empty{})
		cancel()
		time.Sleep(5 * time.Second)
		ctx, cancel = context.WithTimeout(p.ctx, quick)
		res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		pr := res.Profile
		byID := map[int64]*profiler.ProfileNode{}
		for _, n := range pr.Nodes {
			byID[n.ID] = n
		}
		self := map[string]float64{}
		dt := float64(pr.EndTime-pr.StartTime) / 1000 / float64(len(pr.Samples))
		for _, s := range pr.Samples {
			n := byID[s]
			self[fmt.Sprintf("%s %s:%d", n.CallFrame.FunctionName, n.CallFrame.URL, n.CallFrame.LineNumber)] += dt
		}
		type kv struct {
			k string
			v float64
		}
		var all []kv
		for k, v := range self {
			all = append(all, kv{k, v})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
		for _, e := range all[:min(30, len(all))] {
			t.Logf("%7.1f ms %s", e.v, e.k)
		}
		return
	}
	tr := p.startTrace(append(frameTraceCategories, "devtools.timeline", "blink", "v8")...)
	time.Sleep(5 * time.Second)
	events := tr.stop()
	pid, tid, err := pageMainThread(events, p.s.server.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	sum := map[string]float64{}
	for _, e := range events {
		if e.Pid == pid && e.Tid == tid && e.Ph == "X" {
			sum[e.Name] += e.Dur / 1000
		}
	}
	type kv struct {
		k string
		v float64
	}
	var all []kv
	for k, v := range sum {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
	for _, e := range all[:min(40, len(all))] {
		t.Logf("%8.1f ms %s", e.v, e.k)
	}
}
