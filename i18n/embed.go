package i18n

import (
	"embed"
	"io/fs"
)

//go:embed terms.*.md
var files embed.FS

// FS returns the tables, terms.<locale>.md, at its top level.
func FS() fs.FS { return files }
