package seachess

import (
	"github.com/bottlepost/bottlepost/rules"
)

// Square is the core's square type; the alias keeps the piece code short.
type Square = rules.Square

const noSq = rules.NoSquare

// brd is Seachess's board (S1.1): open sea a3–l10, havens c1–j2 and c11–j12.
var brd = rules.SeachessBoard

// nSq is the size of every per-square table (12×12 grid cells).
const nSq = 144

// horseMove is one of the carrier's blockable horse moves (S7.1): from
// `from`, two squares a and b in one orthogonal direction, then one square
// at a right angle to `to`.
type horseMove struct{ from, a, b, to Square }

// Tables precomputed once: every piece only follows them.
var (
	knightTo  [nSq][]Square    // S5.1, S5.4: knight leaps (a missing landing square is no move)
	kingTo    [nSq][]Square    // S8.1 and the carrier's one-square steps
	outline   [nSq][]Square    // S7.2: squares at exactly three squares' king-distance
	orthAdj   [nSq][]Square    // S6.2: the four orthogonal neighbours
	horseFrom [nSq][]horseMove // S7.1: horse moves by their starting square
	horseTo   [nSq][]horseMove // the same, by their landing square (for attacks)
	dirOf     [3][3]rules.Dir  // direction by sign of file and rank offsets (+1 index)
	names     [nSq]string      // square names
)

// sqName is brd.Name without the allocation: "e4", or "-" for noSq.
func sqName(sq Square) string {
	if sq < 0 || int(sq) >= nSq {
		return "-"
	}
	return names[sq]
}

func init() {
	for _, d := range rules.AllDirs {
		df, dr := d.Delta()
		dirOf[df+1][dr+1] = d
	}
	for s := range Square(nSq) {
		names[s] = brd.Name(s)
	}
	for _, s := range brd.Squares() {
		for _, o := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if t := brd.Offset(s, o[0], o[1]); t != noSq {
				knightTo[s] = append(knightTo[s], t)
			}
		}
		for _, d := range rules.AllDirs {
			if t := brd.Next(s, d); t != noSq {
				kingTo[s] = append(kingTo[s], t)
			}
		}
		for df := -3; df <= 3; df++ {
			for dr := -3; dr <= 3; dr++ {
				if max(rules.Abs(df), rules.Abs(dr)) != 3 {
					continue
				}
				if t := brd.Offset(s, df, dr); t != noSq {
					outline[s] = append(outline[s], t)
				}
			}
		}
		for _, d := range rules.Orthogonals {
			if t := brd.Next(s, d); t != noSq {
				orthAdj[s] = append(orthAdj[s], t)
			}
			a := brd.Next(s, d)
			if a == noSq {
				continue
			}
			b := brd.Next(a, d)
			if b == noSq {
				continue
			}
			for _, p := range []rules.Dir{(d + 2) % rules.NumDirs, (d + 6) % rules.NumDirs} {
				if t := brd.Next(b, p); t != noSq {
					h := horseMove{from: s, a: a, b: b, to: t}
					horseFrom[s] = append(horseFrom[s], h)
					horseTo[t] = append(horseTo[t], h)
				}
			}
		}
	}
}

// lineDir returns the direction from one square to another when they lie on
// a common rank, file or diagonal; ok is false otherwise (leaps).
func lineDir(from, to Square) (d rules.Dir, ok bool) {
	f1, r1 := brd.Coords(from)
	f2, r2 := brd.Coords(to)
	df, dr := f2-f1, r2-r1
	if (df == 0 && dr == 0) || (df != 0 && dr != 0 && rules.Abs(df) != rules.Abs(dr)) {
		return 0, false
	}
	return dirOf[rules.Sign(df)+1][rules.Sign(dr)+1], true
}

// haven reports whether sq lies in side's own haven (S1.1).
func haven(sq Square, side rules.Side) bool {
	if side == rules.White {
		return brd.Has(sq, rules.MarkHavenWhite)
	}
	return brd.Has(sq, rules.MarkHavenBlack)
}

// forward is the direction a side's boats move (S2.1).
func forward(side rules.Side) rules.Dir {
	if side == rules.White {
		return rules.N
	}
	return rules.S
}

// lastRank is the zero-based rank where side's boats promote (S2.4).
func lastRank(side rules.Side) int {
	if side == rules.White {
		return 11
	}
	return 0
}

// startRank is the zero-based rank of side's boats at the start (S1.2).
func startRank(side rules.Side) int {
	if side == rules.White {
		return 1
	}
	return 10
}

// epTarget is the square directly in front of the starting square of the
// boat on victim (S2.3): rank 3 for a White boat, rank 10 for a Black one.
func epTarget(victim Square, victimSide rules.Side) Square {
	r := 2
	if victimSide == rules.Black {
		r = 9
	}
	return brd.At(brd.File(victim), r)
}
