package script

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkParse is the property every input must keep: Parse never panics, and
// it either parses, with every command's position and text inside the input,
// or fails with ParseErrors whose positions are inside the input. Completion
// and help never panic on it either.
func checkParse(t *testing.T, src string) {
	t.Helper()
	lines := splitLines(src)
	script, err := Parse(src, "fuzz")
	if err != nil {
		require.Nil(t, script)
		var list ErrorList
		require.True(t, errors.As(err, &list), "Parse's error is an ErrorList: %T %v", err, err)
		require.NotEmpty(t, list)
		require.LessOrEqual(t, len(list), maxErrors)
		last := 0
		for _, pe := range list {
			require.Equal(t, "fuzz", pe.File)
			require.GreaterOrEqual(t, pe.Line, 1, "%q: %v", src, pe)
			require.LessOrEqual(t, pe.Line, len(lines), "%q: %v", src, pe)
			require.Greater(t, pe.Line, last, "one error per line, in order: %q", src)
			last = pe.Line
			require.GreaterOrEqual(t, pe.Col, 1, "%q: %v", src, pe)
			require.LessOrEqual(t, pe.Col, len(lines[pe.Line-1])+1, "%q: %v", src, pe)
			require.NotEmpty(t, pe.Msg)
			require.True(t, strings.HasPrefix(pe.Error(), "fuzz:"))
		}
		require.NotNil(t, FirstError(err))
	} else {
		for _, c := range script.Commands {
			s := c.Src()
			require.GreaterOrEqual(t, s.Pos.Line, 1)
			require.LessOrEqual(t, s.Pos.Line, len(lines))
			line := lines[s.Pos.Line-1]
			require.GreaterOrEqual(t, s.Pos.Col, 1)
			require.True(t, strings.HasPrefix(line[s.Pos.Col-1:], s.Text), "%q at %s in %q", s.Text, s.Pos, line)
			require.NotEmpty(t, s.Name)

			// The text as written parses again, to the same command.
			again, err := ParseLine(s.Text)
			require.NoError(t, err, s.Text)
			require.IsType(t, c, again, s.Text)
			require.Equal(t, s.Name, again.Src().Name)

			if h, ok := c.(*Help); ok {
				_, err := HelpText(h.Topic)
				require.NoError(t, err, s.Text)
			}
		}
	}
	for i, line := range lines {
		if i == 100 {
			break // the first lines show what the rest would
		}
		_, _ = ParseLine(line)
		for _, cursor := range []int{0, len(line) / 2, len(line)} {
			comp := CompleteAt(line, cursor)
			require.LessOrEqual(t, comp.Start, comp.End)
			require.LessOrEqual(t, comp.End, len(line))
			// With a world to name things from, the span is the same: the
			// names only add candidates.
			named := fuzzCompletionWorld(t).Complete(line, cursor)
			require.Equal(t, comp.Start, named.Start)
			require.Equal(t, comp.End, named.End)
			require.GreaterOrEqual(t, len(named.Candidates), len(comp.Candidates))
		}
	}
}

// fuzzWorld is the world checkParse completes names from, built once: a
// session only reads it when it completes.
var fuzzWorld *Session

func fuzzCompletionWorld(t *testing.T) *Session {
	if fuzzWorld == nil {
		fuzzWorld = completionWorld(t).Session
	}
	return fuzzWorld
}

// fuzzSeeds are inputs worth starting from: every example in the table, and
// lines that hit the error paths.
func fuzzSeeds() []string {
	var seeds []string
	for _, s := range table {
		seeds = append(seeds, s.Examples...)
	}
	return append(seeds,
		"seed 4\ncreate rs web --replicas=2 --selector=app=web\nstabilize\nexpect rs/web status.readyReplicas=2\n",
		"step\nseed 3",
		`get pods -l "unterminated`,
		"create rs web --replicas=3 -l tier in (a,b)",
		"label pods -l app=web, tier=x k=v",
		"expect rs/web status.readyReplicas = 3",
		"scale rs/web \"--replicas=x\"",
		"delete rs/web --cascade=foreground",
		"config workers 3",
		"expect pods -l app=web count=3 owner=rs/",
		"get pods -l x=(",
		"-",
		"--",
		"help help help",
		"expect cache",
		"expect cache pods",
		"heal update",
		"\r\n\r\n# only comments\n",
		"label pod/x \"\"",
		"label pod/x =",
		"label pod/x -",
		"expect queue rs contains",
		"expect queue rs contains a/b/c",
		"annotate pod/x a==b",
		"get pods -l",
	)
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkParse(t, src)
	})
}

