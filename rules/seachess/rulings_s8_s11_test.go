package seachess

import (
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestS8_1_CommandoShipMovesLikeKing(t *testing.T) {
	s := setup(t, "K@e5 k@g12 B@d4", "w")
	wantMoves(t, s, "Ke5", "Ke5-d5", "Ke5-d6", "Ke5-e4", "Ke5-e6", "Ke5-f4", "Ke5-f5", "Ke5-f6")
	s = setup(t, "K@e5 k@g12 B@d4 c@a6", "w")
	wantMoves(t, s, "Ke5", "Ke5-d5", "Ke5-e4", "Ke5-f4", "Ke5-f5")
}

func TestS8_2_Castling(t *testing.T) {
	base := "K@g1 T@j1 C@c1 k@g12"
	s := setup(t, base, "w", "castle:TC")
	wantMoves(t, s, "O-O", "O-O", "O-O-O")
	n := play(t, s, "O-O")
	if at(n, "i1") != "K" || at(n, "h1") != "T" || n.pos.castle != 0 {
		t.Errorf("after O-O: h1 %q i1 %q rights %b", at(n, "h1"), at(n, "i1"), n.pos.castle)
	}
	n = play(t, s, "O-O-O")
	if at(n, "e1") != "K" || at(n, "f1") != "C" {
		t.Errorf("after O-O-O: e1 %q f1 %q", at(n, "e1"), at(n, "f1"))
	}
	// The squares between must be empty.
	if got := from(setup(t, base+" D@h1 S@d1", "w", "castle:TC"), "O-"); len(got) != 0 {
		t.Errorf("castling through pieces: %v", got)
	}
	// A commando ship that has moved may not castle, even back home.
	n = play(t, s, "Kg1-g2", "Kg12-f12", "Kg2-g1", "Kf12-g12")
	if got := from(n, "O-"); len(got) != 0 {
		t.Errorf("castling after the commando ship moved: %v", got)
	}
	// Planting a mine and launching a torpedo are not moves of the piece.
	n = play(t, setup(t, base+" b@i2", "w", "castle:TC"), "Cc1-M", "Kg12-f12", "Tj1xti2", "Kf12-g12")
	wantMoves(t, n, "O-", "O-O", "O-O-O")
	n, rep := step(t, n, "O-O-O")
	if at(n, "c1") != "M" || at(n, "f1") != "C" || rep.Record[rules.ViewWhite] != "O-O-O<M" || rep.Record[rules.ViewBlack] != "O-O-O" {
		t.Errorf("O-O-O off a mine: c1 %q f1 %q records %q / %q", at(n, "c1"), at(n, "f1"),
			rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack])
	}
	// Not in check, not through or onto an attacked square.
	if got := from(setup(t, base+" c@g8", "w", "castle:TC"), "O-"); len(got) != 0 {
		t.Errorf("castling out of check: %v", got)
	}
	wantMoves(t, setup(t, base+" c@h8", "w", "castle:TC"), "O-", "O-O-O")
	wantMoves(t, setup(t, base+" c@e8", "w", "castle:TC"), "O-", "O-O")
	// Black castles on rank 12.
	s = setup(t, "K@g1 k@g12 t@j12 c@c12", "b", "castle:tc")
	n = play(t, s, "O-O")
	if at(n, "i12") != "k" || at(n, "h12") != "t" || facing(n.pos.attr[sqr("h12")]) != rules.W {
		t.Errorf("Black's O-O: h12 %q i12 %q", at(n, "h12"), at(n, "i12"))
	}
}

func TestS8_3_RefusedWithFullInformation(t *testing.T) {
	// The submarine under White's cruiser on its mine comes up at the start
	// of Black's turn: it takes the cruiser, dies on the mine, and opens the
	// file to Black's cruiser. White cannot see it; the referee can.
	s := setup(t, "K@g1 C*u@g5 c@g9 k@d12 B@c2", "w")
	for text, want := range map[string]rules.ErrorKind{
		"Bc2-c3": rules.Refused, "Kg1-g2": rules.Refused, "Kg1-f1": 0, "Cg5-g6": 0,
	} {
		if _, _, k := tryMove(t, s, text); k != want {
			t.Errorf("%s: %v, want %v", text, k, want)
		}
	}
	// A piece that would block the check strikes a mine on its way.
	s = setup(t, "K@g5 c@a5 C@e9 m@e7 k@d12", "w")
	if !has(s, "Ce9-e5") {
		t.Fatalf("Ce9-e5 not offered: %v", texts(s))
	}
	m, _ := s.Parse("Ce9-e5")
	_, _, err := s.Apply(m)
	me, ok := err.(*rules.MoveError)
	if !ok || me.Kind != rules.Refused || me.Ruling != "S8.3" ||
		!strings.Contains(me.Reason, "would be (or stay) in check") || strings.Contains(me.Reason, "mine") {
		t.Errorf("refusal: %v", err)
	}
	if _, _, k := tryMove(t, s, "Kg5-g6"); k != 0 {
		t.Errorf("Kg5-g6: %v", k)
	}
}

