package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/internal/mailstack"
)

// The deliver pipe of docs/deploy.md, for real: the mail stack of
// TestRealMailStack with docs/deploy/pipe's lines appended, the users,
// directories and modes the walk-through makes (its own commands, moved
// into a temporary directory), Postfix running `bottlepost deliver` (this
// test binary) as bpdeliver in the group bottlepost, and serve running as
// bottlepost in a process
// of its own. check-mail finds its probe in the Maildir; a member's first
// mail and her reply to the welcome's plus-address go through the pipe and
// are answered; the files deliver wrote are bpdeliver's, in serve's group,
// readable by it.
func TestRealMailStackDeliverPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts Postfix, Dovecot and OpenDKIM (tens of seconds); the default go test ./... runs it")
	}
	dir := sharedTempDir(t, "bottlepost-pipe-", "runs serve and deliver as the users docs/deploy.md makes (bottlepost, bpdeliver)")
	wrapper := installTestBinary(t, dir)
	etc, data, spool := filepath.Join(dir, "etc"), filepath.Join(dir, "lib"), filepath.Join(dir, "spool")
	cfgPath := filepath.Join(etc, "bottlepost.toml")
	st := mailstack.Start(t, "../../docs/deploy", mailstack.Options{Pipe: &mailstack.Pipe{Bottlepost: wrapper, Config: cfgPath}})
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(st.Logs())
		}
	})
	bp, bpd := lookupUser(t, "bottlepost"), lookupUser(t, "bpdeliver")
	docCommands(t, map[string]string{"/var/lib/bottlepost": data, "/etc/bottlepost": etc, "/var/spool/bottlepost": spool},
		"install -d -o bottlepost -g bottlepost -m 0700 /var/lib/bottlepost",
		"install -d -o root -g bottlepost -m 0750 /etc/bottlepost",
		"install -d -o bottlepost -g bottlepost -m 2770 /var/spool/bottlepost /var/spool/bottlepost/{tmp,new,cur}")
	pwFile := filepath.Join(etc, "imap-password")
	writeOwned(t, pwFile, mailstack.Password+"\n", 0o600, bp, "root")
	pipeToml, err := os.ReadFile("../../docs/deploy/pipe/bottlepost.toml")
	if err != nil {
		t.Fatal(err)
	}
	writeOwned(t, cfgPath, movedConfig(t, st, string(pipeToml), data, pwFile, `"/var/spool/bottlepost"`, strconv.Quote(spool)), 0o640, nil, "bottlepost")

	code, out, _ := runCLI("check-mail", "--config", cfgPath, "--wait", "30s")
	t.Logf("check-mail through the pipe:\n%s", out)
	if code != 0 || !strings.Contains(out, "(in the Maildir "+spool+", by the deliver pipe)") || strings.Contains(out, "WARN") {
		t.Fatalf("check-mail through the pipe: exit %d, want 0, the probe found in the Maildir and no warning:\n%s", code, out)
	}

	var serveLog syncBuffer
	serve := exec.Command(filepath.Join(dir, "bottlepost.test"), "serve", "--config", cfgPath)
	serve.Env = append(os.Environ(), "BOTTLEPOST_TEST_MAIN=1")
	serve.Stdout, serve.Stderr = &serveLog, &serveLog
	uid, gid := ids(t, bp)
	serve.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Credential: &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{gid}}}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(syscall.SIGTERM)
		serve.Wait()
		if t.Failed() {
			t.Logf("serve's log:\n%s", serveLog.String())
		}
	}()
	clientTLS := &tls.Config{RootCAs: x509.NewCertPool(), ServerName: mailstack.Host}
	clientTLS.RootCAs.AppendCertsFromPEM(st.CertPEM)
	alice := daemon.NewMailUser("alice@"+mailstack.Domain, mailstack.Password, st.IMAP, st.Submission, clientTLS)
	bob := daemon.NewMailUser("bob@"+mailstack.Domain, mailstack.Password, st.IMAP, st.Submission, clientTLS)
	if _, err := alice.Send(daemon.Mail{To: service, Subject: "hello", Body: "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Await("your personal address", within); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Reply("new chess vs bob@" + mailstack.Domain + " as white"); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[*daemon.Player]string{alice: "Your challenge to player 2 <bob@" + mailstack.Domain + ">", bob: "challenges you to a game of Chess"} {
		if _, err := p.Await(want, within); err != nil {
			t.Fatal(err)
		}
	}
	delivered(t, spool, uidOf(t, bpd), gid)
	if log := serveLog.String(); !strings.Contains(log, "first mail answered with the welcome") || strings.Contains(strings.ToLower(log), "permission denied") {
		t.Errorf("serve's log:\n%s", log)
	}
}

