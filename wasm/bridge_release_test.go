//go:build !rlabtest

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReleaseBuildHasNoTestOps keeps the ops that break the engine on
// purpose (bridge_testops.go) out of every build but the browser tests'.
func TestReleaseBuildHasNoTestOps(t *testing.T) {
	b := newBridge(t)
	for _, op := range []string{"panic", "crash"} {
		assert.Contains(t, fails(t, b, `{"op":"`+op+`"}`), `unknown op "`+op+`"`)
	}
}
