// Package dovecottest runs a private Dovecot IMAP server for tests: the
// mailer's interoperability tests and the load tests against a real IMAP
// server. It is used by tests only.
package dovecottest

import (
	"bytes"
	"fmt"
	"net"
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

// Password is every user's password on the private Dovecot.
const Password = "secret"

// Options change the private Dovecot's configuration.
type Options struct {
	// CertPEM and KeyPEM, when set, turn SSL on (ssl = yes): the plain
	// listener then offers STARTTLS with this certificate.
	CertPEM, KeyPEM []byte
	// MailFormat is Dovecot's mailbox format: "sdbox" (the default, as
	// docs/deploy/dovecot/dovecot.conf has it), "maildir" or "mdbox".
	MailFormat string
	// LMTP, when set, also runs Dovecot's LMTP server (Debian's
	// dovecot-lmtpd) on a loopback port (Server.LMTPAddr), delivering as
	// docs/deploy/dovecot/dovecot.conf does: "user+detail@domain" goes to
	// user's INBOX. The test is skipped when dovecot-lmtpd is missing.
	LMTP bool
	// Config is appended to the configuration as it is (settings under
	// test, e.g. the index settings of docs/deploy/dovecot/dovecot.conf).
	Config string
}

// Start runs a private Dovecot (Debian's dovecot-imapd, 2.3 config syntax)
// on a free loopback port and returns its address. Every user name logs in
// with the password "secret"; mail is kept in a temporary directory removed
// when the test ends, with the server. The test is skipped, saying why,
// when Dovecot is not installed or the test does not run as root.
func Start(t testing.TB, opts Options) string {
	t.Helper()
	return StartServer(t, opts).Addr
}

// Server is a running private Dovecot.
type Server struct {
	// Addr is the IMAP listener's address.
	Addr string
	// LMTPAddr is the LMTP listener's address (Options.LMTP), else "".
	LMTPAddr string
	pid      int
	mail     string // the mail's directory (mail_location), in a top directory

	bin, conf, dir string // the binary, its configuration, the server's directory
	mu             sync.Mutex
	cmd            *exec.Cmd    // the running master, nil while stopped
	out            bytes.Buffer // what the masters wrote
}

// Stop stops the server as an operator's "systemctl stop dovecot" does:
// SIGTERM to every process of it (the master runs in a process group of
// its own, as systemd's control group), a wait until the master has
// exited, then SIGKILL to whatever is left of the group. Nothing listens
// on Addr then and no session of it is still open: the master alone ends
// its sessions only when they next look, which under load was 20 s later.
// Restart starts it again.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	cmd := s.cmd
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Logf("dovecot did not stop within 10 s of SIGTERM; killed")
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
}

// Restart starts a stopped server again with the same configuration, mail
// and address, and returns once it listens.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.run(t)
}

// run starts the master and waits until it listens on Addr.
func (s *Server) run(t testing.TB) {
	t.Helper()
	cmd := exec.Command(s.bin, "-F", "-c", s.conf)
	cmd.Stdout, cmd.Stderr = &s.out, &s.out
	// Its children (logins, sessions, the log) hold the output too, and go
	// a moment after the master: Wait returns when the master has.
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Stop ends the group
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.cmd, s.pid = cmd, cmd.Process.Pid
	s.mu.Unlock()
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", s.Addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(end) {
			log, _ := os.ReadFile(filepath.Join(s.dir, "dovecot.log"))
			t.Fatalf("dovecot did not listen on %s: %v\n%s\n%s", s.Addr, err, s.out.String(), log)
		}
	}
}

// CPU is the processor time Dovecot has used so far: its master process,
// every process of it that has ended (IMAP sessions once logged out) and
// every one still running (LMTP and login processes wait for more work),
// read from /proc (zero where there is none).
//
// A session that ends while /proc is read is counted twice (read, then
// reaped into the master's figure) or not at all (the master read before
// it was reaped, the session gone when its turn came): right after a
// client logs out, that is most of the total. So the reading is repeated
// until two in a row, a tenth of a second apart, find the same processes
// and the same time (at most 5 s).
func (s *Server) CPU() time.Duration {
	ticks, pids := s.cpuTicks()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		time.Sleep(100 * time.Millisecond)
		t, p := s.cpuTicks()
		if t == ticks && p == pids {
			break
		}
		ticks, pids = t, p
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// cpuTicks is one reading of CPU in clock ticks, with the processes read
// (their pids, in /proc's order).
func (s *Server) cpuTicks() (int64, string) {
	ticks := procTicks(s.pid)
	var pids strings.Builder
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == s.pid {
			continue
		}
		if ppid, ok := procParent(pid); ok && ppid == s.pid {
			ticks += procTicks(pid)
			fmt.Fprintf(&pids, "%d ", pid)
		}
	}
	return ticks, pids.String()
}

