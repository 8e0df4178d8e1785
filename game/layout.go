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
// line of spaces alone). Each line is written into the result as it is
// filled: a line is begun with its first word, so a line of its lead or
// indent alone is never put.
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
	prefix, start := lead, true // the current line's lead; no word on it yet
	n := 0                      // characters on the current line
	begin := func(word string) {
		w.put(prefix)
		w.b.WriteString(word)
		n, start = utf8.RuneCountInString(prefix)+utf8.RuneCountInString(word), false
	}
	end := func() { prefix, start = indent, true }
	for word := range strings.FieldsSeq(body) {
		for utf8.RuneCountInString(indent)+utf8.RuneCountInString(word) > textWidth {
			// A word that fits on no line: cut it.
			if !start {
				end()
			}
			r := []rune(word)
			cut := textWidth - utf8.RuneCountInString(prefix)
			begin(string(r[:cut]))
			word = string(r[cut:])
			end()
		}
		switch {
		case start:
			begin(word)
		case n+1+utf8.RuneCountInString(word) <= textWidth:
			w.b.WriteByte(' ')
			w.b.WriteString(word)
			n += 1 + utf8.RuneCountInString(word)
		default:
			end()
			begin(word)
		}
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
