package mailfmt

import (
	"strconv"
	"strings"
)

// The game tag is "[bp-" + the game id in decimal + "]", e.g. "[bp-42]".
// It is short (subjects are often cut on phones), survives the "Re:",
// "AW:", "SV:" and "[EXTERNAL]" that clients and gateways add, and is
// unlikely to appear in a subject by chance.
const (
	tagPrefix = "[bp-"
	tagSuffix = "]"
)

// maxTagDigits is the length of the largest uint64 in decimal.
const maxTagDigits = 20

// FormatTag returns the subject tag of game: "[bp-42]" for 42.
func FormatTag(game uint64) string {
	return tagPrefix + strconv.FormatUint(game, 10) + tagSuffix
}

// ParseTag finds the game tag in a subject. It accepts any case ("[BP-42]")
// but only canonical numbers (no sign, no leading zero, no overflow), so
// that FormatTag(game) is the one spelling of each game's tag. A subject
// carrying tags of two different games is ambiguous: ok is false.
func ParseTag(subject string) (game uint64, ok bool) {
	lower := strings.ToLower(subject)
	for rest := lower; ; {
		i := strings.Index(rest, tagPrefix)
		if i < 0 {
			return game, ok
		}
		rest = rest[i+len(tagPrefix):]
		n := 0
		for n < len(rest) && n <= maxTagDigits && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n > maxTagDigits || !strings.HasPrefix(rest[n:], tagSuffix) ||
			(n > 1 && rest[0] == '0') {
			continue
		}
		id, err := strconv.ParseUint(rest[:n], 10, 64)
		if err != nil {
			continue
		}
		if ok && id != game {
			return 0, false
		}
		game, ok = id, true
		rest = rest[n+len(tagSuffix):]
	}
}
