package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/dovecottest"
	"github.com/bottlepost/bottlepost/loadtest"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// TestMain lets this test binary stand in for bottlepost when a test runs
// the daemon as a separate process (the load and crash-loop tests):
// BOTTLEPOST_TEST_MAIN=1 makes it run the command line it was given.
func TestMain(m *testing.M) {
	if os.Getenv("BOTTLEPOST_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// testDaemon runs `bottlepost serve --config PATH` as this test binary.
func testDaemon(configPath string) *exec.Cmd {
	c := exec.Command(os.Args[0], "serve", "--config", configPath)
	c.Env = append(os.Environ(), "BOTTLEPOST_TEST_MAIN=1")
	return dieWithParent(c)
}

// The bench subcommand end to end, small: games set up by mail, moves
// played through the hub, every stored position equal to the one played.
func TestBenchCommand(t *testing.T) {
	old := daemonCommand
	daemonCommand = testDaemon
	defer func() { daemonCommand = old }()
	code, out, stderr := runCLI("bench", "--games", "12", "--moves", "120", "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"games 12, moves 120 in", "moves/s", "p99", "daemon memory: resident max", "12 of 12 games checked"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// LMTP delivery is into the server that holds the service's mailbox: the
// flag alone is refused, saying what it needs.
func TestBenchLMTPNeedsIMAP(t *testing.T) {
	code, _, stderr := runCLI("bench", "--lmtp-server", "127.0.0.1:24", "--dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "--lmtp-server needs --imap-server") {
		t.Errorf("exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
}

// The load through a real IMAP server: Dovecot holds the service's
// mailbox, the players' moves are delivered into it, the daemon reads them
// there; replies go out through the hub. Skipped where Dovecot is not
// installed (CI installs it).
//
// BOTTLEPOST_LONG=1 runs the figures of docs/performance.md; with it,
// BOTTLEPOST_RATE offers moves at that rate, BOTTLEPOST_MAIL_FORMAT sets
// Dovecot's mailbox format (sdbox as docs/deploy has it, or maildir, mdbox)
// and BOTTLEPOST_SENDERS the sessions delivering the players' mail. The
// players' mail is delivered with IMAP APPEND; BOTTLEPOST_DELIVERY=lmtp
// delivers it over LMTP instead, as Postfix hands it to Dovecot in
// docs/deploy. BOTTLEPOST_DOVECOT_CONFIG is added to Dovecot's
// configuration (settings under test). BOTTLEPOST_DAEMON_CPUPROFILE names a
// file for the daemon's CPU profile.
func TestBenchWithDovecot(t *testing.T) {
	if testing.Short() {
		t.Skip("a load run; the full run has it (TestBenchCommand covers the bench with -short)")
	}
	lmtp := os.Getenv("BOTTLEPOST_DELIVERY") == "lmtp"
	srv := dovecottest.StartServer(t, dovecottest.Options{MailFormat: os.Getenv("BOTTLEPOST_MAIL_FORMAT"), LMTP: lmtp,
		Config: os.Getenv("BOTTLEPOST_DOVECOT_CONFIG")})
	addr := srv.Addr
	old := daemonCommand
	daemonCommand = testDaemon
	defer func() { daemonCommand = old }()
	games, moves, rate := "12", "120", "0"
	if os.Getenv("BOTTLEPOST_LONG") == "1" { // the figures of docs/performance.md
		games, moves, rate = "1000", "20000", os.Getenv("BOTTLEPOST_RATE")
		if rate == "" {
			rate = "0"
		}
	}
	args := []string{"bench", "--games", games, "--moves", moves, "--rate", rate, "--imap-server", addr,
		"--imap-user", "games", "--imap-password", dovecottest.Password, "--dir", t.TempDir()}
	if lmtp {
		args = append(args, "--lmtp-server", srv.LMTPAddr)
	}
	if p := os.Getenv("BOTTLEPOST_DAEMON_CPUPROFILE"); p != "" {
		args = append(args, "--daemon-cpuprofile", p)
	}
	if n := os.Getenv("BOTTLEPOST_SENDERS"); n != "" && os.Getenv("BOTTLEPOST_LONG") == "1" {
		args = append(args, "--senders", n)
	}
	code, out, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	if !strings.Contains(out, games+" of "+games+" games checked") {
		t.Errorf("report:\n%s", out)
	}
	// Dovecot's own work (its sessions have ended with the bench): the
	// part of the machine a real mail server takes, which the bench's CPU
	// lines do not count.
	n, _ := strconv.Atoi(moves)
	cpu := srv.CPU()
	t.Logf("\n%sDovecot CPU per move: %v (%v in all)", out, (cpu / time.Duration(n)).Round(time.Microsecond), cpu)
}

// The crash loop: while games are played by mail and junk pours in, the
// daemon (a separate process) is killed with SIGKILL at random moments and
// started again. At the end every game's stored moves and position are
// those played (loadtest.CheckStore: the log move by move and the
// referee's full state; no move lost, none applied twice, none stored other
// than sent; TestCheckStoreFindsADifferentMove shows the check can fail),
// every move got both its replies
// (the players wait for each before moving on), no reply was delivered
// twice beyond the outbox's documented window (mails accepted by the server
// but not yet marked sent when the process died: at most twice the
// outbox's mark window of 16, plus the one mail whose answer was under
// way, per SMTP session, 4 sessions), and the junk got
// no more answers than one welcome per junk sender that could earn one.
// Games end by resignation after 8 moves (and their players play again
// while kills remain), so rating updates are under way at the kills too: at
// the end the stored ratings equal their recomputation from the archive
// (bottlepost ratings --rebuild), every ended game rated. Longer chains of
// one pair's games under kills: bottlepost bench --games 4 --moves 400
// --kills 100 --resign-after 2 (docs/reliability.md).
//
// 20 kills by default; BOTTLEPOST_LONG=1 runs the 200 of issue 11, -short
// 3 kills of a smaller run with the same checks.
func TestCrashLoop(t *testing.T) {
	kills, games, moves, junk := 20, 40, 400, 2000
	switch {
	case os.Getenv("BOTTLEPOST_LONG") == "1":
		kills = 200
	case testing.Short():
		kills, games, moves, junk = 3, 10, 80, 200
	}
	rep, err := loadtest.Run(context.Background(), loadtest.Config{
		Games: games, Moves: moves, Kills: kills, Junk: junk, Seed: 7, Resign: 8,
		Dir: t.TempDir(), Spawn: testDaemon, Progress: testWriter{t}, CheckRatings: rebuildRatings,
	})
	if rep != nil {
		t.Logf("\n%s\nanswers by kind of junk: %v", rep, rep.JunkAnswersByKind)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kills != kills {
		t.Errorf("%d kills, want %d (the games ended first?)", rep.Kills, kills)
	}
	if rep.Checked != rep.Games {
		t.Errorf("%d of %d games checked", rep.Checked, rep.Games)
	}
	if rep.Ended == 0 || rep.RatedGames != rep.Ended {
		t.Errorf("%d games ended, %d rated games replayed: want every ended game rated, and some", rep.Ended, rep.RatedGames)
	}
	if limit := rep.Kills * 4 * (2*16 + 1); rep.Duplicates > limit {
		t.Errorf("%d replies delivered twice after %d kills; the outbox allows at most %d", rep.Duplicates, rep.Kills, limit)
	}
	// Each junk sender writes once. Readable mail of a person (plain junk,
	// a broken MIME body, a made-up token) earns at most its one welcome of
	// the day; oversized and unreadable mail, bounces, auto-replies and list
	// mail earn nothing.
	perKind := (rep.Junk + 7) / 8
	for kind, most := range map[string]int{"junk0x": perKind, "junk1x": 0, "junk2x": perKind, "junk3x": 0,
		"junk4x": 0, "junk5x": 0, "junk6x": 0, "junk7x": perKind} {
		if n := rep.JunkAnswersByKind[kind]; n > most {
			t.Errorf("%s: %d answers, at most %d allowed", kind, n, most)
		}
	}
}

// TestCheckStoreFindsADifferentMove: the crash loop's final check compares
// real games. A small run is played through the daemon; its store then
// passes the check against what was played, and fails it, naming the game
// and the move, when one move differs: in what was played (the last one
// replaced by another legal move), one move fewer played, and in the store
// (the game's stored state replaced by that of the other move: same ply
// count, another board). Each case checks a copy of the daemon's store.
func TestCheckStoreFindsADifferentMove(t *testing.T) {
	dir := t.TempDir()
	rep, err := loadtest.Run(context.Background(), loadtest.Config{Games: 2, Moves: 24, Seed: 3, Dir: dir, Spawn: testDaemon})
	if err != nil {
		t.Fatalf("%v\n%v", err, rep)
	}
	g := rep.Played[0]
	n := len(g.Moves)
	if n < 2 {
		t.Fatalf("game %d has %d moves; the test needs two", g.ID, n)
	}
	// Another legal move in place of the last one: same ply count.
	v, err := variants.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	before, err := v.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range g.Moves[:n-1] {
		m, err := before.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if before, _, err = before.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	var other string
	var otherState rules.State
	for _, m := range before.Moves() {
		if text := before.Format(m); text != g.Moves[n-1] {
			if otherState, _, err = before.Apply(m); err == nil {
				other = text
				break
			}
		}
	}
	if other == "" {
		t.Fatalf("no other legal move than %s after %v", g.Moves[n-1], g.Moves[:n-1])
	}
	changed := func(moves []string) []loadtest.Played {
		out := slices.Clone(rep.Played)
		out[0].Moves = moves
		return out
	}
	label := rules.MoveLabel(n - 1)
	tests := []struct {
		name        string
		played      []loadtest.Played
		doctorStore bool   // the game's stored state replaced by otherState's
		want        string // in the error; "" for none
	}{
		{name: "as played", played: rep.Played},
		{name: "the last move played differs", played: changed(append(slices.Clone(g.Moves[:n-1]), other)),
			want: fmt.Sprintf("game %d: move %s stored as %q, played %q", g.ID, label, g.Moves[n-1], other)},
		{name: "one move fewer played", played: changed(g.Moves[:n-1]),
			want: fmt.Sprintf("game %d: %d moves stored, %d played: the first extra is %s %s", g.ID, n, n-1, label, g.Moves[n-1])},
		{name: "the stored state differs by the last move", played: rep.Played, doctorStore: true,
			want: fmt.Sprintf("game %d: the stored position (%d plies) is not the one played (%d plies)", g.ID, n, n)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			for _, f := range []string{"bottlepost.db", "bottlepost.key"} {
				b, err := os.ReadFile(filepath.Join(dir, "data", f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(data, f), b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.doctorStore {
				doctorState(t, data, g.ID, otherState)
			}
			checked, err := loadtest.CheckStore(data, "chess", tt.played)
			if tt.want == "" {
				if err != nil || checked != len(tt.played) {
					t.Fatalf("%d of %d games checked: %v", checked, len(tt.played), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckStore: %v\nwant an error with %q", err, tt.want)
			}
			if checked != len(tt.played)-1 {
				t.Errorf("%d games found equal, want %d (all but the one changed)", checked, len(tt.played)-1)
			}
		})
	}
}

// doctorState replaces a game's stored state with s's, as damage or a
// wrong commit would leave it: the log is left as it was.
func doctorState(t *testing.T, data string, id uint64, s rules.State) {
	t.Helper()
	st, err := store.Open(filepath.Join(data, "bottlepost.db"), store.Options{KeyFile: filepath.Join(data, "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	state, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		g.State = state
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
}

// testWriter sends progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
