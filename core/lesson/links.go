package lesson

import (
	"strconv"
	"strings"
)

// This file finds the links a lesson's text makes to the glossary and to
// the upstream code, so that they can be proven to lead somewhere.

// The schemes of the links a lesson may make, written as Markdown links:
// [ControllerRef](glossary:controller-ref) opens the glossary's entry, and
// [syncReplicaSet](upstream:syncReplicaSet) or
// [the claim](upstream:pkg/controller/controller_ref_manager.go) the
// upstream function (by a name core/source knows) or file, at v1.31.14.
const (
	SchemeGlossary = "glossary"
	SchemeUpstream = "upstream"
)

// Link is one link of a lesson's text.
type Link struct {
	// Scheme is SchemeGlossary or SchemeUpstream; Target what follows its
	// colon; Text the words linked.
	Scheme, Target, Text string
	// Where names the link's place for an error: "guide.md:12" or
	// "hints, paragraph 2".
	Where string
}

// Links returns every glossary and upstream link of the lesson's guide
// (its pages' text, predicts included) and hints, in order, then those of
// each translation's, language by language.
func (l *Lesson) Links() []Link {
	out := linksOf(fileGuide, fileHints, l.Pages, l.Hints)
	for _, lang := range Languages[1:] {
		if t := l.Translation(lang); t != nil {
			out = append(out, linksOf(GuideFile(lang), HintsFile(lang), t.Pages, t.Hints)...)
		}
	}
	return out
}

// linksOf returns the links of one language's pages and hints, read from
// the files guide and hints.
func linksOf(guide, hints string, pages []*Page, hintList []string) []Link {
	var out []Link
	for _, p := range pages {
		out = append(out, p.Links(guide)...)
	}
	for i, h := range hintList {
		out = append(out, linksIn(h, hints+", paragraph "+strconv.Itoa(i+1))...)
	}
	return out
}

// Links returns the glossary and upstream links of the page, read from the
// file guide ("guide.md", "guide.zh-CN.md"), in order.
func (p *Page) Links(guide string) []Link {
	var out []Link
	for i, line := range strings.Split(p.Text, "\n") {
		out = append(out, linksIn(line, guide+":"+strconv.Itoa(p.Line+i))...)
	}
	return out
}

// linksIn finds the links of one line of Markdown: [text](scheme:target).
func linksIn(line, where string) []Link {
	var out []Link
	for rest := line; ; {
		open := strings.Index(rest, "](")
		if open < 0 {
			return out
		}
		textStart := strings.LastIndexByte(rest[:open], '[')
		end := strings.IndexByte(rest[open:], ')')
		if textStart < 0 || end < 0 {
			rest = rest[open+2:]
			continue
		}
		text, dest := rest[textStart+1:open], rest[open+2:open+end]
		rest = rest[open+end+1:]
		scheme, target, ok := strings.Cut(dest, ":")
		if ok && (scheme == SchemeGlossary || scheme == SchemeUpstream) {
			out = append(out, Link{Scheme: scheme, Target: target, Text: text, Where: where})
		}
	}
}
