package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/store"
)

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeKilledAfterTheHubAcceptedAMove: serve runs with its embedded hub
// (per-account passwords, the default); right after the hub answered 250 to
// a move, the process is killed with SIGKILL. Started again, it finds the
// move in the hub's INBOX on disk and handles it: every move is applied
// exactly once and its news reaches the opponent. The test requires that at
// least one move was still unhandled when its process died (else it proved
// nothing) and tries up to ten moves to catch one.
func TestServeKilledAfterTheHubAcceptedAMove(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	imapAddr, smtpAddr := freeAddr(t), freeAddr(t)
	cfgPath := filepath.Join(dir, "bp.toml")
	os.WriteFile(cfgPath, []byte(fmt.Sprintf("[service]\ndata_dir = %q\n[hub]\nimap_listen = %q\nsmtp_listen = %q\n", data, imapAddr, smtpAddr)), 0o600)
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	start := func() *exec.Cmd {
		t.Helper()
		c := testDaemon(cfgPath)
		c.Stdout, c.Stderr = logf, logf
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			if conn, err := net.Dial("tcp", smtpAddr); err == nil {
				conn.Close()
				return c
			}
		}
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf("serve did not start:\n%s", log)
		return nil
	}
	cmd := start()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// The banner says how a person reads their password, and prints none.
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(logf.Name()); strings.Contains(string(b), "Stop with Ctrl-C") {
			break
		}
	}
	if b, _ := os.ReadFile(logf.Name()); !strings.Contains(string(b), "its own password: run  bottlepost hub-password NAME --data "+data) || strings.Contains(string(b), `password "`) {
		t.Errorf("the banner:\n%s", b)
	}
	player := func(name string) *daemon.Player {
		pw, err := mailer.HubPassword(filepath.Join(data, "hub"), name)
		if err != nil {
			t.Fatal(err)
		}
		return daemon.PlayerAt(name+"@localhost", imapAddr, smtpAddr, pw)
	}
	alice, bob := player("alice"), player("bob")
	step := func(p *daemon.Player, body string, waiter *daemon.Player, want string) {
		t.Helper()
		var err error
		if len(p.Inbox) == 0 {
			_, err = p.Send(daemon.Mail{To: "games@localhost", Subject: "hello", Body: body})
		} else {
			_, err = p.Reply(body)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := waiter.Await(want, 20*time.Second); err != nil {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("%s after %q: %v\n%s", want, body, err, log)
		}
	}
	step(alice, "hello", alice, "your personal address")
	step(alice, "new chess vs bob@localhost as white", bob, "challenges you")
	step(bob, "accept", alice, "It is your move.")
	bob.Await("The game has begun", 10*time.Second)

	records := func() uint32 {
		t.Helper()
		st, err := store.Open(filepath.Join(data, "bottlepost.db"), store.Options{KeyFile: filepath.Join(data, "bottlepost.key"), ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var n uint32
		if err := st.View(func(tx *store.Tx) error {
			g, err := tx.Game(1)
			if err == nil {
				n = g.Records
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
	caught := 0
	for i, mv := range moves {
		mover, opponent := alice, bob
		if i%2 == 1 {
			mover, opponent = bob, alice
		}
		cmd.Process.Kill() // a moment later: the daemon is gone, the hub with it
		if _, err := mover.Reply(mv); err == nil {
			t.Fatalf("the move %s was accepted by a dead hub", mv)
		}
		cmd.Wait()
		before := records()
		cmd = start()
		if _, err := mover.Reply(mv); err != nil { // the hub answered 250 ...
			t.Fatal(err)
		}
		cmd.Process.Kill() // ... and at once the process is killed
		cmd.Wait()
		if records() == before {
			caught++
		}
		cmd = start()
		num := fmt.Sprintf("%d. ", i/2+1)
		if i%2 == 1 {
			num = fmt.Sprintf("%d... ", i/2+1)
		}
		if _, err := opponent.Await("played "+num+mv+".", 20*time.Second); err != nil {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("move %s after the kill: %v\n%s", mv, err, log)
		}
		if caught > 0 && i >= 3 {
			moves = moves[:i+1]
			break
		}
	}
	if caught == 0 {
		t.Fatalf("every one of %d moves was handled before its kill: the test proved nothing", len(moves))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if got, want := records(), uint32(1+len(moves)); got != want {
		t.Errorf("game 1 has %d records, want %d (the setup and %d moves, each once)", got, want, len(moves))
	}
	t.Logf("%d of %d moves were accepted by the hub but not yet handled when serve was killed; all were handled once after the restart", caught, len(moves))
}

// TestHubPasswordCommand: hub-password prints (making it on first use) the
// account's own password, the one the running hub checks; with a shared
// [hub] password it prints that, and refuses for the service's own mailbox.
func TestHubPasswordCommand(t *testing.T) {
	data := t.TempDir()
	code, out, stderr := runCLI("hub-password", "alice@localhost", "--data", data)
	pw := strings.TrimSpace(out)
	if code != 0 || len(pw) < 16 {
		t.Fatalf("exit %d, %q %q", code, out, stderr)
	}
	if again, _ := mailer.HubPassword(filepath.Join(data, "hub"), "alice"); again != pw {
		t.Errorf("the hub reads %q, the command printed %q", again, pw)
	}
	if _, other, _ := runCLI("hub-password", "bob", "--data", data); strings.TrimSpace(other) == pw {
		t.Error("bob got alice's password")
	}
	cfg := filepath.Join(t.TempDir(), "bp.toml")
	os.WriteFile(cfg, []byte("[service]\ndata_dir = \""+data+"\"\n[hub]\npassword = \"demo\"\n"), 0o600)
	if code, out, _ := runCLI("hub-password", "carol", "--config", cfg); code != 0 || strings.TrimSpace(out) != "demo" {
		t.Errorf("shared: exit %d, %q", code, out)
	}
	if code, _, stderr := runCLI("hub-password", "games", "--config", cfg); code != 1 || !strings.Contains(stderr, "a password of its own") {
		t.Errorf("the service's mailbox: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI("hub-password", "a/b", "--data", data); code != 1 {
		t.Errorf("a name with a slash: exit %d", code)
	}
}
