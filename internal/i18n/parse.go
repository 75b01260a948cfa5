package i18n

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// parser reads the two tables of a terms file and collects, with their
// lines, the problems it finds in the file's shape.
type parser struct {
	name     string
	lines    []string
	problems []problem
}

// problem is one fault, with the line it is on, by which Parse sorts them.
type problem struct {
	line int
	err  error
}

// row is one body row of a table: its cells, trimmed, and its 1-based line.
type row struct {
	cells []string
	line  int
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.problems = append(p.problems, problem{line, fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))})
}

// err returns the problems found, in the order of their lines, joined; nil
// when there are none.
func (p *parser) err() error {
	slices.SortStableFunc(p.problems, func(a, b problem) int { return a.line - b.line })
	errs := make([]error, len(p.problems))
	for i, pr := range p.problems {
		errs[i] = pr.err
	}
	return errors.Join(errs...)
}

// splitLines splits src into lines without their line ends, \n or \r\n.
func splitLines(src string) []string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// section returns the body rows of the one table under heading, whose
// header must be header (an empty cell there accepts any text). The
// section runs from its heading to the next heading of level one or two.
// A missing section, a section without a table or with two, and a row
// with the wrong number of cells are problems.
func (p *parser) section(heading string, header []string) []row {
	start := -1
	for i, l := range p.lines {
		if strings.TrimRight(l, " \t") != heading {
			continue
		}
		if start >= 0 {
			p.errorf(i+1, "second %q section (the first is on line %d)", heading, start+1)
			continue
		}
		start = i
	}
	if start < 0 {
		p.errorf(len(p.lines), "no %q section", heading)
		return nil
	}
	end := len(p.lines)
	for i := start + 1; i < len(p.lines); i++ {
		if strings.HasPrefix(p.lines[i], "# ") || strings.HasPrefix(p.lines[i], "## ") {
			end = i
			break
		}
	}

	var rows []row
	tables := 0
	for i := start + 1; i < end; i++ {
		if !isTableLine(p.lines[i]) {
			continue
		}
		tables++
		j := i
		for j < end && isTableLine(p.lines[j]) {
			j++
		}
		if tables == 1 {
			rows = p.table(heading, header, i, j)
		} else {
			p.errorf(i+1, "second table in the %q section: the checks read only one", heading)
		}
		i = j
	}
	if tables == 0 {
		p.errorf(start+1, "the %q section has no table", heading)
	}
	return rows
}

// table reads the table on lines [from, to): its header, the separator row
// and the body rows.
func (p *parser) table(heading string, header []string, from, to int) []row {
	got := splitRow(p.lines[from])
	if !headerMatches(got, header) {
		p.errorf(from+1, "the %q table's header is %q; want %s", heading, got, describeHeader(header))
		return nil
	}
	if from+1 >= to || !isSeparator(splitRow(p.lines[from+1]), len(header)) {
		p.errorf(from+2, "the %q table's header is not followed by a separator row (| --- | --- |)", heading)
		return nil
	}
	var rows []row
	for i := from + 2; i < to; i++ {
		cells := splitRow(p.lines[i])
		if len(cells) != len(header) {
			p.errorf(i+1, "row has %d cells; the %q table has %d", len(cells), heading, len(header))
			continue
		}
		empty := false
		for c, cell := range cells {
			if cell == "" {
				p.errorf(i+1, "empty cell in column %d of the %q table", c+1, heading)
				empty = true
			}
		}
		if !empty {
			rows = append(rows, row{cells: cells, line: i + 1})
		}
	}
	return rows
}

func isTableLine(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "|") }

// splitRow splits a table line into its cells, trimmed. The table's cells
// never hold a pipe: a term with one could not be told from two cells.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	cells := strings.Split(l, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

func headerMatches(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if got[i] == "" || (want[i] != "" && got[i] != want[i]) {
			return false
		}
	}
	return true
}

func describeHeader(header []string) string {
	cells := make([]string, len(header))
	for i, h := range header {
		if h == "" {
			h = "<the language's name>"
		}
		cells[i] = h
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

// isSeparator reports whether cells are a Markdown table's separator row
// for n columns: dashes, each optionally between alignment colons.
func isSeparator(cells []string, n int) bool {
	if len(cells) != n {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}
