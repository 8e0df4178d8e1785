package game

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
)

// seachessGame plays a Seachess game by mail in which White dives a
// submarine and moves it under water (hidden moves, S5.2, S5.4), and
// returns the fixture and every mail Black received from the first hidden
// move on.
func seachessGame(t *testing.T, dive, underwater string) (*fixture, []*sent) {
	t.Helper()
	return seachessSaying(t, dive, underwater, nil)
}

// seachessSaying is seachessGame with White's words (say …) sent with each
// hidden move and in a mail of their own between them, when say is set.
func seachessSaying(t *testing.T, dive, underwater string, say []string) (*fixture, []*sent) {
	t.Helper()
	return seachessFormat(t, dive, underwater, say, "")
}

// seachessFormat is seachessSaying with Black reading the boards in the
// board format format ("" for the default, the diagram).
func seachessFormat(t *testing.T, dive, underwater string, say []string, format string) (*fixture, []*sent) {
	t.Helper()
	return seachessIn(t, dive, underwater, say, format, lang.English)
}

// seachessIn is seachessFormat with both players' mails in language lg
// (the service's language).
func seachessIn(t *testing.T, dive, underwater string, say []string, format string, lg lang.Lang) (*fixture, []*sent) {
	t.Helper()
	f := newFixture(t, Config{Language: lg})
	accepted := func(m string) string { return lg.Tr("Your move %s was accepted.", m) }
	// Their mails name them as docs/verify.md's example does.
	f.names = map[string]string{alice: "alice", bob: "bob"}
	f.send(alice, f.personal(alice), "new", "new seachess vs "+bob+" as white")
	f.reply(bob, "accept")
	if format != "" {
		f.reply(bob, "board format "+format)
		if lg == lang.English {
			f.mustContain(f.last(bob), "Your board format is now "+format)
		}
	}
	open := []string{"Bj2-j3", "Bj11-j10", "Bi2-i3", "Bi11-i10", "Bh2-h3", "Bh11-h10", "Bg2-g3", "Bg11-g10"}
	for i, m := range open {
		f.reply([]string{alice, bob}[i%2], m)
		f.mustContain(f.last([]string{alice, bob}[i%2]), accepted(m))
	}
	from := len(f.inbox[bob])
	f.reply(alice, append([]string{dive}, say...)...)
	f.mustContain(f.last(alice), accepted(dive), lg.Tr("Commitments to secret moves (checked when the game ends):"))
	f.reply(bob, "Bc11-c10")
	if say != nil {
		f.reply(alice, say...)
	}
	f.reply(alice, append([]string{underwater}, say...)...)
	f.mustContain(f.last(alice), accepted(underwater))
	f.reply(bob, "Bd11-d10")
	return f, f.inbox[bob][from:]
}

// digests are the random-keyed values in a mail: commitments (S10.1 lets
// the opponent have them) and chain heads, which hash them.
var digests = regexp.MustCompile(`[0-9a-f]{64}`)

// TestNonInterferenceByMail: what Black receives does not depend on
// White's hidden moves, also when White's mails carry words (say …): with
// the moves and in a mail of their own (issue 33); and in every board
// format Black may read (board format list|both, issue 34); and all of it
// when the players' mails are in German (issue 34).
func TestNonInterferenceByMail(t *testing.T) {
	for _, lg := range lang.All {
		for _, say := range [][]string{nil, {"say Where is my submarine? Guess!", "say (no hint)"}} {
			t.Run(fmt.Sprintf("%s/%d say lines", lg, len(say)), func(t *testing.T) { nonInterference(t, say, "", lg) })
		}
		for _, format := range []string{boardList, boardBoth} {
			t.Run(fmt.Sprintf("%s/board format %s", lg, format), func(t *testing.T) { nonInterference(t, nil, format, lg) })
		}
	}
}

