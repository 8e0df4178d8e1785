package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestServeCheckConfig(t *testing.T) {
	code, out, stderr := runCLI("serve", "--check-config")
	if code != 0 || !strings.Contains(out, "configuration OK (the defaults): the embedded mail hub") || !strings.Contains(out, "web view on 127.0.0.1:8025") {
		t.Errorf("defaults: exit %d, %q %q", code, out, stderr)
	}
	code, out, _ = runCLI("serve", "--config", "../../config.example.toml", "--check-config")
	if code != 0 || !strings.Contains(out, "configuration OK (../../config.example.toml)") {
		t.Errorf("example: exit %d, %q", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[service]\nadress = \"x@y.z\"\n"), 0o600)
	code, _, stderr = runCLI("serve", "--config", bad, "--check-config")
	if code != 2 || !strings.Contains(stderr, "line 2, column 1: unknown key service.adress") {
		t.Errorf("bad config: exit %d, %q", code, stderr)
	}
}

// syncBuffer is a buffer safe to read while serve writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs serve with cfgPath and signals sent on stop and reload;
// done gets its exit code.
func startServe(t *testing.T, cfgPath string) (stop, reload chan<- os.Signal, done <-chan int, out, errb *syncBuffer) {
	t.Helper()
	s, r := make(chan os.Signal, 1), make(chan os.Signal, 1)
	old := signals
	signals = func() (<-chan os.Signal, <-chan os.Signal, func()) { return s, r, func() {} }
	t.Cleanup(func() { signals = old })
	out, errb = new(syncBuffer), new(syncBuffer)
	d := make(chan int, 1)
	go func() { d <- run([]string{"serve", "--config", cfgPath}, out, errb) }()
	return s, r, d, out, errb
}

func TestServeStartsReloadsAndStopsCleanly(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "bp.toml")
	os.WriteFile(cfgPath, []byte("[service]\ndata_dir = \""+filepath.Join(dir, "data")+"\"\n[hub]\nimap_listen = \"127.0.0.1:0\"\nsmtp_listen = \"127.0.0.1:0\"\n[web]\nlisten = \"127.0.0.1:0\"\n"), 0o600)
	stop, reload, done, out, errb := startServe(t, cfgPath)
	waitFor := func(buf *syncBuffer, want string, n int) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if strings.Count(buf.String(), want) >= n {
				return
			}
		}
		t.Fatalf("no %q after 10s:\n%s\n%s", want, out.String(), errb.String())
	}
	waitFor(out, "Point any mail client at it", 1)
	if !strings.Contains(out.String(), "alice@localhost") || !strings.Contains(out.String(), "IMAP 127.0.0.1:") {
		t.Errorf("banner:\n%s", out.String())
	}
	// The banner names the web view, and it answers there.
	webURL := regexp.MustCompile(`Web view [^\n]*: (http://127\.0\.0\.1:[0-9]+/)`).FindStringSubmatch(out.String())
	if webURL == nil {
		t.Fatalf("the banner does not name the web view:\n%s", out.String())
	}
	resp, err := http.Get(webURL[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<h1>Games</h1>") {
		t.Errorf("the web view at %s answers %s:\n%s", webURL[1], resp.Status, body)
	}
	// A broken file on reload keeps the old configuration running.
	os.WriteFile(cfgPath, []byte("[service]\nnonsense = 1\n"), 0o600)
	reload <- syscall.SIGHUP
	waitFor(errb, "reload refused", 1)
	os.WriteFile(cfgPath, []byte("[service]\nlog_level = \"debug\"\ndata_dir = \""+filepath.Join(dir, "data")+"\"\n[hub]\nimap_listen = \"127.0.0.1:0\"\nsmtp_listen = \"127.0.0.1:0\"\n"), 0o600)
	reload <- syscall.SIGHUP
	waitFor(out, "Point any mail client at it", 2)
	// A valid configuration that cannot start (its data directory cannot be
	// made) leaves the previous one running.
	os.WriteFile(cfgPath, []byte("[service]\ndata_dir = \"/proc/bottlepost-cannot-be-here\"\n[hub]\nimap_listen = \"127.0.0.1:0\"\nsmtp_listen = \"127.0.0.1:0\"\n"), 0o600)
	reload <- syscall.SIGHUP
	waitFor(errb, "reload failed; running the previous configuration again", 1)
	waitFor(out, "Point any mail client at it", 3)
	// Online backup: the running service holds the database and writes the copy.
	copyPath := filepath.Join(dir, "copy.db")
	if code, out, stderr := runCLI("backup", copyPath, "--data", filepath.Join(dir, "data")); code != 0 || !strings.Contains(out, "running service") {
		t.Errorf("online backup: exit %d, %q %q", code, out, stderr)
	}
	if fi, err := os.Stat(copyPath); err != nil || fi.Size() == 0 {
		t.Errorf("no backup written: %v", err)
	}
	if code, out, stderr := runCLI("compact", filepath.Join(dir, "compact.db"), "--data", filepath.Join(dir, "data")); code != 0 || !strings.Contains(out, "running service") {
		t.Errorf("online compaction: exit %d, %q %q", code, out, stderr)
	}
	// Export goes through the running service too (no game 1 exists yet: the
	// service's own answer comes back, not a lock timeout).
	if code, _, stderr := runCLI("export", "1", "--data", filepath.Join(dir, "data")); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("export while serving: exit %d, %q", code, stderr)
	}
	// So do the ratings: the pool's players (none yet) and the recomputation.
	if code, out, stderr := runCLI("ratings", "chess", "--json", "--data", filepath.Join(dir, "data")); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("ratings while serving: exit %d, %q %q", code, out, stderr)
	}
	if code, out, stderr := runCLI("ratings", "--rebuild", "--data", filepath.Join(dir, "data")); code != 0 || !strings.Contains(out, "the running service's database: the stored ratings equal their recomputation") {
		t.Errorf("ratings --rebuild while serving: exit %d, %q %q", code, out, stderr)
	}
	stop <- syscall.SIGTERM
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(errb.String(), "stopped cleanly") {
			t.Errorf("exit %d:\n%s", code, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop within 15s of SIGTERM")
	}
}