func TestS9_EndOfGame(t *testing.T) {
	n, rep := step(t, setup(t, "K@g1 k@g12 c@e5 c@c2", "b"), "Ce5-e1")
	if o := n.Outcome(); o.Status != rules.Win || o.Winner != rules.Black || o.Reason != "checkmate" || o.Ruling != "S9" {
		t.Errorf("checkmate: %+v", o)
	}
	if rep.Record[rules.ViewPublic] != "Ce5-e1+" {
		t.Errorf("record %q", rep.Record[rules.ViewPublic])
	}
	n = play(t, setup(t, "K@c1 k@g12 b@b3 c@h9", "b"), "Ch9-d9")
	if o := n.Outcome(); o.Status != rules.Draw || o.Reason != "stalemate" {
		t.Errorf("stalemate: %+v", o)
	}
	s := setup(t, "K@g1 k@g12", "w")
	for i := range 12 {
		if s.Outcome().Over() {
			t.Fatalf("over after %d plies: %+v", i, s.Outcome())
		}
		s = play(t, s, []string{"Kg1-f1", "Kg12-f12", "Kf1-g1", "Kf12-g12"}[i%4])
	}
	if o := s.Outcome(); o.Status != rules.Draw || o.Reason != "fourth repetition of the position" {
		t.Errorf("repetition: %+v", o)
	}
	// A change of hidden state makes another position: a submarine's
	// count V differs after each pair of moves until it reaches 8.
	s = setup(t, "K@g1 k@g12 S@d4", "w")
	for range 12 {
		s = play(t, s, whiteWaits(s))
		s = play(t, s, blackWaits(s))
	}
	if s.Outcome().Over() {
		t.Errorf("repetition while V still grows: %+v after %d plies", s.Outcome(), s.Ply())
	}
	s = setup(t, "K@g1 k@g12 B@c3", "w", "clock:149")
	n = play(t, s, "Kg1-f1")
	if o := n.Outcome(); o.Status != rules.Draw || o.Reason != "75 moves each without capture or boat move" {
		t.Errorf("75-move rule: %+v", o)
	}
	if n := play(t, s, "Bc3-c4"); n.Outcome().Over() {
		t.Error("a boat move must reset the count")
	}
}

func TestS10_1_HiddenMovesAnnounced(t *testing.T) {
	s := setup(t, "K@g1 k@g12 C@e5 S@d4 U@h5 B@c2", "w", "v=d4:2", "left=Uh5:3")
	for _, text := range []string{"Ce5-M", "Sd4v-e6", "sSh5-g7"} {
		_, rep := step(t, s, text)
		if !rep.Secret || rep.Text != text {
			t.Errorf("%s: secret %v text %q", text, rep.Secret, rep.Text)
		}
		for _, v := range []rules.Viewer{rules.ViewBlack, rules.ViewPublic} {
			if rep.Record[v] != "(h)" || !slices.Equal(rep.English(v), []string{"White made a hidden move (S10.1)"}) {
				t.Errorf("%s: %v reads %q %q", text, v, rep.Record[v], rep.English(v))
			}
		}
		if rep.Record[rules.ViewWhite] != text+" (h)" || rep.Record[rules.ViewReferee] != text+" (h)" {
			t.Errorf("%s: White's record %q", text, rep.Record[rules.ViewWhite])
		}
	}
	_, rep := step(t, s, "Bc2-c3")
	if rep.Secret || rep.Record[rules.ViewBlack] != "Bc2-c3" {
		t.Errorf("a public move: %+v", rep)
	}
}

