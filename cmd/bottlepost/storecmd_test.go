package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

// finishedGame plays fool's mate through the game service into a fresh data
// directory and returns the directory.
func finishedGame(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "bottlepost.db"), store.Options{KeyFile: filepath.Join(dir, "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := game.New(game.Config{Address: "games@bp.test"}, game.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	replyTo := map[string]string{}
	send := func(from, to string, lines ...string) {
		n++
		if _, err := svc.Handle(&game.Incoming{MessageID: fmt.Sprintf("m%d@t", n), From: from, Recipients: []string{to}, Lines: lines}); err != nil {
			t.Fatal(err)
		}
		st.Update(func(tx *store.Tx) error {
			mails, _ := tx.PendingMail(time.Now().Add(time.Hour), 100)
			for _, m := range mails {
				for _, line := range strings.Split(string(m.Data), "\r\n") {
					if rt, ok := strings.CutPrefix(line, `Reply-To: "bottlepost" <`); ok {
						replyTo[m.To[0]] = strings.TrimSuffix(rt, ">")
					}
				}
				tx.MarkSent(m.ID)
			}
			return nil
		})
	}
	send("a@x.test", "games@bp.test", "hi")
	send("a@x.test", replyTo["a@x.test"], "new chess vs b@y.test as white")
	send("b@y.test", replyTo["b@y.test"], "accept")
	for i, m := range []string{"f3", "e5", "g4", "Qh4#"} {
		who := []string{"a@x.test", "b@y.test"}[i%2]
		send(who, replyTo[who], m)
	}
	return dir
}

func TestCLIExportVerifyBackup(t *testing.T) {
	dir := finishedGame(t)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if code, _, stderr := runCLI("export", "1", "--data", dir, "-o", pgn); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	code, out, stderr := runCLI("verify", pgn)
	if code != 0 || !strings.Contains(out, "verified: game 1 (chess), 4 moves, 0 secret, result 0-1") {
		t.Fatalf("verify: %d %q %q", code, out, stderr)
	}
	data, _ := os.ReadFile(pgn)
	os.WriteFile(pgn, []byte(strings.Replace(string(data), "2. g4", "2. g3", 1)), 0o644)
	if code, out, _ := runCLI("verify", pgn); code != 1 || !strings.Contains(out, "FAILED: the PGN's moves") {
		t.Errorf("tampered PGN: exit %d, %q", code, out)
	}
	if code, _, stderr := runCLI("export", "2", "--data", dir); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("export of a missing game: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("export", "1", "--data", t.TempDir()); code != 1 || !strings.Contains(stderr, "no database") {
		t.Errorf("export without a database: exit %d, %q", code, stderr)
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	if code, out, stderr := runCLI("backup", backup, "--data", dir); code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: %d %q %q", code, out, stderr)
	}
	if code, _, stderr := runCLI("export", "1", "--db", backup, "--key", filepath.Join(dir, "bottlepost.key")); code != 0 {
		t.Errorf("export from the backup: %d %s", code, stderr)
	}
	compacted := filepath.Join(t.TempDir(), "compact.db")
	if code, out, stderr := runCLI("compact", compacted, "--data", dir); code != 0 || !strings.Contains(out, "compacted copy") {
		t.Fatalf("compact: %d %q %q", code, out, stderr)
	}
	if code, _, stderr := runCLI("export", "1", "--db", compacted, "--key", filepath.Join(dir, "bottlepost.key")); code != 0 {
		t.Errorf("export from the compacted copy: %d %s", code, stderr)
	}
	if code, _, _ := runCLI("verify", "/nonexistent/file.pgn"); code != 2 {
		t.Errorf("verify of a missing file: exit %d", code)
	}
}
