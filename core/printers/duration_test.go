//go:build !js

// This file uses the upstream modules (k8s.io, gopkg.in/yaml.v2) as oracles,
// so it runs natively only: the js/wasm run of make test runs the package's
// other tests under node, and neither it nor the js/wasm lint compiles the
// oracles for WebAssembly, where they never run.

package printers

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/reconcilelab/rlab/core/api"
)

func TestHumanDurationExamples(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-3 * time.Second:                            "<invalid>",
		-2 * time.Second:                            "<invalid>",
		-1999 * time.Millisecond:                    "0s",
		-time.Second:                                "0s",
		0:                                           "0s",
		999 * time.Millisecond:                      "0s",
		45 * time.Second:                            "45s",
		119 * time.Second:                           "119s",
		2 * time.Minute:                             "2m",
		2*time.Minute + 3*time.Second:               "2m3s",
		9*time.Minute + 59*time.Second:              "9m59s",
		10 * time.Minute:                            "10m",
		179 * time.Minute:                           "179m",
		3 * time.Hour:                               "3h",
		7*time.Hour + 59*time.Minute:                "7h59m",
		8 * time.Hour:                               "8h",
		47 * time.Hour:                              "47h",
		48 * time.Hour:                              "2d",
		7*24*time.Hour + 23*time.Hour:               "7d23h",
		8 * 24 * time.Hour:                          "8d",
		729 * 24 * time.Hour:                        "729d",
		2 * 365 * 24 * time.Hour:                    "2y",
		(7*365 + 364) * 24 * time.Hour:              "7y364d",
		8 * 365 * 24 * time.Hour:                    "8y",
		100 * 365 * 24 * time.Hour:                  "100y",
		5*time.Minute + 3*time.Second:               "5m3s",
		4*time.Minute + 59*time.Second:              "4m59s",
		time.Hour + 30*time.Minute + 59*time.Second: "90m",
	} {
		assert.Equal(t, want, HumanDuration(d), "%v", d)
	}
}

// HumanDuration must agree with apimachinery's on every boundary and on
// durations spread over every range it distinguishes.
func TestHumanDurationAgreesWithApimachinery(t *testing.T) {
	var ds []time.Duration
	for _, unit := range []time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour, 365 * 24 * time.Hour} {
		for n := -3; n <= 1000; n++ {
			for _, off := range []time.Duration{-time.Nanosecond, 0, time.Nanosecond, time.Second - 1, time.Second, 59 * time.Second} {
				ds = append(ds, time.Duration(n)*unit+off)
			}
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range scaled(200000) {
		ds = append(ds, time.Duration(r.Int64N(int64(20*365*24*time.Hour)))-3*time.Second)
	}
	ds = append(ds, time.Duration(1<<63-1), -1<<63)
	for _, d := range ds {
		if got, want := HumanDuration(d), duration.HumanDuration(d); got != want {
			t.Fatalf("HumanDuration(%v) = %q, apimachinery says %q", d, got, want)
		}
	}
}

func TestAgeOfAZeroTimeIsUnknown(t *testing.T) {
	assert.Equal(t, "<unknown>", age(api.Time{}, now))
	assert.Equal(t, "5m3s", age(at(0), now))
	assert.Equal(t, "<invalid>", age(at(time.Hour), now), "a time in the future")
}
