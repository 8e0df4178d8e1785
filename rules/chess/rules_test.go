package chess

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// One test per article of the FIDE Laws of Chess (2023) that the engine
// implements, with positions set up by FEN and concrete move lists.

func TestFIDE1_2_WhiteMovesFirstThenAlternately(t *testing.T) {
	s := mustFEN(t, StartFEN)
	if s.ToMove() != rules.White {
		t.Fatal("Black moves first")
	}
	wantErr(t, s, "e7e5", "the pawn on e7 is Black's, and it is White's move", "FIDE 1.2")
	s = play(t, s, "e4")
	if s.ToMove() != rules.Black || s.Ply() != 1 {
		t.Fatal("White moved twice")
	}
	wantErr(t, s, "d2d4", "the pawn on d2 is White's, and it is Black's move", "FIDE 1.2")
}

func TestFIDE2_3_InitialPosition(t *testing.T) {
	s, err := Variant.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.(*State).FEN(); got != StartFEN {
		t.Errorf("start FEN %q", got)
	}
}

func TestFIDE3_1_NoMoveOntoOwnPieceCaptureRemoves(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1")
	wantErr(t, s, "Ra1-e1", "e1 holds White's own king", "FIDE 3.1")
	s = play(t, s, "Rxa2")
	if s.FEN() != "4k3/8/8/8/8/8/R7/4K3 b - - 0 1" {
		t.Errorf("after Rxa2: %s", s.FEN())
	}
}

func TestFIDE3_2_Bishop(t *testing.T) {
	s := mustFEN(t, "4k3/7p/8/8/3B4/8/8/4K3 w - - 0 1")
	if got := from(s, "d4"); got != "Ba1 Ba7 Bb2 Bb6 Bc3 Bc5 Be3 Be5 Bf2 Bf6 Bg1 Bg7 Bh8" {
		t.Errorf("bishop moves: %s", got)
	}
	wantErr(t, s, "Bd5", "a bishop moves along a diagonal", "FIDE 3.2")
}

func TestFIDE3_3_Rook(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1")
	if got := from(s, "d4"); got != "Ra4 Rb4 Rc4 Rd1 Rd2 Rd3 Rd5 Rd6 Rd7 Rd8+ Re4+ Rf4 Rg4 Rh4" {
		t.Errorf("rook moves: %s", got)
	}
	wantErr(t, s, "Re5", "a rook moves along a rank or a file", "FIDE 3.3")
}

func TestFIDE3_4_Queen(t *testing.T) {
	s := mustFEN(t, "6k1/8/8/8/3Q4/8/8/7K w - - 0 1")
	if got := len(strings.Fields(from(s, "d4"))); got != 27 {
		t.Errorf("queen on d4 has %d moves, want 27: %s", got, from(s, "d4"))
	}
	wantErr(t, s, "Qe6", "a queen moves along a rank, a file or a diagonal", "FIDE 3.4")
}

func TestFIDE3_5_NoMovingOverPieces(t *testing.T) {
	s := mustFEN(t, StartFEN)
	wantErr(t, s, "Bf1-c4", "the bishop cannot move over the pawn on e2", "FIDE 3.5")
	wantErr(t, s, "Ra1a3", "the rook cannot move over the pawn on a2", "FIDE 3.5")
	wantErr(t, s, "Qd1-d3", "the queen cannot move over the pawn on d2", "FIDE 3.5")
}

func TestFIDE3_6_Knight(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/3N4/8/8/N3K3 w - - 0 1")
	// Both knights reach b3 and c2, so SAN names the file (FIDE C.10).
	if got := from(s, "d4"); got != "Nb5 Nc6 Ndb3 Ndc2 Ne2 Ne6 Nf3 Nf5" {
		t.Errorf("knight on d4: %s", got)
	}
	if got := from(s, "a1"); got != "Nab3 Nac2" {
		t.Errorf("knight on a1: %s", got)
	}
	// It jumps: the start position's knights are surrounded yet move.
	if got := from(mustFEN(t, StartFEN), "g1"); got != "Nf3 Nh3" {
		t.Errorf("knight on g1: %s", got)
	}
	wantErr(t, s, "Nd4-d6", "a knight jumps", "FIDE 3.6")
}

