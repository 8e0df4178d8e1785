package seachess

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

func TestVariant(t *testing.T) {
	v := Variant
	if v.ID() != "seachess" || v.Name() != "Seachess" || v.Sides() != [2]string{"White", "Black"} ||
		!v.Hidden() || v.Board() != rules.SeachessBoard || len(v.Rulesets()) != 1 || v.Rulesets()[0] != "standard" {
		t.Errorf("variant %v", v)
	}
	if _, err := v.New(rules.Options{Ruleset: "fast"}); err == nil {
		t.Error("an unknown ruleset is accepted")
	}
	s, err := v.New(rules.Options{Ruleset: "standard"})
	if err != nil || s.Ruleset() != "standard" || s.Ply() != 0 || s.ToMove() != rules.White {
		t.Errorf("new: %v %v", s, err)
	}
}

func TestHelp(t *testing.T) {
	lines := strings.Split(strings.TrimRight(Variant.Help(), "\n"), "\n")
	if len(lines) > 40 {
		t.Errorf("help has %d lines", len(lines))
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 72 {
			t.Errorf("help line too long: %q", l)
		}
	}
	for _, want := range []string{"S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "Ce5-M", "Sd1v-e3", "sSe3-f5", "Tj5xth7", "Ad4xag7", "Aa-A", "O-O"} {
		if !strings.Contains(Variant.Help(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestPositionNotation(t *testing.T) {
	for _, text := range []string{
		StartPosition,
		"2k5/8/12/12/12/12/2[C*]9/12/3S[bU]7/1M10/8/2T3K1 b - - 12 40 spent=e1 face=e1:W v=d4:3 left=Ue4:2 veiled=W",
		"4k3/8/12/12/12/12/12/12/12/12/8/4K3 w - - 0 9 veiled=W,B",
		"4k3/8/12/2B9/3b8/12/12/12/12/4u7/8/4K3 w - d8 0 7 left=ue3:3",
		"8/3k4/12/2[Uu]9/12/12/12/12/12/3A8/8/6K1 w - - 149 80 left=Uc9:1,uc9:3 air=d3",
	} {
		p, err := parsePosition(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := p.formatPosition(); got != text {
			t.Errorf("round trip:\n got %q\nwant %q", got, text)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"", "six fields"},
		{"8/8/12 w - - 0 1", "12"},
		{strings.Replace(StartPosition, "csdakdst", "csdakdstb", 1), "more than 8"},
		{strings.Replace(StartPosition, " w ", " x ", 1), "side to move"},
		{strings.Replace(StartPosition, "TCtc", "TTx", 1), "castling"},
		{strings.Replace(StartPosition, "CSDAKDST", "CSDA1DST", 1), "no commando ship"},
		{strings.Replace(StartPosition, "CSDAKDST", "CSDAKKST", 1), "two commando ships"},
		{strings.Replace(StartPosition, "12/BBBBBBBB", "B11/BBBBBBBB", 1), "more pieces"},
		{strings.Replace(StartPosition, "CSDAKDST", "BSDAKDST", 1), "boat cannot stand"},
		{StartPosition + " v=d1:9", "count from 0 to 8"},
		{StartPosition + " v=c1:2", "visible submarine"},
		{StartPosition + " air=d1", "not a carrier"},
		{StartPosition + " spent=c1 spent=c1", "once"},
		{StartPosition + " zap=c1", "unknown"},
		{StartPosition + " veiled=X", "want W or B"},
		{"4k3/8/12/12/12/12/12/6c5/12/12/8/4K3 b - - 0 1", "not to move, is in check"},
		{"4k3/8/12/12/12/12/12/12/12/3[dU]8/8/4K3 w - - 0 1", "enemy destroyer"},
		{"4k3/8/12/12/12/12/12/12/12/3dU7/8/4K3 w - - 0 1", "next to an enemy destroyer"},
		{"4k3/8/12/12/12/12/12/12/12/3[Bm]8/8/4K3 w - - 0 1", "'M'/'m'"},
		{"4k3/8/12/12/12/12/12/12/12/3[B*]8/8/4K3 w - - 0 1", "only the cruiser"},
		{"4k3/8/12/12/12/12/12/12/12/12/8/4K3 w T - 0 1", "castling right"},
		{"4k3/8/12/12/12/12/12/12/12/12/8/4K3 w - e4 0 1", "en passant"},
		{"4k3/8/12/12/12/12/12/12/12/12/8/4K3 w - - 151 1", "clock"},
	} {
		_, err := parsePosition(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one about %q", c.text, err, c.want)
		}
	}
	// The CLI's --fen reaches the same parser.
	s, err := Variant.New(rules.Options{Position: "4k3/8/12/12/12/12/12/12/12/12/8/4K3 w - - 0 1"})
	if err != nil || len(s.Moves()) != 5 {
		t.Errorf("a bare position: %v, %d moves", err, len(s.Moves()))
	}
}

func TestSerialisation(t *testing.T) {
	s := play(t, start(t), sampleGame[:40]...)
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"v":2,"ruleset":"standard","position":"`) {
		t.Errorf("format: %s", data)
	}
	rulestest.CheckState(t, s, "sample game")
	good := string(data)
	for _, bad := range []string{
		"", "{", "null", `{"v":2}`, strings.Replace(good, `"v":2`, `"v":3`, 1),
		strings.Replace(good, "standard", "fast", 1),
		strings.Replace(good, `"history":[`, `"history":["0000000000000000",`, 1),
		strings.Replace(good, `"history":["`, `"history":["x`, 1),
		strings.Replace(good, `}`, `,"extra":1}`, 1),
		good + "{}",
		strings.Replace(good, " w ", " b ", 1),
	} {
		if _, err := Variant.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestSerialisationVersion1 reads a state written before the veiled extra
// (version 1): both sides count as veiled, so each side's list allows for
// the other's mines (S8.3).
func TestSerialisationVersion1(t *testing.T) {
	s := play(t, start(t), "Be2-e4")
	data, _ := s.MarshalBinary()
	old := strings.Replace(string(data), `"v":2`, `"v":1`, 1)
	back, err := Variant.Unmarshal([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if p := back.(*State).pos; !p.veiled[rules.White] || !p.veiled[rules.Black] {
		t.Errorf("a version 1 state is read with veiled %v", p.veiled)
	}
	if got, _ := back.MarshalBinary(); !strings.Contains(string(got), `"v":2`) || !strings.Contains(string(got), " veiled=W,B") {
		t.Errorf("written again as %s", got)
	}
}

func TestCheckFindsCorruption(t *testing.T) {
	s := play(t, start(t), sampleGame[:30]...)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	corrupt := []func(c *State){
		func(c *State) { c.hist = append(append([]uint64{}, c.hist...), 1) },
		func(c *State) { c.pos.king[rules.White] = sqr("a3") },
		func(c *State) { c.pos.nuw[rules.Black]++ },
		func(c *State) { c.pos.ply++ },
		func(c *State) { c.inCheck = !c.inCheck },
		func(c *State) { c.outcome = rules.Outcome{Status: rules.Draw, Reason: "boredom"} },
		func(c *State) { c.pos.sq[sqr("a5")] = mk(boat, rules.White) },
		func(c *State) { c.pos.mine[sqr("d3")] = mineOf(rules.Black) },
		func(c *State) { c.pos.sq[1+1*12] = mk(boat, rules.White) }, // b2 does not exist
	}
	for i, f := range corrupt {
		c := *s
		f(&c)
		if err := c.Check(); err == nil {
			t.Errorf("corruption %d passes Check", i)
		}
	}
}

func TestMoveErrors(t *testing.T) {
	s := start(t)
	if _, err := s.Parse("Cc1-c3"); !isKind(err, rules.Illegal) {
		t.Errorf("Cc1-c3: %v", err)
	}
	if _, err := s.Parse("hello"); !isKind(err, rules.Unreadable) {
		t.Errorf("hello: %v", err)
	}
	if _, _, err := s.Apply(mv(mvNormal, cruiser, sqr("c1"), sqr("c5"))); !isKind(err, rules.Illegal) {
		t.Errorf("apply an unlisted move: %v", err)
	}
	for _, junk := range []rules.Move{{From: -5, To: 500, Aux: 77, Piece: 99, Promo: 42, Kind: mvSurfaceHere}, {From: 1000, To: -3, Kind: 200}} {
		if _, _, err := s.Apply(junk); !isKind(err, rules.Illegal) {
			t.Errorf("apply %+v: %v", junk, err)
		}
	}
	// Two cruisers can reach c7: the short form is ambiguous.
	s = setup(t, "K@g1 k@g12 C@c3 C@a7", "w")
	if _, err := s.Parse("Cc7"); !isKind(err, rules.Ambiguous) {
		t.Errorf("Cc7: %v", err)
	}
	if m, err := s.Parse("Cac7"); err != nil || s.Format(m) != "Ca7-c7" {
		t.Errorf("Cac7: %v", err)
	}
	// A record line is read past its marks, whatever they claim.
	s = setup(t, "K@g1 k@g12 C@e2", "w")
	if m, err := s.Parse("Ce2-e9-Mx(e6)"); err != nil || s.Format(m) != "Ce2-e9" {
		t.Errorf("a record form: %v", err)
	}
	// After the end nothing is accepted.
	end := play(t, start(t), sampleGame...)
	if _, err := end.Parse("Kd12-c12"); !isKind(err, rules.GameOver) {
		t.Errorf("parse after the end: %v", err)
	}
	if _, _, err := end.Apply(mv(mvNormal, commando, sqr("d12"), sqr("c12"))); !isKind(err, rules.GameOver) {
		t.Errorf("apply after the end: %v", err)
	}
}

func isKind(err error, k rules.ErrorKind) bool {
	me, ok := err.(*rules.MoveError)
	return ok && me.Kind == k
}

func FuzzUnmarshal(f *testing.F) {
	for _, moves := range [][]string{nil, sampleGame[:36], sampleGame} {
		s := play(f, start(f), moves...)
		data, _ := s.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"ruleset":"standard","position":"4k3/8/12/12/12/12/12/12/12/12/8/4K3 w - - 0 1","history":["0"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Variant.Unmarshal(data)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("decoded a state that fails Check: %v", err)
		}
		again, _ := s.MarshalBinary()
		back, err := Variant.Unmarshal(again)
		if err != nil {
			t.Fatalf("re-encoded state does not decode: %v", err)
		}
		if third, _ := back.MarshalBinary(); string(third) != string(again) {
			t.Fatal("encoding is not stable")
		}
		for v := range rules.NumViewers {
			_ = s.View(v).ASCII()
		}
	})
}

func FuzzParse(f *testing.F) {
	states := []*State{start(f), play(f, start(f), sampleGame[:36]...), play(f, start(f), sampleGame[:27]...)}
	for _, in := range []string{"Be2-e4", "e4", "Ce5 - M (h)", "sSe3-f5^x", "Tj5 xt h7", "Aa-A", "O-O-O", "Da1-e5>f6^xf6", "xx", "sS", "B=", "Aax"} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range states {
			m, err := s.Parse(text)
			if err != nil {
				if _, ok := err.(*rules.MoveError); !ok {
					t.Fatalf("%q: not a MoveError: %v", text, err)
				}
				continue
			}
			back, err := s.Parse(s.Format(m))
			if err != nil || back != m {
				t.Fatalf("%q → %s does not parse back (%v)", text, s.Format(m), err)
			}
		}
	})
}