// delivered checks the files deliver wrote and serve read (now in cur/):
// bpdeliver's (uid), in the service's group (gid), mode 0640.
func delivered(t *testing.T, spool string, uid, gid uint32) {
	t.Helper()
	files, _ := os.ReadDir(filepath.Join(spool, "cur"))
	if len(files) < 2 {
		t.Errorf("%d messages in the Maildir's cur/, want the first mail and the reply", len(files))
	}
	for _, f := range files {
		info, err := f.Info()
		if err != nil {
			t.Fatal(err)
		}
		sys := info.Sys().(*syscall.Stat_t)
		if sys.Uid != uid || sys.Gid != gid || info.Mode().Perm() != 0o640 {
			t.Errorf("%s: uid %d gid %d mode %v; want deliver's (uid %d), in the group bottlepost (%d), 0640", f.Name(), sys.Uid, sys.Gid, info.Mode().Perm(), uid, gid)
		}
	}
}

// sharedTempDir is a temporary directory that other users may enter, for
// a test that runs commands as them (what, which needs root: skipped
// otherwise).
func sharedTempDir(t *testing.T, prefix, what string) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip(what + " needs root; not root here")
	}
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	return dir
}

// copyTestBinary copies this test binary into dir, where other users may
// run it, and returns its path.
func copyTestBinary(t *testing.T, dir string) string {
	t.Helper()
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bottlepost.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// installTestBinary copies this test binary into dir, where the pipe's
// user may run it, and writes beside it the executable the pipe's command
// line names: a script running it as bottlepost (TestMain).
func installTestBinary(t *testing.T, dir string) (wrapper string) {
	t.Helper()
	bin := copyTestBinary(t, dir)
	wrapper = filepath.Join(dir, "bottlepost")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nBOTTLEPOST_TEST_MAIN=1 exec "+bin+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// docCommands runs commands of docs/deploy.md's walk-through (which it
// must hold word for word) with its paths moved.
func docCommands(t *testing.T, moved map[string]string, cmds ...string) {
	t.Helper()
	doc, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if !bytes.Contains(doc, []byte(c)) {
			t.Fatalf("docs/deploy.md no longer says %q: update the test with the docs", c)
		}
		for from, to := range moved {
			c = strings.ReplaceAll(c, from, to)
		}
		if out, err := exec.Command("bash", "-c", c).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, out)
		}
	}
}

// writeOwned writes a file with a mode, its owner u (nil: root) and group.
func writeOwned(t *testing.T, path, text string, mode os.FileMode, u *user.User, group string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	uid := 0
	if u != nil {
		n, _ := ids(t, u)
		uid = int(n)
	}
	g, err := user.LookupGroup(group)
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := strconv.Atoi(g.Gid)
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, mode)
}

func lookupUser(t *testing.T, name string) *user.User {
	t.Helper()
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// ids is a user's uid and primary gid.
func ids(t *testing.T, u *user.User) (uid, gid uint32) {
	t.Helper()
	a, err1 := strconv.ParseUint(u.Uid, 10, 32)
	b, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		t.Fatalf("user %s: uid %q gid %q", u.Username, u.Uid, u.Gid)
	}
	return uint32(a), uint32(b)
}

// uidOf is a user's uid.
func uidOf(t *testing.T, u *user.User) uint32 {
	uid, _ := ids(t, u)
	return uid
}
