package lesson

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/script"
)

// This file holds the lesson's types and Parse, which reads and validates a
// lesson file; guide.go reads guide.md and check.go proves a lesson.

// Lesson is one parsed lesson whose every part has been validated: the
// header is complete, every required file is there, every command parses,
// goals and checks hold only expects, and every page has text.
type Lesson struct {
	// ID is the file's name without .txtar: "02-a-pod-dies". Number is its
	// leading number (1) and Slug the rest ("self-healing").
	ID     string `json:"id"`
	Number int    `json:"number"`
	Slug   string `json:"slug"`

	// Title, Summary and Level come from the header.
	Title   string `json:"title"`
	Summary string `json:"summary"`
	Level   Level  `json:"level"`

	// Setup builds the starting world; Goal holds the expects that define
	// success; Solution is the reference solution.
	Setup    *Block `json:"setup"`
	Goal     *Block `json:"goal"`
	Solution *Block `json:"solution"`
	// Pages are guide.md's pages, in order.
	Pages []*Page `json:"pages"`
	// Hints are the hints, one per paragraph of hints, in order.
	Hints []string `json:"hints"`
	// Stepwise, from the header's optional stepwise: line, are the pages on
	// which the learner walks every event with Step: their do blocks may
	// not run more than one event at a time (no until, stabilize, advance
	// or step N>1), and the page refuses such commands there.
	Stepwise *PageRange `json:"stepwise,omitempty"`
	// Translations are the lesson's words in its other languages, in the
	// order of Languages, each naming its language (Lang, "zh-CN"): title,
	// summary, guide and hints, each held to the English's structure.
	// Title, Summary, Pages and Hints above are the English. A list, not
	// a map keyed by language, because minijson writes no maps but
	// labels and selectors: map support cost main.wasm 6 KB brotli.
	// Translation(lang) finds one.
	Translations []*Translation `json:"translations,omitempty"`
}

// PageRange is the pages From to To of a guide, both included, from 1.
type PageRange struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Has reports whether page n is in the range; a nil range has none.
func (r *PageRange) Has(n int) bool { return r != nil && n >= r.From && n <= r.To }

// Multistep reports whether a command runs more than one event of the
// world: until sync, stabilize, advance, and step N with N above 1. A
// stepwise page's do blocks may hold none.
func Multistep(c script.Command) bool {
	switch c := c.(type) {
	case *script.Step:
		return c.N > 1
	}
	return slices.Contains(multistepCommands, c.Src().Name)
}

// multistepCommands are the names of the commands that always run more than
// one event, or an unknown number of them.
var multistepCommands = []string{"until sync", "stabilize", "advance"}

// File is the lesson's file name, "02-a-pod-dies.txtar", as errors name it.
func (l *Lesson) File() string { return l.ID + ".txtar" }

// Level is how much a lesson expects the learner to know already.
type Level string

// The levels, in the order a learner meets them.
const (
	Beginner     Level = "beginner"
	Intermediate Level = "intermediate"
	Advanced     Level = "advanced"
)

// Levels lists the valid levels in order.
var Levels = []Level{Beginner, Intermediate, Advanced}

// Kind says what a block is for.
type Kind string

// The kinds of block. Setup, goal and solution are whole files of the lesson;
// do, step, predict and check are fenced blocks of guide.md. A step block
// holds expects, as a check does, but the learner reaches them by pressing
// Step, one event at a time, until they hold.
const (
	KindSetup    Kind = "setup"
	KindGoal     Kind = "goal"
	KindSolution Kind = "solution"
	KindDo       Kind = "do"
	KindStep     Kind = "step"
	KindPredict  Kind = "predict"
	KindCheck    Kind = "check"
)

// Block is one piece of a lesson the engine runs or asks: a file of commands
// (setup, goal, solution) or a fenced block of the guide (do, predict, check).
type Block struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Kind Kind `json:"kind"`
	// Page is the number, from 1, of the guide page that holds the block; 0
	// for setup, goal and solution.
	Page int `json:"page,omitempty"`
	// Line is where the block's text starts in its file, from 1: 1 for
	// setup, goal and solution, and the line after the opening fence in
	// guide.md for the guide's blocks. The positions of Script's commands
	// count in that file too, so errors point where the author can look.
	Line int `json:"line"`
	// Col is the column of the text's first character, from 1, when the
	// block starts inside a line: a predict choice's expect, after its
	// "=>". 0 means 1.
	Col int `json:"col,omitempty"`
	// Text is the block as written (for a guide block, between its fences).
	Text string `json:"text"`
	// Script holds the parsed commands of every kind but predict. A bundle
	// (bundle.go) leaves it out: LoadBundle parses Text again.
	Script *script.Script `json:"-"`
	// Predict holds the question of a predict block.
	Predict *Predict `json:"predict,omitempty"`
}

