package script

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The executor's fuzz property: whatever line a learner types, running it
// never panics; a failure is a *RuntimeError that points into the line; a
// failure that came before the command touched the world (a check) leaves
// the world exactly as it was; and reading commands and expects never change
// it, whether they hold or not.

// tooSlowToFuzz reports commands that are valid but would make a fuzz run
// slow without exercising anything new: long runs of steps and long stretches
// of simulated time.
func tooSlowToFuzz(cmd Command) bool {
	switch c := cmd.(type) {
	case *Step:
		return c.N > 2000
	case *Advance:
		return c.D > 10*time.Minute
	case *Stabilize:
		return c.Limits.MaxTime > 30*time.Minute || c.Limits.MaxSteps > 20000
	case *UntilSync:
		return c.Limits.MaxTime > 30*time.Minute || c.Limits.MaxSteps > 20000
	case *CreateRS:
		return c.Replicas > 50
	case *CreateRC:
		return c.Replicas > 50
	case *CreateDeploy:
		return c.Replicas > 50
	case *Scale:
		return c.Replicas > 50
	}
	return false
}

// readsOnly reports the commands that must never change the world.
func readsOnly(cmd Command) bool {
	switch cmd.(type) {
	case *Get, *Describe, *Show, *Help, *ExpectPods, *ExpectObject, *ExpectCondition, *ExpectQueue,
		*ExpectExpectations, *ExpectEvents, *ExpectRequests, *ExpectOwners, *RolloutStatus, *RolloutHistory:
		return true
	}
	return false
}

// checkExecute runs the lines of src, each parsed as the console parses it,
// against a small converged world (rs/web with two pods), and checks the
// property on every command.
func checkExecute(t *testing.T, src string) {
	t.Helper()
	stabilize := Command(&Stabilize{Source: Source{Pos: Pos{Line: 1, Col: 1}, Text: "stabilize", Name: "stabilize"}})
	ts := newTestSession(t, "create rs web --replicas=2 --selector=app=web")
	require.NoError(t, ts.Run(stabilize))
	for i, line := range splitLines(src) {
		if i == 12 {
			break
		}
		cmd, err := ParseLine(line)
		if err != nil || cmd == nil || tooSlowToFuzz(cmd) {
			continue // a parse error runs nothing
		}
		w := ts.World()
		before := ""
		if w != nil {
			before = fingerprint(w)
		}
		err = ts.Run(cmd)
		if w == nil || ts.World() != w {
			continue // seed and config rebuilt a world nothing had changed
		}
		after := fingerprint(w)
		if readsOnly(cmd) {
			require.Equal(t, before, after, "%q must not change the world (error: %v)", line, err)
		}
		if err == nil {
			continue
		}
		var re *RuntimeError
		require.True(t, errors.As(err, &re), "%q failed with a %T, not a *RuntimeError: %v", line, err, err)
		require.NotEmpty(t, re.Msg, line)
		require.Equal(t, cmd.Src().Pos.Line, re.Pos.Line, "%q: %v", line, err)
		require.GreaterOrEqual(t, re.Pos.Col, 1)
		require.LessOrEqual(t, re.Pos.Col, len(line)+1, "%q: %v", line, err)
		if !re.applied {
			require.Equal(t, before, after, "%q failed a check (%v) and must leave the world as it was", line, err)
		}
	}
	// Whatever happened, the world can still come to rest or report why not.
	_ = ts.Run(stabilize)
}

// executeSeeds are scripts worth starting from: every example of the table,
// one per line, and a few scenarios.
func executeSeeds() []string {
	var seeds []string
	for _, s := range table {
		seeds = append(seeds, strings.Join(s.Examples, "\n"))
	}
	return append(seeds,
		"kill pods -l app=web --pick=random\nstabilize\nexpect pods -l app=web count=2",
		"drop watch pods --count=2\nkill pods -l app=web --pick=oldest\nstabilize\nexpect cache pods -l app=web count=2\nheal watch pods\nstabilize",
		"fail create pods --always --error=quota\nscale rs/web --replicas=4\nuntil sync rs/web\nexpect condition rs/web ReplicaFailure=True\nheal",
		"label pods -l app=web --pick=oldest app=db\nlabel pods -l app=web --pick=oldest app=db --overwrite\ncreate rs db --replicas=1 --selector=app=db\nstabilize",
		"crash pods -l app=web\nevict pods -l app=web --pick=9\nset ready pods --all false\nstep 5",
		"config workers=3\nseed 9\nconfig kubelet-start=0s\nadvance 2s\nagenda 3\ntrace 2",
		"create deploy web --replicas=2 --selector=app=web\nset image deploy/web app=nginx:2.0\nrollout pause deploy/web\n"+
			"rollout undo deploy/web\nrollout resume deploy/web\nrollout restart deploy/web\nrollout status deploy/web\n"+
			"rollout history deploy/web --revision=1\nexpect rs -l app=web count=0\ndescribe deploy/web\ndelete deploy/web",
	)
}

func FuzzExecute(f *testing.F) {
	for _, s := range executeSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkExecute(t, src)
	})
}

// TestExecuteRandomScripts is the fuzz property on generated scripts, the
// same ones every run: random lines of the table's words, mutated examples,
// and examples as written, so that both the failure paths and the paths
// that change the world are exercised. It is a short fuzz that go test runs.
func TestExecuteRandomScripts(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	vocab := vocabulary()
	var examples []string
	for _, s := range table {
		examples = append(examples, s.Examples...)
	}
	n, every := 250, 1
	if testing.Short() || runtime.GOOS == "js" {
		n, every = 15, 3 // the wasm build under node is several times slower
	}
	for i, s := range executeSeeds() {
		if i%every == 0 {
			checkExecute(t, s)
		}
	}
	for range n {
		var lines []string
		for range 2 + rng.IntN(6) {
			switch rng.IntN(3) {
			case 0:
				lines = append(lines, examples[rng.IntN(len(examples))])
			case 1:
				lines = append(lines, mutate(rng, examples[rng.IntN(len(examples))]))
			default:
				lines = append(lines, randomScript(rng, vocab, examples))
			}
		}
		checkExecute(t, strings.Join(lines, "\n"))
	}
}
