//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/hack-pad/safejs"
)

// version names the build; make wasm sets it with -ldflags "-X main.version=…".
// It is a variable, not a constant, because the linker can only set variables.
var version = "dev"

func main() {
	global := safejs.Global()
	if err := install(global); err != nil {
		// Without the API object the page can do nothing, so say why and stop.
		// app.js notices that the program exited and says so in #status.
		consoleError("rlab: cannot start: " + err.Error())
		os.Exit(1)
	}
	if err := markReady(global); err != nil {
		// The API works; only telling the page about it went wrong (its
		// onRlabReady threw, say). That is the page's bug, not a reason to stop.
		consoleError("rlab: " + err.Error())
	}

	// Park main for the page's lifetime without spinning: if main returned, the
	// runtime would exit and every later call from the page would throw.
	select {}
}

// install publishes the API object as target.rlab (target is globalThis in the
// page, a plain object in tests).
//
// The functions it creates live as long as the page, so they are never
// released.
func install(target safejs.Value) error {
	api, err := newObject()
	if err != nil {
		return err
	}
	pingFunc, err := safejs.FuncOf(callback("ping", ping))
	if err != nil {
		return fmt.Errorf("create rlab.ping: %w", err)
	}
	if err := api.Set("version", version); err != nil {
		return fmt.Errorf("set rlab.version: %w", err)
	}
	if err := api.Set("ping", pingFunc); err != nil {
		return fmt.Errorf("set rlab.ping: %w", err)
	}
	callFunc, err := safejs.FuncOf(callback("call", call))
	if err != nil {
		return fmt.Errorf("create rlab.call: %w", err)
	}
	if err := api.Set("call", callFunc); err != nil {
		return fmt.Errorf("set rlab.call: %w", err)
	}
	if err := target.Set("rlab", api); err != nil {
		return fmt.Errorf("set globalThis.rlab: %w", err)
	}
	return nil
}

// ping answers {version}: the cheapest way for a page or a test to prove that Go
// is alive and answering calls.
func ping([]safejs.Value) (any, error) {
	return map[string]any{"version": version}, nil
}

// bridge is the page's one world; rlab.call drives it.
var bridge = NewBridge()

// call is rlab.call(requestJSON): it hands the request, a JSON string, to the
// bridge and returns the bridge's answer, a JSON string the page parses:
// {"result": …} or {"error": "…"} (see bridge.go for the ops), also when
// the call itself is wrong. The bridge recovers its own panics; should
// anything else panic, callback answers the object {error: "…"} instead of a
// string.
func call(args []safejs.Value) (any, error) {
	if len(args) != 1 || args[0].Type() != safejs.TypeString {
		return string(errorJSON(errors.New("rlab.call takes one argument, a JSON string: rlab.call(JSON.stringify({op: \"view\"}))"))), nil
	}
	req, err := args[0].String()
	if err != nil {
		return string(errorJSON(err)), nil
	}
	return string(bridge.Handle([]byte(req))), nil
}

// A handler is the Go side of a function the page calls. It returns a value
// that js.ValueOf accepts (nil, bool, a number, string, []any, map[string]any
// or a safejs.Value) or an error meant for the page.
type handler func(args []safejs.Value) (any, error)

// callback makes h safe to call from JavaScript, for safejs.FuncOf.
//
// safejs guards the calls Go makes into JavaScript, not the calls JavaScript
// makes into Go: a panic in h, or a result that js.ValueOf rejects, would kill
// the program and leave the page with a dead simulator. callback turns both,
// and any error h returns, into the value {error: "…"}, which the page shows and
// survives. The panic's stack goes to the browser console for whoever debugs it.
//
// h must not block (see the package documentation): it runs while the
// browser's event loop waits for it.
func callback(name string, h handler) func(this safejs.Value, args []safejs.Value) any {
	return func(_ safejs.Value, args []safejs.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				logError(fmt.Sprintf("rlab.%s: panic: %v\n%s", name, r, debug.Stack()))
				result = errorResult(fmt.Errorf("rlab.%s: internal error (a bug in Reconcile Lab): %v", name, r))
			}
		}()
		v, err := h(args)
		if err != nil {
			return errorResult(err)
		}
		if jsv, ok := v.(safejs.Value); ok {
			return jsv
		}
		// Convert here, inside the recover, rather than leaving it to syscall/js
		// after we return: there an unconvertible result would panic out of reach.
		jsv, err := safejs.ValueOf(v)
		if err != nil {
			return errorResult(fmt.Errorf("rlab.%s: internal error (a bug in Reconcile Lab): result of type %T cannot be passed to JavaScript: %v", name, v, err))
		}
		return jsv
	}
}

