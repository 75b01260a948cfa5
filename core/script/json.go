package script

import "github.com/reconcilelab/rlab/core/minijson"

// The command table's documentation goes to the page as JSON (the bridge's
// help op). Each EncodeJSON lists the type's fields in order, one line each,
// as core/minijson explains; a field added to a type needs its line here, and
// the test beside this file names any that is missing.

// EncodeJSON writes the command's documentation.
func (c *CommandDoc) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", c.Name)
	w.String("group", string(c.Group))
	w.String("usage", c.Usage)
	w.String("summary", c.Summary)
	w.OptString("details", c.Details)
	w.OptStrings("aliases", c.Aliases)
	minijson.OptList(w, "args", c.Args)
	minijson.OptList(w, "flags", c.Flags)
	w.Strings("examples", c.Examples)
	w.EndObject()
}

// EncodeJSON writes the argument's documentation.
func (a *ArgDoc) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", a.Name)
	w.String("help", a.Help)
	w.OptBool("optional", a.Optional)
	w.OptBool("repeated", a.Repeated)
	w.OptStrings("values", a.Values)
	w.EndObject()
}

// EncodeJSON writes the flag's documentation.
func (f *FlagDoc) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("name", f.Name)
	w.OptString("short", f.Short)
	w.String("type", string(f.Type))
	w.OptString("placeholder", f.Placeholder)
	w.OptString("default", f.Default)
	w.OptStrings("values", f.Values)
	w.OptBool("required", f.Required)
	w.String("help", f.Help)
	w.EndObject()
}

// EncodeJSON writes the kind's documentation.
func (k *KindDoc) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kind", string(k.Kind))
	w.String("short", k.Short)
	w.Strings("names", k.Names)
	w.EndObject()
}
