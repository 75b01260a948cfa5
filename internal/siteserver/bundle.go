package siteserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// PageScripts are the page's two scripts, in the order index.html loads
// them (both deferred, so they run in that order once the page is parsed).
// The page's sources are ES modules, one concern each; JoinScripts
// (modules.go) joins each script's entries and the modules they import,
// each module in its own scope, with no module loader running in the page.
//
// The first, StartScript, is what a learner on a slow network needs first:
// early.js, which starts main.wasm's download and draws its progress (with
// download.js, loading.js and i18n.js, which it imports), and locale.js,
// which chooses the page's language and, for one other than English,
// starts fetching its words beside main.wasm. It is about 17 KB compressed,
// and arrives long before the second, so the download's size shows within
// a second at 1.6 Mbit/s (0.88 s), where it took 1.38 s when everything was
// one script of 119 KB (site/early.js has the figures).
//
// The second, PageScript, is the page: app.js, which imports everything
// else it draws with (the first script's modules from the registry it left,
// so that each runs once), and offline.js, which registers the service
// worker. worker.js, export-worker.js and sw.js are not among them: they
// run in workers of their own.
var PageScripts = []Script{
	{Name: StartScript, Entries: []string{"early.js", "locale.js"}},
	{Name: PageScript, Entries: []string{"app.js", "offline.js"}},
}

// StartScript and PageScript are the files Bundle writes and index.html
// loads (see PageScripts).
const (
	StartScript = "rlab-start.js"
	PageScript  = "rlab.js"
)

// BundleScripts returns the page's scripts, joined from the modules in
// site, by file name.
func BundleScripts(site fs.FS) (map[string][]byte, error) {
	texts, _, err := JoinScripts(site, PageScripts)
	if err != nil {
		return nil, fmt.Errorf("bundling the page's scripts: %w", err)
	}
	out := make(map[string][]byte, len(PageScripts))
	for i, sc := range PageScripts {
		out[sc.Name] = texts[i]
	}
	return out, nil
}

// Bundle writes the page's scripts (PageScripts) into dir from the modules
// there, unless each is already newer than every module it is made of, and
// returns the names of those it wrote. It writes each to a temporary file
// and renames it, so a server never serves half a script.
func Bundle(dir string) ([]string, error) {
	texts, names, err := JoinScripts(os.DirFS(dir), PageScripts)
	if err != nil {
		return nil, fmt.Errorf("bundling the page's scripts: %w", err)
	}
	var wrote []string
	for i, sc := range PageScripts {
		target := filepath.Join(dir, sc.Name)
		fresh, err := newerThan(target, dir, names[i])
		if err != nil {
			return wrote, err
		}
		if fresh {
			continue
		}
		if err := writeAtomically(target, texts[i]); err != nil {
			return wrote, err
		}
		wrote = append(wrote, sc.Name)
	}
	return wrote, nil
}

// writeAtomically writes data to target through a temporary file beside it.
func writeAtomically(target string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// newerThan reports whether target exists and is at least as new as every
// module in dir it is made of (modules).
func newerThan(target, dir string, modules []string) (bool, error) {
	t, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, name := range modules {
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
