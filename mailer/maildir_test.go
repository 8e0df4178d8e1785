package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// names lists a Maildir subfolder.
func names(t *testing.T, dir, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// DeliverMaildir writes through tmp/ into new/ (tmp/ is left empty), with
// unique names and the exact content.
func TestDeliverMaildir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	seen := map[string]bool{}
	for i := range 20 {
		msg := testMail(fmt.Sprintf("deliver %d", i), 0)
		name, err := DeliverMaildir(dir, msg)
		if err != nil {
			t.Fatal(err)
		}
		if seen[name] || strings.ContainsAny(name, "/:") {
			t.Fatalf("name %q repeated or unsafe", name)
		}
		seen[name] = true
		got, err := os.ReadFile(filepath.Join(dir, "new", name))
		if err != nil || string(got) != string(msg) {
			t.Fatalf("new/%s: %q, %v", name, got, err)
		}
	}
	if tmp := names(t, dir, "tmp"); len(tmp) != 0 {
		t.Errorf("tmp/ holds %q", tmp)
	}
	if cur := names(t, dir, "cur"); len(cur) != 0 {
		t.Errorf("cur/ holds %q", cur)
	}
}

// A pass hands every message of new/ over once, oldest first, and moves
// each handled one to cur/ with the Seen flag; a second pass finds
// nothing. Dot files and folders in new/ are left alone, and a name that
// already carries an info part gets the Seen flag instead of it.
func TestMaildirPass(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	var want []string
	for i := 1; i <= 3; i++ {
		if _, err := DeliverMaildir(dir, testMail(fmt.Sprintf("pass %d", i), 0)); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("pass %d", i))
	}
	// As some delivery agents write it: an info part already in new/.
	if err := os.WriteFile(filepath.Join(dir, "new", "9999999999.M1P1.host:2,"), testMail("pass 4", 0), 0o600); err != nil {
		t.Fatal(err)
	}
	want = append(want, "pass 4")
	os.WriteFile(filepath.Join(dir, "new", ".hidden"), []byte("not mail"), 0o600)
	os.Mkdir(filepath.Join(dir, "new", "folder"), 0o700)

	rec := newRecorder()
	src := &MaildirSource{Dir: dir}
	n, err := src.pass(rec.handle)
	if n != 4 || err != nil {
		t.Fatalf("pass = %d, %v; want 4", n, err)
	}
	if got := strings.Join(rec.order, "|"); got != strings.Join(want, "|") {
		t.Errorf("handled %q, want %q", got, want)
	}
	if left := names(t, dir, "new"); strings.Join(left, "|") != ".hidden|folder" {
		t.Errorf("new/ holds %q", left)
	}
	cur := names(t, dir, "cur")
	if len(cur) != 4 {
		t.Fatalf("cur/ holds %q", cur)
	}
	for _, name := range cur {
		if !strings.HasSuffix(name, ":2,S") || strings.Count(name, ":") != 1 {
			t.Errorf("cur/%s: want one info part, the Seen flag", name)
		}
	}
	if n, err := src.pass(rec.handle); n != 0 || err != nil || rec.total() != 4 {
		t.Errorf("second pass = %d, %v, handled %d in all; want nothing more", n, err, rec.total())
	}
}

// A handler error leaves the message in new/, untouched, for the next
// pass; the other messages go on.
func TestMaildirHandlerErrorKeeps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	bad, _ := DeliverMaildir(dir, testMail("fails", 0))
	DeliverMaildir(dir, testMail("works", 0))
	healed := false
	rec := newRecorder()
	rec.fail = func(subject string, _ int) error {
		if subject == "fails" && !healed {
			return errors.New("store is down")
		}
		return nil
	}
	log, logs := captureLog()
	src := &MaildirSource{Dir: dir, Log: log}
	if n, err := src.pass(rec.handle); n != 1 || err != nil {
		t.Fatalf("pass = %d, %v; want the good message handled", n, err)
	}
	if left := names(t, dir, "new"); len(left) != 1 || left[0] != bad {
		t.Errorf("new/ holds %q, want the failed message %q", left, bad)
	}
	if !strings.Contains(logs.String(), "store is down") {
		t.Errorf("the failure was not logged:\n%s", logs)
	}
	healed = true
	if n, err := src.pass(rec.handle); n != 1 || err != nil {
		t.Fatalf("second pass = %d, %v", n, err)
	}
	if rec.count("fails") != 2 || rec.count("works") != 1 {
		t.Errorf("handled %q", rec.order)
	}
	if left := names(t, dir, "new"); len(left) != 0 {
		t.Errorf("new/ holds %q", left)
	}
	if cur := names(t, dir, "cur"); len(cur) != 2 {
		t.Errorf("cur/ holds %q", cur)
	}
}

