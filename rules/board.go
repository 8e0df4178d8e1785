package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Square is a cell of a board's files × ranks grid: file + rank*Files, both
// counted from zero. Whether the cell exists is the board's business.
type Square int16

// NoSquare marks the absence of a square: no neighbour, an unused move field.
const NoSquare Square = -1

// Dir is one of the eight king directions, from White's point of view.
type Dir uint8

// The eight directions, clockwise from north (towards higher ranks).
const (
	N Dir = iota
	NE
	E
	SE
	S
	SW
	W
	NW
)

// NumDirs is the number of directions.
const NumDirs = 8

var dirDelta = [NumDirs][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// Delta returns the plain file and rank offsets of a direction.
func (d Dir) Delta() (df, dr int) { return dirDelta[d][0], dirDelta[d][1] }

// Opposite returns the direction pointing the other way.
func (d Dir) Opposite() Dir { return (d + 4) % NumDirs }

// Diagonal reports whether d is one of NE, SE, SW, NW.
func (d Dir) Diagonal() bool { return d%2 == 1 }

// String names the direction ("N", "NE", …).
func (d Dir) String() string {
	return [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}[d]
}

// Orthogonals and Diagonals list the rook and bishop directions; AllDirs all eight.
var (
	Orthogonals = []Dir{N, E, S, W}
	Diagonals   = []Dir{NE, SE, SW, NW}
	AllDirs     = []Dir{N, NE, E, SE, S, SW, W, NW}
)

// Mark is a set of properties a square carries beyond existing.
type Mark uint16

// Square marks used by the variants.
const (
	MarkTeleport    Mark = 1 << iota // Submachine M3
	MarkTransporter                  // Transporter T4
	MarkHavenWhite                   // Seachess S1: White's haven
	MarkHavenBlack                   // Seachess S1: Black's haven
	MarkCampWhite                    // Transporter T1: White's camp
	MarkCampBlack                    // Transporter T1: Black's camp
	MarkDark                         // a dark square (Chess-Battle C1.2, chess)
)

// BoardSpec describes a board to build. Exists decides which cells of the
// grid are squares. Step, if set, overrides the plain one-square step for a
// direction (wrap-around and one-way links live there); it is only asked
// about existing squares and must return an existing square or ok=false.
type BoardSpec struct {
	Name   string
	Files  int // at most 26
	Ranks  int // at most 99
	Exists func(file, rank int) bool
	Step   func(file, rank int, d Dir) (f, r int, ok bool)
	Marks  func(file, rank int) Mark
	// Glyph gives how an empty square looks in an ASCII board; by default
	// "." (and ":" for a dark square when the board shows colours).
	Glyph func(file, rank int, m Mark) string
}

// Board is the geometry of a variant: which squares exist, how they link to
// each other in each direction, and how they are marked. It is immutable
// once built and everything is precomputed, so piece code only follows
// tables.
type Board struct {
	name         string
	files, ranks int
	exists       []bool
	squares      []Square
	next         [NumDirs][]Square
	rays         [NumDirs][][]Square
	marks        []Mark
	glyphs       []string
}

// NewBoard builds and precomputes a board. It panics on an inconsistent
// spec: boards are static data checked by tests.
func NewBoard(spec BoardSpec) *Board {
	if spec.Files < 1 || spec.Files > 26 || spec.Ranks < 1 || spec.Ranks > 99 {
		panic(fmt.Sprintf("rules: board %s: bad size %dx%d", spec.Name, spec.Files, spec.Ranks))
	}
	n := spec.Files * spec.Ranks
	b := &Board{name: spec.Name, files: spec.Files, ranks: spec.Ranks,
		exists: make([]bool, n), marks: make([]Mark, n), glyphs: make([]string, n)}
	for sq := range n {
		f, r := sq%spec.Files, sq/spec.Files
		if spec.Exists == nil || spec.Exists(f, r) {
			b.exists[sq] = true
			b.squares = append(b.squares, Square(sq))
		}
	}
	for _, sq := range b.squares {
		f, r := b.Coords(sq)
		if spec.Marks != nil {
			b.marks[sq] = spec.Marks(f, r)
		}
		switch {
		case spec.Glyph != nil:
			b.glyphs[sq] = spec.Glyph(f, r, b.marks[sq])
		default:
			b.glyphs[sq] = "."
		}
	}
	for d := range Dir(NumDirs) {
		b.next[d] = make([]Square, n)
		for sq := range b.next[d] {
			b.next[d][sq] = NoSquare
		}
		for _, sq := range b.squares {
			f, r := b.Coords(sq)
			var nf, nr int
			ok := false
			if spec.Step != nil {
				nf, nr, ok = spec.Step(f, r, d)
			} else {
				df, dr := d.Delta()
				nf, nr, ok = f+df, r+dr, true
			}
			if ok && b.On(nf, nr) && b.exists[nf+nr*b.files] {
				b.next[d][sq] = Square(nf + nr*b.files)
			} else if ok && spec.Step != nil && b.On(nf, nr) {
				panic(fmt.Sprintf("rules: board %s: step from %s leads to a missing square", spec.Name, b.Name(sq)))
			}
		}
	}
	for d := range Dir(NumDirs) {
		b.rays[d] = make([][]Square, n)
		for _, sq := range b.squares {
			var ray []Square
			seen := map[Square]bool{sq: true}
			for t := b.next[d][sq]; t != NoSquare && !seen[t]; t = b.next[d][t] {
				seen[t] = true
				ray = append(ray, t)
			}
			b.rays[d][sq] = ray
		}
	}
	return b
}

// Name returns the board's name ("8x8", "seachess", …) when called without
// a square; see SquareName for squares.
func (b *Board) String() string { return b.name }

// Files and Ranks give the grid's size.
func (b *Board) Files() int { return b.files }

// Ranks gives the number of ranks of the grid.
func (b *Board) Ranks() int { return b.ranks }

// Size is the number of grid cells (Files*Ranks): the length of any
// per-square table.
func (b *Board) Size() int { return b.files * b.ranks }

// Squares lists the existing squares in ascending order. Do not modify.
func (b *Board) Squares() []Square { return b.squares }

// Count is the number of existing squares.
func (b *Board) Count() int { return len(b.squares) }

// On reports whether file and rank lie on the grid.
func (b *Board) On(file, rank int) bool {
	return file >= 0 && file < b.files && rank >= 0 && rank < b.ranks
}

// Exists reports whether sq is a square of this board.
func (b *Board) Exists(sq Square) bool {
	return sq >= 0 && int(sq) < len(b.exists) && b.exists[sq]
}

// At returns the square at file and rank, or NoSquare where there is none.
func (b *Board) At(file, rank int) Square {
	if !b.On(file, rank) || !b.exists[file+rank*b.files] {
		return NoSquare
	}
	return Square(file + rank*b.files)
}

// Coords returns the zero-based file and rank of a grid cell.
func (b *Board) Coords(sq Square) (file, rank int) {
	return int(sq) % b.files, int(sq) / b.files
}

// File and Rank return the zero-based coordinates one at a time.
func (b *Board) File(sq Square) int { return int(sq) % b.files }

// Rank returns the zero-based rank of sq.
func (b *Board) Rank(sq Square) int { return int(sq) / b.files }

// Next is the neighbour of sq in direction d, following the board's links
// (wraps included), or NoSquare.
func (b *Board) Next(sq Square, d Dir) Square { return b.next[d][sq] }

// Ray is the path a slider from sq follows in direction d, up to the edge,
// a hole, or just before it would come back to sq. Do not modify.
func (b *Board) Ray(sq Square, d Dir) []Square { return b.rays[d][sq] }

// Offset is the plain coordinate offset used by leapers: the square at
// (file+df, rank+dr) if it exists, never wrapping.
func (b *Board) Offset(sq Square, df, dr int) Square {
	f, r := b.Coords(sq)
	return b.At(f+df, r+dr)
}

// Marks returns the marks of sq.
func (b *Board) Marks(sq Square) Mark { return b.marks[sq] }

// Has reports whether sq carries every mark in m.
func (b *Board) Has(sq Square, m Mark) bool { return b.marks[sq]&m == m }

// Marked lists the existing squares carrying every mark in m.
func (b *Board) Marked(m Mark) []Square {
	var out []Square
	for _, sq := range b.squares {
		if b.Has(sq, m) {
			out = append(out, sq)
		}
	}
	return out
}

// Glyph is how the empty square looks in an ASCII board.
func (b *Board) Glyph(sq Square) string { return b.glyphs[sq] }

// FileName is the letter of a zero-based file.
func FileName(file int) string { return string(rune('a' + file)) }

// Name returns the usual name of a square ("a1", "l12"), or "-" for NoSquare.
func (b *Board) Name(sq Square) string {
	if sq == NoSquare {
		return "-"
	}
	f, r := b.Coords(sq)
	return FileName(f) + strconv.Itoa(r+1)
}

// Parse reads a square name, case-insensitively. It fails on names that are
// off the grid or name a missing square.
func (b *Board) Parse(name string) (Square, error) {
	sq, n := b.ParsePrefix(name)
	if n == 0 || n != len(name) {
		return NoSquare, fmt.Errorf("rules: %q is not a square of the %s board", name, b.name)
	}
	return sq, nil
}

// ParsePrefix reads the longest square name at the start of s (so "a10"
// wins over "a1" when a10 exists) and returns it with the bytes used; n is 0
// when s does not start with a square of this board.
func (b *Board) ParsePrefix(s string) (sq Square, n int) {
	if len(s) < 2 {
		return NoSquare, 0
	}
	c := s[0] | 0x20
	if c < 'a' || int(c-'a') >= b.files {
		return NoSquare, 0
	}
	file := int(c - 'a')
	best, bestN := NoSquare, 0
	rank := 0
	for i := 1; i < len(s) && i <= 2; i++ {
		if s[i] < '0' || s[i] > '9' || (i == 1 && s[i] == '0') {
			break
		}
		rank = rank*10 + int(s[i]-'0')
		if t := b.At(file, rank-1); t != NoSquare {
			best, bestN = t, i+1
		}
	}
	return best, bestN
}

// MustParse is Parse for squares known at compile time; it panics on error.
func (b *Board) MustParse(name string) Square {
	sq, err := b.Parse(name)
	if err != nil {
		panic(err)
	}
	return sq
}

// Names formats a list of squares, space-separated.
func (b *Board) Names(sqs []Square) string {
	parts := make([]string, len(sqs))
	for i, sq := range sqs {
		parts[i] = b.Name(sq)
	}
	return strings.Join(parts, " ")
}

// Abs is |x|, for the file and rank distances of the variants' geometry.
func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Sign is -1, 0 or 1 as x is negative, zero or positive: the step of a
// line from one square towards another.
func Sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
