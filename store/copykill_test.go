package store

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCopyChild is the process TestCopyKilled kills: it copies the database
// in BOTTLEPOST_COPY_CHILD again and again (backup or compact, as
// BOTTLEPOST_COPY_OP says) into numbered files.
func TestCopyChild(t *testing.T) {
	dir := os.Getenv("BOTTLEPOST_COPY_CHILD")
	if dir == "" {
		t.Skip("the child of TestCopyKilled")
	}
	st, err := Open(filepath.Join(dir, "game.db"), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	copyFn := st.BackupFile
	if os.Getenv("BOTTLEPOST_COPY_OP") == "compact" {
		copyFn = st.Compact
	}
	for i := 0; ; i++ {
		if err := copyFn(filepath.Join(dir, "out", fmt.Sprintf("copy-%d.db", i))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCopyKilled: a backup or compaction killed with SIGKILL halfway leaves
// its temporary file; the next copy to the same place removes it (as does
// RemoveStaleCopies), and succeeds, and no temporary file is left.
func TestCopyKilled(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	g := newGame(t, st, false)
	for i := range 20 {
		if err := st.Update(func(tx *Tx) error {
			for j := range 50 {
				cur, err := tx.Game(g.ID)
				if err != nil {
					return err
				}
				if _, err := tx.Append(cur, Entry{Kind: KindEvent, Side: White, Text: fmt.Sprintf("%d.%d %s", i, j, strings.Repeat("x", 3000)), Public: "x", At: t0}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out := filepath.Join(dir, "out")
	for _, op := range []string{"backup", "compact"} {
		t.Run(op, func(t *testing.T) {
			os.RemoveAll(out)
			os.Mkdir(out, 0o700)
			var stale, dst string
			for try := 0; stale == "" && try < 30; try++ {
				cmd := exec.Command(os.Args[0], "-test.run", "^TestCopyChild$")
				cmd.Env = append(os.Environ(), "BOTTLEPOST_COPY_CHILD="+dir, "BOTTLEPOST_COPY_OP="+op)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// Kill it as soon as a copy is under way.
				for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
					names, _ := filepath.Glob(filepath.Join(out, ".copy-*.tmp-*"))
					if len(names) > 0 {
						break
					}
				}
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()
				if names, _ := filepath.Glob(filepath.Join(out, ".copy-*.tmp-*")); len(names) == 1 {
					stale = names[0]
					base := strings.TrimPrefix(filepath.Base(stale), ".")
					dst = filepath.Join(out, base[:strings.Index(base, ".tmp-")])
				}
			}
			if stale == "" {
				t.Fatal("the copy was never caught halfway in 30 tries")
			}
			t.Logf("killed while writing %s", filepath.Base(stale))
			st, err := Open(filepath.Join(dir, "game.db"), Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			copyFn := st.BackupFile
			if op == "compact" {
				copyFn = st.Compact
			}
			if err := copyFn(dst); err != nil {
				t.Fatalf("the next copy to %s: %v", dst, err)
			}
			if _, err := os.Stat(stale); err == nil {
				t.Errorf("the unfinished copy %s is still there", stale)
			}
			if names, _ := filepath.Glob(filepath.Join(out, ".*")); len(names) > 0 {
				t.Errorf("temporary files left: %v", names)
			}
		})
	}
}
