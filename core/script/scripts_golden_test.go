package script

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/loop"
	"github.com/reconcilelab/rlab/core/sim"
)

// The golden scripts in testdata/*.txt are scenarios in a small datadriven
// format, after etcd-io/raft's and CockroachDB's: commands, then a line
// "----", then what those commands print, up to a blank line.
//
//	# Comments and blank lines before commands are kept and ignored.
//	seed 4
//	create rs web --replicas=2 --selector=app=web
//	----
//	replicaset.apps/web created
//
//	# trace: on
//	until sync rs/web
//	----
//	#66   t=0.101s  apiserver  ...
//
// Each file is one session: its commands run in order against one world.
// A block's output is everything its commands print, then, for a command
// that fails, "error: " and the error (with the file's line and column), or
// "ok" when they print nothing; a failing command does not stop the file.
// Output that holds blank lines is written between two "----" lines:
//
//	describe rs/web
//	----
//	----
//	Name: ...
//
//	Events: ...
//	----
//	----
//
// A comment "# trace: on" (or "# trace: off") turns the printing of every
// step's trace line on (off) from there on.
//
// Regenerate with go test ./core/script -run TestGoldenScripts -update, and
// read the diff before accepting it.

// goldenBlock is one block of a golden script: the lines before its "----"
// as written, and the output written after it.
type goldenBlock struct {
	// head holds the lines from the end of the previous block up to, not
	// including, the "----"; first is the line number of head[0].
	head  []string
	first int
	want  string
}

// parseGolden splits a golden script into blocks; trailing lines with no
// "----" after them come back as tail.
func parseGolden(t *testing.T, name, text string) (blocks []goldenBlock, tail []string) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	i := 0
	for i < len(lines) {
		b := goldenBlock{first: i + 1}
		for i < len(lines) && lines[i] != "----" {
			b.head = append(b.head, lines[i])
			i++
		}
		if i == len(lines) {
			return blocks, b.head
		}
		i++ // the ----
		var out []string
		if i < len(lines) && lines[i] == "----" {
			i++
			for i < len(lines) && !(lines[i] == "----" && i+1 < len(lines) && lines[i+1] == "----") {
				out = append(out, lines[i])
				i++
			}
			require.Less(t, i, len(lines), "%s: unterminated ----/---- output of the block at line %d", name, b.first)
			i += 2
		} else {
			for i < len(lines) && lines[i] != "" {
				out = append(out, lines[i])
				i++
			}
		}
		if i < len(lines) && lines[i] == "" {
			i++
		}
		b.want = strings.Join(out, "\n")
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// runGoldenBlock runs the commands of a block and returns what they printed.
func runGoldenBlock(s *Session, out *strings.Builder, name string, b goldenBlock) string {
	out.Reset()
	for i, line := range b.head {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "# trace: on":
			s.SetTrace(true)
			continue
		case trimmed == "# trace: off":
			s.SetTrace(false)
			continue
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			continue
		}
		lineNo := b.first + i
		script, err := Parse(strings.Repeat("\n", lineNo-1)+line, name)
		if err != nil {
			out.WriteString("parse error: " + err.Error() + "\n")
			continue
		}
		for _, c := range script.Commands {
			if err := s.Run(c); err != nil {
				out.WriteString("error: " + err.Error() + "\n")
			}
		}
	}
	got := strings.TrimSuffix(out.String(), "\n")
	if got == "" {
		got = "ok"
	}
	return got
}

