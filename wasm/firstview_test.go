package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// updateFirstView rewrites the first world in site/index.html: go test
// ./wasm -run TestFirstViewIsCurrent -update.
var updateFirstView = flag.Bool("update", false, "rewrite the first world in site/index.html from the engine")

// indexPath is the page, which carries its prerendered first world in a
// JSON data block between firstViewOpen and firstViewClose.
var indexPath = filepath.Join("..", "site", "index.html")

const (
	firstViewOpen  = `<script type="application/json" id="first-view">`
	firstViewClose = `</script>`
)

// The page's first world, as site/app.js asks for it: the default sandbox,
// its first command, and a view with the page's caps. These must match
// app.js's defaultCommand and viewArgs; the page checks the file's copies
// and ignores a file that does not match.
const firstViewCommand = "create rs web --replicas=3 --selector=app=web"

var firstViewArgs = ViewArgs{Agenda: 8, Steps: 1, Pods: 1000, PodsPerGroup: 60, Entries: 200}

// firstView computes the page's first world: the answers the page's first
// three requests get from a new bridge, load, run and view, exactly as the
// page would receive them. encoding/json escapes <, > and & in strings, so
// the text can sit inside a <script> element: nothing in it can close it.
func firstView(t *testing.T) []byte {
	b := newBridge(t)
	answer := func(op string, args any) json.RawMessage {
		t.Helper()
		a := decodeAnswer(t, b.Handle(encodeRequest(t, op, args)))
		require.Empty(t, a.Error, op)
		return a.Result
	}
	doc := struct {
		Command  string          `json:"command"`
		ViewArgs ViewArgs        `json:"viewArgs"`
		Load     json.RawMessage `json:"load"`
		Run      json.RawMessage `json:"run"`
		View     json.RawMessage `json:"view"`
	}{Command: firstViewCommand, ViewArgs: firstViewArgs}
	doc.Load = answer("load", LoadArgs{})
	doc.Run = answer("run", RunArgs{Line: firstViewCommand})
	doc.View = answer("view", firstViewArgs)
	out, err := json.Marshal(doc)
	require.NoError(t, err)
	require.NotContains(t, string(out), "<", "the first world must not hold a raw <: it sits inside a <script> element")
	return out
}

// splitFirstView cuts page around its first-world block: before it (up to
// and including firstViewOpen), the JSON, and after it.
func splitFirstView(t *testing.T, page []byte) (before, view, after []byte) {
	t.Helper()
	start := bytes.Index(page, []byte(firstViewOpen))
	require.GreaterOrEqual(t, start, 0, "site/index.html has no %s block", firstViewOpen)
	start += len(firstViewOpen)
	end := bytes.Index(page[start:], []byte(firstViewClose))
	require.GreaterOrEqual(t, end, 0, "site/index.html's first-world block is not closed")
	end += start
	return page[:start], page[start:end], page[end:]
}

// TestFirstViewIsCurrent keeps the first world in site/index.html equal to
// what the engine computes. The page draws it while main.wasm is still
// loading, so that it is interactive at once, and then checks it against the
// engine's own answers; a stale copy would make it draw a world and then
// replace it.
func TestFirstViewIsCurrent(t *testing.T) {
	want := firstView(t)
	page, err := os.ReadFile(indexPath)
	require.NoError(t, err)
	before, got, after := splitFirstView(t, page)
	if *updateFirstView && !bytes.Equal(want, got) {
		updated := append(append(append([]byte{}, before...), want...), after...)
		require.NoError(t, os.WriteFile(indexPath, updated, 0o644))
		got = want
	}
	require.True(t, bytes.Equal(want, got),
		"the first world in site/index.html is not what the engine computes; run: go test ./wasm -run TestFirstViewIsCurrent -update")
}
