package siteserver_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

// writeModules writes files, by name, into a new directory and returns it.
func writeModules(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return dir
}

// theEntries are the page's scripts' entries (PageScripts), each importing
// what the page's own import: early.js the engine, app.js the engine too and
// the rest.
var theEntries = map[string]string{
	"engine.js":  "export const RlabEngine = {name: \"RlabEngine\", runs: 0};\nRlabEngine.runs++;\n",
	"early.js":   "import {RlabEngine} from \"./engine.js\";\nglobalThis.order = [RlabEngine.name];\n",
	"locale.js":  "globalThis.order.push(\"locale\");\n",
	"util.js":    "export function plural(n, word) {\n\treturn `${n} ${n === 1 ? word : word + \"s\"}`;\n}\n",
	"app.js":     "import {plural} from \"./util.js\";\nimport {RlabEngine} from \"./engine.js\";\nglobalThis.order.push(plural(2, \"pod\"), RlabEngine.name + \" ran \" + RlabEngine.runs);\n",
	"offline.js": "globalThis.order.push(\"offline\");",
}

func TestBundleJoinsTheModulesAfterWhatTheyImport(t *testing.T) {
	dir := writeModules(t, theEntries)

	wrote, err := siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{siteserver.StartScript, siteserver.PageScript}, wrote)
	start, err := os.ReadFile(filepath.Join(dir, siteserver.StartScript))
	require.NoError(t, err)
	page, err := os.ReadFile(filepath.Join(dir, siteserver.PageScript))
	require.NoError(t, err)
	inOrder := func(script []byte, names ...string) {
		t.Helper()
		last := -1
		for _, name := range names {
			i := strings.Index(string(script), "// ---- "+name+" ----\n")
			require.Greater(t, i, last, "%s runs after the modules before it, under its own header", name)
			last = i
		}
	}
	inOrder(start, "engine.js", "early.js", "locale.js")
	inOrder(page, "util.js", "app.js", "offline.js")
	assert.NotContains(t, string(page), "// ---- engine.js ----", "a module the first script ran is not joined again")
	for _, script := range [][]byte{start, page} {
		assert.NotContains(t, string(script), "import ", "no import statement is left")
		assert.NotContains(t, string(script), "export ", "no export keyword is left")
		assert.True(t, strings.HasSuffix(string(script), "})();\n"))
	}

	// Run one after the other, as index.html loads them, the page's
	// script uses the engine module the first one ran.
	assert.Equal(t, `["RlabEngine","locale","2 pods","RlabEngine ran 1","offline"]`+"\n",
		runScripts(t, dir, siteserver.StartScript, siteserver.PageScript))

	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.Empty(t, wrote, "a script newer than its modules is left alone")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "util.js"), later, later))
	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{siteserver.PageScript}, wrote, "an edited module, even one no entry is, rebuilds its script, and only that")
}

func TestThePageScriptAloneSaysWhatItMissed(t *testing.T) {
	// A page whose first script did not load (a failed request, an old
	// cached index.html) must fail at once with the reason, not later with
	// a TypeError in some module.
	dir := writeModules(t, theEntries)
	_, err := siteserver.Bundle(dir)
	require.NoError(t, err)
	out := runScripts(t, dir, siteserver.PageScript)
	assert.Contains(t, out, "engine.js has not run: rlab-start.js, which holds it, must load before this script")
}

// runScripts runs the scripts in dir, one after the other in one global
// scope as a page runs its scripts, under node, and returns what they
// printed, then globalThis.order, or the error that stopped them.
func runScripts(t *testing.T, dir string, names ...string) string {
	t.Helper()
	node := nodeOrSkip(t)
	var prog strings.Builder
	prog.WriteString("const vm = require(\"node:vm\");\nconst fs = require(\"node:fs\");\ntry {\n")
	for _, name := range names {
		fmt.Fprintf(&prog, "\tvm.runInThisContext(fs.readFileSync(%q, \"utf8\"));\n", filepath.Join(dir, name))
	}
	prog.WriteString("\tconsole.log(JSON.stringify(globalThis.order));\n} catch (err) {\n\tconsole.log(String(err));\n}\n")
	path := filepath.Join(t.TempDir(), "run.js")
	require.NoError(t, os.WriteFile(path, []byte(prog.String()), 0o644))
	out, err := exec.Command(node, path).CombinedOutput()
	require.NoError(t, err, "node ran the scripts:\n%s", out)
	return string(out)
}

func TestBundleNamesAMissingScript(t *testing.T) {
	_, err := siteserver.Bundle(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "early.js")
}

func TestTheSiteBundlesEveryScriptIndexLoads(t *testing.T) {
	// The page's sources in the repository must hold every module of its
	// scripts, and index.html must load the scripts, in their order,
	// rather than the modules.
	_, err := siteserver.BundleScripts(os.DirFS(repoSite))
	require.NoError(t, err)
	html := readRepoSite(t, "index.html")
	tags := `<script src="` + siteserver.StartScript + `" defer></script>` + "\n" +
		`<script src="` + siteserver.PageScript + `" defer></script>`
	assert.Contains(t, html, tags)
	for _, sc := range siteserver.PageScripts {
		for _, name := range sc.Entries {
			assert.NotContains(t, html, `src="`+name+`"`, "index.html loads %s through %s", name, sc.Name)
		}
	}
}