// formatGolden writes the blocks back with their new outputs.
func formatGolden(blocks []goldenBlock, outputs []string, tail []string) string {
	var b strings.Builder
	for i, blk := range blocks {
		for _, l := range blk.head {
			b.WriteString(l + "\n")
		}
		b.WriteString("----\n")
		if strings.Contains(outputs[i], "\n\n") || strings.HasPrefix(outputs[i], "\n") {
			b.WriteString("----\n" + outputs[i] + "\n----\n----\n")
		} else {
			b.WriteString(outputs[i] + "\n")
		}
		if i < len(blocks)-1 || len(tail) > 0 {
			b.WriteString("\n")
		}
	}
	for _, l := range tail {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestGoldenScripts runs every testdata/*.txt script and compares what each
// block prints with what the file says.
func TestGoldenScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "the golden scripts live in testdata/*.txt")
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".txt"), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			blocks, tail := parseGolden(t, name, string(raw))
			var out strings.Builder
			// Every step must have its place on the page's picture of
			// the loop (core/loop): the golden scripts are the widest
			// run of steps there is.
			var unplaced []string
			var s *Session
			stored := &storedObjects{seen: map[api.Object]bool{}}
			s = NewSession(Options{Out: &out, SnapshotEvery: -1, OnStep: func(step sim.StepResult) {
				if _, ok := loop.Of(step); !ok {
					unplaced = append(unplaced, step.TraceLine())
				}
				stored.see(s.World().Server.Store())
			}})
			outputs := make([]string, len(blocks))
			for i, b := range blocks {
				outputs[i] = runGoldenBlock(s, &out, name, b)
			}
			assert.Empty(t, unplaced, "%s: steps with no place on the loop: give their actor and function a rule in core/loop's rules", name)
			stored.verify(t, name)
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(formatGolden(blocks, outputs, tail)), 0o644))
				return
			}
			for i, b := range blocks {
				assert.Equal(t, b.want, outputs[i], "%s: the block at line %s printed something else; "+
					"run go test ./core/script -run TestGoldenScripts -update and read the diff", name, strconv.Itoa(b.first))
			}
			assert.Equal(t, string(raw), formatGolden(blocks, outputs, tail), "%s is not in canonical form", name)
		})
	}
}

// storedObjects remembers a deep copy of every object it has seen stored,
// by pointer: the golden scripts, the widest run of steps there is, check
// with it that no stored object ever changes. The store shares what it
// stores with what it was sent (a pod's labels, spec and owner references,
// apistore's copyForCreate), with the objects it stored before (a status
// update's shallow copy) and with every reader, so a component that changed
// what it sent, or what it read, would change the store's history under it.
type storedObjects struct {
	seen   map[api.Object]bool
	copies []storedCopy
}

// storedCopy is a stored object and a deep copy of it as it was stored.
type storedCopy struct{ obj, was api.Object }

// see remembers the objects stored now that it has not seen yet.
func (g *storedObjects) see(st *apistore.Store) {
	for _, k := range api.Kinds {
		for _, obj := range st.Objects(k, "") {
			if !g.seen[obj] {
				g.seen[obj] = true
				g.copies = append(g.copies, storedCopy{obj, obj.DeepCopyObject()})
			}
		}
	}
}

// verify fails for every object seen that is no longer as it was stored.
func (g *storedObjects) verify(t *testing.T, script string) {
	t.Helper()
	changed := 0
	for _, c := range g.copies {
		if !reflect.DeepEqual(c.was, c.obj) {
			changed++
			if changed <= 3 {
				m := c.obj.Meta()
				t.Errorf("%s: the stored %s %s/%s changed after it was stored:\nwas %#v\nnow %#v", script, c.obj.Kind(), m.Namespace, m.Name, c.was, c.obj)
			}
		}
	}
	assert.Zero(t, changed, "%s: stored objects that changed after they were stored", script)
}

func TestGoldenFormatRoundTrips(t *testing.T) {
	text := "# c\nseed 1\n----\nok\n\nget pods\n----\n----\na\n\nb\n----\n----\n\n# tail\n"
	blocks, tail := parseGolden(t, "x", text)
	require.Len(t, blocks, 2)
	assert.Equal(t, []string{"# c", "seed 1"}, blocks[0].head)
	assert.Equal(t, 1, blocks[0].first)
	assert.Equal(t, "ok", blocks[0].want)
	assert.Equal(t, []string{"get pods"}, blocks[1].head)
	assert.Equal(t, 6, blocks[1].first)
	assert.Equal(t, "a\n\nb", blocks[1].want)
	assert.Equal(t, []string{"# tail"}, tail)
	assert.Equal(t, text, formatGolden(blocks, []string{"ok", "a\n\nb"}, tail))
}
