package script

import (
	"testing"

	"github.com/reconcilelab/rlab/internal/jsontest"
)

func TestDocsEncodeAsEncodingJSONDoes(t *testing.T) {
	jsontest.Check[CommandDoc](t)
	jsontest.Check[KindDoc](t)
}