func TestS10_2_PublicEvents(t *testing.T) {
	// A capture by a mine: its square and the piece, for both.
	_, rep := step(t, setup(t, "K@g1 k@g12 B@d3 m@d4", "w"), "Bd3-d4")
	if rep.Record[rules.ViewPublic] != "Bd3-d4-Mx" || !slices.Contains(rep.English(rules.ViewPublic), "a mine on d4 destroyed White's boat (S3.3)") ||
		!slices.Contains(rep.English(rules.ViewBlack), "White's boat struck your mine on d4 (S3.3)") ||
		!slices.Contains(rep.English(rules.ViewWhite), "your boat struck a mine on d4 (S3.3)") {
		t.Errorf("mine: %q %q", rep.Record[rules.ViewPublic], rep.Notices)
	}
	// A surfacing and its capture, a destroyer's catch, a submarine's check:
	// see S5.5, S5.6, S6.1, S6.2 and S5.8; here all of them in the public
	// record.
	_, rep = step(t, setup(t, "K@g1 k@g12 D@c3 Bu@e6 u@c5", "w", "left=ue6:3,uc5:3"), "Dc3-e5")
	if rep.Record[rules.ViewPublic] != "Dc3-e5>e6^xe6" {
		t.Errorf("forced surfacing: %q", rep.Record[rules.ViewPublic])
	}
	_, rep = step(t, setup(t, "K@g1 k@g12 D@a3 u@c5", "w", "left=uc5:3"), "Da3-c5")
	if rep.Record[rules.ViewPublic] != "Da3-c5xsS" {
		t.Errorf("destroyer's catch: %q", rep.Record[rules.ViewPublic])
	}
	_, rep = step(t, setup(t, "K@g1 k@g12 U@g8", "w", "left=Ug8:3"), "sSg8-h10")
	if rep.Record[rules.ViewPublic] != "(h)+" || !slices.Contains(rep.English(rules.ViewPublic), "Black is in check by a submarine (S5.8)") {
		t.Errorf("check by a submarine: %q %q", rep.Record[rules.ViewPublic], rep.English(rules.ViewPublic))
	}
}

func TestS10_3_OwnHiddenThingsOnly(t *testing.T) {
	s := setup(t, "K@g1 k@g12 C*@e5 m@d6 U@f4 u@h6 Bu@c3 c*@j9", "w", "left=Uf4:2,uh6:2,uc3:2")
	for v, want := range map[rules.Viewer]map[string]string{
		rules.ViewWhite:   {"e5": "C*", "d6": "", "f4": "U", "h6": "", "c3": "B", "j9": "c"},
		rules.ViewBlack:   {"e5": "C", "d6": "m", "f4": "", "h6": "u", "c3": "Bu", "j9": "c*"},
		rules.ViewPublic:  {"e5": "C", "d6": "", "f4": "", "h6": "", "c3": "B", "j9": "c"},
		rules.ViewReferee: {"e5": "C*", "d6": "m", "f4": "U", "h6": "u", "c3": "Bu", "j9": "c*"},
	} {
		view := s.View(v)
		for sq, cell := range want {
			if got := view.Cells[sqr(sq)]; got != cell {
				t.Errorf("%v sees %q on %s, want %q", v, got, sq, cell)
			}
		}
		text := view.ASCII()
		if v != rules.ViewReferee && v != rules.ViewWhite && strings.Contains(text, "f4 submerged") {
			t.Errorf("%v reads White's submarine's status", v)
		}
	}
	// The reload mark betrays an earlier mine: only its owner and the
	// referee read it.
	_, rep := step(t, setup(t, "K@g1 k@g12 C@e5", "w", "spent=e5"), "Ce5-e2")
	if rep.Record[rules.ViewWhite] != "Ce5-e2<M" || rep.Record[rules.ViewReferee] != "Ce5-e2<M" ||
		rep.Record[rules.ViewBlack] != "Ce5-e2" || rep.Record[rules.ViewPublic] != "Ce5-e2" {
		t.Errorf("records %q", rep.Record)
	}
	for _, v := range []rules.Viewer{rules.ViewBlack, rules.ViewPublic} {
		for _, note := range rep.English(v) {
			if strings.Contains(note, "reload") {
				t.Errorf("%v is told %q", v, note)
			}
		}
	}
}

func TestS10_4_HiddenMovesCanBeRevealed(t *testing.T) {
	// Each hidden move's report carries the exact text its author sent (the
	// store seals it and reveals it at the end): it names the move in the
	// position it was played from, and it opens the referee's record line.
	s := start(t)
	moves := []string{"Bc2-c3", "Bc11-c10", "Bd2-d3", "Bd11-d10", "Be2-e3", "Be11-e10", "Bf2-f3", "Bf11-f10",
		"Sd1v-f2", "Cc12-M", "sSf2-g4", "Sd12v-e10", "Cc1-M", "sSe10-f8"}
	hidden := 0
	for _, text := range moves {
		before := s
		var rep *rules.Report
		s, rep = step(t, s, text)
		if !rep.Secret {
			continue
		}
		hidden++
		m, err := before.Parse(rep.Text)
		if err != nil || m != rep.Move || rep.Text != text {
			t.Errorf("%s: the sealed text %q names %+v (%v)", text, rep.Text, m, err)
		}
		if !strings.HasPrefix(rep.Record[rules.ViewReferee], rep.Text) {
			t.Errorf("%s: referee's record %q", text, rep.Record[rules.ViewReferee])
		}
		opp := rules.ViewerOf(rep.Mover.Other())
		if strings.Contains(rep.Record[opp], rep.Text) || strings.Contains(strings.Join(rep.English(opp), " "), rep.Text) {
			t.Errorf("%s: the opponent reads the text", text)
		}
	}
	if hidden != 6 {
		t.Errorf("%d hidden moves, want 6", hidden)
	}
}

