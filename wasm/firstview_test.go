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

// updateFirstView rewrites site/first-view.json: go test ./wasm -run
// TestFirstViewIsCurrent -update.
var updateFirstView = flag.Bool("update", false, "rewrite site/first-view.json from the engine")

// firstViewPath is the page's prerendered first world.
var firstViewPath = filepath.Join("..", "site", "first-view.json")

// The page's first world, as site/app.js asks for it: the default sandbox,
// its first command, and a view with the page's caps. These must match
// app.js's defaultCommand and viewArgs; the page checks the file's copies
// and ignores a file that does not match.
const firstViewCommand = "create rs web --replicas=3 --selector=app=web"

var firstViewArgs = ViewArgs{Agenda: 8, Steps: 1, Pods: 1000, Entries: 200}

// firstView computes site/first-view.json: the answers the page's first three
// requests get from a new bridge, load, run and view, exactly as the page
// would receive them.
func firstView(t *testing.T) []byte {
	b := NewBridge()
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
	return append(out, '\n')
}

// TestFirstViewIsCurrent keeps site/first-view.json equal to what the engine
// computes. The page draws that file while main.wasm is still loading, so
// that it is interactive at once, and then checks it against the engine's own
// answers; a stale file would make it draw a world and then replace it.
func TestFirstViewIsCurrent(t *testing.T) {
	want := firstView(t)
	if *updateFirstView {
		require.NoError(t, os.WriteFile(firstViewPath, want, 0o644))
	}
	got, err := os.ReadFile(firstViewPath)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got),
		"site/first-view.json is not what the engine computes; run: go test ./wasm -run TestFirstViewIsCurrent -update")
}
