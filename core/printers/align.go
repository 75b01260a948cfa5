package printers

import (
	"bytes"
	"unicode/utf8"
)

// aligner lines up tab-separated cells in columns exactly as text/tabwriter
// does with flags 0 and spaces for padding, which is how kubectl's printers
// set theirs up. It exists because text/tabwriter cost main.wasm about 19 KB
// of code for the one configuration the printers use.
//
// The rules are tabwriter's. A cell is the text up to a tab ('\t', or '\v'
// for a soft one); the text after a line's last tab is not a cell and is not
// aligned. A column is aligned over a block of consecutive lines that all
// have a cell in it, and is as wide as its widest cell plus padding, and at
// least minwidth. A line with no tab ends every block (what came before is
// formatted on its own), as does a form feed. Text between two 0xff bytes
// (tabwriter.Escape) is taken as it is, tabs and all, and the two bytes are
// written but not counted in the cell's width. Widths count runes.
type aligner struct {
	out      *bytes.Buffer
	minwidth int
	padding  int
	pending  []byte
}

func newAligner(out *bytes.Buffer, minwidth, padding int) *aligner {
	return &aligner{out: out, minwidth: minwidth, padding: padding}
}

// Write keeps p until Flush, as tabwriter keeps text until it can be aligned.
func (a *aligner) Write(p []byte) { a.pending = append(a.pending, p...) }

// alignCell is one cell: its text and width.
type alignCell struct {
	text  []byte
	width int
}

// Flush aligns and writes everything written since the last Flush.
func (a *aligner) Flush() {
	var lines [][]alignCell
	var cell []byte
	width, escaped := 0, false
	var line []alignCell
	endCell := func() {
		line = append(line, alignCell{text: cell, width: width})
		cell, width = nil, 0
	}
	flushLines := func() {
		a.format(lines, nil)
		lines = nil
	}
	p := a.pending
	for i := 0; i < len(p); {
		c := p[i]
		if escaped {
			if c == 0xff {
				escaped = false
				cell = append(cell, c)
				i++
				continue
			}
			r, n := utf8.DecodeRune(p[i:])
			_ = r
			cell = append(cell, p[i:i+n]...)
			width++
			i += n
			continue
		}
		switch c {
		case '\t', '\v':
			endCell()
			i++
		case '\n', '\f':
			endCell()
			lines = append(lines, line)
			single := len(line) == 1
			line = nil
			i++
			if single || c == '\f' {
				flushLines()
			}
		case 0xff:
			escaped = true
			cell = append(cell, c)
			i++
		default:
			_, n := utf8.DecodeRune(p[i:])
			cell = append(cell, p[i:i+n]...)
			width++
			i += n
		}
	}
	// Text after the last newline is a line of its own, not yet ended: its
	// last cell counts only if it holds text, as in tabwriter's Flush.
	if len(cell) > 0 {
		endCell()
	}
	if len(line) > 0 {
		lines = append(lines, line)
		a.format(lines, nil)
		a.out.Truncate(a.out.Len() - 1) // it had no newline
	} else {
		flushLines()
	}
	a.pending = a.pending[:0]
}

// format writes lines, aligning column len(widths) block by block, as
// tabwriter's format does: widths holds the widths of the columns to the
// left, already decided.
func (a *aligner) format(lines [][]alignCell, widths []int) {
	column := len(widths)
	start := 0
	for this := 0; this < len(lines); this++ {
		if column >= len(lines[this])-1 {
			continue
		}
		// A block of lines with a cell in this column begins here.
		a.writeLines(lines[start:this], widths)
		start = this
		width := a.minwidth
		for ; this < len(lines) && column < len(lines[this])-1; this++ {
			if w := lines[this][column].width + a.padding; w > width {
				width = w
			}
		}
		a.format(lines[start:this], append(widths, width))
		start = this
		this-- // the loop's increment looks at the line that ended the block
	}
	a.writeLines(lines[start:], widths)
}

// writeLines writes lines with their cells padded to widths.
func (a *aligner) writeLines(lines [][]alignCell, widths []int) {
	for _, line := range lines {
		for j, c := range line {
			a.out.Write(c.text)
			if j < len(widths) {
				for range widths[j] - c.width {
					a.out.WriteByte(' ')
				}
			}
		}
		a.out.WriteByte('\n')
	}
}
