// Package mailstack runs, for tests, the mail host docs/deploy.md describes:
// Postfix (port 25 and submission with STARTTLS and AUTH), Dovecot (IMAP
// with STARTTLS and TLS, LMTP, SASL for Postfix) and, when installed,
// OpenDKIM verifying incoming mail, all from Debian's packages, privately on
// loopback with a self-signed certificate for mail.club.example. The
// configuration files are docs/deploy's, read as they are, with only their
// paths and ports moved into a temporary directory (each replacement must
// find its text, so the docs and this test cannot drift apart). It is used
// by tests only.
package mailstack

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Domain is the club's mail domain, Host its mail host's name (the
// certificate's, and OpenDKIM's authserv-id).
const (
	Domain = "club.example"
	Host   = "mail.club.example"
)

// Users are the accounts on the stack, each with the password Password.
var Users = []string{"games", "alice", "bob", "eve"}

// Password is every account's password.
const Password = "club-secret"

// Options change the stack.
type Options struct {
	// NoOpenDKIM leaves OpenDKIM out even where it is installed.
	NoOpenDKIM bool
	// Pipe, if set, adds docs/deploy/pipe's lines: the service's mail goes
	// through Postfix's pipe to `bottlepost deliver`, run as bpdeliver.
	Pipe *Pipe
}

// Pipe is where the deliver pipe's command line (docs/deploy/pipe/master.cf)
// is moved to.
type Pipe struct {
	Bottlepost string // the executable standing for /usr/local/bin/bottlepost
	Config     string // the file standing for /etc/bottlepost/bottlepost.toml
}

// Stack is a running mail host.
type Stack struct {
	Dir        string // the temporary directory everything lives in
	SMTP       string // port 25's stand-in: mail from anywhere to club.example
	Submission string // port 587's: STARTTLS required, then AUTH
	IMAP       string // port 143's: STARTTLS
	IMAPS      string // port 993's: TLS at once
	CertPEM    []byte // the self-signed certificate for Host (not for 127.0.0.1)
	CertFile   string // … as a file
	OpenDKIM   bool   // OpenDKIM runs and verifies incoming mail
	Docs       string // the docs/deploy directory used

	dkim    *exec.Cmd
	dkimCfg string
	dovecot []string // the command line that starts Dovecot
	dcmd    *exec.Cmd
	dcFile  string // Dovecot's configuration, moved
}

// Start runs the stack, docsDir being docs/deploy. It skips the test,
// saying why, where Postfix or Dovecot are not installed or the test does
// not run as root (both need it to start privately).
func Start(t testing.TB, docsDir string, opts Options) *Stack {
	t.Helper()
	postfix := lookPath("postfix")
	dovecot := lookPath("dovecot")
	switch {
	case postfix == "":
		t.Skip("postfix is not installed (Debian: apt-get install postfix; .ci/run installs it); the mail stack test needs it")
	case dovecot == "":
		t.Skip("dovecot is not installed (Debian: apt-get install dovecot-imapd dovecot-lmtpd; .ci/run installs them); the mail stack test needs it")
	case !exists("/usr/lib/dovecot/lmtp"):
		t.Skip("Dovecot's LMTP server is not installed (Debian: apt-get install dovecot-lmtpd); the mail stack test needs it")
	case os.Getuid() != 0:
		t.Skip("the mail stack test starts a private Postfix and Dovecot, which needs root; not root here")
	}
	dir, err := os.MkdirTemp("", "bottlepost-mailstack-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &Stack{Dir: dir, Docs: docsDir}
	users := []string{"vmail"}
	if opts.Pipe != nil {
		users = append(users, "bottlepost", "bpdeliver")
	}
	s.EnsureUsers(t, users...)
	// Postfix's and Dovecot's unprivileged processes must reach their files.
	for _, sub := range []string{"", "ssl", "postfix", "pfdata", "dovecot"} {
		mkdir(t, filepath.Join(dir, sub), 0o755)
	}
	// The mailboxes, as docs/deploy.md makes /var/vmail.
	mkdir(t, filepath.Join(dir, "vmail"), 0o770)
	chown(t, filepath.Join(dir, "vmail"), "vmail", "vmail")
	certPEM, keyPEM := selfSigned(t)
	s.CertPEM, s.CertFile = certPEM, filepath.Join(dir, "ssl", "cert.pem")
	write(t, s.CertFile, certPEM, 0o644)
	write(t, filepath.Join(dir, "ssl", "key.pem"), keyPEM, 0o600)
	var accounts strings.Builder
	for _, u := range Users {
		fmt.Fprintf(&accounts, "%s@%s:{PLAIN}%s\n", u, Domain, Password)
	}
	// As docs/deploy.md has /etc/dovecot/users: root's, readable by Dovecot.
	write(t, filepath.Join(dir, "dovecot", "users"), []byte(accounts.String()), 0o640)
	chown(t, filepath.Join(dir, "dovecot", "users"), "root", "dovecot")

	ports := freePorts(t, 5)
	s.SMTP, s.Submission = addr(ports[0]), addr(ports[1])
	s.IMAP, s.IMAPS = addr(ports[2]), addr(ports[3])
	dkimPort := ports[4]
	spool := filepath.Join(dir, "spool")

	// Postfix: the documented files, moved.
	pf := filepath.Join(dir, "postfix")
	main := s.doc(t, "postfix/main.cf", []string{
		"/etc/ssl/club/", dir + "/ssl/",
		"/etc/postfix/", pf + "/",
		"inet_interfaces = all", "inet_interfaces = 127.0.0.1",
		"inet:127.0.0.1:8891", fmt.Sprintf("inet:127.0.0.1:%d", dkimPort),
	})
	master := s.doc(t, "postfix/master.cf", []string{
		"\nsmtp      inet", "\n" + s.SMTP + " inet",
		"\nsubmission inet", "\n" + s.Submission + " inet",
	})
	if p := opts.Pipe; p != nil { // appended, as docs/deploy.md says
		main += s.doc(t, "pipe/main.cf", []string{"/etc/postfix/", pf + "/"})
		master += s.doc(t, "pipe/master.cf", []string{
			"/usr/local/bin/bottlepost", p.Bottlepost,
			"/etc/bottlepost/bottlepost.toml", p.Config,
		})
		write(t, filepath.Join(pf, "transport"), []byte(s.doc(t, "pipe/transport", nil)), 0o644)
	}
	main += fmt.Sprintf("\n# TestRealMailStack: a private instance, logging to its standard output\nqueue_directory = %s\ndata_directory = %s\nmaillog_file = /dev/stdout\n",
		spool, filepath.Join(dir, "pfdata"))
	mkdir(t, spool, 0o755)
	write(t, filepath.Join(pf, "main.cf"), []byte(main), 0o644)
	write(t, filepath.Join(pf, "master.cf"), []byte(master), 0o644)
	for _, f := range []string{"header_checks", "vmailbox", "sender_login", "submission_auth"} {
		write(t, filepath.Join(pf, f), []byte(s.doc(t, "postfix/"+f, nil)), 0o644)
	}
	if u, err := user.Lookup("postfix"); err == nil { // Postfix's own data directory is its mail owner's
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		os.Chown(filepath.Join(dir, "pfdata"), uid, gid)
	}
	run(t, postfix, "-c", pf, "check") // creates the queue's directories
	// Dovecot: its sockets go into Postfix's queue directory.
	dc := s.doc(t, "dovecot/dovecot.conf", []string{
		"/etc/ssl/club/", dir + "/ssl/",
		"/var/vmail", dir + "/vmail",
		"/etc/dovecot/users", dir + "/dovecot/users",
		"/var/spool/postfix", spool,
		"listen = *", "listen = 127.0.0.1",
		"port = 143", fmt.Sprintf("port = %d", ports[2]),
		"port = 993", fmt.Sprintf("port = %d", ports[3]),
	})
	dc = fmt.Sprintf("# TestRealMailStack: a private instance\nbase_dir = %[1]s/dovecot/run\nstate_dir = %[1]s/dovecot/state\nlog_path = %[1]s/dovecot.log\n"+
		"service anvil {\n  chroot =\n}\nservice imap-login {\n  chroot =\n}\n\n", dir) + dc
	dcFile := filepath.Join(dir, "dovecot", "dovecot.conf")
	write(t, dcFile, []byte(dc), 0o644)
	s.dcFile = dcFile
	s.dovecot = []string{dovecot, "-F", "-c", dcFile}
	s.dcmd = s.daemon(t, "dovecot", filepath.Join(dir, "dovecot.out"), s.dovecot[0], s.dovecot[1:]...)
	waitFile(t, filepath.Join(spool, "private", "dovecot-lmtp"), filepath.Join(dir, "dovecot.log"))

	if bin := lookPath("opendkim"); bin != "" && !opts.NoOpenDKIM {
		cfg := s.doc(t, "opendkim/opendkim.conf", []string{
			"inet:8891@127.0.0.1", fmt.Sprintf("inet:%d@127.0.0.1", dkimPort),
			"/run/opendkim/", dir + "/",
		})
		s.dkimCfg = filepath.Join(dir, "opendkim.conf")
		write(t, s.dkimCfg, []byte(cfg), 0o644)
		s.dkim = s.daemon(t, "opendkim", filepath.Join(dir, "opendkim.out"), bin, "-f", "-x", s.dkimCfg)
		waitListen(t, addr(dkimPort), filepath.Join(dir, "opendkim.out"))
		s.OpenDKIM = true
	}
	s.daemon(t, "postfix", filepath.Join(dir, "postfix.log"), postfix, "-c", pf, "start-fg")
	for _, a := range []string{s.SMTP, s.Submission, s.IMAP, s.IMAPS} {
		waitListen(t, a, filepath.Join(dir, "postfix.log"), filepath.Join(dir, "dovecot.log"))
	}
	return s
}

// RestartDovecot stops Dovecot (every IMAP session ends) and starts it
// again, as an admin's restart does; it returns once IMAP listens again.
func (s *Stack) RestartDovecot(t testing.TB) {
	t.Helper()
	s.dcmd.Process.Signal(syscall.SIGTERM)
	s.dcmd.Wait()
	s.dcmd = s.daemon(t, "dovecot", filepath.Join(s.Dir, "dovecot.out"), s.dovecot[0], s.dovecot[1:]...)
	waitListen(t, s.IMAPS, filepath.Join(s.Dir, "dovecot.log"))
}

// StopOpenDKIM stops the milter: Postfix must then defer incoming mail
// (milter_default_action = tempfail).
func (s *Stack) StopOpenDKIM() {
	if s.dkim != nil {
		s.dkim.Process.Kill()
		s.dkim.Wait()
	}
}

// Logs is the stack's log files, for a failing test.
func (s *Stack) Logs() string {
	var b strings.Builder
	for _, f := range []string{"postfix.log", "dovecot.log", "dovecot.out", "opendkim.out"} {
		data, _ := os.ReadFile(filepath.Join(s.Dir, f))
		fmt.Fprintf(&b, "==> %s <==\n%s\n", f, data)
	}
	return b.String()
}

// doc reads a file of docs/deploy and applies the replacements (old, new
// pairs), each of which must find its text.
func (s *Stack) doc(t testing.TB, name string, repl []string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Docs, name))
	if err != nil {
		t.Fatalf("mailstack: %v", err)
	}
	text := string(data)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(text, repl[i]) {
			t.Fatalf("mailstack: %s no longer holds %q: update the test with the docs", name, repl[i])
		}
		text = strings.ReplaceAll(text, repl[i], repl[i+1])
	}
	return text
}

