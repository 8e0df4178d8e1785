package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

// TestCLIExportTournament: export --tournament N writes the tournament's
// finished games, each with the tournament's name and its round in its
// Event and Round tags, and bottlepost verify accepts the file of one.
func TestCLIExportTournament(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "bottlepost.db"), store.Options{KeyFile: filepath.Join(dir, "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := game.New(game.Config{Address: "games@bp.test", Referees: []string{"ref@bp.test"}}, game.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	tag := regexp.MustCompile(`Subject: \[bp-([0-9]+)\]`)
	replyTo := map[string]string{} // by recipient, and by recipient#game
	n := 0
	send := func(from, to string, lines ...string) {
		n++
		if _, err := svc.Handle(&game.Incoming{MessageID: fmt.Sprintf("m%d@t", n), From: from, Recipients: []string{to},
			Subject: "Re: Tournament 1: invitation", Lines: lines}); err != nil {
			t.Fatal(err)
		}
		st.Update(func(tx *store.Tx) error {
			mails, _ := tx.PendingMail(time.Now().Add(time.Hour), 100)
			for _, m := range mails {
				for _, line := range strings.Split(string(m.Data), "\r\n") {
					if rt, ok := strings.CutPrefix(line, `Reply-To: "bottlepost" <`); ok {
						replyTo[m.To[0]] = strings.TrimSuffix(rt, ">")
						if g := tag.FindStringSubmatch(string(m.Data)); g != nil {
							replyTo[m.To[0]+"#"+g[1]] = strings.TrimSuffix(rt, ">")
						}
					}
				}
				tx.MarkSent(m.ID)
			}
			return nil
		})
	}
	send("ref@bp.test", "games@bp.test", "hi")
	send("ref@bp.test", replyTo["ref@bp.test"], `tournament new "Club cup" variant chess time 3d players a@x.test, b@x.test, c@x.test`)
	invitations := map[string]string{}
	for _, p := range []string{"a@x.test", "b@x.test", "c@x.test"} {
		invitations[p] = replyTo[p]
	}
	for _, p := range []string{"a@x.test", "b@x.test", "c@x.test"} {
		send(p, invitations[p], "join")
	}
	// Game 1 (round 1: 2 v 3): b resigns.
	send("b@x.test", replyTo["b@x.test#1"], "resign")
	st.Close()

	pgn := filepath.Join(t.TempDir(), "t.pgn")
	if code, _, stderr := runCLI("export", "--tournament", "1", "--data", dir, "-o", pgn); code != 0 {
		t.Fatalf("export --tournament: %d %s", code, stderr)
	}
	data, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Event "Club cup"]`, `[Round "1"]`, `[Result "0-1"]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the tournament's file lacks %s:\n%s", want, data)
		}
	}
	if strings.Count(string(data), "[Event ") != 1 {
		t.Errorf("the file holds %d games, want the one finished", strings.Count(string(data), "[Event "))
	}
	// Without receipts verify says the record is only self-consistent
	// (exit 4); the tags are the ones the hashed records give.
	if code, out, stderr := runCLI("verify", pgn); code != 4 || !strings.Contains(out, "the PGN's tags, moves and comments are exactly the ones the verified record gives") {
		t.Errorf("verify: %d %s %s", code, out, stderr)
	}
	if code, _, stderr := runCLI("export", "--tournament", "2", "--data", dir); code != 1 || !strings.Contains(stderr, "tournament 2: not found") {
		t.Errorf("export --tournament 2: %d %s", code, stderr)
	}
}
