package game

import (
	"strings"
	"unicode/utf8"
)

// textWidth is the longest line, in characters, of the text part of every
// mail the service sends: 78, as RFC 5322 (section 2.1.1) recommends, so
// that no mail client wraps a board, a record or a receipt.
const textWidth = 78

// wrapText breaks each line of s that is longer than textWidth at spaces.
// Continuation lines are indented like the text of the line they continue
// (past its leading spaces and a "- " list mark). A word longer than a line
// (a very long address) is cut. Boards, records and receipts are laid out
// to fit beforehand; this catches sentences.
func wrapText(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if utf8.RuneCountInString(line) <= textWidth {
			out = append(out, line)
			continue
		}
		body := strings.TrimLeft(line, " ")
		lead := line[:len(line)-len(body)]
		indent := lead
		if strings.HasPrefix(body, "- ") {
			indent += "  "
		}
		if utf8.RuneCountInString(indent) > textWidth/2 {
			lead, indent = "", ""
		}
		cur, start := lead, true
		flush := func() {
			out = append(out, cur)
			cur, start = indent, true
		}
		for _, w := range strings.Fields(body) {
			for utf8.RuneCountInString(indent)+utf8.RuneCountInString(w) > textWidth {
				// A word that fits on no line: cut it.
				if !start {
					flush()
				}
				r := []rune(w)
				n := textWidth - utf8.RuneCountInString(cur)
				cur += string(r[:n])
				w = string(r[n:])
				flush()
			}
			switch {
			case start:
				cur += w
				start = false
			case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= textWidth:
				cur += " " + w
			default:
				flush()
				cur += w
				start = false
			}
		}
		if !start {
			out = append(out, cur)
		}
	}
	return strings.Join(out, "\n")
}
