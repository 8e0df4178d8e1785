package seachess

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// The reproductions of issue 16: whole games found by comparing the engine
// with a second, independent reading of the rulings.
const (
	// Black's Bf11-f10 looks like opening the diagonal b7–g12 onto its
	// commando ship; White's submarine comes up on c8 at the start of
	// White's turn and blocks it.
	reproSurfacing = "Cc1-M Cc12-M Bc2-c3 Bh11-h8 Sd1v-e3 Bj11-j8 Si1v-g2 Sd12v-e10 Bf2-f6 Si12v-j10 Se3v-d1 sSj10-h9 Sg2v-e3 Se10v-f8 Bi2-i4 Be11-e9 Sd1v-c3 Sh9v-j10 Se3v-c4 Sf8v-g10 Dh1-b7 Bi11-i9 Sc3v-b5 Sj10v-i12 Sc4v-d6 Sg10v-h8 O-O Tj12-j11 Sb5v-d4 Si12v-g11 Sd6v-c8"
	// White's Kh6-g7 looks like stepping into a line that a Black mine,
	// unseen by White, blocks.
	reproUnseenMine = "Bc2-c4 Bh11-h9 Bd2-d3 Bi11-i8 Bj2-j6 Bj11-j9 Sd1v-f2 Bc11-c7 Be2-e3 Be11-e9 Bi2-i3 Bi8-i7 Bh2-h3 Bd11-d7 Bh3-h4 Bg11-g9 Bg2-g6 Bf11-f8 Bi3-i4 Bf8-f7 Af1-h3 Bi7-i6 Bc4-c5 Bc7-c6 Bg6-g7 Bh9-h8 Bd3-d4 Bj9-j8 Bg7-g8 Bi6-i5 Bd4-d5 Bi5xh4 Bi4-i5 Bj8-j7 Ah3-f1 Bh4-h3 Bd5-d6 Bh8-h7 Be3-e4 Cc12-c7 Dh1-g2 Bh3xg2 Bi5-i6 Bg2xf1=C Kg1-g2 Be9-e8 Kg2-g3 Bh7-h6 Bi6xj7 Bf7-f6 De1-d2 Sd12-f11 Kg3-h3 Bh6-h5 Bj7-j8 Bh5-h4 Bj6-j7 Bf6-f5 Bj8-j9 Bf5-f4 Be4-e5 Be8-e7 Bj9-j10 Be7xd6 Be5-e6 Sf11v-d10 Bj7-j8 Bd7xe6 Bj10-j11 Af12-d10 Bj11xi12=T Bd6-d5 Bj8-j9 Bf4-f3 Bj9-j10 Be6-e5 Bj10-j11 Bd5-d4 Sf2v-e4 Be5-e4 Kh3-i4 Be4-e3 sSe4-c5 Bf3-f2 Dd2-a5 Be3-e2 Cc1xf1 De12-f11 Ki4-h5 Sd10v-e8 Cf1-c1 Be2-e1=C Cc1-M Bf2-f1=S Da5-b4 Ce1-e12 Db4-d2 Bd4-d3 Sc5v-d3 Bh4-h3 Kh5-g6 Cc7-c12 Kg6-f7 Bc6-c5 Dd2-j8 Bc5-c4 Tj1-j3 Bc4xd3 Cc1-c9 Bh3-h2 Tj3-i3 Bh2xi1=D Ti12-i8 Bd3-d2 Cc9-c4 Bd2-d1=T Dj8-h10 Se8v-d6 Kf7-g7 sSd6-f7 Ti8-i12 Td1-d11 Ti3-i5 Df11-d9 Ti5-i8 Di1-j2 Cc4-c5 Cc12-c7 Ti8-i11 Dd9-c8 Cc5-g5 Sf1-e3 Cg5-f5 Dc8-e10 Cf5-f4 De10-f11 Ti11xtj12 Cc7-e7 Bj11-j12=S Dj2-i3 Sj12-h11 Ce12-e11 Dh10-i9 Ce11-e9 Cf4-f6 Sf7-h6 Kg7xh6 Ce7-M Cf6-f2 Td11-d4 Cf2-M Df11-g10 Di9-f6 Ce7-b7"
	// Black's Kh11-g12 steps onto White's mine on g12, a square Black
	// sees attacked.
	reproShipOntoMine = "Cc1-M Cc12-M Be2-e5 Bd11-d7 Sd1v-f2 Sd12-e10 Si1v-j3 Si12v-h10 Be5-e6 Se10v-c11 Bg2-g5 De12-a8 Sf2v-h3 Sh10v-i8 De1-i5 Da8xh1 Di5-g7 Sc11v-e12 Dg7-j10 Be11-e10 Sh3v-g1 Si8v-h10 Sj3v-k5 Bd7xe6 Kg1xh1 Se12v-c11 sSk5-i6 Bg11-g8 Dj10xi11 Dh12xi11 Bj2-j3 Sh10v-j9 Si6v-g5 Cc12-d12 Af1-e3 Cd12-e12 Ae3xae6 O-O Aa-A Sj9v-l10 Sg5v-f7 Sc11v-e12 Tj1-j2 sSe12-c11 Ae3-e2 sSc11-a10 Sf7v-g9 Sa10-b8 Sg9xh11 Sl10v-k8 Sh11xf12 sSk8-l10 Sf12v-e10 Sb8v-c10 Ae2-f3 Bf11xe10 Af3-d3 Sl10-k8 Kh1-g1 Sc10v-e11 Ad3-d5 Sk8v-i9 Bd2-d3 Se11-d9 Kg1-f1 Sd9v-e11 Ad5xag8 Ce12-M Aa-A Di11-e7 Ad5xe7 Se11v-c10 Ae7-g5 Si9v-j11 Bc2-c5 sSj11-i9 Ag5-e3 Th12-h10 Ae3-d5 Sc10v-d8 Ad5-e6 Th10-j10 Ae6xd8 Si9v-k10 Ad8xe10 Sk10-j8 Ae10xe12 Tj10-k10 Cc1-c2 Sj8v-i10 Cc2-M Si10-g11 Cc2-f2 Tk10-k8 Cf2-M Sg11v-f9 Cf2-g2 Tk8-j8 Bh2-h6 Tj8-h8 Bd3-d4 Th8-j8 Cg2-g12 Ki12-h11 Cg12-M Tj8-j4 Kf1-g1 Sf9-h8 Cg12-g3"
	// White's destroyer on b7 sees Black's commando ship on g12 down an
	// open diagonal; a Black mine it cannot see shields it.
	reproShipCapture = "Si1-h3 Bf11-f8 Sh3-i1 Bc11-c9 Si1-h3 Si12v-j10 Bc2-c4 Be11-e10 Sd1v-e3 De12-i8 sSe3-g4 Di8-e12 Sh3-g5 De12-i8 Sg5-h3 Di8-e12 Sg4v-h6 De12-i8 Sh6-i4 Di8-f5 Si4-h6 Df5-i8 Sh6-i4 Di8-f5 Si4-h6 Bi11-i7 Bg2-g5 Sj10-i8 Sh6-i4 Si8-j10 Si4-h6 Sj10-i8 Bi2-i5 Si8-j10 Dh1-d5 Sj10-i8 Bd2-d4 Si8-j10 Dd5-h9 Sj10-i8 Dh9-d5 Sd12v-f11 Dd5-h9 Bc9-c8 Dh9-d5 Bj11-j10 Dd5-h1 Be10-e9 Dh1-d5 Bg11-g9 Dd5-h1 Si8-g7 Dh1-d5 Sg7-i8 Bj2-j3 Si8-g7 Sh6xf5 Sg7-i8 Sh3-f4 Si8-g7 Sf4-h3 Sg7-i8 Sh3-f4 Si8-g7 O-O Sg7-i8 Ki1-i2 Bc8-c7 Ki2-i1 Cc12-c8 Ki1-i2 Bd11-d8 Ki2-i1 Sf11v-g9 Af1-g1 Cc8-M Ag1-f1 sSg9-i10 Af1-g1 sSi10-g9 Ag1-f1 Cc8-a8 Af1-g1 Sg9-e8 Ag1-f1 Se8-g9 Sf4v-e6 Si8v-j6 Bc4-c5 Bi7-i6 Dd5xa8 Bc7-c6 Da8-b7 Bh11-h7"
	// Knights shuffle; White's Be2-e4 at ply 17 can be taken en passant by
	// no Black boat, so the position after it is the one that recurs.
	reproRepetition = "Sd1-c3 Sd12-c10 Sc3-d1 Sc10-d12 Sd1-c3 Sd12-c10 Sc3-d1 Sc10-d12 Sd1-c3 Sd12-c10 Sc3-d1 Sc10-d12 Sd1-c3 Sd12-c10 Sc3-d1 Sc10-d12 Be2-e4 Sd12-c10 Sd1-c3 Sc10-d12 Sc3-d1 Sd12-c10 Sd1-c3 Sc10-d12 Sc3-d1 Sd12-c10 Sd1-c3 Sc10-d12 Sc3-d1"
)

