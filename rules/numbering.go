package rules

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Full-move numbering, as players count moves and as PGN writes them: the
// game's first mover and the reply share a number. A variant whose first
// mover is not White (Transporter: Black, T1.2) is numbered the same way,
// from its own first mover: move 1 is the first mover's move and the
// other side's answer, which is also how WritePGN numbers a game that has
// no FEN tag. So "12. e4 e5" is the first mover's twelfth move and the
// answer, and "12... e5" the answer alone.

// moveNumber is a move number before a move: "12.", "12...", "12. ...",
// "12…" (the one-character ellipsis phones and Macs type), with spaces
// anywhere between.
var moveNumber = regexp.MustCompile(`^\d+\s*(?:\.(?:\s*(?:\.{1,3}|…))?|…)\s*`)

// TrimMoveNumber removes the move number a player may write before a move
// ("12. Nf3", "12... Nf6", "12… Nf6", "1. ... e5") and the spaces around
// it: the one reading of numbered moves, in mail and on the command line.
// A number alone gives "". Castling with zeros (0-0) has no number to trim.
func TrimMoveNumber(text string) string {
	return strings.TrimSpace(moveNumber.ReplaceAllString(strings.TrimSpace(text), ""))
}

// MoveNumber is the full-move number of ply (counted from 0 at the game's
// first move) and whether that ply is the second move of the number (the
// reply of the side that did not move first).
func MoveNumber(ply int) (number int, reply bool) {
	return ply/2 + 1, ply%2 == 1
}

// FullMoves is how many moves players count in a game of plies plies:
// the first mover's move and the reply count as one, so 45 plies are 23
// moves.
func FullMoves(plies int) int {
	return (plies + 1) / 2
}

// MoveLabel is the number written before a move: "12." for the first
// mover's move, "12..." for the reply.
func MoveLabel(ply int) string {
	n, reply := MoveNumber(ply)
	if reply {
		return strconv.Itoa(n) + "..."
	}
	return strconv.Itoa(n) + "."
}

// NumberedMoves writes a run of moves starting at ply first, numbered as in
// PGN movetext: "12. e4 e5 13. Nf3", or "12... e5 13. Nf3" when the run
// starts with a reply.
func NumberedMoves(first int, texts []string) string {
	var b strings.Builder
	for i, t := range texts {
		ply := first + i
		if i > 0 {
			b.WriteByte(' ')
		}
		n, reply := MoveNumber(ply)
		switch {
		case !reply:
			b.WriteString(strconv.Itoa(n) + ". ")
		case i == 0:
			b.WriteString(strconv.Itoa(n) + "... ")
		}
		b.WriteString(t)
	}
	return b.String()
}

// RecordLines lays out a record one full move per line, the numbers right
// aligned: " 1. e4 e5", "12. Nf3". No line is longer than width (runes)
// unless a single move is: when a full move does not fit, the reply gets a
// line of its own ("12... e5"); a move that does not fit on its line
// continues on the next lines, indented past the number.
func RecordLines(first int, texts []string, width int) []string {
	if len(texts) == 0 {
		return nil
	}
	last, _ := MoveNumber(first + len(texts) - 1)
	numWidth := len(strconv.Itoa(last))
	label := func(ply int, alone bool) string {
		n, reply := MoveNumber(ply)
		s := strconv.Itoa(n)
		s = strings.Repeat(" ", numWidth-len(s)) + s
		if reply && alone {
			return s + "..."
		}
		return s + "."
	}
	var out []string
	emit := func(head, text string) {
		indent := strings.Repeat(" ", utf8.RuneCountInString(head)+1)
		out = append(out, wrapWords(head+" "+text, indent, width)...)
	}
	for i := 0; i < len(texts); i++ {
		ply := first + i
		_, reply := MoveNumber(ply)
		if reply {
			emit(label(ply, true), texts[i])
			continue
		}
		line := label(ply, false) + " " + texts[i]
		if i+1 < len(texts) {
			pair := line + " " + texts[i+1]
			if utf8.RuneCountInString(pair) <= width {
				out = append(out, pair)
				i++
				continue
			}
		}
		emit(label(ply, false), texts[i])
	}
	return out
}

// wrapWords breaks s at spaces into lines of at most width runes, the
// continuation lines starting with indent. A word longer than a line is
// left whole.
func wrapWords(s, indent string, width int) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	line := s[:len(s)-len(body)]
	start := true // line holds only its indentation
	var out []string
	for _, w := range strings.Fields(body) {
		switch {
		case start:
			line += w
			start = false
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			out = append(out, line)
			line = indent + w
		}
	}
	return append(out, line)
}
