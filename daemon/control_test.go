package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A data directory whose path is far longer than a Unix socket address
// holds (about 100 bytes): the control socket is still bound inside it and
// answers; a second daemon on it is refused as before; when the daemon
// stops, the socket file goes and requests say nothing runs.
func TestControlSocketLongDataDir(t *testing.T) {
	dir := t.TempDir()
	for len(dir) < 200 {
		dir = filepath.Join(dir, strings.Repeat("d", min(40, 200-len(dir))))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Logf("data directory: %d bytes", len(dir))
	r := newRig(t, dir, nil)
	r.start()
	sock := filepath.Join(dir, ControlSocket)
	if st, err := os.Stat(sock); err != nil || st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Fatalf("control socket %s: %v, %v; want a socket of mode 0600 there", sock, st.Mode(), err)
	}
	answer, problems, err := RequestLines(dir, "check")
	if err != nil || answer != "ok 0" || len(problems) != 0 {
		t.Errorf("check through the control socket: %q %q %v; want ok 0", answer, problems, err)
	}
	// (A second daemon meets the store's lock first; its socket check is
	// the one that tells a live daemon from a stale socket.)
	if ln, err := (&Daemon{cfg: r.cfg}).listenControl(); err == nil || !strings.Contains(err.Error(), "another bottlepost serves") {
		if ln != nil {
			ln.Close()
		}
		t.Errorf("a second daemon on the directory: %v; want it refused", err)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the control socket is left behind: %v", err)
	}
	if _, err := Request(dir, "check"); !errors.Is(err, ErrNotRunning) {
		t.Errorf("request once stopped: %v; want ErrNotRunning", err)
	}
}
