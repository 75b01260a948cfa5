package printers

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAlignerWritesWhatTabwriterWrites compares the aligner with
// text/tabwriter, set up as the printers set it up, on random text made of
// cells of random widths (multi-byte runes among them), tabs, soft tabs,
// newlines, lines with no tab, form feeds, escaped runs and text after the
// last newline, written in random pieces with flushes between them.
func TestAlignerWritesWhatTabwriterWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "bb", "ccc", "name", "web-7f9c", "ünï", "日本", "", " ", "\t", "\t", "\t", "\v", "\n", "\n", "\f",
		"\xffx\ty\xff", "Labels:", "<none>"}
	for _, cfg := range []struct{ minwidth, padding int }{{0, 2}, {6, 3}} {
		for n := range 2000 {
			var want, got bytes.Buffer
			tw := tabwriter.NewWriter(&want, cfg.minwidth, 8, cfg.padding, ' ', 0)
			al := newAligner(&got, cfg.minwidth, cfg.padding)
			var text strings.Builder
			for range r.IntN(40) {
				p := pieces[r.IntN(len(pieces))]
				text.WriteString(p)
				_, err := tw.Write([]byte(p))
				require.NoError(t, err)
				al.Write([]byte(p))
				if r.IntN(10) == 0 {
					require.NoError(t, tw.Flush())
					al.Flush()
				}
			}
			require.NoError(t, tw.Flush())
			al.Flush()
			if !assert.Equal(t, want.String(), got.String(), "case %d (minwidth %d, padding %d) of %q", n, cfg.minwidth, cfg.padding, text.String()) {
				return
			}
		}
	}
}
