package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The crash test runs a child process (this test binary again, TestCrashChild) that accepts
// moves in two games as fast as it can, the way the game service will (one game with Update,
// the other with Batch), while a third
// goroutine drains the outbox into a "mail server" file. The parent kills it with SIGKILL at
// random moments, reopens the database and checks that every acknowledged move is there
// exactly once and that the log, state, outbox, sent mail, processed ids and deadlines agree.
//
// SIGKILL ends the process, not the machine: the kernel still writes what the process had
// written. The test proves the store's atomicity at any instant of the process; bbolt's
// fsync on commit is what carries it over a power loss.

const (
	crashEnv    = "BOTTLEPOST_CRASH_CHILD"  // the child's database directory
	roundsEnv   = "BOTTLEPOST_CRASH_ROUNDS" // how many kills (default 50, 10 with -short)
	sinkName    = "sent.log"                // the mail server's record of accepted mail
	crashLimit  = 20 * time.Second          // a child that is not killed stops by itself
	crashPrefix = "crash-child "
)

func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestCrash")
	}
	if err := crashChild(dir); err != nil {
		fmt.Printf("%serror %v\n", crashPrefix, err)
		os.Exit(3)
	}
	os.Exit(0)
}

func crashChild(dir string) error {
	st, err := Open(filepath.Join(dir, "game.db"), Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		os.Stdout.WriteString(crashPrefix + fmt.Sprintf(format, args...) + "\n") // unbuffered
	}
	var games []*Game
	err = st.Update(func(tx *Tx) error {
		ids, err := tx.Games()
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			for _, hidden := range []bool{true, false} {
				if _, err := createGame(tx, hidden, t0); err != nil {
					return err
				}
			}
			ids, _ = tx.Games()
		}
		for _, id := range ids {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		return nil
	})
	if err != nil {
		return err
	}
	say("ready")
	stop := time.Now().Add(crashLimit)
	errs := make(chan error, len(games)+1)
	for i, g := range games {
		commit := st.Update // the first game commits alone, the second in batches
		if i%2 == 1 {
			commit = st.Batch
		}
		go func() {
			// Redeliver the last two mails already applied: they must be refused.
			for n := max(0, int(g.Records)-2); time.Now().Before(stop); n++ {
				err := commit(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0.Add(time.Duration(n)*time.Minute)); return err })
				switch {
				case errors.Is(err, ErrDuplicate):
					say("dup %d %d", g.ID, n)
				case err != nil:
					errs <- fmt.Errorf("game %d move %d: %w", g.ID, n, err)
					return
				default:
					say("ok %d %d", g.ID, n)
				}
			}
			errs <- nil
		}()
	}
	go func() { errs <- drain(st, filepath.Join(dir, sinkName), stop) }()
	for range len(games) + 1 {
		if err := <-errs; err != nil {
			return err
		}
	}
	return st.Close()
}

// drain sends the outbox to the sink file: append the mail (the server accepted it), then
// mark it sent.
func drain(st *Store, sink string, stop time.Time) error {
	f, err := os.OpenFile(sink, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for time.Now().Before(stop) {
		var mails []Mail
		if err := st.View(func(tx *Tx) (err error) { mails, err = tx.PendingMail(time.Now(), 4); return err }); err != nil {
			return err
		}
		if len(mails) == 0 {
			time.Sleep(time.Millisecond)
			continue
		}
		for _, m := range mails {
			tag, ok := mailTag(m.Data)
			if !ok {
				return fmt.Errorf("mail %d has no X-Test header", m.ID)
			}
			if _, err := f.WriteString(tag + "\n"); err != nil {
				return err
			}
			if err := st.Update(func(tx *Tx) error { return tx.MarkSent(m.ID) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// mailTag is the "game move side" the test writes in each mail.
func mailTag(data []byte) (string, bool) {
	_, rest, ok := bytes.Cut(data, []byte("X-Test: "))
	line, _, _ := bytes.Cut(rest, []byte("\r\n"))
	return string(line), ok
}

func crashRounds(t *testing.T) int {
	if s := os.Getenv(roundsEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", roundsEnv, s)
		}
		return n
	}
	if testing.Short() {
		return 10
	}
	return 50
}

// child is one run of the child process.
type child struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr bytes.Buffer
}

func startChild(t *testing.T, dir string) *child {
	c := &child{lines: make(chan string, 1<<16)}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	c.cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	c.cmd.Stderr = &c.stderr
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), crashPrefix); ok {
				c.lines <- line
			}
		}
	}()
	return c
}

// kill kills the child and returns all it said.
func (c *child) kill(t *testing.T) []string {
	c.cmd.Process.Signal(syscall.SIGKILL)
	var said []string
	for l := range c.lines { // to the end of the pipe, before Wait closes it
		said = append(said, l)
	}
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended by itself (%v) before it was killed; it said %q; stderr:\n%s", err, said, c.stderr.String())
	}
	return said
}

