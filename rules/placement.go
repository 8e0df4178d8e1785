package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Placement reads and writes the board field of a position string, the
// FEN-like notation every variant uses for its positions: the ranks from
// the top down separated by "/", each listing its cells from the left; a
// run of empty cells is its length in decimal (or, where Empty is set, one
// Empty character per empty cell), a piece is a letter (upper case White,
// lower case Black by convention) followed by at most one of Marks, or a
// bracketed group "[…]" (a stack of pieces on one square, as Seachess
// writes it). What a token means is the variant's business: the codec only
// finds the tokens and their squares.
type Placement struct {
	Board *Board
	// CountHoles says the numbers count the board's holes too (every rank
	// describes Files cells, and a piece on a hole is refused); otherwise
	// the holes are not written at all and each rank describes its
	// existing squares only.
	CountHoles bool
	// HoleRuling is cited when a piece stands on a hole, e.g. "M1".
	HoleRuling string
	// Marks are characters of which one may extend the piece token before
	// it (Transporter's ' and +, Baltic's stack heights 1 and 2).
	Marks string
	// Empty, if set, is a character standing for one empty cell, which
	// Format writes for every empty cell instead of runs (Baltic's ".").
	Empty byte
	// Ranks, if set, is how many ranks the text describes, the bottom ones
	// (Baltic's setup of a side's home ranks); 0 means all the board's.
	Ranks int
}

// ranks is how many ranks a placement describes.
func (pl Placement) ranks() int {
	if pl.Ranks > 0 {
		return min(pl.Ranks, pl.Board.Ranks())
	}
	return pl.Board.Ranks()
}

// row returns rank r's cells from the left: every file (NoSquare for a
// hole) when holes are counted, the existing squares otherwise.
func (pl Placement) row(r int) []Square {
	var sqs []Square
	for f := range pl.Board.Files() {
		sq := pl.Board.At(f, r)
		if sq == NoSquare && !pl.CountHoles {
			continue
		}
		sqs = append(sqs, sq)
	}
	return sqs
}

// Parse reads a placement, calling put for every piece token with its
// square, from the top rank down and left to right; an error of put stops
// the reading and is returned as it is. The codec's own errors name the
// rank and say what is wrong.
func (pl Placement) Parse(text string, put func(sq Square, token string) error) error {
	ranks := strings.Split(text, "/")
	if len(ranks) != pl.ranks() {
		return fmt.Errorf("the placement has %d ranks, want %d separated by \"/\"", len(ranks), pl.ranks())
	}
	for i, text := range ranks {
		r := pl.ranks() - 1 - i
		cells := pl.row(r)
		n := 0 // cells described so far
		for j := 0; j < len(text); {
			ch := text[j]
			if pl.Empty != 0 && ch == pl.Empty {
				if n >= len(cells) {
					return fmt.Errorf("rank %d describes more than %d cells", r+1, len(cells))
				}
				n++
				j++
				continue
			}
			if ch >= '0' && ch <= '9' {
				k := j
				for k < len(text) && text[k] >= '0' && text[k] <= '9' {
					k++
				}
				run, err := strconv.Atoi(text[j:k])
				if err != nil || run == 0 || ch == '0' {
					return fmt.Errorf("rank %d: %q is not a number of empty cells", r+1, text[j:k])
				}
				if run > len(cells)-n {
					return fmt.Errorf("rank %d describes more than %d cells", r+1, len(cells))
				}
				n += run
				j = k
				continue
			}
			var tok string
			if ch == '[' {
				end := strings.IndexByte(text[j+1:], ']')
				if end <= 0 {
					return fmt.Errorf("rank %d: an unclosed or empty [", r+1)
				}
				tok, j = text[j+1:j+1+end], j+end+2
			} else {
				k := j + 1
				if k < len(text) && strings.IndexByte(pl.Marks, text[k]) >= 0 {
					k++
				}
				tok, j = text[j:k], k
			}
			if n >= len(cells) {
				return fmt.Errorf("rank %d describes more than %d cells", r+1, len(cells))
			}
			sq := cells[n]
			if sq == NoSquare {
				msg := fmt.Sprintf("a piece on %s%d, a hole", FileName(n), r+1)
				if pl.HoleRuling != "" {
					msg += " (" + pl.HoleRuling + ")"
				}
				return errors.New(msg)
			}
			if err := put(sq, tok); err != nil {
				return err
			}
			n++
		}
		if n != len(cells) {
			return fmt.Errorf("rank %d describes %d cells, want %d", r+1, n, len(cells))
		}
	}
	return nil
}

// Format writes a placement: at gives each square's token, "" for an empty
// square. A token is written as it is when it reads back alone (one
// character that is not a digit, "[" or Empty, then at most one of Marks),
// otherwise in brackets; so Format writes back whatever Parse read.
func (pl Placement) Format(at func(sq Square) string) string {
	var b strings.Builder
	for r := pl.ranks() - 1; r >= 0; r-- {
		empty := 0
		for _, sq := range pl.row(r) {
			tok := ""
			if sq != NoSquare {
				tok = at(sq)
			}
			if tok == "" && pl.Empty != 0 {
				b.WriteByte(pl.Empty)
				continue
			}
			if tok == "" {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if pl.plain(tok) {
				b.WriteString(tok)
			} else {
				b.WriteString("[" + tok + "]")
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// plain reports whether a token reads back written without brackets.
func (pl Placement) plain(tok string) bool {
	if c := tok[0]; c >= '0' && c <= '9' || c == '[' || (pl.Empty != 0 && c == pl.Empty) {
		return false
	}
	return len(tok) == 1 || len(tok) == 2 && strings.IndexByte(pl.Marks, tok[1]) >= 0
}