// daemon starts a server in the foreground, its output going to logFile,
// and stops it when the test ends.
func (s *Stack) daemon(t testing.TB, name, logFile, bin string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, args...)
	f, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatalf("mailstack: %s: %v", name, err)
	}
	t.Cleanup(func() {
		if name == "postfix" {
			exec.Command(bin, args[0], args[1], "stop").Run()
		}
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
	return cmd
}

func lookPath(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range []string{"/usr/sbin", "/usr/local/sbin"} {
		if p := filepath.Join(d, name); exists(p) {
			return p
		}
	}
	return ""
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func mkdir(t testing.TB, p string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(p, mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, mode)
}

func write(t testing.TB, p string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, data, mode); err != nil {
		t.Fatal(err)
	}
}

func run(t testing.TB, bin string, args ...string) {
	t.Helper()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("mailstack: %s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
}

func addr(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }

func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

func waitListen(t testing.TB, a string, logs ...string) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", a, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(end) {
			t.Fatalf("mailstack: nothing listens on %s: %v\n%s", a, err, readAll(logs))
		}
	}
}

func waitFile(t testing.TB, p string, logs ...string) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !exists(p); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("mailstack: %s did not appear\n%s", p, readAll(logs))
		}
	}
}

func readAll(files []string) string {
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "==> %s <==\n%s\n", f, data)
	}
	return b.String()
}

