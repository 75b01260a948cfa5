package siteserver

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// A coding is a content coding that a file can be served in from a sibling
// compressed ahead of time: FILE.br holds FILE in brotli.
type coding struct {
	token      string // its name in Accept-Encoding and Content-Encoding
	ext        string // what the sibling's name adds to the original's
	etagSuffix string // told apart in the ETag, so a cache never mixes codings
}

// codings is in order of preference when a client wants them equally: brotli
// first, because it is the smaller.
var codings = []coding{
	{token: "br", ext: ".br", etagSuffix: "-br"},
	{token: "gzip", ext: ".gz", etagSuffix: "-gz"},
}

// upToDate reports whether a compressed sibling still holds its original: it
// is stale if it is older, which is what rebuilding the original without
// recompressing it leaves. Precompress gives a sibling its original's mtime,
// so equal times count as up to date.
func upToDate(original, sibling fs.FileInfo) bool {
	return !sibling.ModTime().Before(original.ModTime())
}

// maxWeight is q=1 in Accept-Encoding, in the thousandths that a qvalue's
// three decimals allow, so weights compare exactly.
const maxWeight = 1000

// acceptEncoding is what a request's Accept-Encoding headers say about each
// content coding (RFC 9110, section 12.5.3).
type acceptEncoding struct {
	weights map[string]int // by lowercased coding, 0 (refused) to maxWeight
	any     int            // the weight of "*", or -1 if it is absent
}

// parseAcceptEncoding reads the Accept-Encoding header lines of a request.
// Codings are case-insensitive, x-gzip is gzip (as RFC 9110 asks), and a
// coding with a weight that cannot be read counts as refused rather than
// guessed at.
func parseAcceptEncoding(lines []string) acceptEncoding {
	a := acceptEncoding{weights: map[string]int{}, any: -1}
	for _, line := range lines {
		for element := range strings.SplitSeq(line, ",") {
			token, params, _ := strings.Cut(element, ";")
			token = strings.ToLower(strings.TrimSpace(token))
			if token == "" {
				continue // lists may have empty elements: "gzip,,br"
			}
			if token == "x-gzip" {
				token = "gzip"
			}
			weight := parseWeight(params)
			if token == "*" {
				a.any = weight
			} else {
				a.weights[token] = weight
			}
		}
	}
	return a
}

// weight returns how much the request accepts token: a named coding's own
// weight, else that of "*", else 0. Without an Accept-Encoding header this is
// 0 for every coding, so such a client gets the file as it is.
func (a acceptEncoding) weight(token string) int {
	if w, ok := a.weights[token]; ok {
		return w
	}
	return max(a.any, 0)
}

// parseWeight returns the weight in the parameters after a coding (" q=0.5"),
// maxWeight when there is none, and 0 when it is malformed.
func parseWeight(params string) int {
	for param := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(param, "=")
		if strings.EqualFold(strings.TrimSpace(name), "q") {
			return parseQValue(strings.TrimSpace(value))
		}
	}
	return maxWeight
}

// parseQValue parses a qvalue, "0" to "1" with up to three decimals, into
// thousandths, or returns 0 if s is not one.
func parseQValue(s string) int {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0
	}
	whole, decimals := int(s[0]-'0'), ""
	if len(s) > 1 {
		if s[1] != '.' {
			return 0
		}
		decimals = s[2:]
	}
	thousandths := 0
	for i := range 3 {
		thousandths *= 10
		if i < len(decimals) {
			d := decimals[i]
			if d < '0' || d > '9' {
				return 0
			}
			thousandths += int(d - '0')
		}
	}
	weight := whole*maxWeight + thousandths
	if weight > maxWeight {
		return 0 // "1.5" is not a qvalue
	}
	return weight
}

// compressible lists the extensions Precompress writes siblings for: the
// page's code, text and vector images. Formats such as .png are compressed
// already, and a sibling of a .gz or .br file would be pointless.
var compressible = map[string]bool{
	".wasm":        true,
	".js":          true,
	".css":         true,
	".html":        true,
	".svg":         true,
	".webmanifest": true,
	".json":        true,
}

// A Compressed reports one file whose siblings Precompress wrote.
type Compressed struct {
	Name   string // the original's path relative to the directory, with forward slashes
	Size   int64  // the original's size in bytes
	Gzip   int64  // the size of Name.gz
	Brotli int64  // the size of Name.br
}

