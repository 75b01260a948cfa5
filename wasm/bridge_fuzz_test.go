package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzBridge sends the bridge what the page, or a hand-edited share link,
// could send it, and holds it to the standard every input must meet: bad
// input never crashes and never loses state.
//
// An input is a script of requests, one per line, each an op name and its
// arguments as JSON ("step {"n":3}"), or a whole request ("{"op":"view"}")
// when the line starts with "{"; spaces around a line are dropped, so the
// seeds below can be indented. Writing the op apart from its arguments lets
// the fuzzer change the arguments of a real op instead of breaking the
// envelope. For every request, the test checks that:
//
//   - the answer is JSON with exactly one of result and error;
//   - no answer reports an internal error: a recovered panic is a bug;
//   - a read-only op (view, check, …), and a refused request (an error, or
//     a console line that did not parse), left the world as it was: the view
//     before and after it is the same, byte for byte.
//
// Then it replays the script on a fresh bridge, which must answer every
// request the same way, byte for byte: the page's share links and the
// rebuild of a dead worker depend on it.
//
// go test runs the seeds below; make fuzz explores from them.
func FuzzBridge(f *testing.F) {
	for _, seed := range []string{
		`load {}
			run {"line":"create rs web --replicas=3 --selector=app=web"}
			stabilize {"maxSteps":100000}
			view {}`,
		`load {"seed":7}
			run {"line":"create rc db --replicas=2 --selector=app=db"}
			step {"n":25}
			seek {"step":10}
			step {"n":5}
			steps {"from":1}`,
		`load {"lesson":"02-a-pod-dies"}
			check {}
			run {"line":"kill pods -l app=web --pick=oldest"}
			untilSync {"owner":"rs/web"}
			check {"page":1}`,
		`load {}
			run {"line":"create rs web --replicas=2 --selector=app=web"}
			run {"line":"fail create pods --count=1 --error=quota"}
			run {"line":"drop watch pods --count=1"}
			stabilize {"maxSteps":5000}
			view {"agenda":-1,"steps":3,"pods":1,"entries":1}`,
		`load {}
			run {"line":"create rs web --replicas=2 --selector=app=web"}
			stabilize {"maxSteps":2000}
			run {"line":"label pods -l app=web --pick=newest app=db --overwrite"}
			step {"n":40}
			seek {"step":3}
			run {"line":"scale rs/web --replicas=0"}
			stabilize {"maxSteps":2000}`,
		`view {}
			step {}
			check {}
			load {"lesson":"01-self-heeling"}
			load {"seed":-1}
			{"op":"veiw"}
			{}
			not json`,
		`load {}
			step {"n":0}
			step {"n":10001}
			stabilize {"maxSteps":-1}
			untilSync {"owner":"rs/","namespace":""}
			seek {"step":18446744073709551615}
			steps {"from":5,"to":2}`,
		`load {}
			run {"line":"scael rs/web --replicas=2"}
			complete {"line":"kill po","cursor":99}
			complete {"line":"get ","cursor":-3}
			run {"line":"create rs web --replicas=2 --selector=app=web"}
			stabilize {}
			complete {"line":"kill pod/"}
			complete {"line":"describe pod  -n default","cursor":13}
			seek {"step":1}
			complete {"line":"scale rs/"}
			help {"topic":"kill","commands":true}
			help {"topic":"nope"}
			lessons`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		requests := fuzzRequests(script)
		first := playChecked(t, requests)
		second := play(newBridge(t), requests)
		for i := range first {
			require.Equal(t, string(first[i]), string(second[i]),
				"request %d (%s) answered differently on replay", i, requests[i])
		}
	})
}

// maxFuzzRequests keeps one input quick: a long script is no more likely to
// find a bug than a short one, and far slower to shrink.
const maxFuzzRequests = 12

// fuzzRequests turns a script into requests, one per non-empty line.
func fuzzRequests(script string) [][]byte {
	var requests [][]byte
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(requests) == maxFuzzRequests {
			break
		}
		requests = append(requests, []byte(fuzzRequest(line)))
	}
	return requests
}

// fuzzRequest builds one request from a line: OP [ARGS], or a whole request.
// The arguments are pasted in as they are, so that a line whose arguments
// are not JSON makes a request that is not JSON either.
func fuzzRequest(line string) string {
	if strings.HasPrefix(line, "{") {
		return line
	}
	op, args, _ := strings.Cut(line, " ")
	quoted, _ := json.Marshal(op) // a string always encodes
	req := `{"op":` + string(quoted)
	if args = strings.TrimSpace(args); args != "" {
		req += `,"args":` + args
	}
	return req + "}"
}

// viewRequest is the page's view. It is asked for before every request, and
// again after one that must leave the world as it was, to prove that it did.
var viewRequest = []byte(`{"op":"view","args":{"agenda":50,"steps":50}}`)

// playChecked sends the requests to a fresh bridge, checking every answer,
// and returns the answers.
func playChecked(t *testing.T, requests [][]byte) [][]byte {
	t.Helper()
	b := newBridge(t)
	answers := make([][]byte, 0, len(requests))
	for i, req := range requests {
		before := b.Handle(viewRequest)
		ans := b.Handle(req)
		answers = append(answers, ans)

		a := decodeAnswer(t, ans)
		require.NotContains(t, a.Error, "internal error", "request %d: %s", i, req)
		if why := keepsTheWorld(req, a); why != "" {
			assert.Equal(t, string(before), string(b.Handle(viewRequest)),
				"request %d (%s) changed the world, but %s", i, req, why)
		}
	}
	return answers
}

// readOnlyOps never change the world, whatever their arguments.
var readOnlyOps = map[string]bool{
	"view": true, "steps": true, "check": true, "complete": true, "help": true, "lessons": true,
}

// keepsTheWorld says why a request must have left the world as it was, or
// "" if it may have changed it: a read-only op, an error, or a console line
// that did not parse. (A console line that parsed but failed as it ran may
// have run steps first, as kubectl's command would have sent requests.)
func keepsTheWorld(req []byte, a answer) string {
	var envelope struct {
		Op string `json:"op"`
	}
	if json.Unmarshal(req, &envelope) == nil && readOnlyOps[envelope.Op] {
		return envelope.Op + " only reads"
	}
	if a.Error != "" {
		return "it failed: " + a.Error
	}
	var run struct {
		Failure *CommandError `json:"failure"`
	}
	if json.Unmarshal(a.Result, &run) == nil && run.Failure != nil && run.Failure.Kind == "parse" {
		return "it did not parse: " + run.Failure.Error
	}
	return ""
}

// play sends the requests to b and returns the answers.
func play(b *Bridge, requests [][]byte) [][]byte {
	answers := make([][]byte, 0, len(requests))
	for _, req := range requests {
		answers = append(answers, b.Handle(req))
	}
	return answers
}