// replay plays a space-separated list of moves from the start.
func replay(t testing.TB, moves string) *State {
	t.Helper()
	return play(t, start(t), strings.Fields(moves)...)
}

// looksLikeCheck reports whether, on the mover's own board, the move
// seems to leave its commando ship attacked: the case the mover's board
// alone would wrongly rule out.
func looksLikeCheck(t testing.TB, s *State, text string) bool {
	t.Helper()
	m, err := s.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	x := s.pos.toMove
	w := s.pos.project(x)
	to := m.To
	if m.Kind == mvNormal && m.Piece == uint8(commando) {
		return w.attacked(to, x.Other()) // before it strikes anything
	}
	q := w
	q.play(m, nil, false)
	return q.attacked(q.king[x], x.Other())
}

// acceptListedMove checks that text is offered, looks like check on the
// mover's board, and is accepted by the referee.
func acceptListedMove(t *testing.T, s *State, text string) (*State, *rules.Report) {
	t.Helper()
	if !has(s, text) {
		t.Fatalf("%s is not offered: %v", text, texts(s))
	}
	if !looksLikeCheck(t, s, text) {
		t.Errorf("%s does not look like check on the mover's board: the test shows nothing", text)
	}
	n, rep, kind := tryMove(t, s, text)
	if kind != 0 {
		t.Fatalf("%s: the referee answers %v, want acceptance", text, kind)
	}
	return n, rep
}