// Brotli qualities for Precompress: what a learner downloads, and what a
// build that is only tested can make do with. Quality 11 is brotli's
// smallest, and this pure-Go encoder is slow at it. Measured on a
// 6,922,917-byte main.wasm on the project's 2-core machine (Go 1.26,
// andybalholm/brotli v1.2.8, November 2026):
//
//	quality 11   1,246,301 bytes   30 to 45 s
//	quality  9   1,425,846 bytes   1.5 s
//	quality  5   1,471,825 bytes   0.5 s
//	gzip -9      1,726,380 bytes   about 1 s (alongside, on the other core)
//
// The 13% that quality 11 saves over 9 is what the page's budget is about
// (make bench judges the brotli copy at ServedQuality), so rlab compress and
// make wasm pay the 30 seconds, once per build of main.wasm. The browser
// suite builds its own copy of the site after every change to the engine,
// and what it tests does not depend on how small main.wasm.br is, so it
// compresses at TestQuality and keeps make test quick; its benchmarks, which
// time the download, use ServedQuality like the real site.
const (
	ServedQuality = brotli.BestCompression
	TestQuality   = 5
)

// Precompress writes Name.gz and Name.br beside every compressible file under
// dir (.wasm, .js, .css, .html, .svg, .webmanifest), brotli at quality (see
// ServedQuality and TestQuality), so that Handler can serve them to clients
// that accept those codings, and calls written after each file whose siblings
// it wrote. A file whose two siblings are already up to date is skipped, so
// a second run writes nothing and costs a few stats per file; a sibling does
// not record its quality, so a directory is compressed at one quality only.
// Each sibling appears whole or not at all (it is written to a temporary
// file and renamed), and it takes its original's modification time, which is
// what marks it up to date. ctx is checked between files.
func Precompress(ctx context.Context, dir string, quality int, written func(Compressed)) error {
	if quality < brotli.BestSpeed || quality > brotli.BestCompression {
		return fmt.Errorf("brotli quality %d: it is from %d to %d", quality, brotli.BestSpeed, brotli.BestCompression)
	}
	return filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || !compressible[filepath.Ext(name)] {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		report, err := compressFile(name, quality)
		if err != nil || report == nil {
			return err
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		report.Name = filepath.ToSlash(rel)
		written(*report)
		return nil
	})
}

// compressFile writes name's siblings, brotli at quality, unless both are up
// to date, and then returns nil.
func compressFile(name string, quality int) (*Compressed, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The siblings take the modification time of the content read here, so
	// that if the file changes while it is compressed they are stale.
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if siblingsUpToDate(name, info) {
		return nil, nil
	}
	var data bytes.Buffer
	if _, err := data.ReadFrom(f); err != nil {
		return nil, err
	}

	// The two encoders are independent, so they run side by side: on two
	// cores a file costs the slower of them, brotli, rather than both.
	var (
		wg      sync.WaitGroup
		gzipped []byte
		gzipErr error
	)
	wg.Go(func() { gzipped, gzipErr = gzipBytes(data.Bytes()) })
	brotlied, err := brotliBytes(data.Bytes(), quality)
	wg.Wait()
	if err = errors.Join(err, gzipErr); err != nil {
		return nil, fmt.Errorf("compressing %s: %w", name, err)
	}

	perm := info.Mode().Perm()
	if err := writeSibling(name+".gz", gzipped, perm, info.ModTime()); err != nil {
		return nil, err
	}
	if err := writeSibling(name+".br", brotlied, perm, info.ModTime()); err != nil {
		return nil, err
	}
	return &Compressed{Size: info.Size(), Gzip: int64(len(gzipped)), Brotli: int64(len(brotlied))}, nil
}

// siblingsUpToDate reports whether both of name's compressed siblings exist
// and are up to date with it.
func siblingsUpToDate(name string, info fs.FileInfo) bool {
	for _, c := range codings {
		sibling, err := os.Stat(name + c.ext)
		if err != nil || !sibling.Mode().IsRegular() || !upToDate(info, sibling) {
			return false
		}
	}
	return true
}

func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func brotliBytes(data []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	bw := brotli.NewWriterLevel(&buf, quality)
	if _, err := bw.Write(data); err != nil {
		return nil, err
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeSibling writes data to name atomically, with perm and the
// modification time mtime: a server reading name while it is written sees
// the old file or the new one, never a part.
func writeSibling(name string, data []byte, perm fs.FileMode, mtime time.Time) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes a private file (0600); a sibling is as readable as its
	// original.
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	// A zero access time leaves it unchanged; only the mtime says anything.
	if err := os.Chtimes(tmp.Name(), time.Time{}, mtime); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