// Page is one page of the guide.
type Page struct {
	// N numbers the page from 1.
	N int `json:"n"`
	// Line is the line of guide.md where the page's text starts.
	Line int `json:"line"`
	// Text is the page's Markdown as written, fenced blocks included, so the
	// page can render each block where the author put it. Blank lines around
	// the page are dropped.
	Text string `json:"text"`
	// Blocks are the page's do, predict and check blocks, in order. Fenced
	// blocks of any other kind (```yaml, a bare ```) are plain Markdown and
	// stay only in Text.
	Blocks []*Block `json:"blocks,omitempty"`
}

// Do returns the page's do blocks, in order.
func (p *Page) Do() []*Block { return p.blocks(KindDo) }

// Checks returns the page's check blocks, in order.
func (p *Page) Checks() []*Block { return p.blocks(KindCheck) }

func (p *Page) blocks(k Kind) []*Block {
	var out []*Block
	for _, b := range p.Blocks {
		if b.Kind == k {
			out = append(out, b)
		}
	}
	return out
}

// Predict is a question the learner answers before a step runs, with one
// right answer among its choices.
type Predict struct {
	// Question is the question's text (Markdown, possibly several lines).
	Question string `json:"question"`
	// Choices are the answers offered, in order; Answer is the index of the
	// right one.
	Choices []*Choice `json:"choices"`
	Answer  int       `json:"answer"`
	// Explanation, which may be empty, says why the answer is right; the
	// page shows it once the learner has answered.
	Explanation string `json:"explanation,omitempty"`
}

// Choice is one answer of a predict block, with the expect that decides it:
// after the step the learner predicts (the do block that follows the
// question), the right choice's expect holds and every other's fails. The
// page grades an answer by running them; Check proves that they decide as
// the author ticked.
type Choice struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Text is the answer as the learner reads it (inline Markdown).
	Text string `json:"text"`
	// Expect is the one expect command after the choice's "=>", a block of
	// kind check on its line of guide.md.
	Expect *Block `json:"expect"`
}

// The files of a lesson, in the order the format lists them. Every one is
// required. The files of its other languages (translation.go) are named
// after these, with the language's tag: guide.zh-CN.md, hints.zh-CN.
const (
	fileSetup    = "setup"
	fileGuide    = "guide.md"
	fileGoal     = "goal"
	fileHints    = "hints"
	fileSolution = "solution"
)

var lessonFiles = []string{fileSetup, fileGuide, fileGoal, fileHints, fileSolution}

// requiredHeaderKeys are the header's keys every lesson has.
var requiredHeaderKeys = []string{"title", "summary", "level"}

// headerKeys returns the header's keys, in the order the format lists them,
// then those of the other languages (title.zh-CN, summary.zh-CN). Every one
// is required but stepwise; a translation's are required when it is there.
// It and knownFiles are functions, not variables made when the package
// starts, so that main.wasm, which loads the bundle and never parses a
// lesson file, leaves them out: as variables they cost it 4 KB of
// code, before compression.
func headerKeys() []string {
	return append([]string{"title", "summary", "level", "stepwise"}, translatedKeys()...)
}

// knownFiles returns the names a lesson's files may have: the English ones,
// then those of the other languages.
func knownFiles() []string {
	return append(slices.Clone(lessonFiles), translatedFiles()...)
}

