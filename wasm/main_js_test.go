//go:build js && wasm

package main

// These tests run under node (GOOS=js GOARCH=wasm go test, with
// $(go env GOROOT)/lib/wasm on PATH) and call the Go callbacks the way the page
// does: through JavaScript. Each test builds its own fake globalThis, so none
// depends on what node's real global happens to hold.

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hack-pad/safejs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstallPublishesVersionAndPing(t *testing.T) {
	global := newTestObject(t)
	require.NoError(t, install(global))

	rlab := get(t, global, "rlab")
	assert.Equal(t, version, str(t, get(t, rlab, "version")))

	res, err := rlab.Call("ping")
	require.NoError(t, err)
	assert.True(t, get(t, res, "error").IsUndefined(), "a healthy ping carries no error")
	assert.Equal(t, version, str(t, get(t, res, "version")))
}

func TestCallbackTurnsPanicIntoErrorResult(t *testing.T) {
	logged := captureLog(t)
	calls := 0
	fn := newTestFunc(t, callback("explode", func([]safejs.Value) (any, error) {
		calls++
		panic("boom")
	}))

	for range 2 { // the second call proves the program survived the first
		res, err := fn.Invoke()
		require.NoError(t, err, "a Go panic must not reach JavaScript as an exception")
		msg := str(t, get(t, res, "error"))
		assert.Contains(t, msg, "rlab.explode")
		assert.Contains(t, msg, "boom")
	}
	assert.Equal(t, 2, calls)
	require.Len(t, *logged, 2, "each panic is logged for developers")
	assert.Contains(t, (*logged)[0], "rlab.explode: panic: boom")
	assert.Contains(t, (*logged)[0], "main_js_test.go", "the log carries the panic's stack")
}

func TestCallbackPassesHandlerErrorToPage(t *testing.T) {
	fn := newTestFunc(t, callback("step", func([]safejs.Value) (any, error) {
		return nil, assert.AnError
	}))

	res, err := fn.Invoke()
	require.NoError(t, err)
	assert.Equal(t, assert.AnError.Error(), str(t, get(t, res, "error")),
		"an error meant for the page reaches it word for word")
}

func TestCallbackRejectsResultJavaScriptCannotHold(t *testing.T) {
	fn := newTestFunc(t, callback("odd", func([]safejs.Value) (any, error) {
		return struct{ N int }{N: 1}, nil // js.ValueOf panics on structs
	}))

	res, err := fn.Invoke()
	require.NoError(t, err)
	assert.Contains(t, str(t, get(t, res, "error")), "cannot be passed to JavaScript")
}

func TestCallbackPassesArgumentsAndResults(t *testing.T) {
	fn := newTestFunc(t, callback("echo", func(args []safejs.Value) (any, error) {
		if len(args) != 1 {
			return nil, fmt.Errorf("want 1 argument, got %d", len(args))
		}
		s, err := args[0].String()
		return map[string]any{"echo": s, "n": len(s)}, err
	}))

	res, err := fn.Invoke("hello")
	require.NoError(t, err)
	assert.Equal(t, "hello", str(t, get(t, res, "echo")))
	n, err := get(t, res, "n").Int()
	require.NoError(t, err)
	assert.Equal(t, 5, n)
}

func TestMarkReadyWithoutDocument(t *testing.T) {
	global := newTestObject(t)
	set(t, global, "performance", fakePerformance(t, 12.5))
	hookCalls := 0
	set(t, global, "onRlabReady", newTestFunc(t, func(safejs.Value, []safejs.Value) any {
		hookCalls++
		ready, err := get(t, global, "rlabReady").Bool()
		assert.NoError(t, err)
		assert.True(t, ready, "rlabReady is set before onRlabReady runs")
		return nil
	}))

	require.NoError(t, markReady(global), "node has no document; that is not an error")

	assert.Equal(t, 1, hookCalls)
	at, err := get(t, global, "__rlabReadyAt").Float()
	require.NoError(t, err)
	assert.Equal(t, 12.5, at)
}

func TestMarkReadySetsStatusText(t *testing.T) {
	global := newTestObject(t)
	status := newTestObject(t)
	set(t, status, "textContent", "loading…")
	set(t, global, "document", fakeDocument(t, map[string]safejs.Value{"status": status}))

	require.NoError(t, markReady(global))

	assert.Equal(t, "ready", str(t, get(t, status, "textContent")))
	ready, err := get(t, global, "rlabReady").Bool()
	require.NoError(t, err)
	assert.True(t, ready)
	assert.True(t, get(t, global, "__rlabReadyAt").IsUndefined(),
		"without a performance clock there is nothing to record")
}

func TestMarkReadyToleratesPageWithoutStatus(t *testing.T) {
	global := newTestObject(t)
	set(t, global, "document", fakeDocument(t, nil))

	require.NoError(t, markReady(global))

	ready, err := get(t, global, "rlabReady").Bool()
	require.NoError(t, err)
	assert.True(t, ready)
}

