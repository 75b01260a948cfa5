package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlagsNamesWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-bench", "X"}, "-old is required"},
		{[]string{"-old", "HEAD"}, "-bench is required"},
		{[]string{"-old", "HEAD", "-bench", "X", "-runs", "1"}, "-runs is 1: each side must run at least twice"},
		{[]string{"-old", "HEAD", "-bench", "X", "-procs", "0"}, "-procs is 0: GOMAXPROCS must be at least 1"},
		{[]string{"-old", "HEAD", "-bench", "X", "stray"}, `unexpected argument "stray"`},
		{[]string{"-old", "HEAD", "-bench", "X", "-runs", "ten"}, `invalid value "ten" for flag -runs`},
	} {
		var stderr bytes.Buffer
		_, err := parseFlags(tc.args, &stderr)
		require.Error(t, err, "%q", tc.args)
		assert.Contains(t, err.Error()+stderr.String(), tc.want, "%q", tc.args)
	}

	c, err := parseFlags([]string{"-old", "HEAD~1", "-bench", "Converge"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, config{old: "HEAD~1", pkg: "./core/world", bench: "Converge", benchtime: "4x", runs: 10, procs: 1}, c,
		"-new defaults to the working tree, and the rest to what the doc says")
}

func TestRunExitStatus(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-bench", "X"}, &stdout, &stderr), "a bad command line")
	assert.Contains(t, stderr.String(), "benchcmp: -old is required")

	stderr.Reset()
	assert.Equal(t, 0, run([]string{"-h"}, &stdout, &stderr), "asking for help is not a mistake")
	assert.Contains(t, stderr.String(), "usage: go run ./cmd/benchcmp -old REV -bench REGEXP")
}

// TestInterleaveAlternatesTheOrder checks the order the sides run in, and
// that each run's time is printed as it ends and kept under its side.
func TestInterleaveAlternatesTheOrder(t *testing.T) {
	var ran []string
	cpu := map[int][]time.Duration{0: {100, 300, 200}, 1: {90, 80, 95}}
	measure := func(side int) (time.Duration, string, error) {
		ran = append(ran, sideNames[side])
		d := cpu[side][0] * time.Millisecond
		cpu[side] = cpu[side][1:]
		return d, "BenchmarkX 1 2 ns/op", nil
	}
	var out bytes.Buffer
	samples, err := interleave(3, measure, false, &out)
	require.NoError(t, err)
	assert.Equal(t, []string{"old", "new", "new", "old", "old", "new"}, ran)
	assert.Equal(t, [2][]time.Duration{
		{100 * time.Millisecond, 300 * time.Millisecond, 200 * time.Millisecond},
		{90 * time.Millisecond, 80 * time.Millisecond, 95 * time.Millisecond},
	}, samples)
	assert.Equal(t, `run  1  old  100 ms
run  1  new  90 ms
run  2  new  80 ms
run  2  old  300 ms
run  3  old  200 ms
run  3  new  95 ms
`, out.String())

	out.Reset()
	summarize(samples, &out)
	assert.Equal(t, `old  median 200 ms  fastest 100 ms
new  median 90 ms  fastest 80 ms
new against old: -55.0% (median), -20.0% (fastest)
`, out.String())
}

func TestInterleaveStopsAtTheFirstFailure(t *testing.T) {
	boom := errors.New("new.test: exit status 1")
	calls := 0
	measure := func(side int) (time.Duration, string, error) {
		calls++
		if side == 1 {
			return 0, "", boom
		}
		return time.Second, "", nil
	}
	_, err := interleave(5, measure, true, &bytes.Buffer{})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 2, calls, "the old side's first run, then the failing new one")
}

func TestVerbosePrintsTheBenchmarkLines(t *testing.T) {
	measure := func(int) (time.Duration, string, error) {
		return 1500 * time.Millisecond, "BenchmarkA 1 5 ns/op\nBenchmarkB 1 7 ns/op", nil
	}
	var out bytes.Buffer
	_, err := interleave(1, measure, true, &out)
	require.NoError(t, err)
	assert.Equal(t, `run  1  old  1,500 ms
        BenchmarkA 1 5 ns/op
        BenchmarkB 1 7 ns/op
run  1  new  1,500 ms
        BenchmarkA 1 5 ns/op
        BenchmarkB 1 7 ns/op
`, out.String())
}

func TestMedianAndFigures(t *testing.T) {
	assert.Equal(t, 3*time.Millisecond, median([]time.Duration{5 * time.Millisecond, 1 * time.Millisecond, 3 * time.Millisecond}))
	assert.Equal(t, 2500*time.Microsecond, median([]time.Duration{4 * time.Millisecond, 1 * time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}))

	assert.Equal(t, "0 ms", millis(0))
	assert.Equal(t, "999 ms", millis(999*time.Millisecond))
	assert.Equal(t, "1,000 ms", millis(time.Second))
	assert.Equal(t, "12,345,678 ms", millis(12345678*time.Millisecond))

	assert.Equal(t, "+10.0%", change(100, 110))
	assert.Equal(t, "-2.8%", change(1000, 972))
	assert.Equal(t, "n/a", change(0, 5))
}

// TestComparesTheLastCommitWithTheWorkingTree runs the whole command on a
// small package: both builds (one through a git worktree), the runs and the
// summary. It needs the repository, which CI's clean clone is.
func TestComparesTheLastCommitWithTheWorkingTree(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"-old", "HEAD", "-pkg", "./core/sim", "-bench", "KernelStep", "-benchtime", "1x", "-runs", "2"}, &stdout, &stderr)
	require.Equal(t, 0, status, "stderr: %s", &stderr)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 7, stdout.String())
	for i, prefix := range []string{"run  1  old  ", "run  1  new  ", "run  2  new  ", "run  2  old  ", "old  median ", "new  median ", "new against old: "} {
		assert.True(t, strings.HasPrefix(lines[i], prefix), "line %d: %q", i, lines[i])
	}

	stderr.Reset()
	status = run([]string{"-old", "no-such-revision", "-pkg", "./core/sim", "-bench", "KernelStep"}, &stdout, &stderr)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr.String(), `benchcmp: checking out -old or -new "no-such-revision"`)

	stderr.Reset()
	status = run([]string{"-old", "HEAD", "-pkg", "./core/sim", "-bench", "NoSuchBenchmark", "-runs", "2"}, &stdout, &stderr)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr.String(), `ran no benchmark matching -bench "NoSuchBenchmark"`)
}