func TestS8_3_SurfacingSubmarineBlocksCheck(t *testing.T) {
	s := replay(t, reproSurfacing)
	n, rep := acceptListedMove(t, s, "Bf11-f10")
	// White's submarine came up on c8 at the start of White's turn, between
	// the destroyer on b7 and the commando ship on g12.
	if at(n, "c8") != "S" {
		t.Errorf("c8 holds %q after the automatic surfacing", at(n, "c8"))
	}
	if got := rep.Record[rules.ViewBlack]; got != "Bf11-f10; sSc8^" {
		t.Errorf("Black's record %q", got)
	}
}

func TestS8_3_UnseenMineBlocksCheck(t *testing.T) {
	s := replay(t, reproUnseenMine)
	n, _ := acceptListedMove(t, s, "Kh6-g7")
	if n.Outcome().Over() || n.pos.king[rules.White] != sqr("g7") {
		t.Errorf("after Kh6-g7: outcome %v, White's commando ship on %s", n.Outcome(), sqName(n.pos.king[rules.White]))
	}
}

func TestS3_5_CommandoShipOntoUnseenMineLoses(t *testing.T) {
	s := replay(t, reproShipOntoMine)
	if s.pos.mine[sqr("g12")] != mineOf(rules.White) {
		t.Fatalf("no White mine on g12:\n%s", s.View(rules.ViewReferee).ASCII())
	}
	n, rep := acceptListedMove(t, s, "Kh11-g12")
	want := rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "commando ship lost to a mine", Ruling: "S3.5"}
	if n.Outcome() != want {
		t.Errorf("outcome %+v, want %+v", n.Outcome(), want)
	}
	if got := rep.Record[rules.ViewBlack]; got != "Kh11-g12-Mx" {
		t.Errorf("Black's record %q", got)
	}
}