// nonInterference plays two Seachess games by mail in language lg that
// differ only in White's hidden moves and compares Black's mails byte for
// byte; the rules' announcements are checked in English.
func nonInterference(t *testing.T, say []string, format string, lg lang.Lang) {
	_, a := seachessIn(t, "Sd1v-e3", "sSe3-f5", say, format, lg)
	_, b := seachessIn(t, "Sd1v-c3", "sSc3-d5", say, format, lg)
	en := lg == lang.English
	if !strings.Contains(a[0].HTML, `<html lang="`+string(lg)+`">`) {
		t.Fatalf("black's mail is not in %s:\n%s", lg, a[0].HTML)
	}
	if en && format != "" && (!strings.Contains(a[0].Text, "Black (you): ") || !strings.Contains(a[0].HTML, "<li>Black (you): ")) {
		t.Fatalf("black's mail is not in the board format %s:\n%s", format, a[0].Text)
	}
	if say != nil {
		// The words' own mail, between the dive and the underwater move.
		says := lg.Tr("%s says:", "alice")
		if len(a) != 5 || !strings.Contains(a[0].Text, says) || !strings.Contains(a[2].Text, says) {
			t.Fatalf("black got %d mails, the words not as sent", len(a))
		}
		if x, y := digests.ReplaceAllString(a[2].Text+a[2].HTML, "DIGEST"), digests.ReplaceAllString(b[2].Text+b[2].HTML, "DIGEST"); x != y {
			t.Errorf("the mail of White's words depends on White's hidden moves:\n%s\n--- other history\n%s", x, y)
		}
		a, b = slices.Delete(a, 2, 3), slices.Delete(b, 2, 3)
	}
	if len(a) != len(b) || len(a) != 4 {
		t.Fatalf("black got %d and %d mails, want 4", len(a), len(b))
	}
	// Mails 0–2 follow the dive, black's reply and the underwater move: the
	// hidden moves are all black learns of. Mail 3 follows black's next move,
	// when the submarine's time is up and it surfaces where it is: a public
	// event (S5.6, S10.2) that may differ.
	for _, m := range [][]*sent{a, b} {
		if en && !strings.Contains(m[3].Text, "surfaced, its time underwater being up (S5.6)") {
			t.Errorf("the automatic surfacing was not announced:\n%s", m[3].Text)
		}
	}
	for i := range a[:3] {
		for _, part := range []struct{ name, x, y string }{{"text", a[i].Text, b[i].Text}, {"html", a[i].HTML, b[i].HTML}} {
			x, y := digests.ReplaceAllString(part.x, "DIGEST"), digests.ReplaceAllString(part.y, "DIGEST")
			if x != y {
				t.Errorf("black's mail %d (%s) depends on White's hidden moves:\n%s\n--- other history\n%s", i, part.name, x, y)
			}
		}
		ma, mb := digests.ReplaceAllString(a[i].Text, "DIGEST"), digests.ReplaceAllString(b[i].Text, "DIGEST")
		for _, secret := range []string{"e3", "f5", "c3", "d5", "Sd1v", "sS"} {
			if strings.Contains(ma, secret) != strings.Contains(mb, secret) {
				t.Errorf("black's mail %d names %q in one history only", i, secret)
			}
		}
	}
	f := strings.Join([]string{a[0].Text}, "")
	if !strings.Contains(f, lg.Tr("Commitments to secret moves (checked when the game ends):")) || en && !strings.Contains(f, "White made a hidden move") {
		t.Errorf("black was not told of the hidden move with its commitment:\n%s", f)
	}
}

// TestRatingMailNonInterference: how a Seachess game changes the ratings is
// the same whatever either side's secret moves were. Two games differ only
// in White's hidden moves (as in TestNonInterferenceByMail) and end alike,
// Black resigning; the lines of both players' final mails about the
// ratings (text and HTML), and both players' answers to ratings seachess
// afterwards, are byte for byte the same in both.
func TestRatingMailNonInterference(t *testing.T) {
	type seen struct{ final, ratings [2]*sent }
	play := func(dive, underwater string) seen {
		f, _ := seachessGame(t, dive, underwater)
		f.reply(bob, "resign")
		var s seen
		for i, who := range []string{alice, bob} {
			s.final[i] = f.last(who)
			f.mustContain(s.final[i], "Game over: 1-0, White wins: Black resigned.", "Your rating: 1500? → ")
			f.send(who, f.personal(who), "r", "ratings seachess")
			s.ratings[i] = f.last(who)
		}
		return s
	}
	a, b := play("Sd1v-e3", "sSe3-f5"), play("Sd1v-c3", "sSc3-d5")
	ratingLines := func(m *sent) (txt, html string) {
		for _, line := range strings.Split(m.Text, "\n") {
			if strings.Contains(line, "→") {
				txt += line + "\n"
			}
		}
		if i := strings.Index(m.HTML, "Your rating"); i >= 0 {
			start := strings.LastIndex(m.HTML[:i], "<p>")
			html = m.HTML[start : start+strings.Index(m.HTML[start:], "</p>")]
		}
		return txt, html
	}
	for i, who := range []string{alice, bob} {
		at, ah := ratingLines(a.final[i])
		bt, bh := ratingLines(b.final[i])
		if at == "" || ah == "" {
			t.Fatalf("%s's final mail has no rating lines:\n%s", who, a.final[i].Text)
		}
		if at != bt || ah != bh {
			t.Errorf("%s's rating lines depend on White's secret moves:\n%s%s\n--- other history\n%s%s", who, at, ah, bt, bh)
		}
		if a.ratings[i].Text != b.ratings[i].Text || a.ratings[i].HTML != b.ratings[i].HTML {
			t.Errorf("%s's ratings answer depends on White's secret moves:\n%s\n--- other history\n%s", who, a.ratings[i].Text, b.ratings[i].Text)
		}
	}
}

