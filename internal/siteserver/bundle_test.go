package siteserver_test

import (
	"os"
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

// theEntries are PageEntries, each importing what the page's own import:
// early.js the engine, app.js the rest.
var theEntries = map[string]string{
	"engine.js":  "export class RlabEngine {}\n",
	"early.js":   "import {RlabEngine} from \"./engine.js\";\nglobalThis.order = [RlabEngine.name];\n",
	"locale.js":  "globalThis.order.push(\"locale\");\n",
	"util.js":    "export function plural(n, word) {\n\treturn `${n} ${n === 1 ? word : word + \"s\"}`;\n}\n",
	"app.js":     "import {plural} from \"./util.js\";\nimport {RlabEngine} from \"./engine.js\";\nglobalThis.order.push(plural(2, \"pod\"), RlabEngine.name);\n",
	"offline.js": "globalThis.order.push(\"offline\");",
}

func TestBundleJoinsTheModulesAfterWhatTheyImport(t *testing.T) {
	dir := writeModules(t, theEntries)

	wrote, err := siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.True(t, wrote)
	got, err := os.ReadFile(filepath.Join(dir, siteserver.BundleName))
	require.NoError(t, err)
	last := -1
	for _, name := range []string{"engine.js", "early.js", "locale.js", "util.js", "app.js", "offline.js"} {
		i := strings.Index(string(got), "// ---- "+name+" ----\n")
		require.Greater(t, i, last, "%s runs after the modules before it, under its own header", name)
		last = i
	}
	assert.Equal(t, 1, strings.Count(string(got), "// ---- engine.js ----"), "a module imported twice runs once")
	assert.NotContains(t, string(got), "import ", "no import statement is left")
	assert.NotContains(t, string(got), "export ", "no export keyword is left")
	assert.True(t, strings.HasSuffix(string(got), "})();\n"))

	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.False(t, wrote, "a bundle newer than its modules is left alone")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "util.js"), later, later))
	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.True(t, wrote, "an edited module, even one no entry is, rebuilds the bundle")
}

func TestBundleNamesAMissingScript(t *testing.T) {
	_, err := siteserver.Bundle(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "early.js")
}

func TestTheSiteBundlesEveryScriptIndexLoads(t *testing.T) {
	// The page's sources in the repository must hold every bundled script,
	// and index.html must load the bundle rather than the scripts.
	_, err := siteserver.BundleScripts(os.DirFS(repoSite))
	require.NoError(t, err)
	html := readRepoSite(t, "index.html")
	assert.Contains(t, html, `<script src="`+siteserver.BundleName+`" defer></script>`)
	for _, name := range siteserver.PageEntries {
		assert.NotContains(t, html, `src="`+name+`"`, "index.html loads %s through the bundle", name)
	}
}