func TestS8_4_CommandoShipNeverCaptured(t *testing.T) {
	s := replay(t, reproShipCapture)
	if has(s, "Db7xg12") {
		t.Errorf("Db7xg12 is offered")
	}
	_, err := s.Parse("Db7xg12")
	var me *rules.MoveError
	if !errors.As(err, &me) || me.Kind != rules.Illegal || me.Ruling != "S8.4" {
		t.Errorf("Db7xg12: %v, want an illegal move citing S8.4", err)
	}
	// Every kind of capture: a rook line, a bishop line and the carrier's
	// two-square step, each shielded by a Black mine White cannot see.
	s = setup(t, "K@g1 k@e8 m@e7 C@e3 m@f7 D@h5 m@d8 A@c8", "w")
	for _, m := range s.Moves() {
		if m.To == sqr("e8") {
			t.Errorf("%s is offered", s.Format(m))
		}
	}
	for _, text := range []string{"Ce3-e7", "Dh5-f7", "Ac8-d8"} {
		if !has(s, text) {
			t.Errorf("%s (onto the mine) is not offered", text)
		}
	}
	for _, text := range []string{"Ce3xe8", "Dh5xe8", "Ac8xe8"} {
		if _, err := s.Parse(text); !errors.As(err, &me) || me.Ruling != "S8.4" {
			t.Errorf("%s: %v, want S8.4", text, err)
		}
	}
	// Torpedoes, the aircraft and submarines ignore mines, so they never
	// see a commando ship that a mine shields: only lines can deceive.
}

func TestS9_RepetitionIgnoresUntakeableEnPassant(t *testing.T) {
	s := replay(t, reproRepetition)
	want := rules.Outcome{Status: rules.Draw, Reason: "fourth repetition of the position", Ruling: "S9"}
	if s.Outcome() != want {
		t.Errorf("outcome %+v, want %+v", s.Outcome(), want)
	}
	if got := s.Moves(); len(got) != 0 {
		t.Errorf("moves offered after the draw: %d", len(got))
	}
	// One ply earlier the position had occurred three times only.
	f := strings.Fields(reproRepetition)
	if o := replay(t, strings.Join(f[:len(f)-1], " ")).Outcome(); o.Over() {
		t.Errorf("over one ply early: %v", o)
	}
	// Where a Black boat could take en passant, the right counts: the
	// position after Be2-e4 differs from its later returns. (The
	// submarines have counted to 8 already, S5.3, so nothing else differs.)
	shuffle := []string{"Sd12-c10", "Sd1-c3", "Sc10-d12", "Sc3-d1"}
	s = play(t, setup(t, "K@g1 S@d1 B@e2 k@g12 s@d12 b@f4", "w", "v=d1:8,d12:8"), "Be2-e4")
	if s.pos.epRight() != sqr("e4") {
		t.Fatalf("the en passant right on e4 does not count")
	}
	for range 3 {
		s = play(t, s, shuffle...)
	}
	if s.Outcome().Over() {
		t.Errorf("drawn after three returns, though the first position had an en passant right: %v", s.Outcome())
	}
	// The position after Black's first knight move has no en passant right
	// to tell it apart: its fourth occurrence draws.
	if s = play(t, s, shuffle[0]); s.Outcome() != want {
		t.Errorf("after the fourth Sd12-c10: %v", s.Outcome())
	}
	// A boat that could take en passant only by leaving its commando ship
	// in check has no en passant right.
	s = play(t, setup(t, "K@g1 S@d1 B@e2 k@h4 s@d12 b@f4 C@a4", "w"), "Be2-e4")
	if s.pos.epRight() != noSq {
		t.Errorf("a pinned boat's en passant capture counts")
	}
}

