package siteserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

// nodeOrSkip returns node's path, or skips the test where there is none,
// except in CI, which must run it.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if v := os.Getenv("CI"); v != "" && v != "0" && v != "false" {
			t.Fatalf("node is required in CI to run the joined modules: %v", err)
		}
		t.Skipf("node not found (%v); install Node.js to run the joined modules", err)
	}
	return node
}

// runJoined joins the modules in files from entries and runs the result
// under node, returning what it printed.
func runJoined(t *testing.T, files map[string]string, entries ...string) string {
	t.Helper()
	node := nodeOrSkip(t)
	dir := writeModules(t, files)
	js, _, err := siteserver.JoinModules(os.DirFS(dir), entries)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "joined.js")
	require.NoError(t, os.WriteFile(path, js, 0o644))
	out, err := exec.Command(node, path).CombinedOutput()
	require.NoError(t, err, "node ran the joined script:\n%s\n%s", out, js)
	return string(out)
}

func TestJoinedModulesRunInImportOrderWithTheirOwnScope(t *testing.T) {
	out := runJoined(t, map[string]string{
		// Each module has a top-level name "secret": a module's scope
		// keeps it to itself, so none collides.
		"a.js": "const secret = \"a\";\nexport const greeting = `hi ${secret}`;\nconsole.log(\"a runs\");\n",
		"b.js": "import {greeting as hello} from \"./a.js\";\nconst secret = \"b\";\nexport function shout() {\n\treturn hello.toUpperCase() + \"!\" + secret;\n}\nexport {secret as bSecret};\n",
		"main.js": "import {shout, bSecret} from \"./b.js\";\n" +
			"import {greeting} from \"./a.js\";\n" +
			"const secret = \"main\";\n" +
			"console.log(shout(), bSecret, greeting, secret, typeof hello);\n",
	}, "main.js")
	assert.Equal(t, "a runs\nHI A!b b hi a main undefined\n", out)
}

func TestTheJoinerLeavesImportAndExportInTextAlone(t *testing.T) {
	// The words only count at the start of a top-level statement: not in
	// a template literal's lines, a comment, a string, a regexp, or a
	// block.
	out := runJoined(t, map[string]string{
		"text.js": "export const lines = `first\nexport const not = 1;\nimport {x} from \"./x.js\";\n${\"}\"}`;\n" +
			"/*\nexport let hidden;\n*/\n" +
			"export const re = /[/]import\\/ \"`/g;\n" +
			"export function f() {\n\tconst o = {\nexport: 1, import: 2};\n\treturn o.export + o.import;\n}\n",
		"main.js": "import {lines, re, f} from \"./text.js\";\nconsole.log(JSON.stringify(lines), re.source, f());\n",
	}, "main.js")
	assert.Equal(t, `"first\nexport const not = 1;\nimport {x} from \"./x.js\";\n}" [/]import\/ "`+"`"+` 3`+"\n", out)
}

func TestTheJoinerRefusesWhatItCannotJoin(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a cycle", map[string]string{
			"main.js": "import {b} from \"./b.js\";\n",
			"b.js":    "import {c} from \"./c.js\";\nexport const b = 1;\n",
			"c.js":    "import {b} from \"./b.js\";\nexport const c = 2;\n",
		}, "cycle: main.js → b.js → c.js → b.js"},
		{"export let", map[string]string{"main.js": "export let n = 1;\n"}, "main.js:1: export let is not supported"},
		{"a default export", map[string]string{"main.js": "\nexport default 1;\n"}, "main.js:2: export what?"},
		{"a bare specifier", map[string]string{"main.js": "import {x} from \"lodash\";\n"}, `"lodash" is not of the form "./file.js"`},
		{"a missing module", map[string]string{"main.js": "import {x} from \"./gone.js\";\n"}, "main.js imports gone.js"},
		{"a name exported twice", map[string]string{"main.js": "export const a = 1;\nexport {a};\n"}, "main.js:2: a is exported twice"},
		{"an unclosed template", map[string]string{"main.js": "const s = `abc;\n"}, "never closed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := siteserver.JoinModules(os.DirFS(writeModules(t, c.files)), []string{"main.js"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestThePageJoinsAsTheScriptsItLoads(t *testing.T) {
	// Every module of the page is reached from the scripts' entries, each
	// in one script only, and the joined scripts hold no import or export
	// statement (a line of them that began with either would be a syntax
	// error in a classic script).
	texts, perScript, err := siteserver.JoinScripts(os.DirFS(repoSite), siteserver.PageScripts)
	require.NoError(t, err)
	require.Len(t, perScript, 2)
	names := append(slices.Clone(perScript[0]), perScript[1]...)
	entries, err := os.ReadDir(repoSite)
	require.NoError(t, err)
	var modules []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case !strings.HasSuffix(name, ".js"), name == siteserver.StartScript, name == siteserver.PageScript, name == "wasm_exec.js",
			name == "worker.js", name == "export-worker.js", name == "sw.js", // built, or run in workers of their own
			name == "bridge-types.js": // types only, which tsc reads and the page never runs
			continue
		}
		modules = append(modules, name)
	}
	assert.ElementsMatch(t, modules, names, "the scripts hold every module of site/, each once")
	// The first script must stay small, for it is what arrives before
	// main.wasm's download can start: only what starting the download,
	// drawing its progress and choosing the language need.
	assert.Equal(t, []string{"download.js", "messages-en.js", "i18n.js", "loading.js", "early.js", "locale.js"}, perScript[0])
	assert.Equal(t, "offline.js", names[len(names)-1])
	for i, js := range texts {
		for n, line := range strings.Split(string(js), "\n") {
			assert.False(t, strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "export "), "%s:%d: %s", siteserver.PageScripts[i].Name, n+1, line)
		}
	}
}