// procStat is the fields of /proc/PID/stat after the command name.
func procStat(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	return strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
}

// procParent is a process's parent.
func procParent(pid int) (int, bool) {
	f := procStat(pid)
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// procTicks is a process's CPU time and that of its ended children, in
// clock ticks of 1/100 s (Linux): fields 14 to 17 of /proc/PID/stat
// (utime, stime, cutime, cstime).
func procTicks(pid int) int64 {
	f := procStat(pid)
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} {
		if i < len(f) {
			n, _ := strconv.ParseInt(f[i], 10, 64)
			ticks += n
		}
	}
	return ticks
}

// StartServer is Start, returning the server.
func StartServer(t testing.TB, opts Options) *Server {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		for _, p := range []string{"/usr/sbin/dovecot", "/usr/local/sbin/dovecot"} {
			if _, serr := os.Stat(p); serr == nil {
				bin, err = p, nil
			}
		}
	}
	if err != nil {
		t.Skip("dovecot is not installed (Debian: apt-get install dovecot-imapd); the interop test needs a real IMAP server")
	}
	if os.Getuid() != 0 {
		t.Skip("the Dovecot interop test runs Dovecot as root with a private configuration; not root here")
	}
	// Mail is stored as the unprivileged nobody (Dovecot refuses uid 0), so the
	// tree must be reachable by it: t.TempDir's parent is private.
	dir, err := os.MkdirTemp("", "bottlepost-dovecot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The mail goes in a directory placed apart on the disk. The tests'
	// temporary directories, and the files made and removed in them, share
	// a few block groups; where ext4 runs without a journal (as on the
	// machine the figures of docs/performance.md come from), it prefers not
	// to reuse an inode freed in the last 60 s — 360 s while its block is
	// unwritten — and each new file walks past all of them. Right after tens
	// of thousands of files were removed there (a saturated bench leaves a
	// file a move in Dovecot's mailbox, removed when it ends), that walk took
	// a tenth to a sixth of the machine in some saturated benches, about
	// half a millisecond of Dovecot's CPU per move: noise from the tests
	// before, not the mail server's cost. Marking dir as a top directory has
	// ext4 place the mail's own directory as one made at the root: in the
	// least used group, its search starting where the random name hashes to
	// (a fixed name would land in the same group every run, beside the last
	// run's freed inodes). Elsewhere (not ext4, another system) the mail
	// stays where it was.
	if err := spreadOnDisk(dir); err != nil {
		t.Logf("mail not placed apart on the disk: %v", err)
	}
	mail, err := os.MkdirTemp(dir, "mail-")
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{dir, mail, filepath.Join(dir, "home")} {
		os.MkdirAll(sub, 0o777)
		os.Chmod(sub, 0o777)
	}
	port := freePort(t)
	protocols, lmtp, lmtpAddr := "imap", "", ""
	if opts.LMTP {
		protocols += " lmtp"
		if _, err := os.Stat("/usr/lib/dovecot/lmtp"); err != nil {
			t.Skip("Dovecot's LMTP server is not installed (Debian: apt-get install dovecot-lmtpd; .ci/run installs it)")
		}
		lport := freePort(t)
		lmtpAddr = fmt.Sprintf("127.0.0.1:%d", lport)
		lmtp = fmt.Sprintf(`recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = %d
  }
}
`, lport)
	}
	format := opts.MailFormat
	switch format {
	case "":
		format = "sdbox"
	case "sdbox", "mdbox", "maildir":
	default:
		t.Fatalf("dovecottest: mail format %q: want sdbox, mdbox or maildir", format)
	}
	ssl := "ssl = no"
	if opts.CertPEM != nil {
		for name, data := range map[string][]byte{"cert.pem": opts.CertPEM, "key.pem": opts.KeyPEM} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", dir)
	}
	conf := fmt.Sprintf(`base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
protocols = %[6]s
listen = 127.0.0.1
%[3]s
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = %[4]s:%[8]s/%%n
mail_max_userip_connections = 20
passdb {
  driver = static
  args = password=secret
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=%[1]s/home/%%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[2]d
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
%[5]s%[7]s
`, dir, port, ssl, format, lmtp, protocols, opts.Config, mail)
	cfg := filepath.Join(dir, "dovecot.conf")
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), LMTPAddr: lmtpAddr, mail: mail, bin: bin, conf: cfg, dir: dir}
	t.Cleanup(func() {
		srv.mu.Lock()
		cmd := srv.cmd
		srv.mu.Unlock()
		if cmd != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Logf("dovecot output:\n%s\n%s", srv.out.String(), log)
		}
	})
	srv.run(t)
	return srv
}

// freePort is a loopback TCP port free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
