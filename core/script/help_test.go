package script

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./core/script -update to create it")
	assert.Equal(t, string(want), got, "help changed: run go test ./core/script -update and read the diff")
}

// TestHelpGolden pins every help page: the overview, each command, and the
// topics. Regenerate with -update and review the diff.
func TestHelpGolden(t *testing.T) {
	var b strings.Builder
	topics := []string{"", "kinds", "fields", "selectors"}
	for _, s := range table {
		topics = append(topics, s.Name)
	}
	for _, topic := range topics {
		text, err := HelpText(topic)
		require.NoError(t, err, topic)
		b.WriteString("=== help " + topic + "\n" + text + "\n")
	}
	golden(t, "help.golden", b.String())
}

func TestHelpForEveryCommand(t *testing.T) {
	for _, s := range table {
		text, err := HelpText(s.Name)
		require.NoError(t, err, s.Name)
		assert.Contains(t, text, strings.Join(UsageLines(s.Usage), "\n")+"\n\n", "%s: help shows the usage", s.Name)
		for _, f := range s.Flags {
			assert.Contains(t, text, f.Spelling(), "%s: help shows --%s", s.Name, f.Name)
		}
		for _, a := range s.Args {
			assert.Contains(t, text, a.Name, s.Name)
		}
		for _, e := range s.Examples {
			assert.Contains(t, text, "  "+e+"\n", s.Name)
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "  ") && !strings.HasPrefix(strings.TrimSpace(line), s.words[0]) {
				assert.LessOrEqual(t, len(line), helpWidth, "%s: %q is too wide", s.Name, line)
			}
		}
	}
}

func TestHelpOverviewListsEveryCommand(t *testing.T) {
	text, err := HelpText("")
	require.NoError(t, err)
	flat := strings.Join(strings.Fields(text), " ")
	for _, s := range table {
		assert.Contains(t, text, "  "+s.Name+" ", s.Name)
		assert.Contains(t, flat, s.Summary, s.Name)
	}
	for _, line := range strings.Split(text, "\n") {
		assert.LessOrEqual(t, len(line), helpWidth, line)
	}
	for _, g := range Groups {
		assert.Contains(t, text, "\n"+string(g)+":\n")
	}
}

func TestHelpFamilies(t *testing.T) {
	text, err := HelpText("expect")
	require.NoError(t, err)
	for _, s := range table {
		if s.words[0] == "expect" {
			assert.Contains(t, text, UsageLines(s.Usage)[0]+"\n", "help expect explains %s", s.Name)
		}
	}
	text, err = HelpText("create")
	require.NoError(t, err)
	assert.Contains(t, text, "create node NAME")
	assert.Contains(t, text, "create pod NAME")

	text, err = HelpText("config")
	require.NoError(t, err)
	for _, k := range configTable {
		assert.Contains(t, text, "  "+k.Key+" ", "help config lists the keys")
	}
	text, err = HelpText("cache")
	require.NoError(t, err)
	assert.NotContains(t, text, "expect cache", "help cache is the reading command only")
}

func TestUsageLines(t *testing.T) {
	assert.Equal(t, []string{"delete pod/NAME", "delete rs/NAME [--cascade=background|orphan]"},
		UsageLines("delete pod/NAME | delete rs/NAME [--cascade=background|orphan]"))
	assert.Equal(t, []string{"fail VERB (--count=N | --always)"}, UsageLines("fail VERB (--count=N | --always)"))
	assert.Equal(t, []string{"heal [all | watch [KIND]]"}, UsageLines("heal [all | watch [KIND]]"))
}

func TestHelpUnknownTopic(t *testing.T) {
	_, err := HelpText("creat rs")
	assert.EqualError(t, err, `unknown help topic "creat rs"; did you mean "create rs"?`)
	_, err = HelpText("zzz")
	assert.EqualError(t, err, `unknown help topic "zzz"; "help" lists the commands`)
}

// TestEveryHelpTopicTheParserAcceptsHasText ties parseHelp to HelpText.
func TestEveryHelpTopicTheParserAcceptsHasText(t *testing.T) {
	var lines []string
	for _, w := range firstWords() {
		lines = append(lines, "help "+w)
	}
	for _, s := range table {
		lines = append(lines, "help "+s.Name)
	}
	for _, topic := range helpTopics {
		lines = append(lines, "help "+topic)
	}
	for _, line := range lines {
		c := parseOK(t, line)
		_, err := HelpText(c.(*Help).Topic)
		assert.NoError(t, err, line)
	}
}
