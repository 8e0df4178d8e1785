package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bp.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultsAreValidAndEmbedded(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Embedded() || c.Hub.Password.Value != "" || c.Service.Address != "games@localhost" {
		t.Errorf("defaults: %+v", c)
	}
}

// TestWebListen: the web view is on at 127.0.0.1:8025 by default, moves
// where it is told, and an empty address turns it off.
func TestWebListen(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"default", "", "127.0.0.1:8025"},
		{"elsewhere", "[web]\nlisten = \":8080\"\n", ":8080"},
		{"off", "[web]\nlisten = \"\"\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(write(t, tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if c.Web.Listen != tc.want {
				t.Errorf("web.listen %q, want %q", c.Web.Listen, tc.want)
			}
		})
	}
}

// TestExampleLoadsAndCoversEveryField: config.example.toml loads, equals the
// defaults, and names every field of every section.
func TestExampleLoadsAndCoversEveryField(t *testing.T) {
	c, err := Load("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	d := Defaults()
	d.Validate()
	// Written out, a secret has a source and a list may be empty rather than absent.
	c.Hub.Password.Source = ""
	// The example spells out the game service's default limits, which the defaults leave
	// out (daemon's TestDefaultLimitsAgree checks the example's against game.DefaultLimits).
	c.Limits.CommandsPerMail, c.Limits.ChallengesPerHour, c.Limits.ChallengesPerDay = nil, nil, nil
	c.Limits.InvitationsPerDay, c.Limits.OpenChallenges, c.Limits.StrangersPerDay = nil, nil, nil
	if len(c.Service.Referees) == 0 {
		c.Service.Referees = nil
	}
	if !reflect.DeepEqual(c, d) {
		t.Errorf("the example differs from the defaults:\n got %+v\nwant %+v", c, d)
	}
	text, _ := os.ReadFile("../config.example.toml")
	ct := reflect.TypeOf(c)
	for i := range ct.NumField() {
		sec := ct.Field(i)
		if !strings.Contains(string(text), "["+sec.Tag.Get("toml")+"]") {
			t.Errorf("section [%s] missing from the example", sec.Tag.Get("toml"))
		}
		for j := range sec.Type.NumField() {
			key := sec.Type.Field(j).Tag.Get("toml")
			if !strings.Contains(string(text), "\n"+key+" = ") {
				t.Errorf("key %s.%s missing from the example", sec.Tag.Get("toml"), key)
			}
		}
	}
}

func TestStrictLoading(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"unknown key with position", "[service]\naddress = \"g@x.org\"\ncolour = \"red\"\n", "line 3, column 1: unknown key service.colour"},
		{"unknown section", "[servce]\naddress = \"g@x.org\"\n", "unknown key servce"},
		{"bad duration", "[imap]\npoll_interval = \"soon\"\n", `"soon" is not a duration`},
		{"imap timeout too short", "[imap]\ntimeout = \"10ms\"\n", "imap.timeout 10ms: want between 1s and 1h"},
		{"smtp timeout too long", "[smtp]\ntimeout = \"2h\"\n", "smtp.timeout 2h0m0s: want between 1s and 1h"},
		{"bad type", "[service]\nvacation_days = \"many\"\n", "line 2"},
		{"plus in address", "[service]\naddress = \"g+x@x.org\"\n", "without '+'"},
		{"hub off loopback", "[hub]\nimap_listen = \"0.0.0.0:1143\"\n", "loopback only"},
		{"plain imap off loopback", "[imap]\nhost = \"mail.example.org\"\nsecurity = \"plain\"\nusername = \"u\"\n[smtp]\nhost = \"mail.example.org\"\n", "allowed on loopback only"},
		{"imap without smtp", "[imap]\nhost = \"mail.example.org\"\nusername = \"u\"\n", "smtp.host must be set"},
		{"bad policy and level", "[service]\ntimeout_policy = \"whatever\"\nlog_level = \"loud\"\n", "timeout_policy"},
		{"cron that panics the library", "[schedule]\nsweep = \"TZ=\"\n", "schedule.sweep"},
		{"missing secret file", "[hub]\npassword = \"file:/nonexistent/secret\"\n", "hub.password"},
		{"bad default time control", "[service]\ndefault_time = \"fortnight\"\n", "service.default_time"},
		{"address off the hub's domain", "[service]\naddress = \"games@example.org\"\n", "must be on the hub's domain"},
		{"processed ids kept too briefly", "[limits]\nprocessed_retention = \"0s\"\n", "processed_retention must be at least 24h"},
		{"no commands per mail", "[limits]\ncommands_per_mail = 0\n", "limits.commands_per_mail 0: want 1 to 10000"},
		{"negative invitations", "[limits]\ninvitations_per_day = -1\n", "limits.invitations_per_day -1: want 1 to 10000"},
		{"no mail to strangers", "[limits]\nstrangers_per_day = 0\n", "limits.strangers_per_day 0: want 1 to 1000000"},
		{"open challenges unbounded", "[limits]\nopen_challenges = 1000000\n", "limits.open_challenges 1000000"},
		{"a day below an hour", "[limits]\nchallenges_per_hour = 20\nchallenges_per_day = 5\n", "limits.challenges_per_day 5 is below limits.challenges_per_hour 20"},
		{"web listen without a port", "[web]\nlisten = \"localhost\"\n", "web.listen \"localhost\": want HOST:PORT"},
		{"web listen with a bad port", "[web]\nlisten = \"127.0.0.1:http8\"\n", "web.listen"},
		{"no connection per web client", "[web]\nconnections_per_client = 0\n", "web.connections_per_client 0"},
		{"no request per web client", "[web]\nrequests_per_client = -1\n", "web.requests_per_client -1"},
		{"missing secret variable", "[hub]\npassword = \"env:BOTTLEPOST_TEST_UNSET_VARIABLE\"\n", "BOTTLEPOST_TEST_UNSET_VARIABLE is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(write(t, tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "config: ") {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSecretsFromFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pw"), []byte("s3cret\n"), 0o600)
	t.Setenv("BP_SMTP_PW", "from-env")
	c, err := Load(write(t, `[imap]
host = "mail.example.org"
username = "games"
password = "file:`+filepath.Join(dir, "pw")+`"
[smtp]
host = "mail.example.org"
password = "env:BP_SMTP_PW"
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Password.Value != "s3cret" || c.SMTP.Password.Value != "from-env" || c.IMAP.Port != 993 || c.SMTP.Port != 587 {
		t.Errorf("got %+v %+v", c.IMAP, c.SMTP)
	}
	if s := c.IMAP.Password.String(); strings.Contains(s, "s3cret") {
		t.Errorf("a secret leaks through String: %s", s)
	}
	if c.Embedded() {
		t.Error("an IMAP host configured, yet Embedded")
	}
	if time.Duration(c.IMAP.PollInterval) != time.Minute {
		t.Errorf("poll interval %v", c.IMAP.PollInterval)
	}
}

func FuzzLoad(f *testing.F) {
	ex, _ := os.ReadFile("../config.example.toml")
	f.Add(string(ex))
	f.Add("[service]\naddress = 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		c := Defaults()
		if err := decode([]byte(text), &c); err == nil {
			c.Validate() // must not panic
		}
	})
}

// tls_ca_file is read and checked at load time (a missing file, or one
// without a certificate, is named); a good one adds to the system roots.
func TestTLSCAFile(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	os.WriteFile(notPEM, []byte("hello\n"), 0o644)
	good := filepath.Join(dir, "ca.pem")
	os.WriteFile(good, selfSignedPEM(t), 0o644)
	base := "[service]\naddress = \"games@club.example\"\n[imap]\nhost = \"mail.club.example\"\nusername = \"games\"\n[smtp]\nhost = \"mail.club.example\"\n"
	for _, tc := range []struct {
		name, extra, want string
	}{
		{"missing file", "tls_ca_file = \"" + filepath.Join(dir, "nope.pem") + "\"\n", "smtp.tls_ca_file: open"},
		{"no certificate in it", "tls_ca_file = \"" + notPEM + "\"\n", "smtp.tls_ca_file: " + notPEM + " holds no PEM certificate"},
		{"good", "tls_ca_file = \"" + good + "\"\ntls_server_name = \"mail.club.example\"\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(write(t, base+tc.extra))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := ClientTLS(c.SMTP.TLSCAFile, c.SMTP.TLSServerName)
				if err != nil || cfg.RootCAs == nil || cfg.ServerName != "mail.club.example" {
					t.Errorf("ClientTLS = %+v, %v", cfg, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want …%s…", err, tc.want)
			}
		})
	}
}

// selfSignedPEM is a fresh self-signed certificate for mail.club.example.
func selfSignedPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.club.example"},
		DNSNames: []string{"mail.club.example"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestSecretFileModes checks issue 35.9: a password file that its group or
// others can read is refused, naming the chmod that fixes it; one readable
// by its owner only is read.
func TestSecretFileModes(t *testing.T) {
	tests := []struct {
		name string
		mode os.FileMode
		want string // "" when it loads
	}{
		{"owner only", 0o600, ""},
		{"owner read only", 0o400, ""},
		{"group-readable", 0o640, "has mode 0640"},
		{"world-readable", 0o644, "has mode 0644"},
		{"group-writable", 0o620, "has mode 0620"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pw := filepath.Join(t.TempDir(), "pw")
			if err := os.WriteFile(pw, []byte("s3cret\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(pw, tt.mode); err != nil {
				t.Fatal(err)
			}
			c, err := Load(write(t, "[hub]\npassword = \"file:"+pw+"\"\n"))
			switch {
			case tt.want == "" && (err != nil || c.Hub.Password.Value != "s3cret"):
				t.Errorf("got %v, %q; want the password read", err, c.Hub.Password.Value)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "hub.password") ||
				!strings.Contains(err.Error(), "chmod 600 "+pw)):
				t.Errorf("got %v; want an error with %q, hub.password and chmod 600 %s", err, tt.want, pw)
			}
		})
	}
}
