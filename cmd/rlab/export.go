package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/lesson"
	"github.com/reconcilelab/rlab/core/script"
)

var exportCommand = &command{
	name:     "export",
	synopsis: "[--out=DIR] FILE",
	summary:  "write a lesson's or a script's world as manifests, and what was done in it as kubectl",
	details: "Export takes FILE to a real cluster. FILE is a lesson (.txtar: its setup builds the world,\n" +
		"its solution is what was done) or a scenario script (all of it is what was done). The\n" +
		"objects the setup creates become apps/v1 and v1 manifests for kubectl apply; everything\n" +
		"after them becomes kubectl commands, in order, with --pick done on the cluster by creation\n" +
		"time and each stabilize a wait for the state the simulated world rests in. What only the\n" +
		"simulator does (faults, stepping, its views, crash, evict) becomes comments that say what to\n" +
		"do by hand; expects become comments with the kubectl to look with.\n\n" +
		"Without --out, one self-contained bash script goes to stdout, the manifests in a\n" +
		"here-document. With --out, DIR gets world.yaml and replay.sh (executable; it applies\n" +
		"world.yaml first). Both run in the namespace $NAMESPACE (default rlab), which they create.\n" +
		"A file that does not parse, a script that fails when run, or a command that cannot be\n" +
		"exported (one in another namespace) is an error, and nothing is written.",
	flags: func(fs *flag.FlagSet) runFunc {
		out := fs.String("out", "", "write world.yaml and replay.sh into `DIR` (created if need be) instead of one script to stdout")
		return func(_ context.Context, stdout, stderr io.Writer, args []string) error {
			if len(args) != 1 {
				return usageErrorf("export takes one FILE, a lesson (.txtar) or a scenario script; got %d", len(args))
			}
			res, err := exportFile(args[0])
			if err != nil {
				var list script.ErrorList
				if errors.As(err, &list) {
					fmt.Fprintln(stderr, err)
					return exitStatus(script.ExitUsage)
				}
				return err
			}
			if *out == "" {
				_, err := io.WriteString(stdout, res.Script())
				return err
			}
			return writeExport(*out, res, stdout)
		}
	},
}

// exportFile reads FILE as a lesson or a scenario script and exports it.
func exportFile(path string) (*export.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	source := filepath.ToSlash(path)
	if strings.HasSuffix(path, ".txtar") {
		l, err := lesson.Parse(filepath.Base(path), data)
		if err != nil {
			return nil, err
		}
		var setup, solution []script.Command
		if l.Setup != nil && l.Setup.Script != nil {
			setup = l.Setup.Script.Commands
		}
		if l.Solution != nil && l.Solution.Script != nil {
			solution = l.Solution.Script.Commands
		}
		return export.Run(setup, solution, source)
	}
	s, err := script.Parse(string(data), path)
	if err != nil {
		return nil, err
	}
	return export.Run(nil, s.Commands, source)
}

// writeExport writes world.yaml (when the setup creates anything) and
// replay.sh into dir, and says what it wrote.
func writeExport(dir string, res *export.Result, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	world := filepath.Join(dir, "world.yaml")
	if yaml := res.WorldYAML(); yaml != nil {
		if err := os.WriteFile(world, yaml, 0o644); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", world)
	} else if err := os.Remove(world); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err // a world.yaml from another export would be applied by nothing, but mislead
	}
	replay := filepath.Join(dir, "replay.sh")
	if err := os.WriteFile(replay, []byte(res.ReplayScript()), 0o755); err != nil {
		return err
	}
	// WriteFile keeps the mode of a file that was there: make it executable.
	if err := os.Chmod(replay, 0o755); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", replay)
	return nil
}
