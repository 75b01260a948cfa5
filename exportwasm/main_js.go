//go:build js && wasm

package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/hack-pad/safejs"
)

func main() {
	fn, err := safejs.FuncOf(rlabExport)
	if err == nil {
		err = safejs.Global().Set("rlabExport", fn)
	}
	if err != nil {
		// Without its function the program is of no use: say why and stop,
		// and the worker, finding no rlabExport, says so to the page.
		fmt.Fprintln(os.Stderr, "export.wasm: cannot install globalThis.rlabExport:", err)
		os.Exit(1)
	}
	// Park main: if it returned, the runtime would exit and a call of
	// rlabExport would throw "Go program has already exited".
	select {}
}

// rlabExport is globalThis.rlabExport(historyJSON): the script's text, or
// an Error that says why there is none. It must not panic, since a panic
// in a function JavaScript calls kills the program: it recovers one into
// an Error too.
func rlabExport(_ safejs.Value, args []safejs.Value) (result any) {
	defer func() {
		if r := recover(); r != nil {
			result = jsError(fmt.Sprintf("export.wasm: internal error (a bug in Reconcile Lab): %v\n%s", r, debug.Stack()))
		}
	}()
	if len(args) != 1 || args[0].Type() != safejs.TypeString {
		return jsError("rlabExport takes one argument, the JSON text of the engine's export history: rlabExport(JSON.stringify(history))")
	}
	text, err := args[0].String()
	if err != nil {
		return jsError("rlabExport: reading its argument: " + err.Error())
	}
	script, err := exportHistory([]byte(text))
	if err != nil {
		return jsError(err.Error())
	}
	return script
}

// jsError returns a JavaScript Error with msg, or msg itself should the
// Error constructor not be there: the caller treats anything that is not a
// string as a failure.
func jsError(msg string) any {
	ctor, err := safejs.Global().Get("Error")
	if err != nil {
		return map[string]any{"message": msg}
	}
	e, err := ctor.New(msg)
	if err != nil {
		return map[string]any{"message": msg}
	}
	return e
}