func TestSecretMovesRevealedAndVerified(t *testing.T) {
	f, black := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	for _, m := range black {
		if strings.Contains(m.Text, "Sd1v-e3") || strings.Contains(m.Text, "sSe3-f5") {
			t.Fatalf("black saw a secret move before the end:\n%s", m.Text)
		}
	}
	// The commitment black got is the one alice got.
	commitOf := func(m *sent) string {
		i := strings.Index(m.Text, "5. White's hidden move:")
		if i < 0 {
			t.Fatalf("no commitment for move 9 in:\n%s", m.Text)
		}
		return digests.FindString(m.Text[i:])
	}
	var aliceMail *sent // alice's receipt for the dive
	for _, m := range f.inbox[alice] {
		if strings.Contains(m.Text, "Your move Sd1v-e3 was accepted") {
			aliceMail = m
		}
	}
	if aliceMail == nil {
		t.Fatal("alice got no receipt for the dive")
	}
	if commitOf(aliceMail) != commitOf(black[0]) {
		t.Errorf("the two sides were quoted different commitments")
	}
	f.reply(bob, "resign")
	for _, who := range []string{alice, bob} {
		m := f.last(who)
		f.mustContain(m, "Game over: 1-0, White wins: Black resigned", "The full record, every secret move revealed:", "Sd1v-e3", "sSe3-f5", "Openings of the commitments", "5. Sd1v-e3 (White's secret move)", "key ")
	}
	pgn, res := exportGame(t, f, 1)
	if res.Secret != 2 || res.Moves != 12 {
		t.Errorf("verified %d moves, %d secret; want 12 and 2", res.Moves, res.Secret)
	}
	if folded := strings.Join(strings.Fields(pgn), " "); !strings.Contains(folded, "secret move of White, commitment "+commitOf(black[0])) {
		t.Errorf("the PGN does not reveal the secret move with its commitment:\n%s", pgn)
	}
}

func TestRefereeAuditOfAHiddenGame(t *testing.T) {
	f, _ := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	n := len(f.inbox[alice]) + len(f.inbox[bob])
	f.cfgReferee(ref)
	pr := f.personal(ref)
	f.send(ref, pr, "audit", "audit 1")
	f.mustContain(f.last(ref), "Sd1v-e3", "sSe3-f5", "12 of 12 moves replay legally", "opens correctly", "hash chain: intact")
	if len(f.inbox[alice])+len(f.inbox[bob]) != n {
		t.Errorf("the players were told of the audit")
	}
}

// cfgReferee makes addr a referee of the running service.
func (f *fixture) cfgReferee(addr string) {
	f.svc.cfg.Referees = append(f.svc.cfg.Referees, mailfmt.Key(addr))
}

// playByMail has alice (White) and bob (Black) play a Seachess game from the
// start, one move per mail, each accepted.
func playByMail(t *testing.T, moves ...string) *fixture {
	t.Helper()
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new seachess vs "+bob+" as white")
	f.reply(bob, "accept")
	for i, m := range moves {
		who := []string{alice, bob}[i%2]
		f.reply(who, m)
		f.mustContain(f.last(who), "Your move "+m+" was accepted")
	}
	return f
}

// boardRows returns the rows of the ASCII board in a mail's text: the
// lines from the first file-letter line to the second.
func boardRows(t *testing.T, text string) []string {
	t.Helper()
	var rows []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		letters := strings.Fields(line)
		if len(letters) == 12 && (letters[0] == "a" || letters[0] == "l") {
			rows = append(rows, line)
			if in {
				return rows
			}
			in = true
			continue
		}
		if in {
			rows = append(rows, line)
		}
	}
	t.Fatalf("no board in:\n%s", text)
	return nil
}

