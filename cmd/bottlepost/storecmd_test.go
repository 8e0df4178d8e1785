package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	receipts = map[string][]string{}
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
				if r := receiptLine.FindString(string(m.Data)); r != "" {
					receipts[m.To[0]] = append(receipts[m.To[0]], strings.TrimSpace(r))
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

// receipts are the receipts each player's mails quoted, by address (finishedGame sets them).
var receipts map[string][]string

var receiptLine = regexp.MustCompile(`(?m)^[0-9]+:[0-9a-f]{64}\r?$`)

func TestCLIExportVerifyBackup(t *testing.T) {
	dir := finishedGame(t)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if code, _, stderr := runCLI("export", "1", "--data", dir, "-o", pgn); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	code, out, stderr := runCLI("verify", pgn)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.Contains(out, "verified: game 1 (Chess, fide, 3d): player 1 v player 2, 2 moves (0 secret), 0-1 (Black wins: checkmate") ||
		!strings.HasPrefix(lines[len(lines)-1], "only self-consistent: no receipt anchors it") {
		t.Fatalf("verify: %d %q %q", code, out, stderr)
	}
	// Every receipt a player received, in any order: the last line says how far they anchor.
	got := receipts["b@y.test"]
	if len(got) < 4 {
		t.Fatalf("black kept %d receipts: %v", len(got), got)
	}
	shuffled := append([]string{pgn}, got[len(got)-1], got[0], got[2], got[1])
	code, out, _ = runCLI(append([]string{"verify"}, shuffled...)...)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[len(lines)-1] != "anchored by your receipt "+got[len(got)-1]+": all 6 records are the ones you were sent" {
		t.Errorf("verify with receipts: %d %q", code, out)
	}
	code, out, _ = runCLI("verify", pgn, got[1], "--data", dir)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.Contains(out, "ok: the file is game 1 exactly as the database holds it") ||
		!strings.HasPrefix(lines[len(lines)-1], "anchored by your receipt "+got[1]+" up to record") {
		t.Errorf("verify with an early receipt and the database: %d %q", code, out)
	}
	// A file kept from before the PGN's form changed (TimeControl "3d") is the same game.
	before := filepath.Join(t.TempDir(), "before.pgn")
	os.WriteFile(before, []byte(strings.Replace(mustRead(t, pgn), "[TimeControl \"?\"]\n[TimeControlDays \"3d\"]\n", "[TimeControl \"3d\"]\n", 1)), 0o644)
	code, out, _ = runCLI("verify", before, "--data", dir)
	if code != 0 || !strings.Contains(out, "in the form written before") || !strings.Contains(out, "ok: the file is game 1 exactly as the database holds it") {
		t.Errorf("verify of a file of the earlier form with the database: %d %q", code, out)
	}
	cfg := filepath.Join(t.TempDir(), "bp.toml")
	os.WriteFile(cfg, []byte("[service]\ndata_dir = "+strconv.Quote(dir)+"\n"), 0o600)
	if code, out, stderr := runCLI("verify", "--config", cfg, pgn); code != 0 || !strings.Contains(out, "exactly as the database holds it") {
		t.Errorf("verify --config: %d %q %q", code, out, stderr)
	}
	viaConfig := filepath.Join(t.TempDir(), "c.pgn")
	if code, _, stderr := runCLI("export", "1", "--config", cfg, "-o", viaConfig); code != 0 {
		t.Errorf("export --config: %d %s", code, stderr)
	} else if a, b := mustRead(t, viaConfig), mustRead(t, pgn); a != b {
		t.Errorf("export --config wrote another file")
	}
	if code, _, stderr := runCLI("verify", pgn, "6:abc"); code != 2 || !strings.Contains(stderr, "is not a receipt") {
		t.Errorf("a malformed receipt: %d %q", code, stderr)
	}
	data, _ := os.ReadFile(pgn)
	os.WriteFile(pgn, []byte(strings.Replace(string(data), "2. g4", "2. g3", 1)), 0o644)
	if code, out, _ := runCLI("verify", pgn); code != 1 || !strings.Contains(out, `FAILED: after move e5 the PGN has the move "g3", but the record gives "g4"`) {
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

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
