package rules

import (
	"slices"
	"strings"
	"unicode"
)

// Written is a move as a player wrote it, read into its parts by a
// Notation before any position is consulted. A part not written keeps the
// value NewWritten gives it. Squares are cells of the board's grid: a name
// on the grid that is no square of the board (a hole) keeps its cell, so
// that an explainer can say so (Board.Exists tells).
type Written struct {
	Letter  byte   // the piece letter, upper case; 0 when none was written
	From    Square // the square moved from; NoSquare when not written
	File    int    // the file moved from, alone (SAN's Nbd2), 0-based; -1 when not written
	Rank    int    // the rank moved from, alone (SAN's R1e2), 0-based; -1 when not written
	To      Square // the square moved to (or shot at); NoSquare when not written
	Capture bool   // "x" or ":" was written
	Promo   byte   // the piece promoted to, upper case; 0 when none was written
	Aux     Square // the variant's second square (Transporter's @a8, Chess-Battle's ^h9); NoSquare when not written
	// Mark is the variant's mark of a kind of move, or of its record: "O-O",
	// "!" for a shot, "M" for a mine, "+1" for Baltic's point; "" for an
	// ordinary move.
	Mark string
}

// NewWritten is a Written with nothing written.
func NewWritten() Written {
	return Written{From: NoSquare, File: -1, Rank: -1, To: NoSquare, Aux: NoSquare}
}

// Notation is how a variant's moves are written, for reading them: the
// board, the piece letters, and which parts a player may leave out. Read
// gives every reading of a text; Match finds the one legal move they name,
// or refuses the text as ambiguous or says why it names none.
//
// The grammar is algebraic: [letter] [from square | from file | from rank]
// [- x : or a variant's separator] to [promotion] [AuxMark square] [Tail],
// with spaces anywhere, any dash (en, em, minus) for "-", "×" for "x",
// trailing check and annotation marks (+ # ! ?) and the Drop suffixes read
// past; Special reads a variant's other forms (castling, a mine). A letter
// of Letters is read as the piece in upper case, and in lower case unless
// it stands before a digit (then it is a file: c2c3 is a move from c2) or
// is CaseFixed; a file may be written in either case, but for a CaseFixed
// letter at the start. A text that reads two ways keeps both readings, so
// that it names a move only when no other legal move fits it.
//
// Another input notation plugs in here: other characters through Glyphs
// (chess's figurines ♘f3), another language's piece letters through
// Aliases (German chess's D T L S), other shapes through Special (ICCF's
// numbered squares), with the same Match.
type Notation struct {
	Board *Board
	// Letters are the piece letters, upper case. Bare is the piece written
	// without its letter when no square it leaves is given (chess's pawn:
	// e4, exd5), 0 for none.
	Letters string
	Bare    byte
	// CaseFixed are letters whose case decides at the start of a move:
	// upper case the piece, lower case the file (chess's B and b).
	CaseFixed string
	// NeedLetter: a piece other than Bare is not read without its letter,
	// even with the square it leaves (Transporter T7, Submachine M7).
	NeedLetter bool
	// Promotions are the letters a promotion may name; OptionalPromo lets a
	// compulsory promotion with one choice go unwritten (Transporter T5).
	Promotions    string
	OptionalPromo bool
	// AuxMark introduces the second square ("@", "^"); OptionalAux lets the
	// square go unwritten (Transporter T4.1: then only one move may fit).
	AuxMark     string
	OptionalAux bool
	// Seps are separators beyond "-", "x" and ":" that mark a kind of
	// move: each is {what is written, its Mark, "x" if it also marks a
	// capture}, as Chess-Battle's shot {"!", "!", ""}.
	Seps [][3]string
	// Drop are suffixes read past wherever they end the text ("e.p.", "(h)").
	Drop []string
	// Glyphs are characters read as piece letters (♘ as N).
	Glyphs map[rune]byte
	// Aliases are other piece letters, upper case, each read as one of
	// Letters (German chess: D as Q, T as R, L as B, S as N) where a
	// piece letter stands: at the start and as a promotion, never as a
	// file. They follow the case rules of Letters (an alias that is also
	// a file, German D, belongs in CaseFixed).
	Aliases map[byte]byte
	// Special reads the variant's forms outside the grammar (castling, a
	// mine), given the compact text (no spaces, marks and Drop suffixes read
	// past): its readings come first, before the grammar's.
	Special func(t string) []Written
	// Tail reads what may follow the squares, promotion and AuxMark square
	// (Baltic's +1) into the Mark; nil when nothing may.
	Tail func(rest string) (mark string, ok bool)
}

