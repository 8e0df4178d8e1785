package submachine

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// sampleGame is the annotated game of docs/variants/submachine.md, played
// by the engine's random test player (squeeze, seed 99, game 1309): it
// shifts, teleports and ends with a teleport mate.
var sampleGame = strings.Fields(`
	Mh1-i5 Mh12-i8 Mi5xi8 i11-i9 Mi8xi9 Nj12-i10 Mi9xj11 Bi12xj11
	Nb1-a3 Ni10-i3 j2xi3 d11-d9 Qe1-d5 k11-k9 i3-i4 a11-a10
	k2-k3 a10-a9 Cd1-c3 a9-a8 Qd5-c4 g11-g9 Qc4xc11 Cd12xc11
	Kg1-h5 Rk12-i12 Rk1-j4 Ri12xi4 Rj4xi4 Bj11-i10 Ri4xi10 h11xi10
	Cc3xi10`)

func TestSampleGame(t *testing.T) {
	s, _ := newGame(rules.Options{})
	var st rules.State = s
	var records []string
	for i, text := range sampleGame {
		m, err := st.Parse(text)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		next, rep, err := st.Apply(m)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		records = append(records, rep.Record[rules.ViewReferee])
		st = next
	}
	// The teleports: Ni10-i3 (a knight between teleport squares) and the
	// mate Cc3xi10, both marked as teleports; Mh1-i5, Mh12-i8 and Kg1-h5
	// take the one-way shift.
	if got := strings.Join(records, " "); !strings.Contains(got, "Mi5xi8 ") || !strings.HasSuffix(got, "Cc3xi10#") {
		t.Errorf("records: %s", got)
	}
	if o := st.Outcome(); o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" {
		t.Errorf("outcome %+v, want White mates", o)
	}
	// The annotation's claim: every square the king on g12 could step to
	// is covered by the cardinal on i10 — g11 h12 k11 h8 by its leaps (h8
	// is g12's shifted neighbour, k11 its wrapped one), h11 and k12 by its
	// diagonals (k12 is g12's wrapped neighbour).
	fin := st.(*State)
	g12 := board.MustParse("g12")
	if got := sorted(board.Names(kingTargets[g12])); got != "g11 h11 h12 h8 k11 k12" {
		t.Errorf("g12's neighbours %q", got)
	}
	for _, sq := range kingTargets[g12] {
		if !fin.pos.attacked(sq, rules.White) {
			t.Errorf("%s is not covered", board.Name(sq))
		}
	}
	if got, want := st.(*State).Position(), "rnb1q1k4/1pc1p6/8C2/3p2p3p/p10/11/11/7K3/11/N9P/PPPPP1PPP2/R1B5BN1 b - 0 17"; got != want {
		t.Errorf("final position %s, want %s", got, want)
	}
}

// TestViews compares the boards each viewer gets, at the start and after
// 19 plies of the sample game (a cardinal on the teleport c3, pieces
// through the shift), with golden files.
func TestViews(t *testing.T) {
	start, _ := newGame(rules.Options{})
	mid := rulestest.Play(t, Variant, rules.Options{}, sampleGame[:19]...)
	for _, c := range []struct {
		name string
		s    rules.State
	}{{"start", start}, {"mid", mid}} {
		for v := range rules.NumViewers {
			rulestest.Golden(t, c.name+"-"+v.String()+".txt", c.s.View(v).ASCII())
		}
	}
	// Nothing is hidden: every viewer sees the same cells.
	ref := mid.View(rules.ViewReferee).Cells
	for v := range rules.NumViewers {
		if got := mid.View(v).Cells; strings.Join(got, ",") != strings.Join(ref, ",") {
			t.Errorf("%v sees other cells than the referee", v)
		}
	}
	// Black's board is turned round: rank 1 on top, file k on the left.
	b := start.View(rules.ViewBlack).ASCII()
	if !strings.Contains(b, "    k j i h g f e d c b a\n  1 R N B M K   Q C B N R 1\n") {
		t.Errorf("Black's board is not turned round:\n%s", b)
	}
	// Check and teleports are stated.
	if got := strings.Join(mid.View(rules.ViewWhite).Status, " "); got != "On teleport squares: C on c3." {
		t.Errorf("status %q", got)
	}
	chk := setup(t, "b", "Bc3 Kg1 ki10")
	if got := strings.Join(chk.View(rules.ViewPublic).Status, " "); got != "Black is in check. On teleport squares: B on c3, k on i10." {
		t.Errorf("status %q", got)
	}
}

