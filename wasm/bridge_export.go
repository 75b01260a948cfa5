package main

// This file is the export op: the page's Export button downloads what the
// learner did, as a script of kubectl for a cluster of their own. Writing
// that script is core/export's work, and core/export is not in main.wasm
// (it would take the program over its size budget): this op hands the page
// the world's history as data, and the page runs export.wasm (exportwasm/),
// which replays it with core/export's FromHistory, only when the learner
// asks for an export.

// ExportHistory is core/export's History, field for field and with the same
// JSON, so that main.wasm need not import core/export to write one. The
// bridge's tests decode it into export.History, unknown fields refused, so
// the two cannot drift apart unnoticed.
type ExportHistory struct {
	// Source names where the world came from: "lesson ID" or "the sandbox".
	Source string `json:"source"`
	// Seed is the world's seed.
	Seed uint64 `json:"seed"`
	// Setup are the lesson's setup commands as written; empty for the sandbox.
	Setup []string `json:"setup"`
	// Inputs are the learner's inputs after the setup, in order.
	Inputs []ExportInput `json:"inputs"`
	// Present is the step the learner is at.
	Present uint64 `json:"present"`
}

// ExportInput is one of the learner's inputs and the step it was applied at.
type ExportInput struct {
	Step uint64 `json:"step"`
	Line string `json:"line"`
}

// Export returns the loaded world's history up to the present: the lesson's
// setup, if any, the seed, and each input the learner applied with its step.
// It reads the world and changes nothing. Inputs applied after the present
// (the learner sought back before them) are left for export.FromHistory to
// drop, which knows the present too.
func (b *Bridge) Export() (*ExportHistory, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	h := &ExportHistory{Source: "the sandbox", Seed: w.Config().Seed, Setup: []string{}, Inputs: []ExportInput{}, Present: w.Kernel.Steps()}
	if e.lesson != nil {
		h.Source = "lesson " + e.lesson.ID
		for _, cmd := range e.lesson.Setup.Script.Commands {
			h.Setup = append(h.Setup, cmd.Src().Text)
		}
	}
	inputs := w.Inputs()
	for _, in := range inputs[min(e.baseInputs, len(inputs)):] {
		h.Inputs = append(h.Inputs, ExportInput{Step: in.Step, Line: in.Name})
	}
	return h, nil
}