// dashes are the characters read as "-".
const dashes = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"

// Compact is text as Read sees it: without spaces, with every dash as "-",
// "×" as "x" and the Glyphs as their letters, and without the trailing
// check and annotation marks and Drop suffixes.
func (n *Notation) Compact(text string) string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case unicode.IsSpace(r):
		case strings.ContainsRune(dashes, r):
			b.WriteByte('-')
		case r == '×':
			b.WriteByte('x')
		default:
			if l, ok := n.Glyphs[r]; ok {
				b.WriteByte(l)
			} else {
				b.WriteRune(r)
			}
		}
	}
	t := b.String()
	for {
		before := t
		t = strings.TrimRight(t, "+#!?")
		for _, d := range n.Drop {
			if len(t) > len(d) && strings.EqualFold(t[len(t)-len(d):], d) {
				t = t[:len(t)-len(d)]
			}
		}
		if t == before {
			return t
		}
	}
}

// Read returns every reading of text in the notation: none when it is not
// shaped like a move.
func (n *Notation) Read(text string) []Written {
	t := n.Compact(text)
	if t == "" {
		return nil
	}
	r := &reading{n: n}
	if n.Special != nil {
		for _, w := range n.Special(t) {
			r.emit(w)
		}
	}
	w := NewWritten()
	if c, ok := n.letterAt(t); ok {
		lw := w
		lw.Letter = c
		r.origin(t[1:], lw, false)
	}
	r.origin(t, w, true)
	return r.out
}

// letterAt reads a piece letter at the start of t.
func (n *Notation) letterAt(t string) (byte, bool) {
	c := t[0]
	up := c &^ 0x20
	if c < 'A' || up > 'Z' || up < 'A' {
		return 0, false
	}
	piece, ok := n.piece(up)
	if !ok {
		return 0, false
	}
	if c == up {
		return piece, true
	}
	if strings.Contains(n.CaseFixed, string(up)) || (len(t) > 1 && isDigit(t[1])) {
		return 0, false // a file
	}
	return piece, true
}

// piece reads an upper-case letter as one of Letters, directly or through
// Aliases.
func (n *Notation) piece(up byte) (byte, bool) {
	if strings.IndexByte(n.Letters, up) >= 0 {
		return up, true
	}
	if l, ok := n.Aliases[up]; ok {
		return l, true
	}
	return 0, false
}