func TestLegendExplainsEverySymbol(t *testing.T) {
	text := strings.Join(legend, "\n")
	for _, l := range "KQRBNPCM" {
		if !strings.Contains(text, string(l)+" ") {
			t.Errorf("legend does not explain %c", l)
		}
	}
	for _, w := range []string{`"."`, `"o"`, "blank", "hole", "Wraps", "a<->e", "a1->b5"} {
		if !strings.Contains(text, w) {
			t.Errorf("legend does not mention %s", w)
		}
	}
}

func TestHelp(t *testing.T) {
	h := Variant.Help()
	lines := strings.Split(h, "\n")
	if len(lines) > 40 {
		t.Errorf("help has %d lines, want at most 40", len(lines))
	}
	for i, l := range lines {
		if utf8.RuneCountInString(l) > 72 {
			t.Errorf("help line %d has %d characters: %q", i+1, utf8.RuneCountInString(l), l)
		}
	}
	for _, want := range []string{"M1", "M2", "M3", "M4", "M5", "M6", "M7", "Nb1-c3", "g9-g10=Q", "b2-b4"} {
		if !strings.Contains(h, want) {
			t.Errorf("help does not mention %s", want)
		}
	}
}

func TestVariantIdentity(t *testing.T) {
	if Variant.ID() != "submachine" || Variant.Name() != "Submachine Chess" || Variant.Hidden() ||
		Variant.Board() != rules.SubmachineBoard || Variant.Sides() != [2]string{"White", "Black"} ||
		strings.Join(Variant.Rulesets(), ",") != "standard" {
		t.Errorf("identity: %s %s %v %v %v", Variant.ID(), Variant.Name(), Variant.Hidden(), Variant.Sides(), Variant.Rulesets())
	}
}

func TestPositionStrings(t *testing.T) {
	bad := map[string]string{
		"w":       "a position is",
		"11/11 w": "2 ranks",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBNR x - 0 1":   "side to move",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBN w - 0 1":    "rank 1 describes 10 cells",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQK1MBNR w - 0 1":   "f1, a hole",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1XMBNR w - 0 1":   "not a piece letter",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1QMBNR w - 0 1":   "White has 0 kings",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBNR w - 101 1": "halfmove clock",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBNR w b3 0 1":  "not a square",
		"rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBNR w b4 0 1":  "no Black pawn has just passed b4",
		"6k4/11/11/11/11/11/11/11/11/11/11/P5K4 w - 0 1":                                    "cannot stand on a1",
		"6k4/11/11/11/11/11/11/11/11/11/11/6K3p w - 0 1":                                    "cannot stand on k1",
		"6k4/11/11/11/11/11/11/11/11/11/11/6K1K2 w - 0 1":                                   "two kings",
		"6k4/11/11/11/11/11/11/11/11/11/11/6K3q b - 0 1":                                    "White is in check but it is Black's move",
		"6k4/PPPPP1PPPPP/P10/11/11/11/11/11/11/11/11/6K4 w - 0 1":                           "cannot stand on",
		"6k4/11/11/11/11/11/11/11/11/11/PPPPP1PPPPP/P5K4 w - 0 1":                           "cannot stand on a1",
	}
	for pos, want := range bad {
		_, err := newGame(rules.Options{Position: pos})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", pos, err, want)
		}
	}
	// A round trip, and the en passant square kept only while a capture is legal.
	s, err := newGame(rules.Options{Position: place(t, "b", "b4", "Kg1 Pb5 kg12 pa5")})
	if err != nil || s.Position() != "6k4/11/11/11/11/11/11/pP9/11/11/11/6K4 b b4 0 1" {
		t.Errorf("%v %s", err, s.Position())
	}
	s, err = newGame(rules.Options{Position: place(t, "b", "b4", "Kg1 Pb5 kg12 pe5")})
	if err != nil || s.Position() != "6k4/11/11/11/11/11/11/1P2p6/11/11/11/6K4 b - 0 1" {
		t.Errorf("en passant square kept without a capture: %v %s", err, s.Position())
	}
}