func TestMarkReadyReportsThrowingHook(t *testing.T) {
	global := newTestObject(t)
	set(t, global, "onRlabReady", jsFunction(t, "throw new Error('page bug')"))

	err := markReady(global)

	require.Error(t, err)
	assert.Contains(t, err.Error(), "onRlabReady threw")
	assert.Contains(t, err.Error(), "page bug")
	ready, rerr := get(t, global, "rlabReady").Bool()
	require.NoError(t, rerr)
	assert.True(t, ready, "rlab stays ready even if the page's hook fails")
}

func TestMarkReadyRejectsHookThatIsNotAFunction(t *testing.T) {
	global := newTestObject(t)
	set(t, global, "onRlabReady", 42)

	err := markReady(global)

	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a function")
}

// captureLog collects what logError is given until the test ends.
func captureLog(t *testing.T) *[]string {
	t.Helper()
	var logged []string
	saved := logError
	logError = func(msg string) { logged = append(logged, msg) }
	t.Cleanup(func() { logError = saved })
	return &logged
}

// fakePerformance returns an object whose now() always answers now.
func fakePerformance(t *testing.T, now float64) safejs.Value {
	t.Helper()
	p := newTestObject(t)
	set(t, p, "now", newTestFunc(t, func(safejs.Value, []safejs.Value) any { return now }))
	return p
}

// fakeDocument returns an object whose getElementById finds the given
// elements and answers null for any other id, as a real document does.
func fakeDocument(t *testing.T, elements map[string]safejs.Value) safejs.Value {
	t.Helper()
	doc := newTestObject(t)
	set(t, doc, "getElementById", newTestFunc(t, func(_ safejs.Value, args []safejs.Value) any {
		id, err := args[0].String()
		assert.NoError(t, err)
		if el, ok := elements[id]; ok {
			return el
		}
		return safejs.Null()
	}))
	return doc
}

// jsFunction compiles body into a JavaScript function, for behaviour Go
// callbacks cannot have (throwing a JavaScript exception).
func jsFunction(t *testing.T, body string) safejs.Value {
	t.Helper()
	ctor := get(t, safejs.Global(), "Function")
	fn, err := ctor.New(body)
	require.NoError(t, err)
	return fn
}

func newTestObject(t *testing.T) safejs.Value {
	t.Helper()
	o, err := newObject()
	require.NoError(t, err)
	return o
}

// newTestFunc wraps fn for JavaScript and releases it when the test ends.
func newTestFunc(t *testing.T, fn func(safejs.Value, []safejs.Value) any) safejs.Value {
	t.Helper()
	f, err := safejs.FuncOf(fn)
	require.NoError(t, err)
	t.Cleanup(f.Release)
	return f.Value()
}

func get(t *testing.T, v safejs.Value, name string) safejs.Value {
	t.Helper()
	p, err := v.Get(name)
	require.NoError(t, err)
	return p
}

func set(t *testing.T, v safejs.Value, name string, x any) {
	t.Helper()
	require.NoError(t, v.Set(name, x))
}

func str(t *testing.T, v safejs.Value) string {
	t.Helper()
	require.Equal(t, safejs.TypeString, v.Type(), "want a string")
	s, err := v.String()
	require.NoError(t, err)
	return s
}

func TestCallDrivesTheBridgeThroughJavaScript(t *testing.T) {
	global := newTestObject(t)
	require.NoError(t, install(global))
	rlab := get(t, global, "rlab")

	call := func(request string) map[string]any {
		t.Helper()
		res, err := rlab.Call("call", request)
		require.NoError(t, err)
		require.Equal(t, safejs.TypeString, res.Type(), "rlab.call answers JSON text")
		var answer map[string]any
		require.NoError(t, json.Unmarshal([]byte(str(t, res)), &answer))
		return answer
	}

	assert.Contains(t, call(`{"op":"load"}`), "result")
	run := call(`{"op":"run","args":{"line":"create rs web --replicas=2 --selector=app=web"}}`)
	require.Contains(t, run, "result", "answer: %v", run)
	stable := call(`{"op":"stabilize","args":{"maxSteps":100000}}`)
	require.Contains(t, stable, "result")
	assert.Equal(t, true, stable["result"].(map[string]any)["atRest"])
	view := call(`{"op":"view"}`)
	require.Contains(t, view, "result")
	assert.EqualValues(t, 2, view["result"].(map[string]any)["podsTotal"], "the world under node is the world natively")

	assert.Contains(t, call(`{"op":"nope"}`)["error"], `unknown op "nope"`)
}

func TestCallRefusesAnythingButOneString(t *testing.T) {
	global := newTestObject(t)
	require.NoError(t, install(global))
	rlab := get(t, global, "rlab")

	for _, args := range [][]any{nil, {42}, {"{}", "{}"}} {
		res, err := rlab.Call("call", args...)
		require.NoError(t, err)
		var answer map[string]any
		require.NoError(t, json.Unmarshal([]byte(str(t, res)), &answer))
		assert.Contains(t, answer["error"], "one argument, a JSON string", "args %v", args)
	}
}
