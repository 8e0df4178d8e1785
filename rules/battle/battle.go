// Package battle implements Chess-Battle (A. S. Yurgelevich, 1933), a war
// game on a 128-square cross, to the rulings C1–C6 (docs/variants/chess-battle.md).
//
// White (side 0) and Red (side 1) each command a headquarter (the royal
// piece), a bomber, a tank, two guns, two cavalry, two machine-guns and
// fifteen soldiers. Guns and machine-guns never capture by moving: they
// shoot from where they stand (C3), and their lines of fire give check
// (C3.4). A soldier that reaches the far end leaves the board and its owner
// removes an opposing piece of their choice, never the headquarter (C4).
//
// Moves are written as in C6: "Cd1-e4", "Bf1xf7", "Sd3-d4", "Sd3xe4",
// shots "Gc1!c6", arrivals at the far end "Sd11-d12^h9". A position is
// described by a FEN-like string (see New), which the command line's --fen
// flag passes through.
package battle

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Piece types, the codes carried in rules.Move.Piece.
const (
	pNone uint8 = iota
	pHQ
	pBomber
	pTank
	pGun
	pMGun
	pCavalry
	pSoldier
	numTypes
)

// Move kinds, the codes carried in rules.Move.Kind.
const (
	kindMove uint8 = iota // a move or a capture by moving
	kindShot              // a gun's or machine-gun's shot (C3)
)

// letters are the piece letters of C2/C6, indexed by type.
const letters = "?HBTGMCS"

// pieceNames name the types for players.
var pieceNames = [numTypes]string{"", "headquarter", "bomber", "tank", "gun", "machine-gun", "cavalry", "soldier"}

var _ = lang.Keys("headquarter", "bomber", "tank", "gun", "machine-gun", "cavalry", "soldier")

// piece is the name of a type of piece as a message (lang).
func piece(t uint8) lang.Text { return rules.Word(pieceNames[t]) }

// limits are the pieces of each type a side starts with (C1.4); no piece is
// ever added, so they bound every position.
var limits = [numTypes]int{0, 1, 1, 1, 2, 2, 2, 15}

func typeOf(c uint8) uint8             { return c & 7 }
func sideOf(c uint8) rules.Side        { return rules.Side(c >> 3) }
func cell(t uint8, s rules.Side) uint8 { return t | uint8(s)<<3 }

// board is the geometry (C1.1, C1.2).
var board = rules.BattleBoard

// boardSize is the length of the per-square tables.
const boardSize = 144

// Precomputed tables, filled once by init.
var (
	// adjacent lists the existing neighbours of each square (king steps).
	adjacent [boardSize][]rules.Square
	// leaps lists the cavalry's targets from each square (C2); the pattern is
	// symmetric, so it also lists the squares a cavalry attacks a square from.
	leaps [boardSize][]rules.Square
	// light marks the light squares, from which a soldier may step two (C1.2).
	light [boardSize]bool
	// forward lists, per side, the directions a gun shoots (C3.2) and a
	// soldier captures (C2): left, right, straight and diagonally forward.
	forward [2][]rules.Dir
	// isForward[side][d] reports d ∈ forward[side].
	isForward [2][rules.NumDirs]bool
	// farRank is the zero-based rank where a side's soldiers arrive (C4).
	farRank = [2]int{11, 0}
	// aligned[a][b] reports that b lies on a line from a (a rank, file or
	// diagonal, up to a missing square): where lines of attack on a run.
	aligned [boardSize][boardSize]bool
	// zobrist keys per cell code and square, and for Red to move.
	zobrist [16][boardSize]uint64
	zRed    uint64
)

// cavalryOffsets are the leaps (1,2), (1,3) and (2,3) in every orientation (C2).
var cavalryOffsets = func() [][2]int {
	var out [][2]int
	for _, p := range [][2]int{{1, 2}, {1, 3}, {2, 3}} {
		for _, sf := range []int{1, -1} {
			for _, sr := range []int{1, -1} {
				out = append(out, [2]int{p[0] * sf, p[1] * sr}, [2]int{p[1] * sf, p[0] * sr})
			}
		}
	}
	return out
}()

func init() {
	if board.Size() != boardSize {
		panic("battle: the board is not 12×12")
	}
	for _, sq := range board.Squares() {
		for _, d := range rules.AllDirs {
			if t := board.Next(sq, d); t != rules.NoSquare {
				adjacent[sq] = append(adjacent[sq], t)
			}
		}
		for _, o := range cavalryOffsets {
			if t := board.Offset(sq, o[0], o[1]); t != rules.NoSquare {
				leaps[sq] = append(leaps[sq], t)
			}
		}
		light[sq] = !board.Has(sq, rules.MarkDark)
		for _, d := range rules.AllDirs {
			for _, t := range board.Ray(sq, d) {
				aligned[sq][t] = true
			}
		}
	}
	forward[rules.White] = []rules.Dir{rules.W, rules.E, rules.N, rules.NE, rules.NW}
	forward[rules.Black] = []rules.Dir{rules.W, rules.E, rules.S, rules.SE, rules.SW}
	for s := range 2 {
		for _, d := range forward[s] {
			isForward[s][d] = true
		}
	}
	// Zobrist keys from a fixed splitmix64 sequence: they are part of the
	// serialised format (the repetition history stores them), so they must
	// never change. TestZobristKeysAreStable pins them.
	x := uint64(0xC4E55BA771E1933)
	next := func() uint64 {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for c := range zobrist {
		for sq := range zobrist[c] {
			zobrist[c][sq] = next()
		}
	}
	zRed = next()
}
