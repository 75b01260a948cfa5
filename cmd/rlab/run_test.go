package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Scripts the tests of rlab run and rlab trace run, written to files so that
// the runner reads them as a user's would be.
const (
	webScript = `# three pods of one ReplicaSet
create rs web --replicas=3 --selector=app=web
stabilize
expect pods -l app=web count=3 ready=true owner=rs/web
`
	typoScript = `create rs web --replicas=3 --selector=app=web
scael rs/web --replicas=2
`
	failingScript = `create rs web --replicas=3 --selector=app=web
stabilize
expect pods -l app=web count=4
get pods
`
	seededScript = `seed 7
create rs web --replicas=2 --selector=app=web
stabilize
get pods
`
)

// traceLine is one line of the kernel's trace format: step, simulated time,
// actor, modelled function and summary, in padded columns.
var traceLine = regexp.MustCompile(`^#[0-9]+ +t=[0-9]+\.[0-9]{3}s +\S+ +\S+ +\S.*$`)

// writeScripts writes each script to a file of that name in a new directory
// and returns the paths, in the order given.
func writeScripts(t *testing.T, nameAndText ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := 0; i < len(nameAndText); i += 2 {
		p := filepath.Join(dir, nameAndText[i])
		require.NoError(t, os.WriteFile(p, []byte(nameAndText[i+1]), 0o644))
		paths = append(paths, p)
	}
	return paths
}

