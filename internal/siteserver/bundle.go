package siteserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// PageEntries are the page's entry modules, in the order they run: early.js,
// which starts main.wasm's download (after engine.js, which it imports),
// locale.js, which chooses the page's language and, for one other than
// English, starts fetching its words beside main.wasm, app.js, the page,
// which imports everything else it draws with, and offline.js, which
// registers the service worker. The page's sources are ES
// modules, one concern each, and served as one classic script, BundleName,
// which index.html loads: one request instead of one per module, which on a
// cold load brings the page to interactive about 40 ms sooner, and no module
// loader running in the page. JoinModules (modules.go) joins them; each
// module keeps its own scope. worker.js, export-worker.js and sw.js are not
// among them: they run in workers of their own.
var PageEntries = []string{"early.js", "locale.js", "app.js", "offline.js"}

// BundleName is the file Bundle writes and index.html loads.
const BundleName = "rlab.js"

// BundleScripts returns the page's modules, read from site, joined into
// one script (JoinModules).
func BundleScripts(site fs.FS) ([]byte, error) {
	data, _, err := JoinModules(site, PageEntries)
	if err != nil {
		return nil, fmt.Errorf("bundling the page's scripts: %w", err)
	}
	return data, nil
}

// Bundle writes dir/BundleName from the scripts in dir, unless it is already
// newer than every one of them, and reports whether it wrote it. It writes
// to a temporary file and renames it, so a server never serves half a
// bundle.
func Bundle(dir string) (bool, error) {
	target := filepath.Join(dir, BundleName)
	if fresh, err := newerThanScripts(dir, target); err != nil || fresh {
		return false, err
	}
	data, err := BundleScripts(os.DirFS(dir))
	if err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(dir, "."+BundleName+"-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), target)
}

// newerThanScripts reports whether target exists and is at least as new as
// every module it is made of.
func newerThanScripts(dir, target string) (bool, error) {
	t, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, names, err := JoinModules(os.DirFS(dir), PageEntries)
	if err != nil {
		return false, fmt.Errorf("bundling the page's scripts: %w", err)
	}
	for _, name := range names {
		s, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return false, fmt.Errorf("bundling the page's scripts: %w", err)
		}
		if s.ModTime().After(t.ModTime()) {
			return false, nil
		}
	}
	return true, nil
}
