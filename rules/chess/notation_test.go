package chess

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestSANOutput(t *testing.T) {
	for _, c := range []struct{ fen, coord, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "exd5"},
		{"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2"},  // file tells them apart
		{"4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "a1a2", "R1a2"},   // rank does
		{"1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"}, // only both do
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q+"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "a8=N"},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6"},
	} {
		s := mustFEN(t, c.fen)
		m, err := s.Parse(c.coord)
		if err != nil {
			t.Errorf("%s %s: %v", c.fen, c.coord, err)
			continue
		}
		if got := s.Format(m); got != c.san {
			t.Errorf("%s %s: SAN %q, want %q", c.fen, c.coord, got, c.san)
		}
	}
}

func TestParseAliases(t *testing.T) {
	s := mustFEN(t, "r3k2r/pppq1ppp/2n2n2/3pp3/1b2P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 0 8")
	if m, err := s.Parse("g1"); err == nil {
		t.Errorf("g1 read as %s", s.Format(m))
	}
	for input, want := range map[string]string{
		"Nxd5": "Nxd5", "nxd5": "Nxd5", "Nc3xd5": "Nxd5", "Nc3-d5": "Nxd5", "c3d5": "Nxd5", "N c3 x d5": "Nxd5",
		"Ncxd5": "Nxd5", "N3d5": "Nxd5", "NXD5": "Nxd5", "Nd5": "Nxd5",
		"exd5": "exd5", "ed5": "exd5", "e4d5": "exd5", "e4xd5": "exd5", "EXD5": "exd5",
		"O-O": "O-O", "0-0": "O-O", "oo": "O-O", "e1g1": "O-O", "Ke1-g1": "O-O", "O-O+": "O-O", "Kg1": "O-O",
		"a3": "a3", "a2-a3": "a3", "a2a4": "a4",
		"Nh4": "Nh4", "Ng1": "Ng1", "ng5": "Ng5",
		"Qc1": "Qc1", "qd1c1": "Qc1",
	} {
		m, err := s.Parse(input)
		if err != nil {
			t.Errorf("%q: %v", input, err)
			continue
		}
		if got := s.Format(m); got != want {
			t.Errorf("%q read as %s, want %s", input, got, want)
		}
	}
}

// TestParseBishopOrBPawn: "B" is the bishop and "b" the b-pawn, whatever
// is legal; bxc3 and Bxc3 never stand for each other.
func TestParseBishopOrBPawn(t *testing.T) {
	both := mustFEN(t, "4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1")
	for input, want := range map[string]string{"bxc3": "bxc3", "Bxc3": "Bxc3", "b2c3": "bxc3", "Ba5c3": "Bxc3", "BXC3": "Bxc3", "Bc3": "Bxc3"} {
		m, err := both.Parse(input)
		if err != nil || both.Format(m) != want {
			t.Errorf("%q: %v, want %s", input, err, want)
		}
	}
	pawnOnly := mustFEN(t, "4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1")
	wantErr(t, pawnOnly, "Bxc3", "White has no bishop", "")
	bishopOnly := mustFEN(t, "4k3/8/8/B7/8/2n5/8/4K3 w - - 0 1")
	wantErr(t, bishopOnly, "bxc3", "White has no pawn on the b-file; for the bishop write Bxc3", "")
	if m, err := bishopOnly.Parse("bc3"); err == nil {
		t.Errorf("bc3 read as %s", bishopOnly.Format(m))
	}
}

