package chess

import (
	"fmt"
	"math/bits"

	"github.com/bottlepost/bottlepost/rules"
)

// Bitboards: bit sq stands for rules.ChessBoard's square sq (file + 8*rank,
// a1 = 0), so a square of the core and a bit here are the same number. All
// geometry below is read once from rules.ChessBoard (its leaper offsets and
// slider rays) into tables; move generation only follows tables.

type bitboard = uint64

const (
	rank1 bitboard = 0xFF
	rank3 bitboard = 0xFF << 16
	rank6 bitboard = 0xFF << 40
	rank8 bitboard = 0xFF << 56
	fileA bitboard = 0x0101010101010101
	fileH bitboard = fileA << 7
)

func bit(sq int) bitboard { return 1 << uint(sq) }

var (
	knightAtt [64]bitboard
	kingAtt   [64]bitboard
	pawnAtt   [2][64]bitboard // squares a pawn of that side on sq attacks
	// between[a][b]: the squares strictly between a and b on a common line
	// (empty when they share none); line[a][b]: the whole line through both.
	between [64][64]bitboard
	line    [64][64]bitboard

	rookMask, bishopMask     [64]bitboard
	rookShift, bishopShift   [64]uint8
	rookOffset, bishopOffset [64]uint32
	rookTable                []bitboard
	bishopTable              []bitboard
	dark                     bitboard // the dark squares (a1 is dark)
)

var (
	knightJumps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

func init() { initTables() }

// initTables precomputes every table from rules.ChessBoard. It takes a few
// milliseconds; magic collisions panic (see magics.go).
func initTables() {
	b := rules.ChessBoard
	if b.Files() != 8 || b.Ranks() != 8 || b.Count() != 64 {
		panic("chess: rules.ChessBoard is not the 8x8 board")
	}
	for sq := range 64 {
		s := rules.Square(sq)
		for _, j := range knightJumps {
			if t := b.Offset(s, j[0], j[1]); t != rules.NoSquare {
				knightAtt[sq] |= bit(int(t))
			}
		}
		for _, d := range rules.AllDirs {
			if t := b.Next(s, d); t != rules.NoSquare {
				kingAtt[sq] |= bit(int(t))
			}
		}
		for side, dr := range [2]int{1, -1} {
			for _, df := range [2]int{-1, 1} {
				if t := b.Offset(s, df, dr); t != rules.NoSquare {
					pawnAtt[side][sq] |= bit(int(t))
				}
			}
		}
		for _, d := range rules.AllDirs {
			ray := b.Ray(s, d)
			var path bitboard
			for _, t := range ray {
				between[sq][t] = path
				path |= bit(int(t))
			}
			full := bit(sq)
			for _, t := range ray {
				full |= bit(int(t))
			}
			for _, t := range b.Ray(s, d.Opposite()) {
				full |= bit(int(t))
			}
			for _, t := range ray {
				line[sq][t] = full
			}
		}
	}
	for _, sq := range b.Marked(rules.MarkDark) {
		dark |= bit(int(sq))
	}
	rookTable = fillMagic(rules.Orthogonals, &rookMask, &rookShift, &rookOffset, &rookMagics)
	bishopTable = fillMagic(rules.Diagonals, &bishopMask, &bishopShift, &bishopOffset, &bishopMagics)
}

// slide is the reference slider attack set: the squares along the rays of
// dirs from sq, each ray stopping at the first occupied square.
func slide(sq int, occ bitboard, dirs []rules.Dir) bitboard {
	var a bitboard
	for _, d := range dirs {
		for _, t := range rules.ChessBoard.Ray(rules.Square(sq), d) {
			a |= bit(int(t))
			if occ&bit(int(t)) != 0 {
				break
			}
		}
	}
	return a
}

// fillMagic builds one slider's "fancy" magic table: per square, the ray
// squares that can block (the edges cannot), and every blocker subset's
// attack set at index (subset*magic)>>shift.
func fillMagic(dirs []rules.Dir, mask *[64]bitboard, shift *[64]uint8, offset *[64]uint32, magics *[64]uint64) []bitboard {
	var table []bitboard
	for sq := range 64 {
		var m bitboard
		for _, d := range dirs {
			ray := rules.ChessBoard.Ray(rules.Square(sq), d)
			for i := 0; i+1 < len(ray); i++ {
				m |= bit(int(ray[i]))
			}
		}
		n := bits.OnesCount64(m)
		mask[sq], shift[sq], offset[sq] = m, uint8(64-n), uint32(len(table))
		slots := make([]bitboard, 1<<n)
		filled := make([]bool, 1<<n)
		sub := bitboard(0)
		for {
			idx := (sub * magics[sq]) >> (64 - n)
			a := slide(sq, sub, dirs)
			if filled[idx] && slots[idx] != a {
				panic(fmt.Sprintf("chess: bad magic for square %d", sq))
			}
			slots[idx], filled[idx] = a, true
			sub = (sub - m) & m
			if sub == 0 {
				break
			}
		}
		table = append(table, slots...)
	}
	return table
}

func rookAttacks(sq int, occ bitboard) bitboard {
	return rookTable[rookOffset[sq]+uint32(((occ&rookMask[sq])*rookMagics[sq])>>rookShift[sq])]
}

func bishopAttacks(sq int, occ bitboard) bitboard {
	return bishopTable[bishopOffset[sq]+uint32(((occ&bishopMask[sq])*bishopMagics[sq])>>bishopShift[sq])]
}

func trailing(b bitboard) int { return bits.TrailingZeros64(b) }

func leading(b bitboard) int { return bits.LeadingZeros64(b) }
