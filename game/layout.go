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
	if fits(s) {
		return s // nothing to break, nothing to copy
	}
	w := lineWriter{}
	w.b.Grow(len(s) + len(s)/8)
	for line := range strings.SplitSeq(s, "\n") {
		if utf8.RuneCountInString(line) <= textWidth {
			w.put(line)
			continue
		}
		w.wrap(line)
	}
	return w.b.String()
}

// lineWriter joins the lines of wrapText's result with "\n".
type lineWriter struct {
	b strings.Builder
	n int // lines put
}

func (w *lineWriter) put(line string) {
	if w.n > 0 {
		w.b.WriteByte('\n')
	}
	w.n++
	w.b.WriteString(line)
}

// wrap puts a line longer than textWidth, broken at spaces (none for a
// line of spaces alone).
func (w *lineWriter) wrap(line string) {
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
		w.put(cur)
		cur, start = indent, true
	}
	for _, word := range strings.Fields(body) {
		for utf8.RuneCountInString(indent)+utf8.RuneCountInString(word) > textWidth {
			// A word that fits on no line: cut it.
			if !start {
				flush()
			}
			r := []rune(word)
			n := textWidth - utf8.RuneCountInString(cur)
			cur += string(r[:n])
			word = string(r[n:])
			flush()
		}
		switch {
		case start:
			cur += word
			start = false
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= textWidth:
			cur += " " + word
		default:
			flush()
			cur += word
			start = false
		}
	}
	if !start {
		w.put(cur)
	}
}

// fits reports whether every line of s is at most textWidth characters.
func fits(s string) bool {
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		if len(line) > textWidth && utf8.RuneCountInString(line) > textWidth {
			return false
		}
		s = rest
	}
	return true
}
