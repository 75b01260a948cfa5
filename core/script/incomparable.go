package script

// incomparable, as a struct's first field, makes the struct not comparable
// with ==, and takes no room. The compiler then writes no equality function
// for it. A struct that goes into an interface (each command does) gets one
// otherwise, in case two such interfaces are compared: script's and world's
// fifty were 40 KB of main.wasm. The structs that are compared (map keys, a
// check whether something changed) stay comparable. No command is compared
// with ==, which would now panic: tests compare them with assert.Equal,
// which compares by reflection.
type incomparable [0]func()
