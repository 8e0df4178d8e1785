package rules

// The six boards of bottlepost's variants. Each is built once; variant
// packages use these values and never describe geometry themselves.

// ChessBoard is the orthodox 8×8 board; dark squares are marked (a1 dark).
var ChessBoard = NewBoard(BoardSpec{
	Name: "chess", Files: 8, Ranks: 8,
	Marks: func(f, r int) Mark { return darkIf((f+r)%2 == 0) },
})

// SeachessBoard is Seachess's 128-square sea (S1.1): open sea a3–l10, White's
// haven c1–j2 and Black's haven c11–j12. Havens show as ":" when empty.
var SeachessBoard = NewBoard(BoardSpec{
	Name: "seachess", Files: 12, Ranks: 12,
	Exists: func(f, r int) bool { return (r >= 2 && r <= 9) || (f >= 2 && f <= 9) },
	Marks: func(f, r int) Mark {
		switch {
		case r <= 1:
			return MarkHavenWhite
		case r >= 10:
			return MarkHavenBlack
		}
		return 0
	},
	Glyph: func(f, r int, m Mark) string {
		if m&(MarkHavenWhite|MarkHavenBlack) != 0 {
			return ":"
		}
		return "."
	},
})

// submachine geometry (M1, M2).
func subWrapRank(r int) bool {
	switch r + 1 {
	case 1, 2, 4, 5, 8, 9, 11, 12:
		return true
	}
	return false
}

func subExists(f, r int) bool {
	switch rank := r + 1; {
	case subWrapRank(r):
		return f != 5 // files a–e and g–k
	case rank == 3 || rank == 10:
		return f == 0 || f == 2 || f == 4 || f == 5 || f == 6 || f == 8 || f == 10
	default: // ranks 6 and 7
		return f == 2 || f == 5 || f == 8
	}
}

func subStep(f, r int, d Dir) (int, int, bool) {
	df, dr := d.Delta()
	nf, nr := f+df, r+dr
	if df != 0 && subWrapRank(r) && (dr == 0 || (nr >= 0 && nr < 12 && subWrapRank(nr))) {
		// M2.1: each sub-board is a horizontal cylinder on the wrapping ranks.
		switch {
		case f == 0 && df < 0:
			nf = 4
		case f == 4 && df > 0:
			nf = 0
		case f == 6 && df < 0:
			nf = 10
		case f == 10 && df > 0:
			nf = 6
		}
	}
	if df == 0 && ((r == 0 && dr < 0) || (r == 11 && dr > 0)) {
		// M2.2: straight off the outer rank, one-way, one file nearer the centre.
		centre := 2
		if f >= 6 {
			centre = 8
		}
		switch {
		case f < centre:
			nf = f + 1
		case f > centre:
			nf = f - 1
		default:
			return 0, 0, false
		}
		if r == 0 {
			nr = 4 // rank 5
		} else {
			nr = 7 // rank 8
		}
	}
	if nf < 0 || nf >= 11 || nr < 0 || nr >= 12 || !subExists(nf, nr) {
		return 0, 0, false
	}
	return nf, nr, true
}

// SubmachineBoard is Submachine Chess's 100 squares on a–k × 1–12 (M1) with
// its horizontal cylinders and one-way vertical shifts (M2) and the four
// teleport squares c3 i3 c10 i10 (M3), shown as "o".
var SubmachineBoard = NewBoard(BoardSpec{
	Name: "submachine", Files: 11, Ranks: 12,
	Exists: subExists,
	Step:   subStep,
	Marks: func(f, r int) Mark {
		if (f == 2 || f == 8) && (r == 2 || r == 9) {
			return MarkTeleport
		}
		return 0
	},
	Glyph: func(f, r int, m Mark) string {
		if m&MarkTeleport != 0 {
			return "o"
		}
		return "."
	},
})

// BalticBoard is Baltic Sea Chess's plain 8×8 board (B1).
var BalticBoard = NewBoard(BoardSpec{Name: "baltic", Files: 8, Ranks: 8})

// BattleBoard is Chess-Battle's 128-square cross (C1.1) with its colours
// (C1.2: dark when file number + rank is even, a = 1), dark squares shown as ":".
var BattleBoard = NewBoard(BoardSpec{
	Name: "battle", Files: 12, Ranks: 12,
	Exists: func(f, r int) bool { return (r >= 2 && r <= 9) || (f >= 2 && f <= 9) },
	Marks:  func(f, r int) Mark { return darkIf((f+r)%2 == 0) },
	Glyph: func(f, r int, m Mark) string {
		if m&MarkDark != 0 {
			return ":"
		}
		return "."
	},
})

// TransporterBoard is Transporter Chess's 84 squares (T1.1) with the camps
// and the transporter squares a3 a8 j3 j8, shown as "o".
var TransporterBoard = NewBoard(BoardSpec{
	Name: "transporter", Files: 10, Ranks: 10,
	Exists: func(f, r int) bool {
		switch r {
		case 0, 9:
			return f >= 3 && f <= 6
		case 1, 8:
			return f >= 1 && f <= 8
		}
		return true
	},
	Marks: func(f, r int) Mark {
		var m Mark
		if (f == 0 || f == 9) && (r == 2 || r == 7) {
			m |= MarkTransporter
		}
		if r <= 1 {
			m |= MarkCampWhite
		}
		if r >= 8 {
			m |= MarkCampBlack
		}
		return m
	},
	Glyph: func(f, r int, m Mark) string {
		if m&MarkTransporter != 0 {
			return "o"
		}
		return "."
	},
})

func darkIf(dark bool) Mark {
	if dark {
		return MarkDark
	}
	return 0
}
