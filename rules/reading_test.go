package rules_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// chessLike reads as chess does: B is always the bishop at the start.
var chessLike = rules.Notation{Board: rules.ChessBoard, Letters: "PNBRQK", Bare: 'P', CaseFixed: "B", Promotions: "NBRQ",
	Drop: []string{"e.p."}, Glyphs: map[rune]byte{'♘': 'N'}}

// cardinals reads as Submachine Chess does: C is a letter and a file.
var cardinals = rules.Notation{Board: rules.SubmachineBoard, Letters: "PNBRQKCM", Bare: 'P', NeedLetter: true, Promotions: "NBRQCM"}

// w builds a reading: letter (0 for none), from, file, rank, to, promo.
func w(b *rules.Board, letter byte, from string, file, rank int, to string, promo byte) rules.Written {
	x := rules.NewWritten()
	x.Letter, x.File, x.Rank, x.Promo = letter, file, rank, promo
	if from != "" {
		x.From = b.MustParse(from)
	}
	if to != "" {
		x.To = b.MustParse(to)
	}
	return x
}

// TestRead: each text gives every reading the grammar allows, and no other.
func TestRead(t *testing.T) {
	cb, sb := rules.ChessBoard, rules.SubmachineBoard
	capture := func(x rules.Written) rules.Written { x.Capture = true; return x }
	tests := []struct {
		name string
		n    *rules.Notation
		in   string
		want []rules.Written
	}{
		{"a coordinate form is a move from its first square", &cardinals, "c2c3", []rules.Written{w(sb, 0, "c2", -1, -1, "c3", 0)}},
		{"the same with a space", &cardinals, "c2 c3", []rules.Written{w(sb, 0, "c2", -1, -1, "c3", 0)}},
		{"an upper-case letter before a digit reads both ways", &cardinals, "C2c3",
			[]rules.Written{w(sb, 'C', "", -1, 1, "c3", 0), w(sb, 0, "c2", -1, -1, "c3", 0)}},
		{"a lower-case letter before a file reads both ways", &cardinals, "cd4",
			[]rules.Written{w(sb, 'C', "", -1, -1, "d4", 0), w(sb, 0, "", 2, -1, "d4", 0)}},
		{"a lower-case letter before a square", &cardinals, "cd1-e2", []rules.Written{w(sb, 'C', "d1", -1, -1, "e2", 0)}},
		{"a two-digit rank", &cardinals, "g9-g10=Q", []rules.Written{w(sb, 0, "g9", -1, -1, "g10", 'Q')}},
		{"SAN with a file", &chessLike, "Nbd2", []rules.Written{w(cb, 'N', "", 1, -1, "d2", 0)}},
		{"SAN with a rank", &chessLike, "R1e2", []rules.Written{w(cb, 'R', "", -1, 0, "e2", 0)}},
		{"a pawn capture", &chessLike, "exd5", []rules.Written{capture(w(cb, 0, "", 4, -1, "d5", 0))}},
		{"en passant read past", &chessLike, "exd6 e.p.", []rules.Written{capture(w(cb, 0, "", 4, -1, "d6", 0))}},
		{"a promotion in coordinates", &chessLike, "e7e8q", []rules.Written{w(cb, 0, "e7", -1, -1, "e8", 'Q')}},
		{"a promotion in brackets", &chessLike, "e8(Q)", []rules.Written{w(cb, 0, "", -1, -1, "e8", 'Q')}},
		{"an en dash and check", &chessLike, "e2–e4+", []rules.Written{w(cb, 0, "e2", -1, -1, "e4", 0)}},
		{"an em dash", &chessLike, "Ng1—f3", []rules.Written{w(cb, 'N', "g1", -1, -1, "f3", 0)}},
		{"a figurine", &chessLike, "♘f3", []rules.Written{w(cb, 'N', "", -1, -1, "f3", 0)}},
		{"B is the bishop", &chessLike, "Bb5", []rules.Written{w(cb, 'B', "", -1, -1, "b5", 0)}},
		{"b is the b-file", &chessLike, "bc3", []rules.Written{w(cb, 0, "", 1, -1, "c3", 0)}},
		{"B before a digit is still the bishop", &chessLike, "B1d2", []rules.Written{w(cb, 'B', "", -1, 0, "d2", 0)}},
		{"long algebraic pawn move", &chessLike, "b2-b4", []rules.Written{w(cb, 0, "b2", -1, -1, "b4", 0)}},
		{"lower-case letter", &chessLike, "nf3", []rules.Written{w(cb, 'N', "", -1, -1, "f3", 0)}},
		{"not a move", &chessLike, "hello", nil},
		{"nothing", &chessLike, "  ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.n.Read(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Read(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

// TestFits: a reading fits a move when each part it gives is the move's
// and each part it leaves out may be left out.
func TestFits(t *testing.T) {
	cb, sb := rules.ChessBoard, rules.SubmachineBoard
	pawnPush := w(cb, 'P', "e2", -1, -1, "e4", 0)
	pawnTake := w(cb, 'P', "e4", -1, -1, "d5", 0)
	pawnTake.Capture = true
	knight := w(cb, 'N', "g1", -1, -1, "f3", 0)
	cardinal := w(sb, 'C', "e2", -1, -1, "c3", 0)
	transporter := rules.Notation{Board: rules.TransporterBoard, Letters: "ACRBMDFSI", NeedLetter: true, OptionalAux: true, OptionalPromo: true}
	transport := w(rules.TransporterBoard, 'R', "d3", -1, -1, "a3", 'S')
	transport.Aux = rules.TransporterBoard.MustParse("a8")
	tests := []struct {
		name    string
		n       *rules.Notation
		reading rules.Written
		full    rules.Written
		want    bool
	}{
		{"the bare piece by its square reached", &chessLike, w(cb, 0, "", -1, -1, "e4", 0), pawnPush, true},
		{"a bare capture names its file", &chessLike, w(cb, 0, "", -1, -1, "d5", 0), pawnTake, false},
		{"a bare capture with its file", &chessLike, w(cb, 0, "", 4, -1, "d5", 0), pawnTake, true},
		{"a file names only a bare capture", &chessLike, w(cb, 0, "", 4, -1, "e4", 0), pawnPush, false},
		{"another piece needs a letter or its square", &chessLike, w(cb, 0, "", -1, -1, "f3", 0), knight, false},
		{"coordinates name the piece on the square", &chessLike, w(cb, 0, "g1", -1, -1, "f3", 0), knight, true},
		{"but not with NeedLetter", &cardinals, w(sb, 0, "e2", -1, -1, "c3", 0), cardinal, false},
		{"the wrong letter", &chessLike, w(cb, 'B', "", -1, -1, "f3", 0), knight, false},
		{"the wrong file", &chessLike, w(cb, 'N', "", 5, -1, "f3", 0), knight, false},
		{"the right rank", &chessLike, w(cb, 'N', "", -1, 0, "f3", 0), knight, true},
		{"a promotion left out", &chessLike, w(cb, 0, "e7", -1, -1, "e8", 0), w(cb, 'P', "e7", -1, -1, "e8", 'Q'), false},
		{"an optional promotion and second square left out", &transporter, w(rules.TransporterBoard, 'R', "d3", -1, -1, "a3", 0), transport, true},
		{"the letter needed", &transporter, w(rules.TransporterBoard, 0, "d3", -1, -1, "a3", 0), transport, false},
		{"a mark must agree", &chessLike, func() rules.Written { x := knight; x.Mark = "!"; return x }(), knight, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.n.Fits(tt.reading, tt.full); got != tt.want {
				t.Errorf("Fits(%+v, %+v) = %v, want %v", tt.reading, tt.full, got, tt.want)
			}
		})
	}
}

// TestNotationMatch: the canonical text names its move; a text one move
// fits names it; one that several fit is refused listing them; one that
// none fits goes to diagnose with its readings.
func TestNotationMatch(t *testing.T) {
	sb := rules.SubmachineBoard
	pawn := rules.Spelled{Move: rules.Move{From: sb.MustParse("c2"), To: sb.MustParse("c3")}, Text: "c2-c3",
		Parts: []rules.Written{w(sb, 'P', "c2", -1, -1, "c3", 0)}}
	cardinal := rules.Spelled{Move: rules.Move{From: sb.MustParse("e2"), To: sb.MustParse("c3")}, Text: "Ce2-c3",
		Parts: []rules.Written{w(sb, 'C', "e2", -1, -1, "c3", 0)}}
	moves := []rules.Spelled{pawn, cardinal}
	var seen []rules.Written
	diagnose := func(_ string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
		seen = readings
		return rules.Illegal, lang.Raw("why"), "M7"
	}
	tests := []struct {
		in   string
		want rules.Move
		kind rules.ErrorKind
	}{
		{"c2-c3", pawn.Move, 0},
		{"c2c3", pawn.Move, 0},
		{"c2 c3", pawn.Move, 0},
		{"Ce2-c3", cardinal.Move, 0},
		{"Cc3", cardinal.Move, 0},
		{"C2c3", rules.Move{}, rules.Ambiguous},
		{"c3", pawn.Move, 0},
		{"Cd4", rules.Move{}, rules.Illegal},
		{"", rules.Move{}, rules.Unreadable},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := cardinals.Match(tt.in, moves, diagnose)
			var me *rules.MoveError
			switch {
			case tt.kind == 0 && (err != nil || m != tt.want):
				t.Errorf("Match(%q) = %+v, %v; want %+v", tt.in, m, err, tt.want)
			case tt.kind != 0 && (!errors.As(err, &me) || me.Kind != tt.kind):
				t.Errorf("Match(%q) error %v, want a %v", tt.in, err, tt.kind)
			case tt.kind == rules.Ambiguous && !reflect.DeepEqual(me.Options, []string{"Ce2-c3", "c2-c3"}):
				t.Errorf("Match(%q) options %v", tt.in, me.Options)
			case tt.kind == rules.Illegal && (me.Reason != "why" || len(seen) == 0 || seen[0].Letter != 'C' || len(me.Options) == 0):
				t.Errorf("Match(%q): %+v, diagnose saw %v", tt.in, me, seen)
			}
		})
	}
}
