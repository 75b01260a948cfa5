package lesson

import (
	"errors"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/script"
)

// This file reads guide.md: pages split by --- lines, and the fenced do,
// predict and check blocks on them.

// guideBlockKinds are the fenced blocks the guide gives meaning to.
var guideBlockKinds = []Kind{KindDo, KindStep, KindPredict, KindCheck}

// fence is a fenced block being read.
type fence struct {
	// line is the line of the opening fence; ticks how many backticks opened
	// it (a closing fence needs as many or more).
	line, ticks int
	// info is the first word after the backticks: the block's kind, if it is
	// one of ours.
	info string
	body []string
}

// parseGuide splits guide.md into pages and parses the blocks on them,
// prefixing errors with where. A --- line inside a fenced block is part of
// the block, not a page break.
func parseGuide(where, text string) ([]*Page, []error) {
	var pages []*Page
	var errs []error
	lines := splitLines(text)

	// start is the line where the current page starts; sep the line of the
	// --- that opened it (0 for the first page), where an empty page is
	// reported.
	start, sep := 1, 0
	var open *fence
	var blocks []*Block
	// broken is set when a block of the current page has an error: the
	// page's order of blocks is then unknown, and checking it would only
	// repeat the error in other words.
	broken := false
	endPage := func(end int) { // end is the line after the page's last
		n := len(pages) + 1
		first, last := start, end-1
		for first <= last && strings.TrimSpace(lines[first-1]) == "" {
			first++
		}
		for last >= first && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		if first > last {
			at := max(sep, 1)
			errs = append(errs, &script.ParseError{File: where, Line: at, Col: 1,
				Msg: "page " + strconv.Itoa(n) + " is empty", Hint: "write the page's text between its --- lines"})
		}
		p := &Page{N: n, Line: first, Blocks: blocks}
		if first <= last {
			p.Text = strings.Join(lines[first-1:last], "\n") + "\n"
		}
		for _, b := range blocks {
			b.Page = n
		}
		if !broken {
			errs = append(errs, checkPredicts(where, p)...)
		}
		pages = append(pages, p)
		blocks, broken = nil, false
	}

	for i, line := range lines {
		n := i + 1
		if open != nil {
			if closes(line, open.ticks) {
				b, err := guideBlock(where, open)
				if err != nil {
					errs = append(errs, err)
					broken = true
				} else if b != nil {
					blocks = append(blocks, b)
				}
				open = nil
				continue
			}
			open.body = append(open.body, line)
			continue
		}
		if ticks, info, ok := opens(line); ok {
			open = &fence{line: n, ticks: ticks, info: info}
			if err := checkInfo(where, n, line, info); err != nil {
				errs = append(errs, err)
				broken = true
			}
			continue
		}
		if strings.TrimSpace(line) == "---" {
			endPage(n)
			start, sep = n+1, n
		}
	}
	if open != nil {
		errs = append(errs, &script.ParseError{File: where, Line: open.line, Col: 1,
			Msg: "this fenced block is never closed", Hint: "end it with a line of " + strings.Repeat("`", open.ticks)})
		broken = true
	}
	endPage(len(lines) + 1)
	return pages, errs
}

// opens reports whether line opens a fenced block (three or more backticks,
// indented by at most three spaces, as in CommonMark), with how many
// backticks and the first word of its info string.
func opens(line string) (ticks int, info string, ok bool) {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return 0, "", false
	}
	for ticks < len(trimmed) && trimmed[ticks] == '`' {
		ticks++
	}
	if ticks < 3 {
		return 0, "", false
	}
	words := strings.Fields(trimmed[ticks:])
	if len(words) > 0 {
		info = words[0]
	}
	return ticks, info, true
}

// closes reports whether line closes a block opened with ticks backticks.
func closes(line string, ticks int) bool {
	t := strings.TrimSpace(line)
	return len(t) >= ticks && strings.Trim(t, "`") == ""
}

// checkInfo catches a misspelled block kind: ```chek would otherwise be a
// plain code block, and the check it meant would silently never run. Words
// far from every kind (```yaml, ```text) are Markdown's own and fine; "do" is
// too short to compare against without flagging ```go.
func checkInfo(where string, line int, text, info string) error {
	for _, k := range guideBlockKinds {
		if info != string(k) && strings.EqualFold(info, string(k)) {
			return &script.ParseError{File: where, Line: line, Col: strings.Index(text, info) + 1,
				Msg: "unknown block kind " + strconv.Quote(info), Suggestions: []string{string(k)}}
		}
	}
	if info == "" || info == string(KindDo) {
		return nil
	}
	if s := script.Suggest(info, []string{string(KindPredict), string(KindCheck)}); len(s) > 0 && info != s[0] {
		return &script.ParseError{File: where, Line: line, Col: strings.Index(text, info) + 1,
			Msg: "unknown block kind " + strconv.Quote(info), Suggestions: s}
	}
	return nil
}

// guideBlock parses a closed fenced block. It returns nil, nil for a block
// that is plain Markdown.
func guideBlock(where string, f *fence) (*Block, error) {
	kind := Kind(f.info)
	text := strings.Join(f.body, "\n")
	if len(f.body) > 0 {
		text += "\n"
	}
	switch kind {
	case KindDo, KindStep, KindCheck:
		b, err := parseBlock(kind, where, text, 0, f.line+1)
		if err != nil {
			return nil, err
		}
		if len(b.Script.Commands) == 0 {
			return nil, &script.ParseError{File: where, Line: f.line, Col: 1,
				Msg: "an empty " + string(kind) + " block",
				Hint: map[Kind]string{KindDo: "write the commands the learner runs", KindCheck: "write the expects that must hold",
					KindStep: "write the expects that pressing Step reaches"}[kind]}
		}
		return b, nil
	case KindPredict:
		p, err := parsePredict(where, f)
		if err != nil {
			return nil, err
		}
		return &Block{Kind: KindPredict, Line: f.line + 1, Text: text, Predict: p}, nil
	}
	return nil, nil
}