func TestSeachessBothBoardsShareOneLayout(t *testing.T) {
	// After Cc1-M White's board shows its cruiser on its mine ("C*"), Black's
	// shows a plain cruiser: the boards still line up.
	f := playByMail(t, "Cc1-M")
	w, b := boardRows(t, f.last(alice).Text), boardRows(t, f.last(bob).Text)
	if !strings.Contains(strings.Join(w, "\n"), "C*") || strings.Contains(strings.Join(b, "\n"), "C*") {
		t.Fatalf("the boards do not show what the test is about:\n%s\n\n%s", strings.Join(w, "\n"), strings.Join(b, "\n"))
	}
	if len(w) != len(b) {
		t.Fatalf("White's board has %d rows, Black's %d", len(w), len(b))
	}
	// The rank number at the end of a row is as wide as it is ("1", "12").
	cells := func(row string) int { return len([]rune(strings.TrimRight(row, " 0123456789\r"))) }
	for i := range w {
		if cells(w[i]) != cells(b[i]) {
			t.Errorf("row %d: White's is %d wide, Black's %d:\n%q\n%q", i, cells(w[i]), cells(b[i]), w[i], b[i])
		}
	}
}

// announcedFirst checks that a mail names the opponent's move before a
// notice the move set off.
func announcedFirst(t *testing.T, m *sent, move, notice string) {
	t.Helper()
	text := flat(m.Text)
	i, j := strings.Index(text, move), strings.Index(text, notice)
	if i < 0 || j < 0 || i > j {
		t.Errorf("%q should come before %q:\n%s", move, notice, m.Text)
	}
}

func TestSeachessMoveAnnouncedBeforeItsNotices(t *testing.T) {
	// Black's Bf11-f10 hands the turn to White, whose submarine comes up by
	// itself on c8 (S5.6): White's mail names Black's move first.
	moves := strings.Fields("Cc1-M Cc12-M Bc2-c3 Bh11-h8 Sd1v-e3 Bj11-j8 Si1v-g2 Sd12v-e10 Bf2-f6 Si12v-j10 Se3v-d1 sSj10-h9 Sg2v-e3 Se10v-f8 Bi2-i4 Be11-e9 Sd1v-c3 Sh9v-j10 Se3v-c4 Sf8v-g10 Dh1-b7 Bi11-i9 Sc3v-b5 Sj10v-i12 Sc4v-d6 Sg10v-h8 O-O Tj12-j11 Sb5v-d4 Si12v-g11 Sd6v-c8")
	f := playByMail(t, append(moves, "Bf11-f10")...)
	announcedFirst(t, f.last(alice), "Black played 16... Bf11-f10; sSc8^.", "Your submarine on c8 surfaced, its time underwater being up (S5.6).")
	// Black's commando ship steps onto White's mine (S3.5): the game ends,
	// and White's final mail names the move before the strike.
	moves = strings.Fields("Cc1-M Cc12-M Be2-e5 Bd11-d7 Sd1v-f2 Sd12-e10 Si1v-j3 Si12v-h10 Be5-e6 Se10v-c11 Bg2-g5 De12-a8 Sf2v-h3 Sh10v-i8 De1-i5 Da8xh1 Di5-g7 Sc11v-e12 Dg7-j10 Be11-e10 Sh3v-g1 Si8v-h10 Sj3v-k5 Bd7xe6 Kg1xh1 Se12v-c11 sSk5-i6 Bg11-g8 Dj10xi11 Dh12xi11 Bj2-j3 Sh10v-j9 Si6v-g5 Cc12-d12 Af1-e3 Cd12-e12 Ae3xae6 O-O Aa-A Sj9v-l10 Sg5v-f7 Sc11v-e12 Tj1-j2 sSe12-c11 Ae3-e2 sSc11-a10 Sf7v-g9 Sa10-b8 Sg9xh11 Sl10v-k8 Sh11xf12 sSk8-l10 Sf12v-e10 Sb8v-c10 Ae2-f3 Bf11xe10 Af3-d3 Sl10-k8 Kh1-g1 Sc10v-e11 Ad3-d5 Sk8v-i9 Bd2-d3 Se11-d9 Kg1-f1 Sd9v-e11 Ad5xag8 Ce12-M Aa-A Di11-e7 Ad5xe7 Se11v-c10 Ae7-g5 Si9v-j11 Bc2-c5 sSj11-i9 Ag5-e3 Th12-h10 Ae3-d5 Sc10v-d8 Ad5-e6 Th10-j10 Ae6xd8 Si9v-k10 Ad8xe10 Sk10-j8 Ae10xe12 Tj10-k10 Cc1-c2 Sj8v-i10 Cc2-M Si10-g11 Cc2-f2 Tk10-k8 Cf2-M Sg11v-f9 Cf2-g2 Tk8-j8 Bh2-h6 Tj8-h8 Bd3-d4 Th8-j8 Cg2-g12 Ki12-h11 Cg12-M Tj8-j4 Kf1-g1 Sf9-h8 Cg12-g3")
	f = playByMail(t, moves...)
	f.reply(bob, "Kh11-g12")
	f.mustContain(f.last(bob), "Game over")
	announcedFirst(t, f.last(alice), "Black played 55... Kh11-g12-Mx.", "Black's commando ship struck your mine on g12 (S3.3)")
}