func TestFIDE3_7_1_PawnOneSquareForward(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1")
	if got := from(s, "e3"); got != "" {
		t.Errorf("blocked pawn moves: %s", got)
	}
	wantErr(t, s, "e4", "a pawn cannot capture straight ahead", "FIDE 3.7.1")
	wantErr(t, s, "e3e2", "a pawn moves straight forward", "FIDE 3.7.1, 3.7.3")
}

func TestFIDE3_7_2_PawnTwoSquaresOnFirstMove(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/8/3pP3/3P3P/4K3 w - - 0 1")
	if got := from(s, "h2"); got != "h3 h4" {
		t.Errorf("h-pawn: %s", got)
	}
	if got := from(s, "e3"); got != "e4" {
		t.Errorf("e-pawn (moved before): %s", got)
	}
	wantErr(t, s, "e3e5", "a pawn may advance two squares only on its first move", "FIDE 3.7.2")
	wantErr(t, s, "d2d4", "a pawn advances two squares only when both squares are empty", "FIDE 3.7.2")
}

func TestFIDE3_7_3_PawnCapturesDiagonally(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/3n1r2/4P3/8/8/4K3 w - - 0 1")
	if got := from(s, "e4"); got != "e5 exd5 exf5" {
		t.Errorf("e-pawn: %s", got)
	}
	s = mustFEN(t, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
	wantErr(t, s, "exd5", "a pawn moves diagonally only to capture", "FIDE 3.7.3")
}

func TestFIDE3_7_3_1_EnPassant(t *testing.T) {
	s := play(t, mustFEN(t, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d5")
	if s.FEN() != "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2" {
		t.Fatalf("after d5: %s", s.FEN())
	}
	if got := from(s, "e5"); got != "e6 exd6" {
		t.Errorf("e-pawn after d7-d5: %s", got)
	}
	after := play(t, s, "exd6")
	if after.FEN() != "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2" {
		t.Errorf("after exd6 e.p.: %s", after.FEN())
	}
	for _, text := range []string{"exd6", "exd6 e.p.", "e5d6", "ed6", "e5xd6"} {
		if m, err := s.Parse(text); err != nil || m.Kind != KindEnPassant {
			t.Errorf("%q: %v %v", text, m, err)
		}
	}
	// En passant may expose the own king along the rank the two pawns
	// leave (FIDE 3.9.2).
	pin := mustFEN(t, "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1")
	if strings.Contains(allMoves(pin), "exd6") {
		t.Error("exd6 e.p. exposes the king on a5 to the queen on h5")
	}
	wantErr(t, pin, "exd6", "the pawn on e5 is pinned", "FIDE 3.9.2")
}

func TestFIDE3_7_3_2_EnPassantOnlyImmediately(t *testing.T) {
	s := play(t, mustFEN(t, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), "d5", "Kd2", "Ke7")
	if got := from(s, "e5"); got != "e6" {
		t.Errorf("e-pawn a move later: %s", got)
	}
	wantErr(t, s, "exd6", "a pawn can be taken en passant only on the move right after its double step", "FIDE 3.7.3.2")
}

func TestFIDE3_7_3_3_Promotion(t *testing.T) {
	s := mustFEN(t, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	// a8=Q gives no check: the knight on b8 stands between.
	if got := from(s, "a7"); got != "a8=B a8=N a8=Q a8=R axb8=B axb8=N axb8=Q+ axb8=R+" {
		t.Errorf("promotions: %s", got)
	}
	wantErr(t, s, "a8", "must be exchanged for a queen, rook, bishop or knight: write a8=Q", "FIDE 3.7.3.3")
	for text, want := range map[string]string{"a8=Q": "a8=Q", "a8Q": "a8=Q", "a7a8q": "a8=Q", "a7-a8=N": "a8=N",
		"axb8=R": "axb8=R+", "a7b8r": "axb8=R+", "a8=n": "a8=N"} {
		m, err := s.Parse(text)
		if err != nil || s.Format(m) != want {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
	// The new piece acts at once (FIDE 3.7.3.5): axb8=Q gives check.
	after := play(t, s, "axb8=Q")
	if !after.InCheck() || after.FEN() != "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1" {
		t.Errorf("after axb8=Q: %s check %v", after.FEN(), after.InCheck())
	}
	wantErr(t, mustFEN(t, StartFEN), "e2e3q", "only a pawn that reaches the last rank is promoted", "FIDE 3.7.3.3")
}

func TestFIDE3_8_1_KingMovesToAdjoiningSquare(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/8/8/8/4K2r w - - 0 1")
	// The rook on h1 checks along the first rank; the king leaves it or
	// takes nothing it cannot reach.
	if got := from(s, "e1"); got != "Kd2 Ke2 Kf2" {
		t.Errorf("king moves: %s", got)
	}
	wantErr(t, s, "Ke1-e3", "the king moves to an adjoining square, or castles", "FIDE 3.8.1")
	wantErr(t, s, "Kf1", "the king would be in check on f1", "FIDE 3.9.2")
}

func TestFIDE3_8_2_Castling(t *testing.T) {
	s := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if got := from(s, "e1"); got != "Kd1 Kd2 Ke2 Kf1 Kf2 O-O O-O-O" {
		t.Errorf("king moves: %s", got)
	}
	short := play(t, s, "O-O")
	if short.FEN() != "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1" {
		t.Errorf("after O-O: %s", short.FEN())
	}
	long := play(t, s, "0-0-0")
	if long.FEN() != "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1" {
		t.Errorf("after O-O-O: %s", long.FEN())
	}
	for _, text := range []string{"O-O", "0-0", "o-o", "e1g1", "Ke1-g1", "OO"} {
		if m, err := s.Parse(text); err != nil || m.Kind != KindCastleShort {
			t.Errorf("%q: %v %v", text, m, err)
		}
	}
}

func TestFIDE3_8_2_1_CastlingRightLost(t *testing.T) {
	s := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	// The king moved and came back: both rights are gone.
	k := play(t, s, "Kf1", "Kf8", "Ke1", "Ke8")
	if strings.Contains(allMoves(k), "O-O") || !strings.HasPrefix(strings.Fields(k.FEN())[2], "-") {
		t.Errorf("castling after the king moved: %s / %s", allMoves(k), k.FEN())
	}
	wantErr(t, k, "O-O", "castling with the h1 rook is no longer possible", "FIDE 3.8.2.1")
	wantErr(t, play(t, s, "Kf1", "Kf8"), "O-O-O", "castling is no longer possible: the king has moved", "FIDE 3.8.2.1")
	// A rook moved: only its side is gone.
	r := play(t, s, "Rh2", "Rh7", "Rh1", "Rh8")
	if got := from(r, "e1"); got != "Kd1 Kd2 Ke2 Kf1 Kf2 O-O-O" || strings.Fields(r.FEN())[2] != "Qq" {
		t.Errorf("after rook moves: %s / %s", got, r.FEN())
	}
	// A captured rook takes its right with it.
	c := play(t, s, "Rxh8+")
	if strings.Fields(c.FEN())[2] != "Qq" {
		t.Errorf("after Rxh8: %s", c.FEN())
	}
}

func TestFIDE3_8_2_2_CastlingPreventedTemporarily(t *testing.T) {
	// A piece between king and rook (FIDE 3.8.2.2.2).
	s := mustFEN(t, "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1")
	if strings.Contains(allMoves(s), "O-O") {
		t.Errorf("castling over pieces: %s", allMoves(s))
	}
	wantErr(t, s, "O-O", "a knight stands on g1", "FIDE 3.8.2.2.2")
	wantErr(t, s, "O-O-O", "a knight stands on b1", "FIDE 3.8.2.2.2")
	// Out of check, through or into an attacked square (FIDE 3.8.2.2.1).
	check := mustFEN(t, "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
	wantErr(t, check, "O-O", "the king cannot castle out of check", "FIDE 3.8.2.2.1")
	through := mustFEN(t, "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
	wantErr(t, through, "O-O", "f1 is attacked", "FIDE 3.8.2.2.1")
	if got := from(through, "e1"); !strings.Contains(got, "O-O-O") {
		t.Errorf("long castling is still allowed: %s", got)
	}
	into := mustFEN(t, "2r3k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
	wantErr(t, into, "O-O-O", "c1 is attacked", "FIDE 3.8.2.2.1")
	// The rook may pass an attacked square (b1): castling stays legal.
	b1 := mustFEN(t, "1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
	if got := from(b1, "e1"); !strings.Contains(got, "O-O-O") {
		t.Errorf("long castling with b1 attacked: %s", got)
	}
}

func TestFIDE3_9_1_Check(t *testing.T) {
	s := play(t, mustFEN(t, StartFEN), "e4", "f5", "Qh5+")
	if !s.InCheck() {
		t.Fatal("Qh5 gives no check")
	}
	// Kf7 would stand on the queen's diagonal: only g6 parries.
	if got := allMoves(s); got != "g6" {
		t.Errorf("replies to Qh5+: %s", got)
	}
	// A piece pinned to its own king still gives check (FIDE 3.9.1): the
	// bishop on d4, pinned by the rook on a4, keeps the white king off f2
	// and g1.
	pinned := mustFEN(t, "8/8/8/8/R2b3k/8/8/5K2 w - - 0 1")
	if got := from(pinned, "f1"); got != "Ke1 Ke2 Kg2" {
		t.Errorf("the king walks into a pinned bishop's check: %s", got)
	}
	wantErr(t, pinned, "Kg1", "the king would be in check on g1", "FIDE 3.9.2")
}

func TestFIDE3_9_2_NoMoveMayLeaveTheKingInCheck(t *testing.T) {
	// The pinned bishop on e2 may not leave the e-file.
	s := mustFEN(t, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
	if got := from(s, "e2"); got != "" {
		t.Errorf("pinned bishop moves: %s", got)
	}
	wantErr(t, s, "Bd3", "the bishop on e2 is pinned: moving it would expose the king to check", "FIDE 3.9.2")
	// A pinned rook may move along the pin line.
	r := mustFEN(t, "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1")
	if got := from(r, "e2"); got != "Re3 Re4 Re5 Re6 Re7 Rxe8+" {
		t.Errorf("pinned rook moves: %s", got)
	}
	// In check, only moves that parry it: capture, block or step away.
	c := mustFEN(t, "4k3/8/8/8/8/8/3P4/r3K2R w K - 0 1")
	if got := allMoves(c); got != "Ke2 Kf2" {
		t.Errorf("replies to the check on the first rank: %s", got)
	}
	wantErr(t, c, "h4", "White has no pawn on the h-file", "")
	wantErr(t, c, "Rh2", "the king is in check, and this move does not parry it", "FIDE 3.9.2")
	// Double check (knight f3, rook h1): only the king moves; Qxh1 would
	// take one checker and leave the other.
	d := mustFEN(t, "4k3/8/8/8/8/5n2/8/Q3K2r w - - 0 1")
	if got := allMoves(d); got != "Ke2 Kf2" {
		t.Errorf("replies to double check: %s", got)
	}
}

func TestFIDE5_1_1_Checkmate(t *testing.T) {
	s := play(t, mustFEN(t, StartFEN), "f3", "e5", "g4")
	m, err := s.Parse("Qh4")
	if err != nil || s.Format(m) != "Qh4#" {
		t.Fatalf("Qh4: %v %s", err, s.Format(m))
	}
	next, rep, err := s.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	o := next.Outcome()
	if o.Status != rules.Win || o.Winner != rules.Black || o.Reason != "checkmate" || o.Ruling != "FIDE 5.1.1" || o.Result() != "0-1" {
		t.Errorf("outcome %+v", o)
	}
	if rep.Record[rules.ViewPublic] != "Qh4#" || !strings.Contains(strings.Join(rep.English(rules.ViewWhite), " "), "Black wins: checkmate (FIDE 5.1.1)") {
		t.Errorf("report %+v", rep)
	}
	if len(next.Moves()) != 0 {
		t.Error("moves after checkmate")
	}
	e := parseErr(t, next.(*State), "Nc3")
	if e.Kind != rules.GameOver || !strings.Contains(e.Reason, "the game is over") {
		t.Errorf("move after mate: %v", e)
	}
}

func TestFIDE5_2_1_Stalemate(t *testing.T) {
	s := play(t, mustFEN(t, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "Qf7")
	if o := s.Outcome(); o.Status != rules.Draw || o.Reason != "stalemate" || o.Ruling != "FIDE 5.2.1" {
		t.Errorf("outcome %+v", o)
	}
	if s.InCheck() || len(s.Moves()) != 0 {
		t.Error("stalemate with check or moves")
	}
}

func TestFIDE5_2_2_DeadPosition(t *testing.T) {
	for _, c := range []struct {
		fen  string
		dead bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},    // K v K
		{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},   // K+N v K
		{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},   // K+B v K
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true}, // bishops on same-coloured squares (c1, f8: dark)
		{"4k3/8/8/8/8/8/8/1BB1K3 w - - 0 1", false},
		{"4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false}, // opposite colours (d1 light, f8 dark)
		{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false}, // K+N+N v K: mate exists
		{"4kn2/8/8/8/8/8/8/3BK3 w - - 0 1", false}, // K+B v K+N
		{"4k3/8/8/8/8/8/7P/4K3 w - - 0 1", false},
	} {
		s := mustFEN(t, c.fen)
		if got := s.Outcome().Over(); got != c.dead {
			t.Errorf("%s: over %v, want %v (%+v)", c.fen, got, c.dead, s.Outcome())
		}
		if c.dead && (s.Outcome().Ruling != "FIDE 5.2.2" || s.Outcome().Status != rules.Draw) {
			t.Errorf("%s: %+v", c.fen, s.Outcome())
		}
	}
	// Reached in play: Kxb2 leaves K v K.
	s := play(t, mustFEN(t, "4k3/8/8/8/8/8/1r6/K7 w - - 0 1"), "Kxb2")
	if s.Outcome().Reason != "dead position: neither side can checkmate" {
		t.Errorf("after Kxb2: %+v", s.Outcome())
	}
}

func TestFIDE9_2_ThreefoldRepetition(t *testing.T) {
	s := play(t, mustFEN(t, StartFEN), "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	if s.Outcome().Over() {
		t.Fatal("drawn before the third occurrence")
	}
	s = play(t, s, "Ng8")
	if o := s.Outcome(); o.Status != rules.Draw || o.Reason != "threefold repetition" || o.Ruling != "FIDE 9.2" {
		t.Errorf("outcome %+v", o)
	}
	// The repetitions survive serialisation.
	s7 := play(t, mustFEN(t, StartFEN), "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	data, _ := s7.MarshalBinary()
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if s8 := play(t, back.(*State), "Ng8"); s8.Outcome().Reason != "threefold repetition" {
		t.Errorf("after a round trip: %+v", s8.Outcome())
	}
}

func TestFIDE9_2_3_SamePositionMeansSameMoves(t *testing.T) {
	// Castling rights: the placement after 1. e4 e5 with all rights
	// differs from the same placement after the kings went out and back.
	s := play(t, mustFEN(t, StartFEN), "e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8")
	if n := s.repetitions(); n != 1 {
		t.Errorf("seen %d times; the first time had castling rights", n)
	}
	if n := play(t, s, "Ke2", "Ke7", "Ke1", "Ke8").repetitions(); n != 2 {
		t.Errorf("seen %d times, want 2", n)
	}
	// En passant: the position right after e2-e4, with dxe3 possible,
	// differs from the same placement later.
	e := play(t, mustFEN(t, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "e4", "Kd7", "Kd2", "Ke8", "Ke1")
	if n := e.repetitions(); n != 1 {
		t.Errorf("seen %d times; the first time allowed en passant", n)
	}
	// A double step that no pawn can answer en passant changes nothing:
	// after 1. e4 the FEN names e3, yet the position repeats with 3. Ke1.
	n := play(t, mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), "e4", "Kd7", "Kd2", "Ke8", "Ke1", "Kd7", "Kd2", "Ke8", "Ke1")
	if n.Outcome().Reason != "threefold repetition" {
		t.Errorf("an en passant square nobody can use made positions differ: %+v", n.Outcome())
	}
}

func TestFIDE9_3_FiftyMoveRule(t *testing.T) {
	s := mustFEN(t, "7k/8/6K1/8/8/8/8/R7 w - - 99 80")
	quiet := play(t, s, "Rb1")
	if o := quiet.Outcome(); o.Status != rules.Draw || o.Ruling != "FIDE 9.3" {
		t.Errorf("after the 100th quiet ply: %+v", o)
	}
	// Checkmate on that move takes precedence (FIDE 9.3, 9.6.2).
	mate := play(t, s, "Ra8#")
	if o := mate.Outcome(); o.Status != rules.Win || o.Reason != "checkmate" {
		t.Errorf("mate on the 100th ply: %+v", o)
	}
	// A capture or pawn move resets the count.
	p := play(t, mustFEN(t, "7k/8/6K1/8/8/8/P7/R7 w - - 99 80"), "a3")
	if p.Outcome().Over() || strings.Fields(p.FEN())[4] != "0" {
		t.Errorf("after a pawn move: %+v %s", p.Outcome(), p.FEN())
	}
	// Perft follows the game: after any quiet move the game is over.
	if got := s.Perft(2); got != 0 {
		t.Errorf("perft(2) with the clock at 99 = %d, want 0 (every move is quiet and ends the game)", got)
	}
}

// TestFIDE9_6_AutomaticDraws: the server draws at the third occurrence and
// the fiftieth move without a claim. FIDE 9.6 makes fivefold repetition and
// 75 moves automatic; drawing at FIDE 9.2 and 9.3's thresholds instead is
// what a player would claim anyway, and no game continues past them.
func TestFIDE9_6_AutomaticDraws(t *testing.T) {
	s := play(t, mustFEN(t, StartFEN), "Nc3", "Nc6", "Nb1", "Nb8", "Nc3", "Nc6", "Nb1", "Nb8")
	if len(s.Moves()) != 0 || !s.Outcome().Over() {
		t.Error("the game goes on after the third occurrence")
	}
	if _, err := s.Parse("Nc3"); err == nil {
		t.Error("a move is accepted after the automatic draw")
	}
}

func TestPerftFollowsRepetitionDraws(t *testing.T) {
	// The start position has stood on the board twice: Ng8 brings it a
	// third time, ends the game and has no replies in perft(2).
	s := play(t, mustFEN(t, StartFEN), "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	raw := s.pos.perft(2)
	game := s.Perft(2)
	ng8 := play(t, s, "Ng8")
	if !ng8.Outcome().Over() || game != raw-20 || rules.Perft(s, 2) != game {
		t.Errorf("perft(2) = %d, raw %d, Ng8 over %v", game, raw, ng8.Outcome().Over())
	}
}
