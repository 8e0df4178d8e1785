package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/internal/mailstack"
	"github.com/bottlepost/bottlepost/store"
)

// The deployment of docs/deploy.md, for real: a private Postfix, Dovecot
// and (where installed) OpenDKIM from Debian's packages, configured with
// the files under docs/deploy, on loopback, with a self-signed certificate
// for mail.club.example. check-mail passes against it, and fails, saying
// which setting to fix, against broken configurations; serve, configured
// with docs/deploy/bottlepost.toml (tls_ca_file, and tls_server_name since
// it dials 127.0.0.1), reads Dovecot over TLS and sends through the
// submission port with STARTTLS and AUTH; alice and bob, whose provider
// signs their mail with DKIM, play a game to mate by mail submitted through
// Postfix with AUTH and read from Dovecot, and the game is archived.
// Forged Authentication-Results are stripped; with OpenDKIM down, Postfix
// defers mail (milter_default_action = tempfail); without plus-addressing,
// check-mail says so. After a restart of Dovecot, serve answers again within
// seconds.
func TestRealMailStack(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	st := mailstack.Start(t, "../../docs/deploy", mailstack.Options{TestDNS: map[string]string{
		"club2026._domainkey." + mailstack.Domain: "v=DKIM1;k=rsa;p=" + base64.StdEncoding.EncodeToString(pub),
	}})
	defer func() {
		if t.Failed() {
			t.Log(st.Logs())
		}
	}()
	if !st.OpenDKIM {
		t.Log("OpenDKIM is not installed (Debian: apt-get install opendkim): the game runs without trusted_authserv")
	}
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "password")
	os.WriteFile(pwFile, []byte(mailstack.Password+"\n"), 0o600)
	_, imapsPort, _ := strings.Cut(st.IMAPS, ":")
	_, imapPort, _ := strings.Cut(st.IMAP, ":")
	_, subPort, _ := strings.Cut(st.Submission, ":")
	docCfg, err := os.ReadFile("../../docs/deploy/bottlepost.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The documented configuration, moved: 127.0.0.1 for the host (the
	// certificate holds only mail.club.example, so tls_server_name names
	// it), the test's ports and files.
	cfgText := string(docCfg)
	for _, r := range [][2]string{
		{`host = "mail.club.example"`, `host = "127.0.0.1"`},
		{`port = 993`, "port = " + imapsPort},
		{`port = 587`, "port = " + subPort},
		{`"/var/lib/bottlepost"`, fmt.Sprintf("%q", filepath.Join(dir, "data"))},
		{`file:/etc/bottlepost/imap-password`, "file:" + pwFile},
		{`tls_ca_file = "/etc/ssl/club/cert.pem"`, fmt.Sprintf("tls_ca_file = %q\ntls_server_name = %q", st.CertFile, mailstack.Host)},
	} {
		if !strings.Contains(cfgText, r[0]) {
			t.Fatalf("docs/deploy/bottlepost.toml no longer holds %q: update the test with the docs", r[0])
		}
		cfgText = strings.ReplaceAll(cfgText, r[0], r[1])
	}
	if !st.OpenDKIM {
		cfgText = strings.Replace(cfgText, `trusted_authserv = "mail.club.example"`, `trusted_authserv = ""`, 1)
	}
	cfgText += "\n[web]\nlisten = \"\"\n"
	cfgPath := filepath.Join(dir, "bottlepost.toml")
	os.WriteFile(cfgPath, []byte(cfgText), 0o600)
	writeCfg := func(name, text string, repl ...string) string {
		for i := 0; i+1 < len(repl); i += 2 {
			if !strings.Contains(text, repl[i]) {
				t.Fatalf("%s: the configuration holds no %q", name, repl[i])
			}
			text = strings.Replace(text, repl[i], repl[i+1], 1)
		}
		p := filepath.Join(dir, name+".toml")
		os.WriteFile(p, []byte(text), 0o600)
		return p
	}

	// check-mail: every step passes, the probe proving plus-addressing.
	code, out, errOut := runCLI("check-mail", "--config", cfgPath, "--wait", "30s")
	t.Logf("check-mail:\n%s%s", out, errOut)
	if code != 0 || strings.Contains(out, "FAIL") || !strings.Contains(out, "plus-addressing") || strings.Count(out, "\nok ") < 6 {
		t.Fatalf("check-mail against the documented set-up: exit %d\n%s%s", code, out, errOut)
	}
	// … and against broken ones, each line saying what to fix.
	wrongPW := filepath.Join(dir, "wrong")
	os.WriteFile(wrongPW, []byte("not the password\n"), 0o600)
	for _, tc := range []struct {
		name  string
		repl  []string
		wants []string
	}{
		{"untrusted certificate, wrong smtp password", []string{
			"tls_ca_file = " + fmt.Sprintf("%q", st.CertFile), "",
			`password = "file:` + pwFile + `"` + "\nhelo", `password = "file:` + wrongPW + `"` + "\nhelo",
		}, []string{"FAIL imap connect", "set imap.tls_ca_file", "FAIL smtp session", "check smtp.username and smtp.password"}},
		{"tls on the starttls port", []string{"port = " + imapsPort, "port = " + imapPort},
			[]string{"FAIL imap connect", `set imap.security = "starttls"`}},
		{"starttls on the tls port", []string{`security = "tls"`, `security = "starttls"`},
			[]string{"FAIL imap connect", `speaks TLS at once`}},
		{"no such mailbox", []string{`[imap]`, "[imap]\nmailbox = \"Games\""},
			[]string{"FAIL imap mailbox", "check imap.mailbox"}},
		{"certificate for another name", []string{fmt.Sprintf("tls_server_name = %q", mailstack.Host), ""},
			[]string{"FAIL imap connect", "set imap.tls_server_name"}},
	} {
		p := writeCfg(strings.ReplaceAll(tc.name, " ", "-"), cfgText, tc.repl...)
		code, out, errOut := runCLI("check-mail", "--config", p, "--wait", "10s")
		t.Logf("check-mail, %s:\n%s%s", tc.name, out, errOut)
		if code != 1 {
			t.Errorf("check-mail, %s: exit %d, want 1", tc.name, code)
		}
		for _, w := range tc.wants {
			if !strings.Contains(out, w) {
				t.Errorf("check-mail, %s: no %q in\n%s", tc.name, w, out)
			}
		}
	}

	// serve.
	stop, reload := make(chan os.Signal, 1), make(chan os.Signal, 1)
	old := signals
	signals = func() (<-chan os.Signal, <-chan os.Signal, func()) { return stop, reload, func() {} }
	defer func() { signals = old }()
	var sout, serr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"serve", "--config", cfgPath}, &sout, &serr) }()
	stopped := false
	stopServe := func() {
		if stopped {
			return
		}
		stopped = true
		stop <- syscall.SIGTERM
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d:\n%s", code, serr.String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("serve did not stop within 30s")
		}
	}
	defer stopServe()
	defer func() {
		if t.Failed() {
			t.Logf("serve's log:\n%s", serr.String())
		}
	}()
	clientTLS := &tls.Config{RootCAs: x509.NewCertPool(), ServerName: mailstack.Host}
	clientTLS.RootCAs.AppendCertsFromPEM(st.CertPEM)
	signer := func(raw []byte) ([]byte, error) {
		var b bytes.Buffer
		if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: mailstack.Domain, Selector: "club2026", Signer: key}); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	player := func(name string) *daemon.Player {
		p := daemon.NewMailUser(name+"@"+mailstack.Domain, mailstack.Password, st.IMAP, st.Submission, clientTLS)
		p.Sign = signer
		return p
	}
	alice, bob, eve := player("alice"), player("bob"), player("eve")
	eve.Sign = nil // eve's mail carries no signature, only a forged verdict
	const within = 30 * time.Second
	send := func(p *daemon.Player, m daemon.Mail) {
		t.Helper()
		if _, err := p.Send(m); err != nil {
			t.Fatalf("%s sends %q: %v", p.Address, m.Subject, err)
		}
	}
	reply := func(p *daemon.Player, body string) {
		t.Helper()
		if _, err := p.Reply(body); err != nil {
			t.Fatalf("%s replies %q: %v", p.Address, body, err)
		}
	}
	await := func(p *daemon.Player, want string) *daemon.Received {
		t.Helper()
		r, err := p.Await(want, within)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	service := "games@" + mailstack.Domain
	send(alice, daemon.Mail{To: service, Subject: "hello", Body: "hi"})
	welcome := await(alice, "your personal address")
	if !strings.HasPrefix(welcome.ReplyTo, "games+") || !strings.HasSuffix(welcome.ReplyTo, "@"+mailstack.Domain) {
		t.Fatalf("welcome Reply-To %q, want a plus-address of %s", welcome.ReplyTo, service)
	}
	send(alice, daemon.Mail{To: welcome.ReplyTo, Subject: "new game", Body: "new chess vs bob@" + mailstack.Domain + " as white time 3d\n"})
	await(alice, "Your challenge to bob@"+mailstack.Domain)
	await(bob, "challenges you to a game of Chess")
	reply(bob, "accept")
	await(alice, "The game has begun")
	await(bob, "The game has begun")
	reply(alice, "f3")
	await(bob, "White played 1. f3.")
	reply(bob, "e5")
	await(alice, "Black played 1... e5.")

	// Eve forges the mail server's verdict: Postfix removes the header,
	// OpenDKIM adds its own (no signature: dkim=none), and the service
	// does not act on her mail.
	if st.OpenDKIM {
		send(eve, daemon.Mail{To: service, Subject: "forged", Body: "hello",
			Headers: map[string]string{"Authentication-Results": mailstack.Host + "; dkim=pass header.d=" + mailstack.Domain}})
		ar := awaitHeader(t, st, clientTLS, "forged", "Authentication-Results")
		if len(ar) != 1 || strings.Contains(ar[0], "dkim=pass") || !strings.Contains(ar[0], "dkim=none") {
			t.Errorf("eve's mail arrived with Authentication-Results %q; want only OpenDKIM's dkim=none", ar)
		}
	}

	reply(alice, "g4")
	await(bob, "White played 2. g4.")
	reply(bob, "Qh4#")
	final := await(alice, "Game over: Black wins: checkmate")
	if !strings.Contains(final.Text(), "Result: 0-1") {
		t.Errorf("final mail:\n%s", final.Text())
	}
	await(bob, "Game over: Black wins: checkmate")
	if st.OpenDKIM {
		if eve.Fetch(); len(eve.Inbox) > 0 {
			t.Errorf("eve, whose mail nothing vouches for, got an answer:\n%s", eve.Inbox[0].Text())
		}
	}
	// Dovecot restarted: serve is back within seconds (its backoff starts
	// over after every session that selected the mailbox) and answers.
	st.RestartDovecot(t)
	back := time.Now()
	send(bob, daemon.Mail{To: service, Subject: "help", Body: "help"})
	if _, err := bob.Await("", within); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(back); took > 20*time.Second { // seconds, not the minute of a grown backoff; room for a loaded machine
		t.Errorf("the answer came %v after Dovecot's restart; want within seconds", took.Round(100*time.Millisecond))
	}
	t.Logf("answered %v after Dovecot's restart", time.Since(back).Round(100*time.Millisecond))
	stopServe()
	s, err := store.Open(filepath.Join(dir, "data", "bottlepost.db"), store.Options{KeyFile: filepath.Join(dir, "data", "bottlepost.key")})
	if err != nil {
		t.Fatal(err)
	}
	var archived []uint64
	s.View(func(tx *store.Tx) error { archived, err = tx.ArchivedGames(); return err })
	s.Close()
	if len(archived) != 1 {
		t.Errorf("archived games %v, want the one played to mate", archived)
	}

	// Plus-addressing off (Postfix without recipient_delimiter): check-mail
	// says the replies cannot arrive.
	pf := filepath.Join(st.Dir, "postfix")
	for _, args := range [][]string{{"-c", pf, "-e", "recipient_delimiter="}} {
		if out, err := exec.Command("postconf", args...).CombinedOutput(); err != nil {
			t.Fatalf("postconf %v: %v\n%s", args, err, out)
		}
	}
	if out, err := exec.Command("postfix", "-c", pf, "reload").CombinedOutput(); err != nil {
		t.Fatalf("postfix reload: %v\n%s", err, out)
	}
	time.Sleep(time.Second) // the reload reaches the smtpd processes
	code, out, errOut = runCLI("check-mail", "--config", cfgPath, "--wait", "15s")
	t.Logf("check-mail without plus-addressing:\n%s%s", out, errOut)
	if code != 1 || !strings.Contains(out, "FAIL plus-addressing") || !strings.Contains(out, "recipient_delimiter") {
		t.Errorf("check-mail without plus-addressing: exit %d\n%s", code, out)
	}

	// OpenDKIM down: Postfix defers incoming mail rather than pass it
	// unverified (milter_default_action = tempfail).
	if st.OpenDKIM {
		st.StopOpenDKIM()
		_, err := alice.Send(daemon.Mail{To: service, Subject: "while the milter is down", Body: "hello"})
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code/100 != 4 {
			t.Errorf("mail accepted with OpenDKIM down (err %v); want it deferred (4xx)", err)
		}
	}
}