// parsePredict reads a predict block: the question, then the choices as a
// Markdown task list with the right one ticked, each ending with the expect
// that decides it after "=>", then, optionally, the explanation:
//
//	How many pods will rs/web create?
//	- [ ] none => expect requests verb=create resource=pods count=3
//	- [x] one => expect requests verb=create resource=pods count=4
//	- [ ] three => expect requests verb=create resource=pods count=6
//
//	It creates the one it is missing.
func parsePredict(where string, f *fence) (*Predict, error) {
	p := &Predict{Answer: -1}
	var question, explanation []string
	var errs []error
	errAt := func(line, col int, msg, hint string) {
		errs = append(errs, &script.ParseError{File: where, Line: line, Col: col, Msg: msg, Hint: hint})
	}
	afterChoices := false
	for i, line := range f.body {
		n := f.line + 1 + i
		choice, ticked, isChoice := choiceLine(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		switch {
		case isChoice && afterChoices:
			errAt(n, col, "a choice after the explanation", "the choices are one list, between the question and the explanation")
		case isChoice:
			c, err := parseChoice(where, n, line, choice)
			if err != nil {
				errs = append(errs, err)
			}
			if ticked {
				if p.Answer >= 0 {
					errAt(n, col, "a second right answer (the first is choice "+strconv.Itoa(p.Answer+1)+")",
						"tick exactly one choice: - [x]")
				}
				p.Answer = len(p.Choices)
			}
			p.Choices = append(p.Choices, c)
		case len(p.Choices) == 0:
			question = append(question, line)
		default:
			afterChoices = afterChoices || strings.TrimSpace(line) != ""
			explanation = append(explanation, line)
		}
	}
	p.Question = strings.TrimSpace(strings.Join(question, "\n"))
	p.Explanation = strings.TrimSpace(strings.Join(explanation, "\n"))
	switch {
	case p.Question == "":
		errAt(f.line, 1, "a predict block without a question", "write the question before the choices")
	case len(p.Choices) < 2:
		errAt(f.line, 1, "a predict block needs two choices or more", "write them as a list: - [ ] wrong, - [x] right")
	case p.Answer < 0:
		errAt(f.line, 1, "a predict block without a right answer", "tick the right choice: - [x]")
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// parseChoice reads one choice, whose text after its box is rest, on line n
// of guide.md: the answer, then "=>" and the expect that decides it.
func parseChoice(where string, n int, line, rest string) (*Choice, error) {
	col := strings.Index(line, rest) + 1
	text, expect, found := strings.Cut(rest, "=>")
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return nil, &script.ParseError{File: where, Line: n, Col: col, Msg: "an empty choice",
			Hint: "write the answer after the box: - [ ] three => expect …"}
	case !found || strings.TrimSpace(expect) == "":
		return nil, &script.ParseError{File: where, Line: n, Col: col, Msg: "a choice without the expect that decides it",
			Hint: "end it with => and an expect that holds after the step exactly when this answer is right: " +
				text + " => expect requests verb=create resource=pods count=4"}
	}
	// at is the column of the expect's first character: where the text
	// after "=>" starts, past its spaces.
	at := col + (len(rest) - len(expect)) + (len(expect) - len(strings.TrimLeft(expect, " \t")))
	b, err := parseBlockAt(KindCheck, where, strings.TrimSpace(expect)+"\n", 0, n, at)
	if err != nil {
		return nil, err
	}
	return &Choice{Text: text, Expect: b}, nil
}

// choiceLine reports whether line is a choice, "- [ ] text" or "- [x] text",
// whether it is ticked, and its text.
func choiceLine(line string) (text string, ticked, ok bool) {
	t := strings.TrimSpace(line)
	for _, box := range []string{"- [ ]", "- [x]", "- [X]"} {
		if rest, found := strings.CutPrefix(t, box); found && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.TrimSpace(rest), box != "- [ ]", true
		}
	}
	return "", false, false
}

// checkPredicts makes sure every predict on a page asks about something the
// page then proves: a do or step block must follow it (the step whose
// outcome it asks about, which runs only once the learner has answered),
// and after a do block a check block (what then holds, so proving the
// lesson also proves the right answer right; a step block states it
// itself).
func checkPredicts(where string, p *Page) []error {
	var errs []error
	for i, b := range p.Blocks {
		if b.Kind != KindPredict {
			continue
		}
		act := -1
		for j := i + 1; j < len(p.Blocks) && act < 0; j++ {
			if k := p.Blocks[j].Kind; k == KindDo || k == KindStep {
				act = j
			}
		}
		hasCheck := act >= 0 && p.Blocks[act].Kind == KindStep
		for j := act + 1; act >= 0 && j < len(p.Blocks); j++ {
			hasCheck = hasCheck || p.Blocks[j].Kind == KindCheck
		}
		switch {
		case act < 0:
			errs = append(errs, &script.ParseError{File: where, Line: b.Line - 1, Col: 1,
				Msg:  "a predict block needs a do or step block after it on its page",
				Hint: "that block is the step whose outcome the learner predicts"})
		case !hasCheck:
			errs = append(errs, &script.ParseError{File: where, Line: b.Line - 1, Col: 1,
				Msg:  "a predict block needs a check block after its do block",
				Hint: "the check states what happens, so proving the lesson proves the answer"})
		}
	}
	return errs
}
