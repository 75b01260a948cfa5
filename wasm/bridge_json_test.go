package main

import (
	"testing"

	"github.com/reconcilelab/rlab/internal/jsontest"
)

// TestAnswersEncodeAsEncodingJSONDoes holds every answer type's EncodeJSON
// (bridge_json.go) to what encoding/json writes for it, on values with every
// field filled, nested types included. A field added to a type without its
// line in EncodeJSON fails here, by name.
func TestAnswersEncodeAsEncodingJSONDoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(*testing.T)
	}{
		{"StepsResult", func(t *testing.T) { jsontest.Check[StepsResult](t) }},
		{"RunResult", func(t *testing.T) { jsontest.Check[RunResult](t) }},
		{"LoadResult", func(t *testing.T) { jsontest.Check[LoadResult](t) }},
		{"LessonsResult", func(t *testing.T) { jsontest.Check[LessonsResult](t) }},
		{"SeekResult", func(t *testing.T) { jsontest.Check[SeekResult](t) }},
		{"CheckResult", func(t *testing.T) { jsontest.Check[CheckResult](t) }},
		{"CompleteResult", func(t *testing.T) { jsontest.Check[CompleteResult](t) }},
		{"HelpResult", func(t *testing.T) { jsontest.Check[HelpResult](t) }},
		{"View", func(t *testing.T) { jsontest.Check[View](t) }},
	} {
		t.Run(tc.name, tc.check)
	}
}

// TestArgumentsDecodeAsEncodingJSONDoes holds every argument type's
// DecodeJSON to what encoding/json reads: a field without its case in
// DecodeJSON would be refused as unknown.
func TestArgumentsDecodeAsEncodingJSONDoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(*testing.T)
	}{
		{"LoadArgs", func(t *testing.T) { jsontest.CheckDecoder[LoadArgs](t) }},
		{"RunArgs", func(t *testing.T) { jsontest.CheckDecoder[RunArgs](t) }},
		{"StepArgs", func(t *testing.T) { jsontest.CheckDecoder[StepArgs](t) }},
		{"UntilSyncArgs", func(t *testing.T) { jsontest.CheckDecoder[UntilSyncArgs](t) }},
		{"StabilizeArgs", func(t *testing.T) { jsontest.CheckDecoder[StabilizeArgs](t) }},
		{"SeekArgs", func(t *testing.T) { jsontest.CheckDecoder[SeekArgs](t) }},
		{"StepsArgs", func(t *testing.T) { jsontest.CheckDecoder[StepsArgs](t) }},
		{"CheckArgs", func(t *testing.T) { jsontest.CheckDecoder[CheckArgs](t) }},
		{"CompleteArgs", func(t *testing.T) { jsontest.CheckDecoder[CompleteArgs](t) }},
		{"HelpArgs", func(t *testing.T) { jsontest.CheckDecoder[HelpArgs](t) }},
		{"ViewArgs", func(t *testing.T) { jsontest.CheckDecoder[ViewArgs](t) }},
	} {
		t.Run(tc.name, tc.check)
	}
}
