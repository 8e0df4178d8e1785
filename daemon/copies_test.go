package daemon

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/config"
)

// TestInterruptedCopyIsCleanedAtStart: a daemon killed while it wrote an
// online backup leaves the copy's note in its data directory and the
// unfinished file beside the destination (store TestCopyKilled shows the
// file is left). The next daemon removes both as it starts, and says so.
func TestInterruptedCopyIsCleanedAtStart(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	dst := filepath.Join(out, "nightly.db")
	stale := filepath.Join(out, ".nightly.db.tmp-00112233aabbccdd")
	os.WriteFile(stale, []byte("half a database"), 0o600)
	os.WriteFile(filepath.Join(data, copyNote+"123"), []byte(dst), 0o600)
	cfg := config.Defaults()
	cfg.Service.DataDir = data
	cfg.Hub.IMAPListen, cfg.Hub.SMTPListen, cfg.Web.Listen = "127.0.0.1:0", "127.0.0.1:0", ""
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	d, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the unfinished copy is still there")
	}
	if notes, _ := filepath.Glob(filepath.Join(data, copyNote+"*")); len(notes) != 0 {
		t.Errorf("notes left: %v", notes)
	}
	if !strings.Contains(logs.String(), "a copy of the database was cut short when the service stopped; its unfinished file was removed") {
		t.Errorf("not logged:\n%s", logs.String())
	}
	// A copy made now leaves no note behind.
	if err := d.copying(dst, d.Store().BackupFile); err != nil {
		t.Fatal(err)
	}
	if notes, _ := filepath.Glob(filepath.Join(data, copyNote+"*")); len(notes) != 0 {
		t.Errorf("notes left after a copy: %v", notes)
	}
}