// Parse reads and validates the lesson file called name (its base name,
// "02-a-pod-dies.txtar"; the ID and number come from it). It returns every
// problem it finds, joined, each naming the lesson, the part of it and, when
// there is one, the line and column:
//
//	lesson 05-orphans.txtar, goal:3:8: unknown field "status.ready"; did you mean "status.readyReplicas"?
//	lesson 05-orphans.txtar, guide.md:14:1: a check block holds only expect commands; "kill" belongs in a do block
//	lesson 05-orphans.txtar: no solution file; a lesson has the files setup, guide.md, goal, hints and solution
//
// The positional ones are *script.ParseError values, which errors.As finds.
func Parse(name string, data []byte) (*Lesson, error) {
	l := &Lesson{}
	file := path.Base(name)
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(l.parseName(file))
	where := func(part string) string { return "lesson " + file + ", " + part }

	a := parseArchive(string(data))
	header, suggestedKeys, err := l.parseHeader(file, a.comment)
	add(err)

	files := map[string]archiveFile{}
	// suggested are the files an unknown file's name was close to: that one
	// is not reported missing as well.
	var suggested []string
	known := knownFiles()
	for _, f := range a.files {
		switch {
		case !slices.Contains(known, f.name):
			s := script.Suggest(f.name, known)
			suggested = append(suggested, s...)
			add(&script.ParseError{File: "lesson " + file, Line: f.line, Col: 4,
				Msg:         "unknown file " + strconv.Quote(f.name),
				Suggestions: s,
				Hint: "a lesson has the files " + orList(lessonFiles, "and") + ", and, in each other language, " +
					orList(translatedFiles(), "and")})
		case files[f.name].name != "":
			add(&script.ParseError{File: "lesson " + file, Line: f.line, Col: 4,
				Msg: "a second file named " + strconv.Quote(f.name) +
					" (the first is at line " + strconv.Itoa(files[f.name].line) + ")"})
		default:
			files[f.name] = f
		}
	}
	for _, name := range lessonFiles {
		if files[name].name == "" && !slices.Contains(suggested, name) {
			add(errors.New("lesson " + file + ": no " + name + " file; a lesson has the files " +
				orList(lessonFiles, "and")))
		}
	}

	if f, ok := files[fileSetup]; ok {
		var err error
		l.Setup, err = parseBlock(KindSetup, where(fileSetup), f.data, 0, 1)
		add(err)
	}
	if f, ok := files[fileGoal]; ok {
		var err error
		l.Goal, err = parseBlock(KindGoal, where(fileGoal), f.data, 0, 1)
		add(err)
		if err == nil && len(l.Goal.Script.Commands) == 0 {
			add(&script.ParseError{File: where(fileGoal), Line: 1, Col: 1,
				Msg: "the goal is empty", Hint: "write the expect commands that define success"})
		}
	}
	if f, ok := files[fileSolution]; ok {
		var err error
		l.Solution, err = parseBlock(KindSolution, where(fileSolution), f.data, 0, 1)
		add(err)
		if err == nil && len(l.Solution.Script.Commands) == 0 {
			add(&script.ParseError{File: where(fileSolution), Line: 1, Col: 1,
				Msg: "the solution is empty", Hint: "write the commands that reach the goal"})
		}
	}
	if f, ok := files[fileHints]; ok {
		l.Hints = paragraphs(f.data)
		if len(l.Hints) == 0 {
			add(&script.ParseError{File: where(fileHints), Line: 1, Col: 1,
				Msg: "there are no hints", Hint: "write one hint per paragraph, separated by blank lines"})
		}
	}
	englishOK := false
	if f, ok := files[fileGuide]; ok {
		var guideErrs []error
		l.Pages, guideErrs = parseGuide(where(fileGuide), f.data)
		errs = append(errs, guideErrs...)
		if len(guideErrs) == 0 {
			errs = append(errs, l.checkStepwise(file, where(fileGuide))...)
			englishOK = true
		}
	}
	errs = append(errs, l.parseTranslations(file, files, header, append(suggested, suggestedKeys...), englishOK)...)

	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// parseName reads the ID, number and slug from the file's name,
// NN-slug.txtar.
func (l *Lesson) parseName(file string) error {
	bad := func(why string) error {
		return errors.New("lesson " + file + ": " + why +
			"; a lesson's file is named NN-slug.txtar: two digits, a dash, then lower-case letters, digits and dashes")
	}
	id, ok := strings.CutSuffix(file, ".txtar")
	if !ok {
		return bad("the name does not end in .txtar")
	}
	if len(id) < 4 || !isDigit(id[0]) || !isDigit(id[1]) || id[2] != '-' {
		return bad("the name does not start with its number")
	}
	slug := id[3:]
	for i := 0; i < len(slug); i++ {
		c := slug[i]
		if !(c >= 'a' && c <= 'z' || isDigit(c) || c == '-') {
			return bad("the slug holds " + strconv.QuoteRune(rune(c)))
		}
	}
	if slug[0] == '-' || slug[len(slug)-1] == '-' {
		return bad("the slug starts or ends with a dash")
	}
	l.ID, l.Slug = id, slug
	l.Number = int(id[0]-'0')*10 + int(id[1]-'0')
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseHeader reads the title, summary and level lines of the archive's
// comment, and those of the other languages. Other non-blank lines are
// errors: a misspelled key would otherwise be a silently missing one. It
// returns the keys it found, with their lines, and those a misspelled key
// was close to.
func (l *Lesson) parseHeader(file, comment string) (map[string]int, []string, error) {
	var errs []error
	seen := map[string]int{}
	// suggested are the keys a misspelled key was close to: that one is not
	// reported missing as well.
	var suggested []string
	keys := headerKeys()
	for i, line := range splitLines(comment) {
		n := i + 1
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		switch {
		case !ok:
			errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: 1,
				Msg:  "a header line without a colon",
				Hint: "the header has the lines title: TEXT, summary: TEXT, level: LEVEL and, optionally, stepwise: PAGES, then title.LANG: and summary.LANG: in each other language"})
			continue
		case !slices.Contains(keys, key):
			s := script.Suggest(key, keys)
			suggested = append(suggested, s...)
			errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: 1 + len(line) - len(strings.TrimLeft(line, " \t")),
				Msg:         "unknown header key " + strconv.Quote(key),
				Suggestions: s,
				Hint:        "the header has the keys " + orList(keys, "and")})
			continue
		}
		if first, dup := seen[key]; dup {
			errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: 1,
				Msg: "a second " + key + ": line (the first is line " + strconv.Itoa(first) + ")"})
			continue
		}
		seen[key] = n
		// The column of the value's first character, for errors about it.
		col := strings.IndexByte(line, ':') + 2 + len(value) - len(strings.TrimLeft(value, " \t"))
		value = strings.TrimSpace(value)
		if value == "" {
			errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: col,
				Msg: "the " + key + " is empty"})
			continue
		}
		switch key {
		case "title":
			l.Title = value
		case "summary":
			l.Summary = value
		case "level":
			levels := make([]string, len(Levels))
			for i, lv := range Levels {
				levels[i] = string(lv)
			}
			if !slices.Contains(levels, value) {
				errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: col,
					Msg:         "unknown level " + strconv.Quote(value),
					Suggestions: script.Suggest(value, levels),
					Hint:        "the level is " + orList(levels, "or")})
				continue
			}
			l.Level = Level(value)
		case "stepwise":
			r, err := parsePageRange(value)
			if err != nil {
				errs = append(errs, &script.ParseError{File: "lesson " + file, Line: n, Col: col,
					Msg: "stepwise: " + err.Error(), Hint: "write the pages the learner steps through, from and to: stepwise: 1-6"})
				continue
			}
			l.Stepwise = r
		default: // title.zh-CN, summary.zh-CN
			what, lang, _ := strings.Cut(key, ".")
			if what == "title" {
				l.translationMade(lang).Title = value
			} else {
				l.translationMade(lang).Summary = value
			}
		}
	}
	for _, key := range requiredHeaderKeys {
		if _, ok := seen[key]; !ok && !slices.Contains(suggested, key) {
			errs = append(errs, errors.New("lesson "+file+": the header has no "+key+": line"))
		}
	}
	return seen, suggested, errors.Join(errs...)
}

