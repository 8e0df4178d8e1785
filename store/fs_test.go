package store

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	berrors "go.etcd.io/bbolt/errors"
)

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// populated makes dir/game.db with a game of a few moves and closes it.
func populated(t *testing.T, dir string) (path string, game uint64) {
	t.Helper()
	st := openTest(t, dir)
	g := newGame(t, st, true)
	for n := range 3 {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	return filepath.Join(dir, "game.db"), g.ID
}

func TestReadOnlyOption(t *testing.T) {
	path, game := populated(t, t.TempDir())
	before := fileSum(t, path)
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ro2, err := Open(path, Options{ReadOnly: true}) // readers share the file
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	ro2.Close()
	_, err = Open(path, Options{LockTimeout: 100 * 1e6})
	wantErr(t, err, ErrLocked) // no writer while a reader holds it

	err = ro.View(func(tx *Tx) error {
		recs, err := tx.Log(game)
		if len(recs) != 3 {
			t.Errorf("%d records", len(recs))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = ro.Update(func(tx *Tx) error { _, err := accept(tx, game, 3, t0); return err })
	wantErr(t, err, ErrReadOnly)
	if !strings.Contains(err.Error(), "read-only") {
		t.Errorf("error %q", err)
	}
	err = ro.View(func(tx *Tx) error { return tx.MarkProcessed("<x@y>", t0) })
	wantErr(t, err, ErrReadOnly)
	ro.Close()
	if fileSum(t, path) != before {
		t.Error("the file changed")
	}
}

func TestReadOnlyFileMode(t *testing.T) {
	path, game := populated(t, t.TempDir())
	os.Chmod(path, 0o444)
	before := fileSum(t, path)
	// Root could write the file anyway; the store refuses all the same, so a file without
	// the owner's write permission means the same to every user.
	_, err := Open(path, Options{})
	wantErr(t, err, ErrReadOnly)
	if !strings.Contains(err.Error(), "mode 0444") || !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file and its mode", err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of a 0444 file: %v", err)
	}
	if err := ro.View(func(tx *Tx) error { return tx.VerifyGame(game) }); err != nil {
		t.Error(err)
	}
	ro.Close()
	if fileSum(t, path) != before {
		t.Error("the file changed")
	}
}

// mount mounts a file system for the test, or skips the test when it cannot (not root, no
// mount permission in this container).
func mount(t *testing.T, args ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a file system for this test needs root")
	}
	target := args[len(args)-1]
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot mount (%v: %s); this test needs root with mount permission", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", target).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", target, err, out)
		}
	})
}

func TestReadOnlyFileSystem(t *testing.T) {
	src := t.TempDir()
	path, game := populated(t, src)
	before := fileSum(t, path)
	ro := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(ro, 0o700)
	mount(t, "--bind", src, ro)
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", ro).CombinedOutput(); err != nil {
		t.Skipf("skipped: cannot remount read-only: %v: %s", err, out)
	}
	roPath := filepath.Join(ro, "game.db")
	_, err := Open(roPath, Options{})
	wantErr(t, err, ErrReadOnly)
	t.Log(err)
	_, err = Open(filepath.Join(ro, "new.db"), Options{})
	wantErr(t, err, ErrReadOnly)
	t.Log(err)
	st, err := Open(roPath, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open on a read-only file system: %v", err)
	}
	if err := st.View(func(tx *Tx) error { return tx.VerifyGame(game) }); err != nil {
		t.Error(err)
	}
	st.Close()
	if fileSum(t, path) != before {
		t.Error("the file changed")
	}
	if _, err := os.Stat(filepath.Join(src, "new.db")); err == nil {
		t.Error("a database appeared on the read-only file system")
	}
}

