package main

import (
	"errors"
	"strings"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/lessons"
)

// exportHistory writes the history in data, export.History's JSON, as the
// script rlab export would write for it. A lesson's history comes from the
// page without the lesson's setup, which the page does not have: it is
// taken from the lessons this program was built with, the same ones
// make wasm wrote into lessons.json beside it. This is the program's whole
// work, kept out of main_js.go so that the native tests run it.
func exportHistory(data []byte) (string, error) {
	var h export.History
	if err := minijson.Decode(data, &h); err != nil {
		return "", errors.New("the export history is not what this export.wasm reads (is the page from another build?): " + err.Error())
	}
	if h.Lesson != "" && len(h.Setup) == 0 {
		setup, err := lessonSetup(h.Lesson)
		if err != nil {
			return "", err
		}
		h.Setup = setup
	}
	res, err := export.FromHistory(h)
	if err != nil {
		return "", errors.New("the export could not be written: " + err.Error())
	}
	return res.Script(), nil
}

// lessonSetup returns the setup commands of the lesson with id, each as
// written.
func lessonSetup(id string) ([]string, error) {
	all, err := lessons.All()
	if err != nil {
		return nil, errors.New("the lessons this export.wasm carries do not load: " + err.Error())
	}
	ids := make([]string, 0, len(all))
	for _, l := range all {
		if l.ID != id {
			ids = append(ids, l.ID)
			continue
		}
		setup := make([]string, 0, len(l.Setup.Script.Commands))
		for _, cmd := range l.Setup.Script.Commands {
			setup = append(setup, cmd.Src().Text)
		}
		return setup, nil
	}
	return nil, errors.New("no lesson " + id + " in this export.wasm (is the page from another build?); its lessons are " + strings.Join(ids, ", "))
}
