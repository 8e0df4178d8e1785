package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/internal/boltdamage"
	"github.com/bottlepost/bottlepost/store"
)

// damagedData is a data directory whose game 1 (in play, with a log of many
// pages) has its last log page damaged as a failing disk would.
func damagedData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "bottlepost.db")
	st, err := store.Open(db, store.Options{KeyFile: filepath.Join(dir, "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := game.New(game.Config{Address: "games@localhost"}, game.Options{Store: st})
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
	send("a@localhost", "games@localhost", "hi")
	send("a@localhost", replyTo["a@localhost"], "new chess vs b@localhost as white")
	send("b@localhost", replyTo["b@localhost"], "accept")
	for i := range 300 {
		if err := st.Update(func(tx *store.Tx) error {
			g, err := tx.Game(1)
			if err != nil {
				return err
			}
			_, err = tx.Append(g, store.Entry{Kind: store.KindEvent, Side: store.White, Text: fmt.Sprintf("padding %d %s", i, strings.Repeat("p", 60)),
				Public: "padding", At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if _, err := boltdamage.LastLeafOf(db, binary.BigEndian.AppendUint64(nil, 1)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCheckStore: check-store reports each problem on a line naming the
// game, with exit status 1, on the file and through a running service
// (which also reports the damage in its log as it starts); a sound database
// passes with exit status 0.
func TestCheckStore(t *testing.T) {
	t.Run("sound database", func(t *testing.T) {
		code, out, stderr := runCLI("check-store", "--data", finishedGame(t))
		if code != 0 || !strings.Contains(out, "no problem found") {
			t.Errorf("exit %d, %q %q", code, out, stderr)
		}
	})
	t.Run("damaged service data, offline", func(t *testing.T) {
		dir := finishedGame(t)
		st, err := store.Open(filepath.Join(dir, "bottlepost.db"), store.Options{KeyFile: filepath.Join(dir, "bottlepost.key")})
		if err != nil {
			t.Fatal(err)
		}
		err = st.Update(func(tx *store.Tx) error { return tx.PutSetting("heartbeat", []byte("2026-11-2T09:00:00Z")) })
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		code, out, stderr := runCLI("check-store", "--data", dir)
		if code != 1 || !strings.Contains(out, `game: setting "heartbeat"`) {
			t.Errorf("exit %d, %q %q", code, out, stderr)
		}
	})
	dir := damagedData(t)
	t.Run("damaged database, offline", func(t *testing.T) {
		code, out, stderr := runCLI("check-store", "--data", dir)
		if code != 1 || !strings.Contains(out, "store: game 1: its pages are damaged") || !strings.Contains(stderr, "problems") {
			t.Errorf("exit %d, %q %q", code, out, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.Contains(line, "game 2") {
				t.Errorf("a sound game is blamed: %s", line)
			}
		}
	})
	t.Run("damaged database, through the running service", func(t *testing.T) {
		cfgPath := filepath.Join(t.TempDir(), "bp.toml")
		os.WriteFile(cfgPath, []byte("[service]\ndata_dir = \""+dir+"\"\n[hub]\nimap_listen = \"127.0.0.1:0\"\nsmtp_listen = \"127.0.0.1:0\"\npassword = \"pw\"\n"), 0o600)
		stop := make(chan os.Signal, 1)
		old := signals
		signals = func() (<-chan os.Signal, <-chan os.Signal, func()) { return stop, make(chan os.Signal), func() {} }
		defer func() { signals = old }()
		var out, errb syncBuffer
		done := make(chan int, 1)
		go func() { done <- run([]string{"serve", "--config", cfgPath}, &out, &errb) }()
		for end := time.Now().Add(10 * time.Second); !strings.Contains(errb.String(), "the database is damaged") && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		if !strings.Contains(errb.String(), "the database is damaged: run bottlepost check-store") {
			t.Errorf("the damage was not noticed at start-up:\n%s", errb.String())
		}
		code, cout, cerr := runCLI("check-store", "--data", dir)
		if code != 1 || !strings.Contains(cout, "store: game 1: its pages are damaged") || !strings.Contains(cerr, "the running service's database") {
			t.Errorf("exit %d, %q %q", code, cout, cerr)
		}
		stop <- syscall.SIGTERM
		if code := <-done; code != 0 {
			t.Errorf("serve: exit %d\n%s", code, errb.String())
		}
	})
}

// TestBackupWhenTheServiceDies: the service dies while it writes an online
// backup (the control connection ends without an answer): the command says
// so, writes nothing, and removes the unfinished copy left behind.
func TestBackupWhenTheServiceDies(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	dst := filepath.Join(out, "copy.db")
	stale := filepath.Join(out, ".copy.db.tmp-0123456789abcdef")
	ln, err := net.Listen("unix", filepath.Join(data, daemon.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		bufio.NewReader(c).ReadString('\n')
		// What a service killed mid-copy leaves: half a copy nobody holds, and
		// a connection closed without an answer.
		os.WriteFile(stale, []byte("half a database"), 0o600)
		c.Close()
	}()
	code, stdout, stderr := runCLI("backup", dst, "--data", data)
	if code != 1 || !strings.Contains(stderr, "the service stopped during the copy") || !strings.Contains(stderr, "its unfinished copy was removed") {
		t.Errorf("exit %d, %q %q", code, stdout, stderr)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}