func TestSeachessRefusalByMail(t *testing.T) {
	// White's Kh6-g5 is offered (a mine White cannot see might shield g5)
	// but leaves the commando ship in check: the referee refuses it in
	// S8.3's words, Black hears nothing, and White's next move, Kh6-g7, is
	// accepted although it looks just as dangerous: a Black mine blocks the
	// line (S3.6).
	f := playByMail(t, strings.Fields("Bc2-c4 Bh11-h9 Bd2-d3 Bi11-i8 Bj2-j6 Bj11-j9 Sd1v-f2 Bc11-c7 Be2-e3 Be11-e9 Bi2-i3 Bi8-i7 Bh2-h3 Bd11-d7 Bh3-h4 Bg11-g9 Bg2-g6 Bf11-f8 Bi3-i4 Bf8-f7 Af1-h3 Bi7-i6 Bc4-c5 Bc7-c6 Bg6-g7 Bh9-h8 Bd3-d4 Bj9-j8 Bg7-g8 Bi6-i5 Bd4-d5 Bi5xh4 Bi4-i5 Bj8-j7 Ah3-f1 Bh4-h3 Bd5-d6 Bh8-h7 Be3-e4 Cc12-c7 Dh1-g2 Bh3xg2 Bi5-i6 Bg2xf1=C Kg1-g2 Be9-e8 Kg2-g3 Bh7-h6 Bi6xj7 Bf7-f6 De1-d2 Sd12-f11 Kg3-h3 Bh6-h5 Bj7-j8 Bh5-h4 Bj6-j7 Bf6-f5 Bj8-j9 Bf5-f4 Be4-e5 Be8-e7 Bj9-j10 Be7xd6 Be5-e6 Sf11v-d10 Bj7-j8 Bd7xe6 Bj10-j11 Af12-d10 Bj11xi12=T Bd6-d5 Bj8-j9 Bf4-f3 Bj9-j10 Be6-e5 Bj10-j11 Bd5-d4 Sf2v-e4 Be5-e4 Kh3-i4 Be4-e3 sSe4-c5 Bf3-f2 Dd2-a5 Be3-e2 Cc1xf1 De12-f11 Ki4-h5 Sd10v-e8 Cf1-c1 Be2-e1=C Cc1-M Bf2-f1=S Da5-b4 Ce1-e12 Db4-d2 Bd4-d3 Sc5v-d3 Bh4-h3 Kh5-g6 Cc7-c12 Kg6-f7 Bc6-c5 Dd2-j8 Bc5-c4 Tj1-j3 Bc4xd3 Cc1-c9 Bh3-h2 Tj3-i3 Bh2xi1=D Ti12-i8 Bd3-d2 Cc9-c4 Bd2-d1=T Dj8-h10 Se8v-d6 Kf7-g7 sSd6-f7 Ti8-i12 Td1-d11 Ti3-i5 Df11-d9 Ti5-i8 Di1-j2 Cc4-c5 Cc12-c7 Ti8-i11 Dd9-c8 Cc5-g5 Sf1-e3 Cg5-f5 Dc8-e10 Cf5-f4 De10-f11 Ti11xtj12 Cc7-e7 Bj11-j12=S Dj2-i3 Sj12-h11 Ce12-e11 Dh10-i9 Ce11-e9 Cf4-f6 Sf7-h6 Kg7xh6 Ce7-M Cf6-f2 Td11-d4 Cf2-M Df11-g10 Di9-f6 Ce7-b7")...)
	bobHad := len(f.inbox[bob])
	f.reply(alice, "Kh6-g5")
	f.mustContain(f.last(alice), `Your move was not played: "Kh6-g5": the referee refuses it: your commando ship would be (or stay) in check; please send another move (S8.3).`)
	if len(f.inbox[bob]) != bobHad {
		t.Errorf("Black was told of a refused move:\n%s", f.last(bob).Text)
	}
	f.reply(alice, "Kh6-g7")
	f.mustContain(f.last(alice), "Your move Kh6-g7 was accepted")
	f.mustContain(f.last(bob), "White played 78. Kh6-g7.")
}
