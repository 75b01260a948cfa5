package lesson

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/core/script"
)

// This file holds lessons as data: a bundle is the lessons Parse has read and
// validated, written as JSON, which is what the page's engine loads. Parse,
// with its checks and the positioned, suggesting errors they report, is for
// authors and CI (rlab lessons, the tests); the browser needs none of it, and
// leaving it out of main.wasm, with the lesson files and the fs.FS that held
// them, saves the page about 19 KB of its brotli size (see lessons/doc.go).
//
// The bundle has every field of the parsed lessons but the parsed commands:
// LoadBundle parses each block's text again, at its line of its file, so
// that commands and their positions are exactly those Parse found.

// MarshalBundle writes lessons, as Parse returned them, as the bundle
// LoadBundle reads: JSON, indented with tabs, one member per line, so that a
// change to a lesson shows as a readable diff of the bundle.
func MarshalBundle(lessons []*Lesson) ([]byte, error) {
	compact, err := minijson.Marshal(lessons)
	if err != nil {
		return nil, err
	}
	v, err := minijson.Parse(compact)
	if err != nil {
		return nil, err
	}
	b, err := minijson.AppendIndent(nil, v, "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// LoadBundle reads a bundle that MarshalBundle wrote and parses the
// commands of its blocks again. It does not validate the lessons a second
// time: a bundle is only ever made from lessons Parse accepted.
func LoadBundle(data []byte) ([]*Lesson, error) {
	var lessons []*Lesson
	if err := minijson.Decode(data, &lessons); err != nil {
		return nil, errors.New("the lesson bundle is not what MarshalBundle writes: " + err.Error())
	}
	for _, l := range lessons {
		where := "lesson " + l.File() + ", "
		for _, b := range []*Block{l.Setup, l.Goal, l.Solution} {
			if err := b.parseAgain(where + string(b.Kind)); err != nil {
				return nil, err
			}
		}
		if err := parsePagesAgain(where+fileGuide, l.Pages); err != nil {
			return nil, err
		}
		// A translation's blocks count lines in its own guide, as Parse
		// read them. The translations come in the order of Languages, as
		// Parse lists them, each language once: the page and Translation
		// find one by its language.
		last := 0
		for _, t := range l.Translations {
			if t == nil {
				return nil, errors.New("the lesson bundle lacks a translation of lesson " + l.ID)
			}
			// English (0), a language not shipped (-1), one listed twice
			// and one out of order all come at or before the last.
			i := slices.Index(Languages, t.Lang)
			if i <= last {
				return nil, errors.New("the lesson bundle has a translation of lesson " + l.ID + " into " + strconv.Quote(t.Lang) +
					" out of place: a lesson's translations are into the languages this engine ships, each once, in the order " + strings.Join(Languages[1:], ", "))
			}
			last = i
			if err := parsePagesAgain(where+GuideFile(t.Lang), t.Pages); err != nil {
				return nil, err
			}
		}
	}
	return lessons, nil
}

// parsePagesAgain parses the commands of every block of pages again.
func parsePagesAgain(where string, pages []*Page) error {
	for _, p := range pages {
		if p == nil {
			return errors.New("the lesson bundle lacks a page")
		}
		for _, b := range p.Blocks {
			if err := b.parseAgain(where); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseAgain parses the block's commands from its text, as parseBlock did,
// so that their positions count in the block's file. A predict block has
// none.
func (b *Block) parseAgain(where string) error {
	if b == nil {
		return errors.New("the lesson bundle lacks a block")
	}
	if b.Kind == KindPredict {
		if b.Predict == nil {
			return errors.New("the lesson bundle has a predict block without its question")
		}
		for _, c := range b.Predict.Choices {
			if c == nil {
				return errors.New("the lesson bundle has a predict block with a missing choice")
			}
			if err := c.Expect.parseAgain(where); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := script.Parse(positioned(b.Text, b.Line, b.Col), where)
	b.Script = s
	return err
}
