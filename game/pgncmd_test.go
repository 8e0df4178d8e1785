package game

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

const (
	carol = "carol@example.com"
	dave  = "dave@example.com"
)

// receiptRE is a receipt as the mails quote it: on a line of its own.
var receiptRE = regexp.MustCompile(`(?m)^[0-9]+:[0-9a-f]{64}$`)

// receiptsOf are the receipts quoted in the mails to addr about game tag, in order.
func (f *fixture) receiptsOf(addr, tag string) []store.Receipt {
	f.t.Helper()
	var out []store.Receipt
	for _, m := range f.inbox[addr] {
		if !strings.Contains(m.Subject, "["+tag+"]") {
			continue
		}
		got := receiptRE.FindAllString(strings.ReplaceAll(m.Text, "\r\n", "\n"), -1)
		if len(got) == 0 && strings.HasPrefix(m.Subject, "[bp-1] invitation") && strings.Contains(m.Text, "bottlepost is a server") {
			continue // a stranger's first invitation quotes no receipt (TestInvitationsCarryNoReceipt)
		}
		if len(got) != 1 {
			f.t.Errorf("mail %q to %s quotes %d receipts, want 1:\n%s", m.Subject, addr, len(got), m.Text)
			continue
		}
		rc, err := store.ParseReceipt(got[0])
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, rc)
	}
	return out
}

// observedSeachess plays the Seachess game with two hidden moves while carol observes,
// and ends it by Black's resignation.
func observedSeachess(t *testing.T) *fixture {
	t.Helper()
	f, _ := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	f.send(carol, f.personal(carol), "watch", "observe 1")
	f.mustContain(f.last(carol), "You now observe game 1")
	f.reply(alice, "Bf2-f3")
	f.reply(bob, "resign")
	return f
}

// TestEveryGameMailQuotesItsReceipt: every mail about a game quotes the receipt of the
// record at that moment, RECORDS:HEAD on a line of at most 78 characters, and verify takes
// all of them, in any order, anchoring the whole record with the last.
func TestEveryGameMailQuotesItsReceipt(t *testing.T) {
	f := observedSeachess(t)
	pgn := finalPGN(t, f, 1)
	for _, who := range []string{alice, bob, carol} {
		rcs := f.receiptsOf(who, "bp-1")
		if len(rcs) < 2 {
			t.Fatalf("%s kept %d receipts", who, len(rcs))
		}
		for _, m := range f.inbox[who] {
			for line := range strings.Lines(m.Text) {
				if receiptRE.MatchString(strings.TrimSpace(line)) && len(strings.TrimRight(line, "\r\n")) > 78 {
					t.Errorf("receipt line of %d characters", len(line))
				}
			}
		}
		slices.Reverse(rcs)
		res, err := record.Verify(bytes.NewReader(pgn), rcs...)
		if err != nil {
			t.Fatalf("%s's receipts: %v", who, err)
		}
		if res.Anchor != rcs[0] || res.Anchor.Records != res.Records {
			t.Errorf("%s: anchored by %v, want the final receipt %v covering %d records", who, res.Anchor, rcs[0], res.Records)
		}
		if a := res.Anchoring(); !strings.HasPrefix(a, "anchored by your receipt "+rcs[0].String()+": all ") {
			t.Errorf("%s: %s", who, a)
		}
	}
}