// killAndCount kills the child and records the moves it acknowledged.
func (c *child) killAndCount(t *testing.T, round int, acked map[uint64]int) (oks, dups int) {
	for _, l := range c.kill(t) {
		var g uint64
		var n int
		switch {
		case strings.HasPrefix(l, "error "):
			t.Fatalf("round %d: the child failed: %s", round, l)
		case strings.HasPrefix(l, "ok "):
			fmt.Sscanf(l, "ok %d %d", &g, &n)
			// After a kill between a commit and its acknowledgement the next is a+2.
			if a, seen := acked[g]; seen && (n <= a || n > a+2) {
				t.Fatalf("round %d: game %d acknowledged move %d after %d", round, g, n, a)
			}
			acked[g] = n
			oks++
		case strings.HasPrefix(l, "dup "):
			// A refused redelivery acknowledges too: the move is known to be applied.
			fmt.Sscanf(l, "dup %d %d", &g, &n)
			if a, seen := acked[g]; !seen || n > a {
				acked[g] = n
			}
			dups++
		}
	}
	return oks, dups
}

func TestCrash(t *testing.T) {
	rounds := crashRounds(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("%d kills, seed %d", rounds, seed)
	dir := t.TempDir()
	acked := map[uint64]int{} // the highest move each game acknowledged
	var oks, dups int
	for round := range rounds {
		c := startChild(t, dir)
		early := rng.IntN(4) == 0 // a quarter of the kills may land while it opens the store
		if !early {
			for l := range c.lines {
				if l == "ready" {
					break
				}
			}
		}
		time.Sleep(time.Duration(rng.Int64N(int64(100 * time.Millisecond))))
		o, d := c.killAndCount(t, round, acked)
		oks, dups = oks+o, dups+d
		checkCrash(t, round, dir, acked)
	}
	t.Logf("%d moves acknowledged, %d redelivered mails refused, over %d kills", oks, dups, rounds)
	if oks == 0 {
		t.Fatal("no move was ever acknowledged: the kills came too early to test anything")
	}
}

// checkCrash opens the database after a kill and checks that everything agrees.
func checkCrash(t *testing.T, round int, dir string, acked map[uint64]int) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("after kill %d: %s", round, fmt.Sprintf(format, args...))
	}
	st, err := Open(filepath.Join(dir, "game.db"), Options{LockTimeout: 5 * time.Second})
	if err != nil {
		fail("open: %v", err)
	}
	defer st.Close()
	sent := map[string]int{}
	if b, err := os.ReadFile(filepath.Join(dir, sinkName)); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				sent[l]++
			}
		}
	}
	err = st.View(func(tx *Tx) error {
		ids, err := tx.Games()
		if err != nil {
			return err
		}
		for g := range acked {
			if len(ids) < int(g) {
				fail("game %d acknowledged moves but does not exist", g)
			}
		}
		pending := map[string]int{}
		mails, err := tx.PendingMail(t0.Add(1e6*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, m := range mails {
			tag, _ := mailTag(m.Data)
			if pending[tag]++; pending[tag] > 1 {
				fail("mail %q is in the outbox twice", tag)
			}
		}
		due, err := tx.DueDeadlines(t0.Add(1e6*time.Hour), 0)
		if err != nil {
			return err
		}
		for _, id := range ids {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			m := int(g.Records)
			if a, ok := acked[id]; ok && (m < a+1 || m > a+2) {
				fail("game %d has %d moves, but move %d was the last acknowledged", id, m, a)
			} else if !ok && m > 1 {
				fail("game %d has %d moves, none acknowledged", id, m)
			}
			log, err := tx.Log(id)
			if err != nil {
				return err
			}
			if len(log) != m {
				fail("game %d: %d log records, the game says %d", id, len(log), m)
			}
			for i, r := range log {
				if r.Ply != uint32(i) || r.Text != moveText(i) {
					fail("game %d record %d is ply %d %q: a move lost or doubled", id, i, r.Ply, r.Text)
				}
			}
			if !bytes.Equal(g.State, testState(m-1)) {
				fail("game %d: state %.20q after %d moves", id, g.State, m)
			}
			for n := range m + 2 {
				if ok, _ := tx.Processed(msgID(id, n)); ok != (n < m) {
					fail("game %d: message of move %d processed: %v, with %d moves", id, n, ok, m)
				}
				for side := range 2 {
					tag := fmt.Sprintf("%d %d %d", id, n, side)
					if n < m && pending[tag]+sent[tag] == 0 {
						fail("game %d: the mail of move %d to side %d was lost", id, n, side)
					}
					if n >= m && pending[tag]+sent[tag] > 0 {
						fail("game %d: a mail for move %d, which is not in the log", id, n)
					}
				}
			}
			var mine []Due
			for _, d := range due {
				if d.Game == id {
					mine = append(mine, d)
				}
			}
			if len(mine) != len(g.Deadlines) {
				fail("game %d: %d deadlines in the index, %d in the game", id, len(mine), len(g.Deadlines))
			}
		}
		return nil
	})
	if err != nil {
		fail("%v", err)
	}
	if err := st.Verify(t.Context()); err != nil {
		fail("verify: %v", err)
	}
}

// TestCrashWhileCreating kills the child while it creates the database and its key: every
// later open must succeed.
func TestCrashWhileCreating(t *testing.T) {
	rounds := 10
	if testing.Short() {
		rounds = 3
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	for round := range rounds {
		dir := t.TempDir()
		c := startChild(t, dir)
		time.Sleep(time.Duration(rng.Int64N(int64(30 * time.Millisecond))))
		acked := map[uint64]int{}
		c.killAndCount(t, round, acked)
		checkCrash(t, round, dir, acked)
	}
}
