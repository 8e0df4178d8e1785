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

// TestLooseModes checks issue 35.9: a data directory, database or hub
// directory that others can read is a WARN naming the exact chmod, a key
// file others can read stops the start, and the modes the service creates
// draw no warning.
func TestLooseModes(t *testing.T) {
	tests := []struct {
		name          string
		dir, db, key  os.FileMode // 0: as the service made it
		want, wantNot []string
		wantErr       string
	}{
		{name: "as created", wantNot: []string{"level=WARN"}},
		{name: "readable data directory", dir: 0o755, want: []string{"level=WARN", "the data directory can be read by other users", "chmod 700 DIR"}, wantNot: []string{"chmod 600"}},
		{name: "readable database", db: 0o644, want: []string{"level=WARN", "the database can be read by other users", "chmod 600 DIR/bottlepost.db"}},
		{name: "group-readable database", db: 0o640, want: []string{"chmod 600 DIR/bottlepost.db", "mode=0640"}},
		{name: "both", dir: 0o750, db: 0o604, want: []string{"chmod 700 DIR", "chmod 600 DIR/bottlepost.db"}},
		{name: "readable key file", key: 0o644, wantErr: "chmod 600 DIR/bottlepost.key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			cfg := config.Defaults()
			cfg.Service.DataDir = dir
			cfg.Web.Listen = ""
			d, err := New(cfg, Options{}) // makes the directory, the key and the database
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			for path, mode := range map[string]os.FileMode{dir: tt.dir, filepath.Join(dir, "bottlepost.db"): tt.db, filepath.Join(dir, "bottlepost.key"): tt.key} {
				if mode != 0 {
					if err := os.Chmod(path, mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			var logs bytes.Buffer
			d, err = New(cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if tt.wantErr != "" {
				if err == nil {
					d.Close()
				}
				if want := strings.ReplaceAll(tt.wantErr, "DIR", dir); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v; want one with %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(logs.String(), w) {
					t.Errorf("no %q in the log:\n%s", w, logs.String())
				}
			}
			for _, w := range tt.wantNot {
				if w = strings.ReplaceAll(w, "DIR", dir); strings.Contains(logs.String(), w) {
					t.Errorf("%q in the log:\n%s", w, logs.String())
				}
			}
		})
	}
}