func finalPGN(t *testing.T, f *fixture, id uint64) []byte {
	t.Helper()
	var pgn []byte
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		pgn, err = record.FinalPGN(tx, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return pgn
}

// TestFinalMailCarriesThePGN: the final mail to both players and to the observer is
// multipart/mixed with the record attached as bp-N.pgn (application/x-chess-pgn), the
// bytes FinalPGN gives, naming both players; it verifies against the receipts each was sent.
func TestFinalMailCarriesThePGN(t *testing.T) {
	f := observedSeachess(t)
	pgn := finalPGN(t, f, 1)
	for _, tag := range []string{`[White "alice"]`, `[Black "bob"]`, `[Result "1-0"]`, `[Termination "White wins: Black resigned"]`, `[Status "finished"]`} {
		if !bytes.Contains(pgn, []byte(tag)) {
			t.Errorf("the PGN lacks %s:\n%s", tag, pgn)
		}
	}
	for _, who := range []string{alice, bob, carol} {
		m := f.last(who)
		f.mustContain(m, "Game over", "attached as bp-1.pgn")
		if !bytes.Contains(m.Raw, []byte("Content-Type: multipart/mixed")) {
			t.Errorf("the final mail to %s is not multipart/mixed", who)
		}
		if len(m.Attachments) != 1 {
			t.Fatalf("the final mail to %s has %d attachments", who, len(m.Attachments))
		}
		a := m.Attachments[0]
		if a.Name != "bp-1.pgn" || a.Type != "application/x-chess-pgn" || !bytes.Equal(a.Data, pgn) {
			t.Errorf("attachment to %s: %s %s, same bytes as FinalPGN: %v", who, a.Name, a.Type, bytes.Equal(a.Data, pgn))
		}
		if _, err := record.Verify(bytes.NewReader(a.Data), f.receiptsOf(who, "bp-1")...); err != nil {
			t.Errorf("%s's attachment does not verify: %v", who, err)
		}
	}
}

// TestPGNCommand: "pgn GAME" sends the record to whoever played or observed the game once it
// has ended; anyone else gets the same answer whether the game exists or not, and a game
// still on is refused.
func TestPGNCommand(t *testing.T) {
	f := observedSeachess(t)
	pgn := finalPGN(t, f, 1)
	// A second game, still being played.
	pa := f.personalOf(alice)
	f.send(alice, pa, "new", "new chess vs "+bob+" as white")
	f.reply(bob, "accept")
	for _, who := range []string{alice, bob, carol} {
		f.send(who, f.personalOf(who), "again", "pgn 1")
		m := f.last(who)
		f.mustContain(m, "The record of game 1 is attached as bp-1.pgn")
		if len(m.Attachments) != 1 || !bytes.Equal(m.Attachments[0].Data, pgn) || m.Attachments[0].Type != PGNType {
			t.Errorf("pgn 1 for %s: %d attachments", who, len(m.Attachments))
		}
	}
	f.send(alice, pa, "too soon", "pgn 2")
	f.mustContain(f.last(alice), "game 2 has not ended")
	if len(f.last(alice).Attachments) != 0 {
		t.Error("a game still on was attached")
	}
	pd := f.personal(dave)
	answer := func(game string) string {
		f.send(dave, pd, "pgn", "pgn "+game)
		m := f.last(dave)
		if len(m.Attachments) != 0 {
			t.Errorf("pgn %s: a stranger got an attachment", game)
		}
		return strings.ReplaceAll(flat(m.Text), "game "+game+" ", "game N ")
	}
	finished, active, none := answer("1"), answer("2"), answer("77")
	if finished != none || active != none {
		t.Errorf("a stranger can tell games apart:\nfinished: %s\nactive:   %s\nnone:     %s", finished, active, none)
	}
	if !strings.Contains(none, "is not a game you played or observed") {
		t.Errorf("refusal: %s", none)
	}
}

// personalOf is addr's personal address, from the mails it received (personal asks for a
// welcome, sent once a day).
func (f *fixture) personalOf(addr string) string {
	f.t.Helper()
	for _, m := range slices.Backward(f.inbox[addr]) {
		if local, _, _ := strings.Cut(m.ReplyTo, "@"); strings.Contains(local, "+"+accountPrefix) {
			return m.ReplyTo
		}
	}
	return f.personal(addr)
}

// TestPGNNonInterference: while the game is on, what Black and an observer get for
// "pgn 1" is the same whatever White's secret moves were (digests aside: they hash them),
// and carries no record.
func TestPGNNonInterference(t *testing.T) {
	answers := func(dive, underwater string) []*sent {
		f, _ := seachessGame(t, dive, underwater)
		f.send(carol, f.personal(carol), "watch", "observe 1")
		var out []*sent
		for _, who := range []string{bob, carol} {
			f.send(who, f.personalOf(who), "record?", "pgn 1")
			m := f.last(who)
			if len(m.Attachments) != 0 {
				t.Errorf("%s got the record of a game still on", who)
			}
			out = append(out, m)
		}
		return out
	}
	a, b := answers("Sd1v-e3", "sSe3-f5"), answers("Sd1v-c3", "sSc3-d5")
	for i := range a {
		for _, part := range []struct{ name, x, y string }{{"text", a[i].Text, b[i].Text}, {"html", a[i].HTML, b[i].HTML}} {
			x, y := digests.ReplaceAllString(part.x, "DIGEST"), digests.ReplaceAllString(part.y, "DIGEST")
			if x != y {
				t.Errorf("the answer to %s (%s) depends on White's hidden moves:\n%s\n--- other history\n%s", a[i].To, part.name, x, y)
			}
		}
	}
	if !strings.Contains(flat(a[0].Text), "game 1 has not ended") || !strings.Contains(flat(a[1].Text), "game 1 has not ended") {
		t.Errorf("answers:\n%s\n%s", a[0].Text, a[1].Text)
	}
}

// TestDeclinedChallengeRecord: a declined challenge ends with an end record (status
// aborted, result *); its export verifies, and pgn does not send a game never played.
func TestDeclinedChallengeRecord(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
	f.reply(bob, "decline")
	pgn := finalPGN(t, f, 1)
	res, err := record.Verify(bytes.NewReader(pgn))
	if err != nil || res.Status != "aborted" || res.Result != "*" || res.Termination != "challenge declined" || res.Moves != 0 {
		t.Fatalf("verify: %+v, %v\n%s", res, err, pgn)
	}
	f.send(alice, f.personalOf(alice), "pgn", "pgn 1")
	f.mustContain(f.last(alice), "game 1 was never played (challenge declined)")
}

// TestVerifyExampleVector: the test vector of docs/verify.md's worked example
// (record/testdata/verify-example.pgn) is the file the service writes of that game, alice's
// Seachess game with the secret moves Sd1v-e3 and sSe3-f5 that bob resigns, but for what is
// drawn at random (the commitment keys, so the commitments, the chain's hashes and the
// embedded records); it verifies against the receipts bob's mails quoted. -update writes
// the vector anew (record's TestVerifyDocExample then names the values to put in the doc).
func TestVerifyExampleVector(t *testing.T) {
	f, _ := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	f.reply(bob, "resign")
	pgn := finalPGN(t, f, 1)
	if _, err := record.Verify(bytes.NewReader(pgn), f.receiptsOf(bob, "bp-1")...); err != nil {
		t.Fatalf("the file does not verify: %v", err)
	}
	path := filepath.Join("..", "record", "testdata", "verify-example.pgn")
	if *update {
		if err := os.WriteFile(path, pgn, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vector, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hexRun := regexp.MustCompile(`[0-9a-f]{64}`)
	movesAndTags := func(file []byte) string {
		pgn, _, _ := strings.Cut(string(file), "{bottlepost-export/1")
		return hexRun.ReplaceAllString(pgn, "HEX")
	}
	// The vector (and the worked example that quotes it) is in the PGN's form of before
	// November 2026, which verify still accepts: TimeControl "3d" (its moves have no marks).
	plain := func(file []byte) string {
		return strings.Replace(movesAndTags(file), `[TimeControl "?"]`+"\n"+`[TimeControlDays "3d"]`, `[TimeControl "3d"]`, 1)
	}
	if got, want := plain(pgn), plain(vector); got != want {
		t.Errorf("the service writes the example's game otherwise than the vector (go test ./game -run TestVerifyExampleVector -update):\n%s\n--- vector:\n%s", got, want)
	}
}

// TestPGNTimeControlAndMarks: the PGN's TimeControl is PGN's own ("?": days per move
// have no form there) with the control in TimeControlDays, and each move carries the
// marks its record adds: a Baltic move that scores is written with its +N (B6), as the
// variant reads it back. Both files verify.
func TestPGNTimeControlAndMarks(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "new game", "new baltic vs "+bob+" as white time 3d")
	f.reply(bob, "accept")
	players := [2]string{alice, bob}
	var scored string
	for ply := 0; ply < 60 && scored == ""; ply++ {
		l := loadGame(t, f, 1)
		if l.meta.Phase != phasePlay {
			t.Fatal("the game ended before a move scored")
		}
		side := l.state.ToMove()
		moves := l.state.Moves()
		pick := moves[ply*7%len(moves)]
		for _, m := range moves {
			if _, rep, err := l.state.Apply(m); err == nil && rep.Record[rules.ViewPublic] != rep.Text {
				pick, scored = m, rep.Record[rules.ViewPublic]
				break
			}
		}
		text := l.state.Format(pick)
		f.reply(players[side], text)
		f.mustContain(f.last(players[side]), "was accepted.")
	}
	if !regexp.MustCompile(`^[a-h][1-8]x?[a-h][1-8]\+[0-9]+$`).MatchString(scored) {
		t.Fatalf("no move scored, or its record is %q", scored)
	}
	f.reply(alice, "resign")
	pgn := string(finalPGN(t, f, 1))
	for _, want := range []string{`[TimeControl "?"]`, `[TimeControlDays "3d"]`, " " + scored + " "} {
		if !strings.Contains(strings.ReplaceAll(pgn, "\n", " "), want) {
			t.Errorf("the PGN lacks %q:\n%s", want, pgn)
		}
	}
	if _, err := record.Verify(strings.NewReader(pgn), f.receiptsOf(bob, "bp-1")...); err != nil {
		t.Errorf("the file does not verify: %v", err)
	}
}
