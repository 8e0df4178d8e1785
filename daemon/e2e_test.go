package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/config"
)

// running is a daemon on the embedded hub with ephemeral loopback ports.
type running struct {
	d      *Daemon
	cancel context.CancelFunc
	done   chan error
	cfg    config.Config
}

func startDaemon(t testing.TB, edit func(*config.Config)) *running {
	t.Helper()
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, cfg, cancel, done := launch(t, edit, log, nil)
	r := &running{d: d, cancel: cancel, done: done, cfg: cfg}
	t.Cleanup(r.stop)
	return r
}

// launch starts a daemon on its embedded hub with ephemeral loopback ports
// and a fresh data directory (edit adjusts the configuration) and runs it
// (see runDaemon).
func launch(t testing.TB, edit func(*config.Config), log *slog.Logger, prepare func(*Daemon)) (*Daemon, config.Config, context.CancelFunc, chan error) {
	t.Helper()
	cfg := config.Defaults()
	cfg.Service.DataDir = filepath.Join(t.TempDir(), "data") // made 0700: no warning of its mode
	cfg.Hub.IMAPListen, cfg.Hub.SMTPListen = "127.0.0.1:0", "127.0.0.1:0"
	cfg.Web.Listen = "127.0.0.1:0"
	cfg.IMAP.PollInterval = config.Duration(50 * time.Millisecond)
	if edit != nil {
		edit(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	d, cancel, done := runDaemon(t, cfg, log, prepare)
	return d, cfg, cancel, done
}

// runDaemon builds a daemon from cfg, starts it (prepare, if set, runs
// between Start and Run) and runs it until cancel; Run's result comes on
// done. It fails the test if the daemon cannot start.
func runDaemon(t testing.TB, cfg config.Config, log *slog.Logger, prepare func(*Daemon)) (*Daemon, context.CancelFunc, chan error) {
	t.Helper()
	d, err := New(cfg, Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Start(); err != nil {
		d.Close()
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	return d, cancel, done
}

func (r *running) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
	r.cancel = nil
}

// restart stops the daemon and runs a new one on the same configuration and store
// (and a new hub, whose INBOXes come back from the data directory), stopped when the
// test ends.
func (r *running) restart(t testing.TB) *Daemon {
	t.Helper()
	r.stop()
	d, cancel, done := runDaemon(t, r.cfg, slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})), nil)
	t.Cleanup(func() { cancel(); <-done })
	return d
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

const wait = 10 * time.Second

// sent fails the test when sending failed: sent(t)(p.Send(…)).
func sent(t *testing.T) func(string, error) {
	return func(_ string, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func await(t *testing.T, p *Player, want string) *Received {
	t.Helper()
	r, err := p.Await(want, wait)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestEndToEndChessByMail(t *testing.T) {
	r := startDaemon(t, nil)
	pw := r.cfg.Hub.Password.Value
	alice, bob, eve := NewPlayer(r.d.Hub(), "alice", pw), NewPlayer(r.d.Hub(), "bob", pw), NewPlayer(r.d.Hub(), "eve", pw)

	sent(t)(alice.Send(Mail{To: "games@localhost", Subject: "hello", Body: "hi"}))
	welcome := await(t, alice, "your personal address")
	if !strings.HasPrefix(welcome.ReplyTo, "games+1") {
		t.Fatalf("welcome Reply-To %q", welcome.ReplyTo)
	}
	// format=flowed: the command is wrapped over two lines with a trailing space.
	sent(t)(alice.Send(Mail{To: welcome.ReplyTo, Subject: "new game", Flowed: true,
		Body: "new chess vs bob@localhost as \nwhite time 3d\n\n-- \nAlice, sent from a phone\n"}))
	await(t, alice, "Your challenge to player 2 <bob@localhost>")
	await(t, bob, "challenges you to a game of Chess")
	sent(t)(bob.Reply("accept"))
	await(t, alice, "The game has begun")
	await(t, bob, "The game has begun")

	// An illegal move: the reason, the nearest legal moves, nothing changes.
	sent(t)(alice.Reply("e5"))
	await(t, alice, `Your move was not played: "e5"`)
	sent(t)(alice.Reply("f3"))
	await(t, alice, "Your move f3 was accepted.")
	await(t, bob, "White played 1. f3.")

	// Eve spoofs bob's From to bob's token: no game action, and eve learns nothing.
	bobToken := bob.Inbox[len(bob.Inbox)-1].ReplyTo
	sent(t)(eve.Send(Mail{From: "bob@localhost", To: bobToken, Subject: "Re: [bp-1]", Body: "e5"}))
	// Eve writes to bob's token under her own name: refused, welcome goes to eve only.
	sent(t)(eve.Send(Mail{To: bobToken, Subject: "Re: [bp-1]", Body: "e5"}))
	await(t, eve, "Your mail also asked for")
	// A bounce to the service is never answered.
	sent(t)(eve.Send(Mail{To: "games@localhost", Subject: "Undelivered Mail Returned to Sender",
		Body: "This is the mail system.", Headers: map[string]string{"Return-Path": "<>", "Auto-Submitted": "auto-replied"}}))

	sent(t)(bob.Reply("e5"))
	await(t, alice, "Black played 1... e5.")
	sent(t)(alice.Reply("g4"))
	await(t, bob, "White played 2. g4.")
	sent(t)(bob.Reply("Qh4#"))
	final := await(t, alice, "Game over: 0-1, Black wins: checkmate")
	if !strings.Contains(final.Text(), "2. g4 Qh4#") {
		t.Errorf("final mail:\n%s", final.Text())
	}
	await(t, bob, "Game over: 0-1, Black wins: checkmate")

	// The spoof moved nothing: black's e5 was the only black move before Qh4#.
	if n := strings.Count(final.Text(), "Black "); n < 2 {
		t.Errorf("record:\n%s", final.Text())
	}
	if got, _ := bob.Fetch(); len(got) != 0 {
		for _, g := range got {
			if strings.Contains(g.Text(), "e5") && strings.Contains(g.Text(), "accepted") && g.Msg.InReplyTo != nil {
				t.Errorf("bob got a receipt for the spoofed move")
			}
		}
	}
	for _, m := range eve.Inbox {
		if strings.Contains(m.Text(), "[bp-1]") || strings.Contains(m.Text(), "bob@localhost") {
			t.Errorf("eve learned about the game:\n%s", m.Text())
		}
	}
	if len(eve.Inbox) != 1 {
		t.Errorf("eve got %d mails, want the one welcome (the bounce must not be answered)", len(eve.Inbox))
	}
}

// chessGame starts a daemon and a game of chess by mail between alice (White) and bob.
func chessGame(t *testing.T) (r *running, pw string, alice, bob *Player) {
	t.Helper()
	r = startDaemon(t, nil)
	pw = r.cfg.Hub.Password.Value
	alice, bob = NewPlayer(r.d.Hub(), "alice", pw), NewPlayer(r.d.Hub(), "bob", pw)
	sent(t)(alice.Send(Mail{To: "games@localhost", Subject: "hi", Body: "hi"}))
	await(t, alice, "your personal address")
	sent(t)(alice.Reply("new chess vs bob@localhost as white"))
	await(t, bob, "challenges you")
	sent(t)(bob.Reply("accept"))
	await(t, alice, "It is your move.")
	await(t, bob, "The game has begun")
	return r, pw, alice, bob
}

func TestRestartKeepsTheGame(t *testing.T) {
	r, pw, alice, _ := chessGame(t)
	// The hub is in memory and went with the daemon: a new one starts with
	// empty mailboxes, but the store keeps the game and the tokens.
	d2 := r.restart(t)
	alice2 := NewPlayer(d2.Hub(), "alice", pw)
	token := alice.Inbox[len(alice.Inbox)-1].ReplyTo
	sent(t)(alice2.Send(Mail{To: token, Subject: "Re: [bp-1]", Body: "e4"}))
	await(t, alice2, "Your move e4 was accepted.")
}

// TestEndToEndSecretMovesByMail plays Seachess through the hub: White's
// submarine dives and moves under water (secret moves: black is told only
// that a hidden move was made, with its commitment), and when the game ends
// both players get the moves revealed with the openings of the commitments.
func TestEndToEndSecretMovesByMail(t *testing.T) {
	r := startDaemon(t, nil)
	pw := r.cfg.Hub.Password.Value
	alice, bob := NewPlayer(r.d.Hub(), "alice", pw), NewPlayer(r.d.Hub(), "bob", pw)
	sent(t)(alice.Send(Mail{To: "games@localhost", Subject: "hi", Body: "hi"}))
	await(t, alice, "your personal address")
	sent(t)(alice.Reply("new seachess vs bob@localhost as white"))
	await(t, bob, "challenges you to a game of Seachess")
	sent(t)(bob.Reply("accept"))
	await(t, alice, "It is your move.")
	moves := []string{"Bj2-j3", "Bj11-j10", "Bi2-i3", "Bi11-i10", "Bh2-h3", "Bh11-h10", "Bg2-g3", "Bg11-g10"}
	for i, m := range moves {
		p := []*Player{alice, bob}[i%2]
		sent(t)(p.Reply(m))
		await(t, p, "Your move "+m+" was accepted")
	}
	sent(t)(alice.Reply("Sd1v-e3"))
	await(t, alice, "Your move Sd1v-e3 was accepted")
	hidden := await(t, bob, "White made a hidden move")
	// The commitment and chain head are random hex: mask them before looking for "e3".
	masked := regexp.MustCompile(`[0-9a-f]{64}`).ReplaceAllString(hidden.Text(), "DIGEST")
	if strings.Contains(masked, "e3") || strings.Contains(masked, "Sd1v") || !strings.Contains(masked, "Commitments to secret moves") {
		t.Errorf("black's mail about the hidden move:\n%s", hidden.Text())
	}
	sent(t)(bob.Reply("resign"))
	for _, p := range []*Player{alice, bob} {
		final := await(t, p, "Game over: 1-0, White wins: Black resigned")
		if !strings.Contains(final.Text(), "Sd1v-e3") || !strings.Contains(final.Text(), "Openings of the commitments") {
			t.Errorf("final mail to %s does not reveal the secret move:\n%s", p.Address, final.Text())
		}
	}
}