// errorResult is the one shape every failure takes on the page: {error: "…"}.
func errorResult(err error) map[string]any {
	return map[string]any{"error": err.Error()}
}

// markReady tells the page that rlab is usable, through every channel a page or
// a test harness might be watching, in this order:
//
//  1. global.__rlabReadyAt = performance.now(), taken first so that it measures
//     load-to-ready and not the page's own reaction (skipped if the global has no
//     performance clock; browsers and node both have one);
//  2. the text of #status becomes "ready", if there is a document and it has a
//     #status element, so that a person sees it;
//  3. global.rlabReady = true, for code that polls;
//  4. global.onRlabReady() is called, if the page defined it, for code that
//     waits.
func markReady(global safejs.Value) error {
	if err := recordReadyAt(global); err != nil {
		return err
	}
	if err := setStatus(global, "ready"); err != nil {
		return err
	}
	if err := global.Set("rlabReady", true); err != nil {
		return fmt.Errorf("set globalThis.rlabReady: %w", err)
	}
	hook, ok, err := property(global, "onRlabReady")
	if err != nil || !ok {
		return err
	}
	if hook.Type() != safejs.TypeFunction {
		return fmt.Errorf("globalThis.onRlabReady is a %s, not a function; rlab is ready but could not say so", hook.Type())
	}
	if _, err := hook.Invoke(); err != nil {
		return fmt.Errorf("globalThis.onRlabReady threw: %w", err)
	}
	return nil
}

func recordReadyAt(global safejs.Value) error {
	performance, ok, err := property(global, "performance")
	if err != nil || !ok {
		return err
	}
	now, err := performance.Call("now")
	if err != nil {
		return fmt.Errorf("performance.now(): %w", err)
	}
	if err := global.Set("__rlabReadyAt", now); err != nil {
		return fmt.Errorf("set globalThis.__rlabReadyAt: %w", err)
	}
	return nil
}

// setStatus sets the text of the page's #status element. Having no document
// (node) or no #status (a page that embeds rlab differently) is not an error.
func setStatus(global safejs.Value, text string) error {
	document, ok, err := property(global, "document")
	if err != nil || !ok {
		return err
	}
	status, err := document.Call("getElementById", "status")
	if err != nil {
		return fmt.Errorf("find #status: %w", err)
	}
	if status.IsNull() || status.IsUndefined() {
		return nil
	}
	if err := status.Set("textContent", text); err != nil {
		return fmt.Errorf("set #status text: %w", err)
	}
	return nil
}

// property returns v[name] and whether it holds anything (neither undefined
// nor null).
func property(v safejs.Value, name string) (safejs.Value, bool, error) {
	p, err := v.Get(name)
	if err != nil {
		return safejs.Value{}, false, fmt.Errorf("read %s: %w", name, err)
	}
	return p, !p.IsUndefined() && !p.IsNull(), nil
}

// logError is where callback reports panics; tests replace it to read them.
var logError = consoleError

// consoleError writes msg to the JavaScript console, where a developer looks.
//
// It calls console.error rather than writing to os.Stderr because a callback
// must not block: under node, wasm_exec.js sends os.Stderr to an asynchronous
// fs.write, and a callback waiting for it waits forever. If there is no console,
// there is nobody to tell.
func consoleError(msg string) {
	console, ok, err := property(safejs.Global(), "console")
	if err != nil || !ok {
		return
	}
	_, _ = console.Call("error", msg)
}

// newObject returns a new, empty JavaScript object.
func newObject() (safejs.Value, error) {
	ctor, err := safejs.Global().Get("Object")
	if err != nil {
		return safejs.Value{}, err
	}
	if ctor.Type() != safejs.TypeFunction {
		return safejs.Value{}, errors.New("globalThis.Object is not a constructor")
	}
	return ctor.New()
}
