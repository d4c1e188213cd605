//go:build !unix

package write

// These systems have no O_NOFOLLOW or O_NONBLOCK; a link in the last place
// is refused by Root's check before the open, and they have no FIFOs that
// an open could wait on.
const (
	noFollow = 0
	nonBlock = 0
)