func TestSerialisation(t *testing.T) {
	s := rulestest.Play(t, Variant, rules.Options{}, "Nb1-c3", "Nb12-c10", "Nc3-b1", "Nc10-b12", "Nb1-c3")
	data, _ := s.MarshalBinary()
	if !bytes.HasPrefix(data, []byte(`{"v":1,"ruleset":"standard","position":"`)) {
		t.Errorf("encoding %s", data)
	}
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	// The repetition history survives: two more moves repeat a third time.
	end := play(t, back, "Nb12-c10", "Nc3-b1", "Nc10-b12")
	if end.Outcome().Reason != "threefold repetition" {
		t.Errorf("after decoding, the repetition is lost: %+v", end.Outcome())
	}
	bad := []string{
		``, `{}`, `null`, `{"v":2,"ruleset":"standard","position":"` + StartPosition + `","ply":0,"history":"0000000000000000"}`,
		`{"v":1,"ruleset":"x","position":"` + StartPosition + `","ply":0,"history":"0000000000000000"}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","ply":-1,"history":"0000000000000000"}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","ply":0,"history":"0000000000000000"}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","ply":0,"history":""}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","ply":0,"history":"zz"}`,
		`{"v":1,"ruleset":"standard","position":"junk","ply":0,"history":"0000000000000000"}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","ply":0,"history":"0000000000000000","extra":1}`,
		string(data) + `{}`,
	}
	for _, b := range bad {
		if _, err := Variant.Unmarshal([]byte(b)); err == nil {
			t.Errorf("Unmarshal(%s) accepted", b)
		}
	}
}

// TestApplyRefusesWhatIsNotLegal checks Apply's own guard and that the
// state it was called on is left alone.
func TestApplyRefusesWhatIsNotLegal(t *testing.T) {
	s, _ := newGame(rules.Options{})
	before, _ := s.MarshalBinary()
	for _, m := range []rules.Move{
		{From: board.MustParse("b2"), To: board.MustParse("b5"), Aux: rules.NoSquare, Piece: pawn},
		{From: board.MustParse("g1"), To: board.MustParse("g2"), Aux: rules.NoSquare, Piece: king},
		{From: 3, To: 500, Piece: 99},
	} {
		if _, _, err := s.Apply(m); err == nil {
			t.Errorf("Apply(%+v) accepted", m)
		}
	}
	after, _ := s.MarshalBinary()
	if !bytes.Equal(before, after) {
		t.Errorf("a refused Apply changed the state")
	}
	over := play(t, setup(t, "w", "Kg1 Ra5 Rb1 kc6"), "Rb1-c1")
	if _, _, err := over.Apply(rules.Move{}); err == nil {
		t.Errorf("a move was applied after the end")
	} else if me, ok := err.(*rules.MoveError); !ok || me.Kind != rules.GameOver {
		t.Errorf("after the end: %v", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	s := rulestest.Play(f, Variant, rules.Options{}, sampleGame[:10]...)
	data, _ := s.MarshalBinary()
	f.Add(data)
	start, _ := newGame(rules.Options{})
	data, _ = start.MarshalBinary()
	f.Add(data)
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := Variant.Unmarshal(b)
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("decoded state fails Check: %v", err)
		}
		again, _ := st.MarshalBinary()
		back, err := Variant.Unmarshal(again)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if third, _ := back.MarshalBinary(); !bytes.Equal(third, again) {
			t.Fatalf("encoding not stable")
		}
		for _, m := range st.Moves() {
			if _, _, err := st.Apply(m); err != nil {
				t.Fatalf("offered move %s refused: %v", st.Format(m), err)
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"Nb1-c3", "b4", "nb1c3", "Qe1xe7", "g9-g10=Q", "O-O", "b3-b4", "Rb1-e1", "a5xb4 e.p.", "Kh5", "Cc3xi10#", "P", "=", "x", "k12"} {
		f.Add(s, 0)
		f.Add(s, 19)
	}
	states := []rules.State{}
	var st rules.State
	st, _ = newGame(rules.Options{})
	for _, text := range sampleGame {
		states = append(states, st)
		m, _ := st.Parse(text)
		st, _, _ = st.Apply(m)
	}
	states = append(states, st)
	f.Fuzz(func(t *testing.T, text string, at int) {
		if at < 0 {
			at = -at
		}
		s := states[at%len(states)]
		m, err := s.Parse(text)
		if err != nil {
			if _, ok := err.(*rules.MoveError); !ok {
				t.Fatalf("%q: error %v is not a MoveError", text, err)
			}
			return
		}
		canon := s.Format(m)
		back, err := s.Parse(canon)
		if err != nil || back != m {
			t.Fatalf("%q parsed to %s, which parses back to %+v (%v)", text, canon, back, err)
		}
	})
}