// refereeAccepts lists every move the referee accepts in s, found without
// any side's list: the moves of the full position, castling generated
// whatever the attacks (the referee judges them), each judged (S8.3).
func refereeAccepts(s *State) []rules.Move {
	var out []rules.Move
	for _, m := range s.pos.pseudo(nil, false) {
		if s.pos.legal(m, s.inCheck) {
			out = append(out, m)
		}
	}
	return out
}

// TestS8_3_ListHoldsEveryAcceptedMove plays seeded random games, favouring
// hidden moves so that mines and submerged submarines abound, and checks
// at every ply that every move the referee accepts is in the side's list
// (S8.3), that the game is over by checkmate or stalemate exactly when the
// referee accepts none (S8.3, S9), and that every refusal is S8.3's.
func TestS8_3_ListHoldsEveryAcceptedMove(t *testing.T) {
	t.Parallel()
	games := rulestest.Size(24, 240, 2000)
	var plies, lookLikeCheck, refused int
	outcomes := map[string]int{}
	for g := range games {
		r := rand.New(rand.NewPCG(16, uint64(g)))
		s := start(t)
		var played []string
		for ply := 0; ; ply++ {
			where := func() string { return fmt.Sprintf("game %d after %s", g, strings.Join(played, " ")) }
			accepted := refereeAccepts(s)
			o := s.Outcome()
			mated := o.Reason == "checkmate" || o.Reason == "stalemate"
			if mated && len(accepted) > 0 {
				t.Fatalf("%s: %s, yet the referee accepts %s", where(), o.Reason, s.Format(accepted[0]))
			}
			if !o.Over() && len(accepted) == 0 {
				t.Fatalf("%s: the referee accepts nothing, yet the game goes on", where())
			}
			if o.Over() {
				outcomes[o.Reason]++
				break
			}
			// With no mine and no submarine to allow for, mayBeSafe is the
			// attack test itself.
			w := s.pos.project(s.ToMove())
			for _, sq := range []Square{w.king[s.ToMove()], brd.Squares()[r.IntN(len(brd.Squares()))]} {
				if w.attacked(sq, s.ToMove().Other()) == w.mayBeSafe(sq, s.ToMove().Other(), false, 0) {
					t.Fatalf("%s: attacked and mayBeSafe disagree on %s", where(), sqName(sq))
				}
			}
			list := s.known().moves
			for _, m := range accepted {
				if !slices.Contains(list, m) {
					t.Fatalf("%s: the referee accepts %s, which %v's list lacks:\n%s", where(), s.Format(m), s.ToMove(), s.View(rules.ViewReferee).ASCII())
				}
			}
			if ply >= 600 {
				outcomes["unfinished"]++
				break
			}
			// The move: hidden ones first one time in three, else any.
			moves := s.Moves()
			r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
			if r.IntN(3) == 0 {
				slices.SortStableFunc(moves, func(a, b rules.Move) int {
					return boolInt(!hidden(a.Kind)) - boolInt(!hidden(b.Kind))
				})
			}
			var next *State
			for _, m := range moves {
				text := s.Format(m)
				n, _, err := s.Apply(m)
				if err != nil {
					var me *rules.MoveError
					if !errors.As(err, &me) || err.Error() != refusal(text).Error() {
						t.Fatalf("%s: %s answered %v, want S8.3's refusal", where(), text, err)
					}
					refused++
					continue
				}
				if looksLikeCheck(t, s, text) {
					lookLikeCheck++
				}
				played = append(played, text)
				next = n.(*State)
				break
			}
			s = next
			plies++
		}
	}
	t.Logf("%d games, %d plies, %d moves accepted that looked like check on the mover's board, %d refused; %v",
		games, plies, lookLikeCheck, refused, outcomes)
	if lookLikeCheck == 0 || refused == 0 || outcomes["checkmate"] == 0 {
		t.Errorf("the games never tried what the test is about")
	}
}
