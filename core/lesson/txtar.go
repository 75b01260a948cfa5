package lesson

import "strings"

// This file reads txtar archives, the format of golang.org/x/tools/txtar. That
// module is not a dependency of ours, and the format is small enough that a
// reader of our own costs less than one more module in the wasm build:
//
//	comment lines
//	-- name --
//	the file's lines
//	-- other --
//	...
//
// A line that starts with "-- " and ends with " --" starts a file named by
// what is between, trimmed of spaces; everything before the first such line is
// the comment. As in x/tools/txtar, a file's data ends in a newline unless it
// is empty (a last line without one gets one), and a marker needs no newline
// after it at the end of the archive.

// archive is a parsed txtar archive.
type archive struct {
	comment string
	files   []archiveFile
}

// archiveFile is one file of an archive.
type archiveFile struct {
	name string
	// line is the line of the file's "-- name --" marker in the archive,
	// from 1, so that errors about the file as a whole can point at it.
	line int
	data string
}

// parseArchive splits data into its comment and files. It cannot fail: any
// text is a txtar archive, possibly of a comment alone.
func parseArchive(data string) archive {
	var a archive
	var b strings.Builder
	cur := -1 // the file being read; -1 is the comment
	flush := func() {
		text := b.String()
		b.Reset()
		if cur < 0 {
			a.comment = text
		} else {
			a.files[cur].data = text
		}
	}
	for i, line := range splitLines(data) {
		if name, ok := marker(line); ok {
			flush()
			a.files = append(a.files, archiveFile{name: name, line: i + 1})
			cur = len(a.files) - 1
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	flush()
	return a
}

// marker reports whether line is a file marker, and the file's name.
func marker(line string) (string, bool) {
	line = strings.TrimSuffix(line, "\r")
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < len("-- x --") {
		return "", false
	}
	name := strings.TrimSpace(line[len("-- ") : len(line)-len(" --")])
	return name, name != ""
}

// splitLines splits text into lines without their newlines. A final newline
// ends the last line rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
