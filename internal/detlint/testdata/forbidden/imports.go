package forbidden

// Every import the kernel must not use. Blank imports are enough: the lint
// judges the import itself, whatever the file then does with the package.
import (
	_ "crypto/rand"                // want `import of "crypto/rand"`
	_ "github.com/hack-pad/safejs" // want `import of "github.com/hack-pad/safejs"`
	_ "hash/maphash"               // want `import of "hash/maphash"`
	_ "math/rand"                  // want `import of "math/rand"`
	_ "net"                        // want `import of "net"`
	_ "net/netip"                  // want `import of "net/netip"`
	_ "os"                         // want `import of "os"`
	_ "os/exec"                    // want `import of "os/exec"`
	_ "sync"                       // want `import of "sync"`
	_ "sync/atomic"                // want `import of "sync/atomic"`
	_ "syscall/js"                 // want `import of "syscall/js"`
)

// A renamed import is judged by the package it names, not by the name it is
// given here.
import locks "sync" // want `import of "sync"`

var _ locks.Mutex