// parsePageRange reads "3" or "1-6".
func parsePageRange(v string) (*PageRange, error) {
	from, to, isRange := strings.Cut(v, "-")
	if !isRange {
		to = from
	}
	a, errA := strconv.Atoi(strings.TrimSpace(from))
	b, errB := strconv.Atoi(strings.TrimSpace(to))
	switch {
	case errA != nil || errB != nil:
		return nil, errors.New(strconv.Quote(v) + " is not a page or a range of pages")
	case a < 1 || b < a:
		return nil, errors.New(strconv.Quote(v) + " is not a range of pages from 1 up")
	}
	return &PageRange{From: a, To: b}, nil
}

// checkStepwise holds the stepwise pages to their promise: they exist, and
// their do blocks run one event at a time at most.
func (l *Lesson) checkStepwise(file, where string) []error {
	r := l.Stepwise
	if r == nil {
		return nil
	}
	if r.To > len(l.Pages) {
		return []error{errors.New("lesson " + file + ": stepwise: " + strconv.Itoa(r.From) + "-" + strconv.Itoa(r.To) +
			" names pages the guide does not have (it has " + strconv.Itoa(len(l.Pages)) + ")")}
	}
	var errs []error
	for _, p := range l.Pages[r.From-1 : r.To] {
		for _, b := range p.Do() {
			for _, c := range b.Script.Commands {
				if Multistep(c) {
					src := c.Src()
					errs = append(errs, &script.ParseError{File: where, Line: src.Pos.Line, Col: src.Pos.Col,
						Msg:  "page " + strconv.Itoa(p.N) + " is stepwise (the header's stepwise:), so its do blocks run one event at a time; " + strconv.Quote(src.Text) + " runs more",
						Hint: "let the learner press Step: write a step block with what stepping reaches"})
				}
			}
		}
	}
	return errs
}

