package submachine

import (
	"github.com/bottlepost/bottlepost/rules"
)

// board is the Submachine board of the core (M1, M2): holes, cylinders,
// one-way shifts and teleport marks all live there.
var board = rules.SubmachineBoard

// Piece kinds (the Piece and Promo codes of a rules.Move).
const (
	pawn uint8 = iota + 1
	knight
	bishop
	rook
	queen
	king
	cardinal
	marshall
	numKinds = marshall
)

// letters are the piece letters of M7, indexed by kind.
const letters = " PNBRQKCM"

// names are the pieces' names for players, indexed by kind.
var names = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king", "cardinal", "marshall"}

// promotions lists the kinds a pawn may promote to (M5.3), in canonical order.
var promotions = []uint8{queen, rook, bishop, knight, cardinal, marshall}

// A cell of the position holds 0 for empty, or kind + 16*side.
const blackBit = 16

func cellOf(side rules.Side, kind uint8) uint8 { return kind | uint8(side)<<4 }
func kindOf(c uint8) uint8                     { return c & 15 }
func sideOf(c uint8) rules.Side                { return rules.Side(c >> 4) }

// Kind classes.
func isDiagSlider(k uint8) bool { return k == bishop || k == queen || k == cardinal }
func isOrthSlider(k uint8) bool { return k == rook || k == queen || k == marshall }
func isKnightLeap(k uint8) bool { return k == knight || k == cardinal || k == marshall }

// kindFromLetter is the kind of an upper-case piece letter (M7), 0 for none.
func kindFromLetter(b byte) uint8 {
	for k := 1; k < len(letters); k++ {
		if letters[k] == b {
			return uint8(k)
		}
	}
	return 0
}

// size is the number of grid cells (existing or not).
var size = board.Size()

// Precomputed tables, built once at package init.
var (
	// knightTargets are the plain (never wrapping, M2.4) knight offsets of a
	// square that exist; the relation is symmetric.
	knightTargets [][]rules.Square
	// kingTargets are the distinct neighbours by the board's links (M2),
	// wraps and the one-way shift included.
	kingTargets [][]rules.Square
	// kingSources is the reverse of kingTargets: the squares from which a
	// king reaches the square (not the same set, M2.2 is one-way).
	kingSources [][]rules.Square
	// orthPaths and diagPaths are, for each square t, the paths a rook or
	// bishop line would run backwards from t: each slice lists the squares
	// nearest t first, and a slider standing on one of them with every
	// earlier square empty attacks t. They are the reverse of Board.Ray.
	orthPaths, diagPaths [][][]rules.Square
	// pawnStep is the next existing square straight ahead on the file (M5.1),
	// for each side; NoSquare if none.
	pawnStep [2][]rules.Square
	// pawnCaps are the existing squares diagonally forward (M5.2).
	pawnCaps [2][][]rules.Square
	// pawnFrom is, per side, the squares from which a pawn of that side
	// captures onto a square (the reverse of pawnCaps).
	pawnFrom [2][][]rules.Square
	// teleports are the four teleport squares (M1.1, M3).
	teleports []rules.Square
	// isTeleport marks them.
	isTeleport []bool
	// promoRank tells, per side, whether a pawn arriving on a rank promotes (M5.3).
	promoRank [2][12]bool
	// startRank is the rank (0-based) from which a pawn may make a double step.
	startRank = [2]int{1, 10}
	// backRank is the rank (0-based) where a side's pawns can never stand.
	backRank = [2]int{0, 11}
)

func init() {
	knightTargets = make([][]rules.Square, size)
	kingTargets = make([][]rules.Square, size)
	kingSources = make([][]rules.Square, size)
	orthPaths = make([][][]rules.Square, size)
	diagPaths = make([][][]rules.Square, size)
	isTeleport = make([]bool, size)
	for s := range 2 {
		pawnStep[s] = make([]rules.Square, size)
		pawnCaps[s] = make([][]rules.Square, size)
		pawnFrom[s] = make([][]rules.Square, size)
	}
	knightOffsets := [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	for _, sq := range board.Squares() {
		for _, o := range knightOffsets {
			if t := board.Offset(sq, o[0], o[1]); t != rules.NoSquare {
				knightTargets[sq] = append(knightTargets[sq], t)
			}
		}
		for _, d := range rules.AllDirs {
			if t := board.Next(sq, d); t != rules.NoSquare && !hasSquare(kingTargets[sq], t) {
				kingTargets[sq] = append(kingTargets[sq], t)
				kingSources[t] = append(kingSources[t], sq)
			}
		}
		f, r := board.Coords(sq)
		for s := range 2 {
			fwd := 1
			if s == 1 {
				fwd = -1
			}
			pawnStep[s][sq] = rules.NoSquare
			for rr := r + fwd; rr >= 0 && rr < board.Ranks(); rr += fwd {
				if t := board.At(f, rr); t != rules.NoSquare {
					pawnStep[s][sq] = t
					break
				}
			}
			for _, df := range []int{-1, 1} {
				if t := board.Offset(sq, df, fwd); t != rules.NoSquare {
					pawnCaps[s][sq] = append(pawnCaps[s][sq], t)
					pawnFrom[s][t] = append(pawnFrom[s][t], sq)
				}
			}
		}
		if board.Has(sq, rules.MarkTeleport) {
			teleports = append(teleports, sq)
			isTeleport[sq] = true
		}
	}
	for r := range 12 {
		promoRank[rules.White][r] = r >= 9
		promoRank[rules.Black][r] = r <= 2
	}
	// Reverse slider paths: the predecessors of t in direction d are the
	// squares whose link in d leads to t; walk them backwards as a tree
	// (the one-way shift gives c5 three southern predecessors: c6, b1, d1),
	// stopping on coming back to t (a cylinder).
	var pred [rules.NumDirs][][]rules.Square
	for d := range rules.Dir(rules.NumDirs) {
		pred[d] = make([][]rules.Square, size)
		for _, sq := range board.Squares() {
			if t := board.Next(sq, d); t != rules.NoSquare {
				pred[d][t] = append(pred[d][t], sq)
			}
		}
	}
	for _, t := range board.Squares() {
		for _, d := range rules.AllDirs {
			var walk func(path []rules.Square, at rules.Square)
			walk = func(path []rules.Square, at rules.Square) {
				extended := false
				for _, p := range pred[d][at] {
					if p == t || hasSquare(path, p) {
						continue
					}
					extended = true
					walk(append(append([]rules.Square(nil), path...), p), p)
				}
				if !extended && len(path) > 0 {
					if d.Diagonal() {
						diagPaths[t] = append(diagPaths[t], path)
					} else {
						orthPaths[t] = append(orthPaths[t], path)
					}
				}
			}
			walk(nil, t)
		}
	}
}

func hasSquare(list []rules.Square, sq rules.Square) bool {
	for _, x := range list {
		if x == sq {
			return true
		}
	}
	return false
}