func TestS11_Notation(t *testing.T) {
	cases := []struct {
		pos, in, want string
		extra         []string
	}{
		{"K@g1 k@g12 B@e2", "Be2-e4", "Be2-e4", nil},
		{"K@g1 k@g12 B@e2", "e4", "Be2-e4", nil},
		{"K@g1 k@g12 C@c1 b@c7", "Cc1xc7", "Cc1xc7", nil},
		{"K@g1 k@g12 C@c1 b@c7", "Cc1 x c7", "Cc1xc7", nil},
		{"K@g1 k@g12 B@e11 d@d12", "Be11-e12=C", "Be11-e12=C", nil},
		{"K@g1 k@g12 B@e11 d@d12", "Be11-e12=K", "", nil},
		{"K@g1 k@g12 B@e11 c@d12", "Be11xd12=A", "Be11xd12=A", nil},
		{"K@g1 T@j1 C@c1 k@g12", "O-O", "O-O", []string{"castle:TC"}},
		{"K@g1 T@j1 C@c1 k@g12", "0-0-0", "O-O-O", []string{"castle:TC"}},
		{"K@g1 k@g12 C@e5", "Ce5 - M (h)", "Ce5-M", nil},
		{"K@g1 k@g12 S@d1", "Sd1v-e3", "Sd1v-e3", []string{"v=d1:2"}},
		{"K@g1 k@g12 S@e4", "Se4v - f6 (h)", "Se4v-f6", []string{"v=e4:2"}},
		{"K@g1 k@g12 U@e3", "sSe3-f5", "sSe3-f5", []string{"left=Ue3:2"}},
		{"K@g1 k@g12 U@e3 b@f5", "sSe3-f5^x", "sSe3-f5^x", []string{"left=Ue3:2"}},
		{"K@g1 k@g12 bU@f5", "sSf5^x", "sSf5^x", []string{"left=Uf5:2"}},
		{"K@g1 k@g12 U@f5", "sSf5^", "sSf5^", []string{"left=Uf5:2"}},
		{"K@g1 k@g12 bU@f6", "sSf6^ x", "sSf6^x", []string{"left=Uf6:2"}},
		{"K@g1 k@g12 T@j5 b@h7", "Tj5 xt h7", "Tj5xth7", nil},
		{"K@g1 k@g12 A@d4 b@g7", "Ad4xag7", "Ad4xag7", nil},
		// The referee's record forms (S11's last line, the seed's examples).
		{"K@g1 k@g12 B@e4 m@e5", "Be4 - e5 - Mx", "Be4-e5", nil},
		{"K@g1 k@g12 D@c3 bu@e6", "Dc3 - e5 > e6^ x e6", "Dc3-e5", []string{"left=ue6:2"}},
		{"K@g1 k@g12 C@e5", "Ce5 - e2 < M", "Ce5-e2", []string{"spent=e5"}},
		{"K@g1 k@g12 T@j5", "Tj5 - j2 < T", "Tj5-j2", []string{"spent=j5"}},
		{"K@g1 k@g12 C@e5", "Ce5-M (h)", "Ce5-M", nil},
	}
	for _, c := range cases {
		s := setup(t, c.pos, "w", c.extra...)
		m, err := s.Parse(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q parsed as %s", c.in, s.Format(m))
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := s.Format(m); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
	// Aircraft in flight: capture and return.
	s := setup(t, "K@g1 k@g12 A@d4 d@e1 b@g7", "w", "air=d4")
	for in, want := range map[string]string{"Aaxe1": "Aaxe1", "Aa x e1": "Aaxe1", "Aa-A": "Aa-A", "Aa - A": "Aa-A"} {
		m, err := s.Parse(in)
		if err != nil || s.Format(m) != want {
			t.Errorf("%q: %v %v", in, s.Format(m), err)
		}
	}
	// Errors say why, citing the ruling.
	s = start(t)
	for in, want := range map[string]string{
		"Sd1v-e3": "S5.3", "Cc1-c3": "S3.1", "Be2-e7": "S2.1, S2.2", "Tj1xti2": "S4.2, S4.3",
		"Af1xaf4": "S7.2, S7.5", "Af1xaf5": "S7.2", "sSe3-f5": "S5.2", "O-O": "S8.2", "Aa-A": "S7.3", "zz": "S11",
	} {
		_, err := s.Parse(in)
		me, ok := err.(*rules.MoveError)
		if !ok || me.Ruling != want {
			t.Errorf("%q: %v, want a ruling %s", in, err, want)
		}
	}
}
