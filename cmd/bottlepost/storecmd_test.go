package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

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
	if code != 4 || !strings.Contains(out, "verified: game 1 (Chess, fide, 3d): player 1 v player 2, 2 moves (0 secret), 0-1 (Black wins: checkmate") ||
		!strings.HasPrefix(lines[len(lines)-1], "only self-consistent: no receipt anchors it") {
		t.Fatalf("verify without receipts: exit %d, want 4 (only self-consistent): %q %q", code, out, stderr)
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
	if code != 3 || !strings.Contains(out, "ok: the file is game 1 exactly as the database holds it") ||
		!strings.HasPrefix(lines[len(lines)-1], "anchored by your receipt "+got[1]+" up to record") {
		t.Errorf("verify with an early receipt and the database: %d %q", code, out)
	}
	// A file kept from before the PGN's form changed (TimeControl "3d") is the same game.
	before := filepath.Join(t.TempDir(), "before.pgn")
	os.WriteFile(before, []byte(strings.Replace(mustRead(t, pgn), "[TimeControl \"?\"]\n[TimeControlDays \"3d\"]\n", "[TimeControl \"3d\"]\n", 1)), 0o644)
	code, out, _ = runCLI("verify", before, "--data", dir)
	if code != 4 || !strings.Contains(out, "in the form written before") || !strings.Contains(out, "ok: the file is game 1 exactly as the database holds it") {
		t.Errorf("verify of a file of the earlier form with the database: %d %q", code, out)
	}
	cfg := filepath.Join(t.TempDir(), "bp.toml")
	os.WriteFile(cfg, []byte("[service]\ndata_dir = "+strconv.Quote(dir)+"\n"), 0o600)
	if code, out, stderr := runCLI("verify", "--config", cfg, pgn); code != 4 || !strings.Contains(out, "exactly as the database holds it") {
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

// TestCLIVerifyExitStatuses: verify exits 0 only when a receipt given covers the whole
// file, 3 when the latest covers only its first records, 4 when none is given (only
// self-consistent), 1 when it refuses and 2 for bad arguments; -h says so. A receipt in
// upper case, a head alone (as mails before RECORDS:HEAD quoted it) and a file whose final
// line feed was removed are taken.
func TestCLIVerifyExitStatuses(t *testing.T) {
	dir := finishedGame(t)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if code, _, stderr := runCLI("export", "1", "--data", dir, "-o", pgn); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	got := receipts["b@y.test"]
	final, early := got[len(got)-1], got[1]
	_, earlyHead, _ := strings.Cut(early, ":")
	_, finalHead, _ := strings.Cut(final, ":")
	data := mustRead(t, pgn)
	cut := filepath.Join(t.TempDir(), "cut.pgn")
	os.WriteFile(cut, []byte(strings.TrimSuffix(data, "\n")), 0o644)
	forged := filepath.Join(t.TempDir(), "forged.pgn")
	os.WriteFile(forged, []byte(strings.Replace(data, `[Black "player 2"]`, `[Black "c"]`, 1)), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		last string // the last line of the output
	}{
		{"the final receipt", []string{pgn, early, final}, 0, "anchored by your receipt " + final + ": all 6 records"},
		{"the final receipt in upper case", []string{pgn, strings.ToUpper(final)}, 0, "anchored by your receipt " + final + ": all 6 records"},
		{"the final head alone", []string{pgn, finalHead}, 0, "anchored by your receipt " + finalHead + ": all 6 records"},
		{"without its final line feed", []string{cut, final}, 0, "anchored by your receipt " + final + ": all 6 records"},
		{"an early receipt", []string{pgn, early}, 3, "anchored by your receipt " + early + " up to record 2 of 6"},
		{"an early head alone", []string{pgn, earlyHead}, 3, "anchored by your receipt " + earlyHead + " up to record 2 of 6"},
		{"no receipt", []string{pgn}, 4, "only self-consistent: no receipt anchors it"},
		{"a receipt of another history", []string{pgn, "2:" + strings.Repeat("ab", 32)}, 1, "FAILED: "},
		{"a head of another history", []string{pgn, strings.Repeat("ab", 32)}, 1, "FAILED: "},
		{"a forged file", []string{forged, final}, 1, `FAILED: the PGN tag Black is "c", but the record gives "player 2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(append([]string{"verify"}, tt.args...)...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != tt.code || !strings.HasPrefix(lines[len(lines)-1], tt.last) {
				t.Errorf("exit %d, want %d; last line %q, want it to begin %q\n%s%s", code, tt.code, lines[len(lines)-1], tt.last, out, stderr)
			}
		})
	}
	if code, _, stderr := runCLI("verify", pgn, "6:abc"); code != 2 || !strings.Contains(stderr, "is not a receipt") {
		t.Errorf("a malformed receipt: exit %d, want 2: %q", code, stderr)
	}
	code, _, stderr := runCLI("verify", "-h")
	for _, want := range []string{"Exit status:", "  0  verified, and anchored by a receipt covering the whole file", "  3  verified, but anchored only up to",
		"  4  verified, but only self-consistent", "  1  refused", "  2  bad arguments"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("verify -h (exit %d) does not say %q:\n%s", code, want, stderr)
		}
	}
}

// TestCLIVerifyEscapesFileText: text the file controls is printed with its control
// characters escaped, so that an escape sequence cannot hide or rewrite what verify says.
// The game service writes no such text (a shown name is printable), but a forged file
// can: here a record of format 1, whose players no record binds, as the store's export
// in JSON (which verify reads too), with an escape sequence in White's name.
func TestCLIVerifyEscapesFileText(t *testing.T) {
	const name = "Mallory\x1b[1A\x1b[2K\u202e"
	data := mustRead(t, filepath.Join("..", "..", "record", "testdata", "export-v1-chess.pgn"))
	i := strings.Index(data, "{bottlepost-export/1")
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(data[i+len("{bottlepost-export/1"):]), "}")), ""))
	if err != nil {
		t.Fatal(err)
	}
	var x store.Export
	if err := json.Unmarshal(raw, &x); err != nil {
		t.Fatal(err)
	}
	x.Game.Players[0] = name
	forged, err := json.Marshal(&x)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "game.json")
	os.WriteFile(file, forged, 0o644)
	code, out, _ := runCLI("verify", file)
	if code != 4 || !strings.Contains(out, `verified: game 1 (Chess, fide, 3d): Mallory\x1b[1A\x1b[2K\u202e v ,`) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	for _, r := range out {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			t.Errorf("verify printed the control character %U", r)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"plain text, ä and ✓", "plain text, ä and ✓"},
		{"a\tb\nc\rd", `a\tb\nc\rd`},
		{"\x1b[31mred\x7f\u0085", `\x1b[31mred\x7f\u0085`},
		{"\u202eevil\u2066\u2028", `\u202eevil\u2066\u2028`},
		{"bad \xff byte, good \ufffd", `bad \xff byte, good ` + "\ufffd"},
	} {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