// selfSigned is a certificate for Host only, its own authority: a client
// dialling 127.0.0.1 must be told the name (tls_server_name).
func selfSigned(t testing.TB) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: Host},
		DNSNames:              []string{Host},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
}

// docUsers are the system users docs/deploy.md makes, each with the
// commands it gives for it (which deploy.md must hold word for word).
var docUsers = map[string][]string{
	"vmail": {
		"groupadd --system vmail",
		"useradd --system --gid vmail --home-dir /var/vmail --shell /usr/sbin/nologin vmail",
	},
	"bottlepost": {
		"useradd --system --user-group --home-dir /var/lib/bottlepost --shell /usr/sbin/nologin bottlepost",
	},
	"bpdeliver": {
		"useradd --system --user-group --home-dir /nonexistent --shell /usr/sbin/nologin bpdeliver",
	},
}

// EnsureUsers makes those of the named system users of docs/deploy.md
// that do not exist yet, with the walk-through's own commands (read
// there). They are left in place: a machine that ran the test has the
// users the walk-through makes, and a test running beside this one may be
// using them.
func (s *Stack) EnsureUsers(t testing.TB, names ...string) {
	t.Helper()
	deploy, err := os.ReadFile(filepath.Join(s.Docs, "..", "deploy.md"))
	if err != nil {
		t.Fatalf("mailstack: %v", err)
	}
	for _, name := range names {
		cmds, ok := docUsers[name]
		if !ok {
			t.Fatalf("mailstack: no user %s in docs/deploy.md", name)
		}
		for _, c := range cmds {
			if !strings.Contains(string(deploy), c) {
				t.Fatalf("mailstack: docs/deploy.md no longer says %q: update the test with the docs", c)
			}
		}
		if _, err := user.Lookup(name); err == nil {
			continue
		}
		for _, c := range cmds {
			f := strings.Fields(c)
			if out, err := exec.Command(f[0], f[1:]...).CombinedOutput(); err != nil {
				if _, lerr := user.Lookup(name); lerr == nil { // made meanwhile by a test beside this one
					break
				}
				if _, gerr := user.LookupGroup(name); gerr == nil && f[0] == "groupadd" {
					continue
				}
				t.Fatalf("mailstack: %s: %v\n%s", c, err, out)
			}
		}
		t.Logf("mailstack: made the system user %s as docs/deploy.md does", name)
	}
}