// TestDiskFull fills a 1 MiB tmpfs under a running store.
func TestDiskFull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "small")
	os.Mkdir(dir, 0o700)
	mount(t, "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir)
	ballast := filepath.Join(dir, "ballast")
	if err := os.WriteFile(ballast, make([]byte, 128<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	st := openTest(t, dir)
	g := newGame(t, st, true)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1024) // a 16 KiB mail, never sent
	move := func(n int) error {
		return st.Update(func(tx *Tx) error {
			if _, err := accept(tx, g.ID, n, t0); err != nil {
				return err
			}
			return tx.Enqueue(&Mail{Game: g.ID, To: []string{"x@y"}, Data: big})
		})
	}
	acked := 0
	var err error
	for ; acked < 500; acked++ {
		if err = move(acked); err != nil {
			break
		}
	}
	wantErr(t, err, ErrDiskFull)
	if !strings.Contains(err.Error(), "disk is full") || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("error %q", err)
	}
	t.Logf("after %d moves: %v", acked, err)
	check := func(st *Store, want int) {
		t.Helper()
		err := st.View(func(tx *Tx) error {
			got, err := tx.Game(g.ID)
			if err != nil {
				return err
			}
			if got.Records != uint32(want) || !bytes.Equal(got.State, testState(want-1)) {
				t.Errorf("game has %d records and state %.16q, want %d", got.Records, got.State, want)
			}
			if ok, _ := tx.Processed(msgID(g.ID, want)); ok {
				t.Errorf("the failed move's message counts as processed")
			}
			mails, _ := tx.PendingMail(t0, 0)
			if len(mails) != 3*want {
				t.Errorf("%d mails, want %d", len(mails), 3*want)
			}
			return tx.VerifyGame(g.ID)
		})
		if err != nil {
			t.Error(err)
		}
	}
	check(st, acked) // nothing of the failed transaction
	wantErr(t, move(acked), ErrDiskFull)
	wantErr(t, st.BackupFile(filepath.Join(dir, "backup.db")), ErrDiskFull)
	if m, _ := filepath.Glob(filepath.Join(dir, "*backup*")); len(m) != 0 {
		t.Errorf("a failed backup left %v", m)
	}

	os.Remove(ballast)
	if err := move(acked); err != nil {
		t.Fatalf("after freeing space: %v", err)
	}
	check(st, acked+1)
	st.Close()
	st = openTest(t, dir)
	check(st, acked+1)
	if err := st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
	st.Close()

	// A new database on a full disk: a clear error and no file left behind.
	filler, _ := os.Create(filepath.Join(dir, "filler"))
	for {
		if _, err := filler.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	filler.Close()
	other := filepath.Join(dir, "other.db")
	_, err = Open(other, Options{})
	wantErr(t, err, ErrDiskFull)
	t.Log(err)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != "[filler game.db game.db.key]" {
		t.Errorf("files after a failed create: %v", names)
	}
	// The same with a key that exists: now the database itself does not fit.
	_, err = Open(other, Options{KeyFile: filepath.Join(dir, "game.db.key")})
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "create database") {
		t.Fatalf("creating a database on a full disk: %v", err)
	}
	t.Log(err)
	entries, _ = os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files after a failed create: %v", entries)
	}
}

// TestMapCommit: what a transaction's function returned passes unchanged, whatever its
// words (a function's error that reads like a full disk is still the function's), and a
// failure of bbolt's own is explained: a full disk, a read-only database, any other with
// the file named. Open's setup (a migration step's error) is a function's too.
func TestMapCommit(t *testing.T) {
	s := &Store{path: "/data/bp.db"}
	own := errors.New("the function's own words")
	tests := []struct {
		name string
		err  error
		want error  // errors.Is
		same bool   // the function's error itself
		says string // in the message
	}{
		{"no error", nil, nil, true, ""},
		{"the function's error", fnError{own}, own, true, "the function's own words"},
		{"a function's error in a full disk's words", fnError{syscall.ENOSPC}, syscall.ENOSPC, true, "no space left on device"},
		{"a migration step's error", fnError{fmt.Errorf("store: migration from schema version 4 to 5: %w", ErrSchema)}, ErrSchema, false, "store: migration from schema version 4 to 5"},
		{"a full disk at the commit", fmt.Errorf("write: %w", syscall.ENOSPC), ErrDiskFull, false, "store: commit to /data/bp.db: the disk is full"},
		{"a read-only database", berrors.ErrDatabaseReadOnly, ErrReadOnly, false, "store: database /data/bp.db is open read-only"},
		{"another failure of bbolt", errors.New("sync: input/output error"), nil, false, "store: commit to /data/bp.db: sync: input/output error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.mapCommit(tt.err)
			switch {
			case tt.same && tt.want == nil && got != nil:
				t.Errorf("got %v, want nil", got)
			case tt.same && tt.want != nil && got != tt.want:
				t.Errorf("got %#v, want the function's error itself", got)
			case tt.want != nil && !errors.Is(got, tt.want):
				t.Errorf("got %v, want it to match %v", got, tt.want)
			case got != nil && !strings.Contains(got.Error(), tt.says):
				t.Errorf("got %q, want it to say %q", got, tt.says)
			}
		})
	}
}
