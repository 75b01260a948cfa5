package main

import (
	"testing"

	"github.com/reconcilelab/rlab/internal/jsontest"
)

// TestAnswersEncodeAsEncodingJSONDoes holds core/minijson, which writes the
// bridge's answers, to what encoding/json writes for every answer type, on
// values with every field filled, nested types included: a field of a kind
// minijson cannot write (a float, say) fails here, by name.
func TestAnswersEncodeAsEncodingJSONDoes(t *testing.T) {
	t.Run("StepsResult", func(t *testing.T) { jsontest.Check[StepsResult](t) })
	t.Run("RunResult", func(t *testing.T) { jsontest.Check[RunResult](t) })
	t.Run("LoadResult", func(t *testing.T) { jsontest.Check[LoadResult](t) })
	t.Run("LessonsResult", func(t *testing.T) { jsontest.Check[LessonsResult](t) })
	t.Run("SeekResult", func(t *testing.T) { jsontest.Check[SeekResult](t) })
	t.Run("CheckResult", func(t *testing.T) { jsontest.Check[CheckResult](t) })
	t.Run("CompleteResult", func(t *testing.T) { jsontest.Check[CompleteResult](t) })
	t.Run("HelpResult", func(t *testing.T) { jsontest.Check[HelpResult](t) })
	t.Run("View", func(t *testing.T) { jsontest.Check[View](t) })
}

// TestArgumentsDecodeAsEncodingJSONDoes holds core/minijson, which reads the
// requests, to what encoding/json reads for every argument type.
func TestArgumentsDecodeAsEncodingJSONDoes(t *testing.T) {
	t.Run("LoadArgs", func(t *testing.T) { jsontest.CheckDecoder[LoadArgs](t) })
	t.Run("RunArgs", func(t *testing.T) { jsontest.CheckDecoder[RunArgs](t) })
	t.Run("StepArgs", func(t *testing.T) { jsontest.CheckDecoder[StepArgs](t) })
	t.Run("UntilSyncArgs", func(t *testing.T) { jsontest.CheckDecoder[UntilSyncArgs](t) })
	t.Run("StabilizeArgs", func(t *testing.T) { jsontest.CheckDecoder[StabilizeArgs](t) })
	t.Run("SeekArgs", func(t *testing.T) { jsontest.CheckDecoder[SeekArgs](t) })
	t.Run("StepsArgs", func(t *testing.T) { jsontest.CheckDecoder[StepsArgs](t) })
	t.Run("CheckArgs", func(t *testing.T) { jsontest.CheckDecoder[CheckArgs](t) })
	t.Run("CompleteArgs", func(t *testing.T) { jsontest.CheckDecoder[CompleteArgs](t) })
	t.Run("HelpArgs", func(t *testing.T) { jsontest.CheckDecoder[HelpArgs](t) })
	t.Run("ViewArgs", func(t *testing.T) { jsontest.CheckDecoder[ViewArgs](t) })
}