// vocabulary lists the words random scripts are made of: every word the table
// knows, plus words that are almost right and characters that matter to the
// lexer and the selector grammar.
func vocabulary() []string {
	words := []string{`"`, `""`, `"a b"`, "#", "=", "!=", "<", ">=", "-", "--", "-l", "-n", "-o", "k-", "k=v", "k=", "=v",
		"a=b,c=d", "tier in (a,b)", `"tier in (a,b)"`, "(a,b)", "in", "notin", "!canary", "x>1", "0", "1", "-1", "3", "99999999999999999999",
		"1s", "5", "5sec", "-2s", "0s", "web", "Web", "web-1", "default/web", "a/b/c", "rs/", "/web", "\t", "é", "\x00",
		"true", "false", "True", "none", "count=3", "count>=1", "len=0", "contains", "add=1", "del=0", "satisfied=true",
		"reason=FailedCreate", "object=rs/web", "type=Warning", "total=2", "verb=create", "resource=pods/binding",
		"ReplicaFailure=True", "Ready=absent", "phase=Running", "owner=rs/web", "metadata.labels.app=web", "status.ready=1"}
	for _, s := range table {
		words = append(words, s.words...)
		for _, f := range s.Flags {
			words = append(words, "--"+f.Name, f.Spelling())
			if f.Short != "" {
				words = append(words, "-"+f.Short)
			}
			for _, v := range f.Values {
				words = append(words, v, "--"+f.Name+"="+v)
			}
		}
		for _, a := range s.Args {
			words = append(words, a.Values...)
		}
		for _, e := range s.Examples {
			sl, ok, _ := lexLine(e, 1)
			if ok {
				for _, tok := range sl.Tokens {
					words = append(words, tok.Text)
				}
			}
		}
	}
	for _, k := range kindTable {
		for _, n := range k.Names {
			words = append(words, n, n+"/web", n+"/status")
		}
	}
	for _, f := range fieldTable {
		words = append(words, f.path, f.path+"=1", f.path+"app=web")
	}
	for _, k := range configTable {
		words = append(words, k.Key, k.Key+"="+k.Default, k.Key+"=x")
	}
	return words
}

// randomScript builds a script of random lines from the vocabulary, or, one
// time in four, a mutated example.
func randomScript(rng *rand.Rand, vocab, examples []string) string {
	var lines []string
	for range 1 + rng.IntN(4) {
		if rng.IntN(4) == 0 {
			lines = append(lines, mutate(rng, examples[rng.IntN(len(examples))]))
			continue
		}
		var words []string
		if rng.IntN(2) == 0 {
			// Start with a real command's words, so the parse goes deep.
			words = append(words, table[rng.IntN(len(table))].words...)
		}
		for range rng.IntN(7) {
			w := vocab[rng.IntN(len(vocab))]
			if strings.ContainsAny(w, " \t") && rng.IntN(2) == 0 {
				w = `"` + w + `"`
			}
			words = append(words, w)
		}
		sep := " "
		if rng.IntN(8) == 0 {
			sep = "\t"
		}
		lines = append(lines, strings.Join(words, sep))
	}
	return strings.Join(lines, "\n")
}

// mutate changes a line a little: drops, doubles or swaps a word, or inserts,
// deletes or replaces a byte.
func mutate(rng *rand.Rand, line string) string {
	words := strings.Split(line, " ")
	i := rng.IntN(len(words))
	switch rng.IntN(6) {
	case 0:
		words = append(words[:i], words[i+1:]...)
	case 1:
		words = append(words[:i+1], words[i:]...)
	case 2:
		j := rng.IntN(len(words))
		words[i], words[j] = words[j], words[i]
	default:
		b := []byte(line)
		pos := rng.IntN(len(b) + 1)
		c := " =-\"#/,()!<>aZ9"[rng.IntN(15)]
		switch rng.IntN(3) {
		case 0:
			b = append(b[:pos], append([]byte{c}, b[pos:]...)...)
		case 1:
			if pos < len(b) {
				b = append(b[:pos], b[pos+1:]...)
			}
		default:
			if pos < len(b) {
				b[pos] = c
			}
		}
		return string(b)
	}
	return strings.Join(words, " ")
}

// TestParseRandomScripts runs the fuzz property on thousands of generated
// scripts, the same ones every run: a short fuzz that normal go test runs.
func TestParseRandomScripts(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	vocab := vocabulary()
	var examples []string
	for _, s := range table {
		examples = append(examples, s.Examples...)
	}
	n := 4000
	if testing.Short() {
		n = 500
	}
	parsed := 0
	for range n {
		src := randomScript(rng, vocab, examples)
		checkParse(t, src)
		if _, err := Parse(src, ""); err == nil {
			parsed++
		}
	}
	t.Logf("%d of %d random scripts parsed", parsed, n)
	require.Greater(t, parsed, n/50, "the generator should reach the success paths too")
}

// TestParseRandomBytes runs the property on random bytes.
func TestParseRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		b := make([]byte, rng.IntN(60))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				b[i] = " \t\n\"#=-/"[rng.IntN(8)]
			}
		}
		checkParse(t, string(b))
	}
}