func TestDeliverWritesIntoTheMaildir(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "Maildir")
	cfg := filepath.Join(dir, "bp.toml")
	os.WriteFile(cfg, []byte("[maildir]\npath = \""+md+"\"\n[limits]\nmax_message_bytes = 2048\n"), 0o600)
	old := stdin
	defer func() { stdin = old }()
	msg := "From: a@x.test\r\nTo: games@localhost\r\nSubject: hi\r\nMessage-ID: <1@x>\r\n\r\nhelp\r\n"
	stdin = strings.NewReader(msg)
	if code, _, stderr := runCLI("deliver", "--config", cfg); code != 0 {
		t.Fatalf("deliver: %d %s", code, stderr)
	}
	files, _ := os.ReadDir(filepath.Join(md, "new"))
	if len(files) != 1 {
		t.Fatalf("%d files in new/", len(files))
	}
	got, _ := os.ReadFile(filepath.Join(md, "new", files[0].Name()))
	if string(got) != msg {
		t.Errorf("stored %q", got)
	}
	stdin = strings.NewReader(strings.Repeat("x", 4096))
	if code, _, stderr := runCLI("deliver", "--config", cfg); code != 1 || !strings.Contains(stderr, "larger than") {
		t.Errorf("oversized: exit %d %q", code, stderr)
	}
	stdin = strings.NewReader(msg)
	if code, _, stderr := runCLI("deliver"); code != exTempFail || !strings.Contains(stderr, "maildir.path must be set") {
		t.Errorf("no maildir: exit %d %q", code, stderr)
	}
}

func TestCheckMailUsage(t *testing.T) {
	if code, _, stderr := runCLI("check-mail"); code != 2 || !strings.Contains(stderr, "usage: bottlepost check-mail --config FILE") {
		t.Errorf("no config: exit %d %q", code, stderr)
	}
	cfg := filepath.Join(t.TempDir(), "hub.toml")
	os.WriteFile(cfg, []byte("[service]\naddress = \"games@localhost\"\n"), 0o600)
	if code, _, stderr := runCLI("check-mail", "--config", cfg); code != 2 || !strings.Contains(stderr, "embedded mail hub, which needs no check") {
		t.Errorf("hub config: exit %d %q", code, stderr)
	}
	// --check-config connects to nothing, and says what does.
	real := filepath.Join(t.TempDir(), "real.toml")
	os.WriteFile(real, []byte("[service]\naddress = \"games@club.example\"\n[imap]\nhost = \"mail.club.example\"\nusername = \"games\"\npassword = \"x\"\n[smtp]\nhost = \"mail.club.example\"\n"), 0o600)
	if code, out, stderr := runCLI("serve", "--config", real, "--check-config"); code != 0 || !strings.Contains(out, "bottlepost check-mail --config "+real+" tries the mail servers") {
		t.Errorf("--check-config with a mail server: exit %d %q %q", code, out, stderr)
	}
}
