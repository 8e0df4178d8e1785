package game

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// seachessGame plays a Seachess game by mail in which White dives a
// submarine and moves it under water (hidden moves, S5.2, S5.4), and
// returns the fixture and every mail Black received from the first hidden
// move on.
func seachessGame(t *testing.T, dive, underwater string) (*fixture, []*sent) {
	t.Helper()
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new seachess vs "+bob+" as white")
	f.reply(bob, "accept")
	open := []string{"Bj2-j3", "Bj11-j10", "Bi2-i3", "Bi11-i10", "Bh2-h3", "Bh11-h10", "Bg2-g3", "Bg11-g10"}
	for i, m := range open {
		f.reply([]string{alice, bob}[i%2], m)
		f.mustContain(f.last([]string{alice, bob}[i%2]), "Your move "+m+" was accepted")
	}
	from := len(f.inbox[bob])
	f.reply(alice, dive)
	f.mustContain(f.last(alice), "Your move "+dive+" was accepted", "Commitments to secret moves")
	f.reply(bob, "Bc11-c10")
	f.reply(alice, underwater)
	f.mustContain(f.last(alice), "Your move "+underwater+" was accepted")
	f.reply(bob, "Bd11-d10")
	return f, f.inbox[bob][from:]
}

// digests are the random-keyed values in a mail: commitments (S10.1 lets
// the opponent have them) and chain heads, which hash them.
var digests = regexp.MustCompile(`[0-9a-f]{64}`)

func TestNonInterferenceByMail(t *testing.T) {
	_, a := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	_, b := seachessGame(t, "Sd1v-c3", "sSc3-d5")
	if len(a) != len(b) || len(a) != 4 {
		t.Fatalf("black got %d and %d mails, want 4", len(a), len(b))
	}
	// Mails 0–2 follow the dive, black's reply and the underwater move: the
	// hidden moves are all black learns of. Mail 3 follows black's next move,
	// when the submarine's time is up and it surfaces where it is: a public
	// event (S5.6, S10.2) that may differ.
	for _, m := range [][]*sent{a, b} {
		if !strings.Contains(m[3].Text, "surfaced, its time underwater being up (S5.6)") {
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
	if !strings.Contains(f, "White made a hidden move") || !strings.Contains(f, "Commitments to secret moves") {
		t.Errorf("black was not told of the hidden move with its commitment:\n%s", f)
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
		f.mustContain(m, "Game over: White wins: Black resigned", "Sd1v-e3", "sSe3-f5", "Openings of the commitments", "5. Sd1v-e3 (White's secret move)", "key ")
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