// A file over MaxBytes is not read: the handler never sees it; it is moved
// to cur/ (Seen) and logged, so it is not looked at again.
func TestMaildirOversized(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	DeliverMaildir(dir, testMail("small", 0))
	DeliverMaildir(dir, testMail("too big", 5000))
	log, logs := captureLog()
	rec := newRecorder()
	src := &MaildirSource{Dir: dir, MaxBytes: 1000, Log: log}
	if n, err := src.pass(rec.handle); n != 2 || err != nil {
		t.Fatalf("pass = %d, %v", n, err)
	}
	if got := strings.Join(rec.order, "|"); got != "small" {
		t.Errorf("handled %q, want the small message only", got)
	}
	if !strings.Contains(logs.String(), "maildir message too large; not read") {
		t.Errorf("the skipped message was not logged:\n%s", logs)
	}
	if len(names(t, dir, "new")) != 0 || len(names(t, dir, "cur")) != 2 {
		t.Errorf("new/ %q, cur/ %q", names(t, dir, "new"), names(t, dir, "cur"))
	}
}

// Messages delivered while passes run are each handled exactly once, none
// half-written: the handler checks every message is whole.
func TestMaildirConcurrentDelivery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	if err := makeMaildir(dir); err != nil {
		t.Fatal(err)
	}
	const total = 200
	var mu sync.Mutex
	seen := map[string]int{}
	handle := func(raw []byte) error {
		if want := testMail(subjectOf(raw), 2000); !bytes.Equal(raw, want) {
			t.Errorf("a partial message was handed over: %d bytes of %d", len(raw), len(want))
		}
		mu.Lock()
		seen[subjectOf(raw)]++
		mu.Unlock()
		return nil
	}
	src := &MaildirSource{Dir: dir}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := range total {
			if _, err := DeliverMaildir(dir, testMail(fmt.Sprintf("concurrent %d", i), 2000)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		if _, err := src.pass(handle); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if _, err := src.pass(handle); err != nil { // what came in during the last pass
		t.Fatal(err)
	}
	if len(seen) != total {
		t.Errorf("%d distinct messages handled, want %d", len(seen), total)
	}
	for s, n := range seen {
		if n != 1 {
			t.Errorf("%s handled %d times", s, n)
		}
	}
	if len(names(t, dir, "new")) != 0 || len(names(t, dir, "tmp")) != 0 || len(names(t, dir, "cur")) != total {
		t.Errorf("new/ %d, tmp/ %d, cur/ %d files", len(names(t, dir, "new")), len(names(t, dir, "tmp")), len(names(t, dir, "cur")))
	}
}

// Run creates the Maildir, picks up mail delivered later, and stops when
// its context ends. A missing folder is reported, not fatal.
func TestMaildirRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Maildir")
	rec := newRecorder()
	src := &MaildirSource{Dir: dir, Interval: 20 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, rec.handle) }()
	eventually(t, 5*time.Second, "maildir created", func() bool {
		_, err := os.Stat(filepath.Join(dir, "cur"))
		return err == nil
	})
	DeliverMaildir(dir, testMail("later", 0))
	eventually(t, 5*time.Second, "mail picked up", func() bool { return rec.count("later") == 1 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return")
	}
	missing := &MaildirSource{Dir: filepath.Join(t.TempDir(), "none")}
	if _, err := missing.pass(rec.handle); err == nil || !strings.HasPrefix(err.Error(), "mailer: maildir: ") {
		t.Errorf("pass over a missing maildir: %v", err)
	}
}
