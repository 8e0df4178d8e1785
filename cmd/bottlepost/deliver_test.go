package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// deliverHelperEnv makes the test binary run the command line it holds and
// exit (TestDeliverHelperProcess): TestDeliverAsAnUnprivilegedUser runs
// deliver so, as nobody.
const deliverHelperEnv = "BOTTLEPOST_TEST_DELIVER_HELPER"

func TestDeliverHelperProcess(t *testing.T) {
	args := os.Getenv(deliverHelperEnv)
	if args == "" {
		t.Skip("run by TestDeliverAsAnUnprivilegedUser only")
	}
	stdin = os.Stdin
	os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
}

// deliver runs as an MTA pipe would: as an unprivileged user (nobody),
// with the serve configuration, whose IMAP and SMTP password files it
// cannot read and whose [hub] section says nothing of the real domain.
// It reads only [service], [maildir] and [limits], and writes into a
// Maildir shared with the service's user through a group (mode 2770):
// the message is group-readable so serve can read it.
func TestDeliverAsAnUnprivilegedUser(t *testing.T) {
	dir := sharedTempDir(t, "bottlepost-deliver-", "running deliver as another user")
	const nobody = 65534
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("hunter2\n"), 0o600) // root's: the pipe user cannot read it
	md := filepath.Join(dir, "Maildir")
	if err := os.Mkdir(md, 0o700); err != nil {
		t.Fatal(err)
	}
	// The documented set-up: the Maildir belongs to the service's user
	// (root here) and a group the pipe user is in, mode 2770.
	os.Chown(md, 0, nobody)
	os.Chmod(md, os.ModeSetgid|0o770)
	cfg := filepath.Join(dir, "bottlepost.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`[service]
address = "games@club.example"
data_dir = %[1]q
[imap]
host = "mail.club.example"
username = "games"
password = "file:%[2]s"
[smtp]
host = "mail.club.example"
username = "games"
password = "file:%[2]s"
[maildir]
path = %[3]q
`, filepath.Join(dir, "data"), secret, md)), 0o644)
	bin := copyTestBinary(t, dir) // where nobody can run it
	msg := "From: alice@example.org\r\nTo: games+x@club.example\r\nSubject: e4\r\nMessage-ID: <d1@example.org>\r\n\r\ne4\r\n"
	cmd := exec.Command(bin, "-test.run=^TestDeliverHelperProcess$")
	cmd.Env = append(os.Environ(), deliverHelperEnv+"=deliver --config "+cfg)
	cmd.Stdin = strings.NewReader(msg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("deliver as nobody: %v\n%s", err, out)
	}
	files, _ := os.ReadDir(filepath.Join(md, "new"))
	if len(files) != 1 {
		t.Fatalf("%d files in new/, want 1", len(files))
	}
	p := filepath.Join(md, "new", files[0].Name())
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o640 || st.Sys().(*syscall.Stat_t).Gid != nobody {
		t.Errorf("delivered file mode %v gid %d; want 0640 in the Maildir's group", st.Mode().Perm(), st.Sys().(*syscall.Stat_t).Gid)
	}
	for _, sub := range []string{"tmp", "new", "cur"} {
		st, _ := os.Stat(filepath.Join(md, sub))
		if st.Mode().Perm() != 0o770 || st.Mode()&os.ModeSetgid == 0 {
			t.Errorf("%s/ mode %v; want the Maildir's 2770", sub, st.Mode())
		}
	}
	f, _ := os.Open(p)
	got, _ := io.ReadAll(f)
	f.Close()
	if string(got) != msg {
		t.Errorf("stored %q", got)
	}
}
