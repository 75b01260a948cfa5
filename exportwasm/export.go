package main

import (
	"errors"

	"github.com/reconcilelab/rlab/core/export"
	"github.com/reconcilelab/rlab/core/minijson"
)

// exportHistory writes the history in data, export.History's JSON, as the
// script rlab export would write for it. It is the program's whole work,
// kept out of main_js.go so that the native tests run it.
func exportHistory(data []byte) (string, error) {
	var h export.History
	if err := minijson.Decode(data, &h); err != nil {
		return "", errors.New("the export history is not what this export.wasm reads (is the page from another build?): " + err.Error())
	}
	res, err := export.FromHistory(h)
	if err != nil {
		return "", errors.New("the export could not be written: " + err.Error())
	}
	return res.Script(), nil
}
