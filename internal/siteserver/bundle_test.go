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

func TestBundleJoinsThePageScriptsInOrder(t *testing.T) {
	dir := t.TempDir()
	for i, name := range siteserver.PageScripts {
		body := "// " + name + "\n\"use strict\";\n(() => { globalThis.order = (globalThis.order || []).concat(" + string(rune('0'+i)) + "); })();"
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}

	wrote, err := siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.True(t, wrote)
	got, err := os.ReadFile(filepath.Join(dir, siteserver.BundleName))
	require.NoError(t, err)
	last := -1
	for _, name := range siteserver.PageScripts {
		i := strings.Index(string(got), "// ---- "+name+" ----\n// "+name+"\n")
		require.Greater(t, i, last, "%s comes after the scripts before it, under its own header", name)
		last = i
	}
	assert.True(t, strings.HasSuffix(string(got), ";\n"), "a script without a final newline gets one")

	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.False(t, wrote, "a bundle newer than its scripts is left alone")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "app.js"), later, later))
	wrote, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	assert.True(t, wrote, "an edited script rebuilds the bundle")
}

func TestBundleNamesAMissingScript(t *testing.T) {
	_, err := siteserver.Bundle(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "engine.js")
}

func TestTheSiteBundlesEveryScriptIndexLoads(t *testing.T) {
	// The page's sources in the repository must hold every bundled script,
	// and index.html must load the bundle rather than the scripts.
	_, err := siteserver.BundleScripts(os.DirFS(repoSite))
	require.NoError(t, err)
	html := readRepoSite(t, "index.html")
	assert.Contains(t, html, `<script src="`+siteserver.BundleName+`" defer></script>`)
	for _, name := range siteserver.PageScripts {
		assert.NotContains(t, html, `src="`+name+`"`, "index.html loads %s through the bundle", name)
	}
}