// rlab runs the command line args and returns the exit status and outputs.
func rlab(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(t.Context(), args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestRunPrintsWhatAWorkingScriptDid(t *testing.T) {
	files := writeScripts(t, "web.txt", webScript)

	status, stdout, stderr := rlab(t, "run", files[0])

	assert.Equal(t, 0, status)
	assert.Equal(t, "replicaset.apps/web created\nthe world is at rest after 156 steps (t=2.118s)\n", stdout)
	assert.Empty(t, stderr)
}

func TestRunReportsAParseErrorAndRunsNothing(t *testing.T) {
	files := writeScripts(t, "web.txt", webScript, "typo.txt", typoScript)

	status, stdout, stderr := rlab(t, "run", files[0], files[1])

	assert.Equal(t, 2, status)
	assert.Empty(t, stdout, "a parse error in any file runs none of them")
	assert.Equal(t, files[1]+`:2:1: unknown command "scael"; did you mean "scale"?`+"\n", stderr)
}

func TestRunStopsAtAFailingExpectAndRunsTheNextFile(t *testing.T) {
	files := writeScripts(t, "fail.txt", failingScript, "web.txt", webScript)

	status, stdout, stderr := rlab(t, "run", files[0], files[1])

	assert.Equal(t, 1, status)
	assert.Equal(t, "replicaset.apps/web created\nthe world is at rest after 156 steps (t=2.118s)\n"+
		"replicaset.apps/web created\nthe world is at rest after 156 steps (t=2.118s)\n", stdout,
		"the failing file keeps what ran before its failure and stops there (no get); the next file runs")
	assert.Regexp(t, `^`+regexp.QuoteMeta(files[0])+`:3:1: expect pods -l app=web count=4: found 3 \(web-\S+ Running Ready rs/web, `, stderr,
		"the failure names the line, the expected count and the pods found")
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one failure, one line")
}

func TestRunSeedOverridesTheScriptsSeed(t *testing.T) {
	files := writeScripts(t, "seeded.txt", seededScript,
		"seed-3.txt", strings.Replace(seededScript, "seed 7", "seed 3", 1))

	_, ownSeed, _ := rlab(t, "run", files[0])
	status, overridden, stderr := rlab(t, "run", "--seed=3", files[0])
	_, seed3, _ := rlab(t, "run", files[1])

	require.Equal(t, 0, status, stderr)
	assert.NotEqual(t, podNames(ownSeed), podNames(overridden), "another seed, other generated names")
	assert.Equal(t, podNames(seed3), podNames(overridden), "--seed=3 runs the world the script's seed 3 would")
	assert.Len(t, podNames(overridden), 2)
}

// podNames returns the generated pod names in get pods output.
func podNames(out string) []string {
	return regexp.MustCompile(`(?m)^web-[a-z0-9]{5}\b`).FindAllString(out, -1)
}

func TestRunTracePrintsOneTraceLinePerStep(t *testing.T) {
	files := writeScripts(t, "web.txt", webScript)

	status, stdout, stderr := rlab(t, "run", "--trace", files[0])

	require.Equal(t, 0, status, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	var steps []string
	for _, l := range lines {
		if traceLine.MatchString(l) {
			steps = append(steps, l)
		}
	}
	assert.Len(t, steps, len(lines)-2, "every line but the two the commands print is a trace line")
	assert.Len(t, steps, 156+2, "the steps stabilize ran and the two that carried kubectl's create")
	assert.Contains(t, stdout, "replicaset.apps/web created\n")
	assert.True(t, strings.HasPrefix(steps[0], "#66 "), "the world's start (steps 1-65) is not printed: %q", steps[0])
}

func TestTracePrintsTheWholeTraceAndNothingElse(t *testing.T) {
	files := writeScripts(t, "web.txt", webScript, "fail.txt", failingScript)

	status, stdout, stderr := rlab(t, "trace", files[0])

	require.Equal(t, 0, status, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	for _, l := range lines {
		assert.Regexp(t, traceLine, l)
	}
	assert.True(t, strings.HasPrefix(lines[0], "#1 "), "the world's start comes first")
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "#223 "), "65 steps of start, 2 of create, 156 of stabilize")

	status, stdout, stderr = rlab(t, "trace", files[1])
	assert.Equal(t, 1, status)
	assert.Contains(t, stdout, "#223 ", "the trace up to the failure")
	assert.Contains(t, stderr, ":3:1: expect pods -l app=web count=4: found 3")
}

func TestRunUsageErrors(t *testing.T) {
	files := writeScripts(t, "web.txt", webScript)
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantStderr string
	}{
		{"run without files", []string{"run"}, 2, "rlab run: no script files given\nusage: rlab run [--seed=N] [--trace] FILE..."},
		{"trace without files", []string{"trace"}, 2, "rlab trace: no script files given\nusage: rlab trace [--seed=N] FILE..."},
		{"a seed that is not a number", []string{"run", "--seed=x", files[0]}, 2, `invalid value "x" for flag -seed`},
		{"a flag value of the wrong type", []string{"run", "--trace=yes", files[0]}, 2, `invalid boolean value "yes" for -trace`},
		{"trace has no --trace", []string{"trace", "--trace", files[0]}, 2, "flag provided but not defined: -trace"},
		{"a file that cannot be read", []string{"run", filepath.Join(t.TempDir(), "none.txt")}, 1, "none.txt: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := rlab(t, tt.args...)

			assert.Equal(t, tt.wantStatus, status)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.wantStderr)
		})
	}
}

func TestHelpForRunAndTheScenarioLanguage(t *testing.T) {
	status, stdout, _ := rlab(t, "help", "run")
	assert.Equal(t, 0, status)
	assert.Contains(t, stdout, "usage: rlab run [--seed=N] [--trace] FILE...\n")
	assert.Contains(t, stdout, "-trace\n")

	status, _, stderr := rlab(t, "run", "--help")
	assert.Equal(t, 0, status, "asking for help is not an error")
	assert.Contains(t, stderr, "usage: rlab run")

	status, stdout, _ = rlab(t, "help", "scenario", "scale")
	assert.Equal(t, 0, status)
	assert.True(t, strings.HasPrefix(stdout, "scale rs/NAME --replicas=N"), stdout)

	status, _, stderr = rlab(t, "help", "scenario", "scael")
	assert.Equal(t, 2, status)
	assert.Equal(t, "rlab help scenario: unknown help topic \"scael\"; did you mean \"scale\"?\n", stderr)
}
