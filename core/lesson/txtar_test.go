package lesson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseArchive(t *testing.T) {
	tests := []struct {
		name string
		data string
		want archive
	}{
		{
			name: "a comment alone",
			data: "title: x\n",
			want: archive{comment: "title: x\n"},
		},
		{
			name: "files after the comment, each ending in a newline",
			data: "c\n-- a --\none\n-- b --\ntwo\nthree",
			want: archive{comment: "c\n", files: []archiveFile{
				{name: "a", line: 2, data: "one\n"},
				{name: "b", line: 4, data: "two\nthree\n"},
			}},
		},
		{
			name: "an empty file, and a last marker without a newline",
			data: "-- a --\n-- b --",
			want: archive{files: []archiveFile{{name: "a", line: 1}, {name: "b", line: 2}}},
		},
		{
			name: "names are trimmed; lines that are not markers are data",
			data: "--  guide.md  --\n--  --\n-- x\n--x --\r\n",
			want: archive{files: []archiveFile{{name: "guide.md", line: 1, data: "--  --\n-- x\n--x --\r\n"}}},
		},
		{
			name: "a marker line with a carriage return",
			data: "-- a --\r\nx\n",
			want: archive{files: []archiveFile{{name: "a", line: 1, data: "x\n"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, parseArchive(tt.data))
		})
	}
}