// chown gives a file to a user and a group, by name.
func chown(t testing.TB, path, owner, group string) {
	t.Helper()
	u, err := user.Lookup(owner)
	if err != nil {
		t.Fatalf("mailstack: %v", err)
	}
	g, err := user.LookupGroup(group)
	if err != nil {
		t.Fatalf("mailstack: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(g.Gid)
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
}

// Postconf changes settings of Postfix's main.cf ("name=value") and
// reloads it; restore sets them back as they were and reloads again.
func (s *Stack) Postconf(t testing.TB, settings ...string) (restore func()) {
	t.Helper()
	pf := filepath.Join(s.Dir, "postfix")
	var old []string
	for _, kv := range settings {
		name, _, _ := strings.Cut(kv, "=")
		out, err := exec.Command("postconf", "-c", pf, "-h", name).Output()
		if err != nil {
			t.Fatalf("mailstack: postconf -h %s: %v", name, err)
		}
		old = append(old, name+"="+strings.TrimSpace(string(out)))
	}
	s.postconf(t, settings)
	return func() { s.postconf(t, old) }
}

func (s *Stack) postconf(t testing.TB, settings []string) {
	t.Helper()
	pf := filepath.Join(s.Dir, "postfix")
	run(t, "postconf", append([]string{"-c", pf, "-e"}, settings...)...)
	run(t, lookPath("postfix"), "-c", pf, "reload")
	time.Sleep(time.Second) // the reload reaches the smtpd processes
}

// ReconfigureDovecot replaces text in Dovecot's configuration (old, new
// pairs, each of which must be found) and reloads it; restore puts the
// configuration back and reloads again.
func (s *Stack) ReconfigureDovecot(t testing.TB, repl ...string) (restore func()) {
	t.Helper()
	orig, err := os.ReadFile(s.dcFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(orig)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(text, repl[i]) {
			t.Fatalf("mailstack: Dovecot's configuration holds no %q", repl[i])
		}
		text = strings.ReplaceAll(text, repl[i], repl[i+1])
	}
	s.reloadDovecot(t, []byte(text))
	return func() { s.reloadDovecot(t, orig) }
}

func (s *Stack) reloadDovecot(t testing.TB, cfg []byte) {
	t.Helper()
	write(t, s.dcFile, cfg, 0o644)
	run(t, lookPath("doveadm"), "-c", s.dcFile, "reload")
	time.Sleep(time.Second) // the new processes take the configuration
}