// awaitHeader waits for the message with this subject in the service's
// mailbox or its processed folder and returns the values of a header field.
func awaitHeader(t *testing.T, st *mailstack.Stack, tlsCfg *tls.Config, subject, field string) []string {
	t.Helper()
	c, err := imapclient.DialStartTLS(st.IMAP, &imapclient.Options{TLSConfig: tlsCfg})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("games@"+mailstack.Domain, mailstack.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	section := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		for _, box := range []string{"INBOX", "bottlepost-processed"} {
			if _, err := c.Select(box, nil).Wait(); err != nil {
				continue
			}
			found, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}, nil).Wait()
			if err != nil || len(found.AllUIDs()) == 0 {
				continue
			}
			msgs, err := c.Fetch(imap.UIDSetNum(found.AllUIDs()[0]), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
			if err != nil || len(msgs) == 0 {
				t.Fatalf("fetching %q: %v", subject, err)
			}
			var vals []string
			for _, line := range strings.Split(strings.ReplaceAll(string(msgs[0].FindBodySection(section)), "\r\n\t", " "), "\r\n") {
				if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, field) {
					vals = append(vals, strings.TrimSpace(v))
				}
			}
			return vals
		}
	}
	t.Fatalf("no message %q arrived in the service's mailbox", subject)
	return nil
}
