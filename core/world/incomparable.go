package world

// incomparable, as a struct's first field, makes the struct not comparable,
// so the compiler writes no equality function for it. The views the bridge
// encodes go into interfaces and got one each; see core/script's
// incomparable for what that cost.
type incomparable [0]func()