// parseBlock parses the commands of a block whose text starts at line first
// of its file, prefixing errors with where. Goal and check blocks may hold
// only expects: they test the world and must never change it, or proving a
// lesson would change what it proves. Only setup may seed the world, since a
// seed anywhere later would come after the world has changed.
func parseBlock(kind Kind, where, text string, page, first int) (*Block, error) {
	return parseBlockAt(kind, where, text, page, first, 1)
}

// parseBlockAt is parseBlock for a block whose text starts at column col of
// its first line.
func parseBlockAt(kind Kind, where, text string, page, first, col int) (*Block, error) {
	s, err := script.Parse(positioned(text, first, col), where)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, c := range s.Commands {
		src := c.Src()
		switch {
		case (kind == KindGoal || kind == KindCheck || kind == KindStep) && !isAssertion(src.Name):
			msg := "a goal holds only expect commands"
			hint := "setup builds the world and solution changes it"
			switch kind {
			case KindCheck:
				msg = "a check block holds only expect commands"
				hint = "commands the learner runs go in a do block"
			case KindStep:
				msg = "a step block holds only expect commands, what pressing Step reaches"
				hint = "commands the learner runs go in a do block"
			}
			errs = append(errs, &script.ParseError{File: where, Line: src.Pos.Line, Col: src.Pos.Col,
				Msg: msg + "; " + strconv.Quote(src.Name) + " is not one", Hint: hint})
		case kind != KindSetup && src.Name == "seed":
			errs = append(errs, &script.ParseError{File: where, Line: src.Pos.Line, Col: src.Pos.Col,
				Msg: "only setup may seed the world", Hint: "move seed to the top of setup"})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	b := &Block{Kind: kind, Page: page, Line: first, Text: text, Script: s}
	if col > 1 {
		b.Col = col
	}
	return b, nil
}

// positioned puts text where it stands in its file, at line first and column
// col, by writing blank lines and spaces before it: the parser then counts
// lines and columns as the file does, so every position, at parse time and
// at run time, is right.
func positioned(text string, first, col int) string {
	return strings.Repeat("\n", first-1) + strings.Repeat(" ", max(col, 1)-1) + text
}

// assertions are the names of the commands that test the world and change
// nothing: the table's Assertions group.
var assertions = func() []string {
	var names []string
	for _, c := range script.Commands() {
		if c.Group == script.GroupAssertions {
			names = append(names, c.Name)
		}
	}
	return names
}()

func isAssertion(name string) bool { return slices.Contains(assertions, name) }

// paragraphs splits text at blank lines and returns each paragraph, its lines
// joined by newlines.
func paragraphs(text string) []string {
	var out, cur []string
	for _, line := range append(splitLines(text), "") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, "\n"))
				cur = nil
			}
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t\r"))
	}
	return out
}

// orList joins words as `"a", "b" or "c"` (or "and").
func orList(words []string, conj string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}

// ParseFS parses every *.txtar file at the top of fsys, in name order, and
// checks that no two share a number. It returns every problem it finds,
// joined, and the lessons only when there is none.
func ParseFS(fsys fs.FS) ([]*Lesson, error) {
	names, err := fs.Glob(fsys, "*.txtar")
	if err != nil {
		return nil, err
	}
	var lessons []*Lesson
	var errs []error
	byNumber := map[int]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l, err := Parse(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := byNumber[l.Number]; dup {
			errs = append(errs, errors.New("lesson "+name+": lesson "+other+" has the same number"))
			continue
		}
		byNumber[l.Number] = name
		lessons = append(lessons, l)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return lessons, nil
}