// reading collects the readings of one text.
type reading struct {
	n   *Notation
	out []Written
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// squares reads the grid cells named at the start of s, with the bytes
// each takes (a10 and a1 both, where the grid has a tenth rank). At the
// start of a move, a CaseFixed letter in upper case is no file.
func (r *reading) squares(s string, atStart bool) (cells []Square, lens []int) {
	b := r.n.Board
	if len(s) < 2 {
		return nil, nil
	}
	file, ok := r.file(s[0], atStart)
	if !ok || s[1] == '0' {
		return nil, nil
	}
	rank := 0
	for i := 1; i < len(s) && i <= 2 && isDigit(s[i]); i++ {
		rank = rank*10 + int(s[i]-'0')
		if rank <= b.Ranks() {
			cells = append(cells, Square(file+(rank-1)*b.Files()))
			lens = append(lens, i+1)
		}
	}
	return cells, lens
}

// file reads a file letter, in either case.
func (r *reading) file(c byte, atStart bool) (int, bool) {
	low := c | 0x20
	if low < 'a' || int(low-'a') >= r.n.Board.Files() {
		return 0, false
	}
	if atStart && c != low && strings.Contains(r.n.CaseFixed, string(c)) {
		return 0, false
	}
	return int(low - 'a'), true
}

// origin reads what names the square a move leaves: a whole square, its
// file, its rank (after a letter), or nothing.
func (r *reading) origin(s string, w Written, atStart bool) {
	if s == "" {
		return
	}
	cells, lens := r.squares(s, atStart)
	for i, sq := range cells {
		o := w
		o.From = sq
		r.sep(s[lens[i]:], o)
	}
	if f, ok := r.file(s[0], atStart); ok && (len(s) < 2 || !isDigit(s[1])) {
		o := w
		o.File = f
		r.sep(s[1:], o)
	}
	if w.Letter != 0 && isDigit(s[0]) && s[0] != '0' {
		rank := 0
		for i := 0; i < len(s) && i < 2 && isDigit(s[i]); i++ {
			rank = rank*10 + int(s[i]-'0')
			if rank <= r.n.Board.Ranks() {
				o := w
				o.Rank = rank - 1
				r.sep(s[i+1:], o)
			}
		}
	}
	r.sep(s, w)
}

// sep reads an optional separator.
func (r *reading) sep(s string, w Written) {
	for _, x := range [...][3]string{{"-", "", ""}, {"x", "", "x"}, {"X", "", "x"}, {":", "", "x"}} {
		if strings.HasPrefix(s, x[0]) {
			o := w
			o.Capture = x[2] == "x"
			r.to(s[len(x[0]):], o)
		}
	}
	for _, x := range r.n.Seps {
		if strings.HasPrefix(s, x[0]) {
			o := w
			o.Mark, o.Capture = x[1], x[2] == "x"
			r.to(s[len(x[0]):], o)
		}
	}
	r.to(s, w)
}

// to reads the square moved to.
func (r *reading) to(s string, w Written) {
	cells, lens := r.squares(s, false)
	for i, sq := range cells {
		o := w
		o.To = sq
		r.tail(s[lens[i]:], o)
	}
}

// tail reads a promotion, the second square and the variant's Tail, in any
// order, each once.
func (r *reading) tail(s string, w Written) {
	n := r.n
	if s == "" {
		r.emit(w)
		return
	}
	if n.Promotions != "" && w.Promo == 0 {
		for _, f := range [...]struct{ pre, post string }{{"=", ""}, {"(", ")"}, {"", ""}} {
			rest, ok := strings.CutPrefix(s, f.pre)
			if !ok || rest == "" {
				continue
			}
			c := rest[0] &^ 0x20
			if c < 'A' || c > 'Z' {
				continue
			}
			if l, ok := n.Aliases[c]; ok && strings.IndexByte(n.Letters, c) < 0 {
				c = l
			}
			if !strings.Contains(n.Promotions, string(c)) {
				continue
			}
			if after, ok := strings.CutPrefix(rest[1:], f.post); ok {
				o := w
				o.Promo = c
				r.tail(after, o)
			}
		}
	}
	if n.AuxMark != "" && w.Aux == NoSquare {
		if rest, ok := strings.CutPrefix(s, n.AuxMark); ok {
			cells, lens := r.squares(rest, false)
			for i, sq := range cells {
				o := w
				o.Aux = sq
				r.tail(rest[lens[i]:], o)
			}
		}
	}
	if n.Tail != nil && w.Mark == "" {
		if mark, ok := n.Tail(s); ok {
			o := w
			o.Mark = mark
			r.emit(o)
		}
	}
}

func (r *reading) emit(w Written) {
	if !slices.Contains(r.out, w) {
		r.out = append(r.out, w)
	}
}

// Fits reports whether the reading w names the move whose full spelling
// is f (every part written, as the variant spells the move): every part w
// gives is f's, and every part it leaves out may be left out. The Bare
// piece's letter may go unwritten: with the square it leaves, or with the
// file it leaves for a capture (exd5) and with the square reached alone
// for any other move (e4); another piece's when the square it leaves is
// written (a coordinate form names the piece on that square), but not
// with NeedLetter. Whether "x" was written does not matter.
func (n *Notation) Fits(w, f Written) bool {
	b := n.Board
	switch {
	case w.Mark != f.Mark || w.To != f.To:
		return false
	case w.From != NoSquare && w.From != f.From:
		return false
	case w.File >= 0 && (f.From == NoSquare || b.File(f.From) != w.File):
		return false
	case w.Rank >= 0 && (f.From == NoSquare || b.Rank(f.From) != w.Rank):
		return false
	case w.Promo != f.Promo && !(w.Promo == 0 && n.OptionalPromo):
		return false
	case w.Aux != f.Aux && !(w.Aux == NoSquare && n.OptionalAux):
		return false
	case w.Letter != 0:
		return w.Letter == f.Letter
	case f.Letter == 0: // a variant without letters: the square left names the piece
		return w.From != NoSquare || f.From == NoSquare
	case f.Letter == n.Bare:
		return w.From != NoSquare || f.Capture == (w.File >= 0)
	}
	return w.From != NoSquare && !n.NeedLetter
}