func TestParseAmbiguous(t *testing.T) {
	s := mustFEN(t, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
	e := parseErr(t, s, "Nd2")
	if e.Kind != rules.Ambiguous || strings.Join(e.Options, " ") != "Nbd2 Nfd2" {
		t.Errorf("Nd2: %+v", e)
	}
	if m, err := s.Parse("Nfd2"); err != nil || m.From != rules.ChessBoard.MustParse("f1") {
		t.Errorf("Nfd2: %v %v", m, err)
	}
}

func TestParseErrors(t *testing.T) {
	s := mustFEN(t, StartFEN)
	for _, c := range []struct {
		input  string
		kind   rules.ErrorKind
		reason string
		ruling string
	}{
		{"", rules.Unreadable, "no move was given", ""},
		{"hello", rules.Unreadable, "this is not a move in algebraic notation", "FIDE Appendix C"},
		{"e5", rules.Illegal, "a pawn advances one square, or two on its first move", "FIDE 3.7.1, 3.7.2"},
		{"BXC3", rules.Illegal, "a bishop moves along a diagonal", "FIDE 3.2"},
		{"E2E5", rules.Illegal, "a pawn advances one square, or two on its first move", "FIDE 3.7.1, 3.7.2"},
		{"e3e4", rules.Illegal, "there is no piece on e3", ""},
		{"Nd2", rules.Illegal, "d2 holds White's own pawn", "FIDE 3.1"},
		{"Ng1-e2", rules.Illegal, "e2 holds White's own pawn", "FIDE 3.1"},
		{"Bb1c3", rules.Illegal, "the piece on b1 is a knight, not a bishop", ""},
		{"Qd3", rules.Illegal, "the queen cannot move over the pawn on d2", "FIDE 3.5"},
		{"Ke2", rules.Illegal, "e2 holds White's own pawn", "FIDE 3.1"},
		{"O-O", rules.Illegal, "a bishop stands on f1", "FIDE 3.8.2.2.2"},
		{"exd4", rules.Illegal, "a pawn moves straight forward, or captures one square diagonally forward", "FIDE 3.7.1, 3.7.3"},
	} {
		e := parseErr(t, s, c.input)
		if e.Kind != c.kind || !strings.Contains(e.Reason, c.reason) || e.Ruling != c.ruling {
			t.Errorf("%q: %v %q (%s), want %v %q (%s)", c.input, e.Kind, e.Reason, e.Ruling, c.kind, c.reason, c.ruling)
		}
		if c.input != "" && len(e.Options) == 0 {
			t.Errorf("%q: no nearest moves offered", c.input)
		}
	}
	wantErr(t, play(t, s, "e4", "e6"), "exd5", "a pawn moves diagonally only to capture", "FIDE 3.7.3")
	// The player's phrasing cites the law.
	e := parseErr(t, s, "e2e5")
	if got := e.Player(); got != `"e2e5": a pawn advances one square, or two on its first move (FIDE 3.7.1, 3.7.2)` {
		t.Errorf("player text %s", got)
	}
	// Apply refuses a move that is not legal, with the same reasons.
	_, _, err := s.Apply(rules.Move{From: 12, To: 36, Aux: rules.NoSquare, Piece: Pawn})
	if err == nil || !strings.Contains(err.Error(), "(FIDE 3.7.1, 3.7.2)") {
		t.Errorf("Apply e2e5: %v", err)
	}
}

// TestNotationRoundTrip: every legal move of many positions formats to a
// distinct SAN that reads back as the same move, and so do its coordinates.
func TestNotationRoundTrip(t *testing.T) {
	for _, c := range perftTable {
		s := mustFEN(t, c.fen)
		seen := map[string]bool{}
		for _, m := range s.Moves() {
			san := s.Format(m)
			if seen[san] {
				t.Errorf("%s: two moves are %s", c.name, san)
			}
			seen[san] = true
			for _, text := range []string{san, coord(m), strings.TrimRight(san, "+#")} {
				if back, err := s.Parse(text); err != nil || back != m {
					t.Errorf("%s: %q reads as %v (%v)", c.name, text, back, err)
				}
			}
		}
	}
}

// TestICCF reads and writes ICCF numeric notation: files and ranks as
// digits 1–8, castling as the king's move, a promotion's piece as a fifth
// digit (1 queen, 2 rook, 3 bishop, 4 knight), from any player.
func TestICCF(t *testing.T) {
	for _, c := range []struct{ fen, iccf, san string }{
		{StartFEN, "5254", "e4"},
		{StartFEN, "7163", "Nf3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "5171", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "5131", "O-O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "5878", "O-O"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "17181", "a8=Q+"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "17182", "a8=R+"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "17183", "a8=B"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "17184", "a8=N"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "5546", "exd6"},
	} {
		s := mustFEN(t, c.fen)
		m, err := s.Parse(c.iccf)
		if err != nil {
			t.Errorf("%s %s: %v", c.fen, c.iccf, err)
			continue
		}
		if got := s.Format(m); got != c.san {
			t.Errorf("%s %s: read as %s, want %s", c.fen, c.iccf, got, c.san)
		}
		if got := s.ICCF(m); got != c.iccf {
			t.Errorf("%s %s: written as %s", c.fen, c.san, got)
		}
		if got, ok := rules.ICCF(s, m); !ok || got != c.iccf {
			t.Errorf("rules.ICCF: %q, %v", got, ok)
		}
	}
	for _, c := range []struct{ fen, in, want string }{
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "1718", "must be exchanged"}, // the piece must be given
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "17185", "not a move"},
		{StartFEN, "5255", "a pawn"},
		{StartFEN, "9254", "not a move"},
		{StartFEN, "0254", "not a move"},
	} {
		s := mustFEN(t, c.fen)
		if m, err := s.Parse(c.in); err == nil {
			t.Errorf("%s: %q read as %s", c.fen, c.in, s.Format(m))
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q: %v, want %q", c.fen, c.in, err, c.want)
		}
	}
}

// TestGermanLetters reads the German piece letters for a player whose
// language is German (rules.ParseIn), and only for one: D is the queen in
// upper case and the d-file in lower case, T, L and S are read in either
// case, and the English letters still work.
func TestGermanLetters(t *testing.T) {
	s := mustFEN(t, "r3k2r/pppq1ppp/2n2n2/3pp3/1b2P3/2NP1N2/PPPBBPPP/R2QK2R w KQkq - 0 8")
	for input, want := range map[string]string{
		"Sxd5": "Nxd5", "sxd5": "Nxd5", "Sc3-d5": "Nxd5", "Nxd5": "Nxd5",
		"Dc1": "Qc1", "Dd1c1": "Qc1", "Qc1": "Qc1",
		"Tb1": "Rb1", "tb1": "Rb1", "Ld2-g5": "Bg5", "lg5": "Bg5", "Lf1": "Bf1",
		"exd5": "exd5", "Ke1-f1": "Kf1", "O-O": "O-O", "5171": "O-O",
	} {
		m, err := rules.ParseIn(s, input, "de")
		if err != nil {
			t.Errorf("%q: %v", input, err)
			continue
		}
		if got := s.Format(m); got != want {
			t.Errorf("%q read as %s, want %s", input, got, want)
		}
	}
	for _, input := range []string{"Sxd5", "Dc1", "Tb1", "Lg5"} {
		if m, err := s.Parse(input); err == nil {
			t.Errorf("English: %q read as %s", input, s.Format(m))
		}
		if m, err := rules.ParseIn(s, input, "en"); err == nil {
			t.Errorf("English: %q read as %s", input, s.Format(m))
		}
	}
	// d is the file in lower case: dxe5 is the d-pawn, never the queen.
	p := mustFEN(t, "4k3/8/8/4p3/3P4/8/8/3QK3 w - - 0 1")
	for input, want := range map[string]string{"dxe5": "dxe5", "Dd3": "Qd3", "Dd1-d2": "Qd2", "d4xe5": "dxe5"} {
		m, err := rules.ParseIn(p, input, "de")
		if err != nil || p.Format(m) != want {
			t.Errorf("%q: %v, want %s", input, err, want)
		}
	}
	// A promotion to a German piece.
	pr := mustFEN(t, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	for input, want := range map[string]string{"a8=D": "a8=Q+", "a8T": "a8=R+", "a8=L": "a8=B", "a8(S)": "a8=N", "a8=N": "a8=N"} {
		m, err := rules.ParseIn(pr, input, "de")
		if err != nil || pr.Format(m) != want {
			t.Errorf("%q: %v, want %s", input, err, want)
		}
	}
}
