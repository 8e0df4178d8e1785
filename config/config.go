// Package config is bottlepost's configuration: the defaults, strict loading
// of a TOML file (unknown keys are errors with their line and column),
// secrets read from files or environment variables, and validation in one
// place. With no file at all, the defaults run the embedded mail hub on
// loopback with a data directory in the working directory.
package config

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/timing"
	"github.com/pelletier/go-toml/v2"
)

// Config is the whole configuration.
type Config struct {
	Service  Service  `toml:"service"`
	Hub      Hub      `toml:"hub"`
	IMAP     IMAP     `toml:"imap"`
	SMTP     SMTP     `toml:"smtp"`
	Maildir  Maildir  `toml:"maildir"`
	Limits   Limits   `toml:"limits"`
	Schedule Schedule `toml:"schedule"`
	Web      Web      `toml:"web"`
}

// Web is the read-only web view of the games (see docs/web.md).
type Web struct {
	// Listen is the HTTP server's address, such as "127.0.0.1:8025" or
	// ":80"; empty turns the web view off.
	Listen string `toml:"listen"`
	// ConnectionsPerClient and RequestsPerClient bound what one client (an
	// IP address) holds at once: open connections, and requests waiting
	// for a page or being drawn (web.LimitListener, web.Options).
	ConnectionsPerClient int `toml:"connections_per_client"`
	RequestsPerClient    int `toml:"requests_per_client"`
}

// Service is the game service's own settings.
type Service struct {
	Address         string   `toml:"address"`          // the service's address; tokens go after a '+'
	Name            string   `toml:"name"`             // display name on outgoing mail
	DataDir         string   `toml:"data_dir"`         // the database lives here
	KeyFile         string   `toml:"key_file"`         // the master key; default DATA_DIR/bottlepost.key
	LogLevel        string   `toml:"log_level"`        // debug, info, warn, error
	Referees        []string `toml:"referees"`         // addresses allowed to audit and adjudicate
	DefaultTime     string   `toml:"default_time"`     // time control of games that name none
	TimeoutPolicy   string   `toml:"timeout_policy"`   // "loss" or "notify"
	VacationDays    int      `toml:"vacation_days"`    // yearly allowance per player; 0: no vacations
	ReminderBefore  Duration `toml:"reminder_before"`  // the second reminder, before the deadline
	TrustedAuthServ string   `toml:"trusted_authserv"` // trust this server's Authentication-Results
	Language        string   `toml:"language"`         // mails to players who chose none: "en" or "de"
}

// Hub is the embedded mail hub, used when no IMAP server is configured.
type Hub struct {
	IMAPListen string `toml:"imap_listen"` // loopback only
	SMTPListen string `toml:"smtp_listen"` // loopback only
	Domain     string `toml:"domain"`      // accounts are NAME@DOMAIN
	Password   Secret `toml:"password"`    // every player account's password (demos, tests); empty: each account its own
}

// IMAP is the mailbox the service watches.
type IMAP struct {
	Host            string   `toml:"host"` // empty: use the embedded hub
	Port            int      `toml:"port"`
	Security        string   `toml:"security"` // "tls", "starttls" or "plain" (loopback only)
	Username        string   `toml:"username"`
	Password        Secret   `toml:"password"`
	Mailbox         string   `toml:"mailbox"`
	ProcessedFolder string   `toml:"processed_folder"` // where handled mail goes; "" to only flag it
	PollInterval    Duration `toml:"poll_interval"`    // when the server has no IDLE
	IdleRefresh     Duration `toml:"idle_refresh"`     // re-issue IDLE this often
	Timeout         Duration `toml:"timeout"`          // longest silence while the server owes an answer
	TLSCAFile       string   `toml:"tls_ca_file"`      // PEM certificates trusted besides the system's
	TLSServerName   string   `toml:"tls_server_name"`  // the name the certificate must hold; default host
}

// SMTP is the submission server outgoing mail goes through.
type SMTP struct {
	Host          string   `toml:"host"` // empty: use the embedded hub
	Port          int      `toml:"port"`
	Security      string   `toml:"security"` // "tls", "starttls" or "plain" (loopback only)
	Username      string   `toml:"username"`
	Password      Secret   `toml:"password"`
	HELO          string   `toml:"helo"`
	Timeout       Duration `toml:"timeout"`         // longest wait for any step of a submission
	TLSCAFile     string   `toml:"tls_ca_file"`     // PEM certificates trusted besides the system's
	TLSServerName string   `toml:"tls_server_name"` // the name the certificate must hold; default host
	Chunking      bool     `toml:"chunking"`        // send with BDAT where offered (smtpclient.Config.Chunking)
}

// Maildir is an optional second source of incoming mail.
type Maildir struct {
	Path         string   `toml:"path"` // empty: off
	PollInterval Duration `toml:"poll_interval"`
}

// Limits bound what the service accepts and sends.
type Limits struct {
	MaxMessageBytes    int64    `toml:"max_message_bytes"`    // larger mail is not fetched
	RepliesPerHour     int      `toml:"replies_per_hour"`     // per sender
	ProcessedRetention Duration `toml:"processed_retention"`  // how long message ids are kept
	OutboxMaxAttempts  int      `toml:"outbox_max_attempts"`  // then the mail is given up and logged
	OutboxRetryBackoff Duration `toml:"outbox_retry_backoff"` // first retry; doubles each time
	OutboxRetryCeiling Duration `toml:"outbox_retry_ceiling"` // longest wait between retries
	// What one sender can make the service do (game.Limits). One left out (nil,
	// as in the defaults) is the game service's own default: game.DefaultLimits
	// is the one place they are written (config.example.toml spells them out).
	CommandsPerMail   *int `toml:"commands_per_mail"`   // commands of one mail acted on
	ChallengesPerHour *int `toml:"challenges_per_hour"` // new challenges per sender in any hour
	ChallengesPerDay  *int `toml:"challenges_per_day"`  // … and in any 24 hours
	InvitationsPerDay *int `toml:"invitations_per_day"` // challenges to addresses that never wrote, per sender in any 24 hours
	OpenChallenges    *int `toml:"open_challenges"`     // challenges one player has waiting for an answer
	StrangersPerDay   *int `toml:"strangers_per_day"`   // mails a UTC day, service-wide, to addresses that never wrote
}

// Schedule is the recurring work.
type Schedule struct {
	Sweep     string   `toml:"sweep"`      // cron spec of the deadline sweep and digests
	OutageGap Duration `toml:"outage_gap"` // a silence longer than this at start-up is an outage
}

// Defaults is the configuration used with no file: the embedded hub on
// loopback and a data directory in the working directory.
func Defaults() Config {
	return Config{
		Service: Service{
			Address: "games@localhost", Name: "bottlepost", DataDir: "bottlepost-data", LogLevel: "info",
			DefaultTime: "3d", TimeoutPolicy: "loss", Language: "en", VacationDays: 30, ReminderBefore: Duration(24 * time.Hour),
		},
		Hub:     Hub{IMAPListen: "127.0.0.1:1143", SMTPListen: "127.0.0.1:2525", Domain: "localhost"},
		IMAP:    IMAP{Security: "tls", Mailbox: "INBOX", ProcessedFolder: "bottlepost-processed", PollInterval: Duration(time.Minute), IdleRefresh: Duration(25 * time.Minute), Timeout: Duration(time.Minute)},
		SMTP:    SMTP{Security: "starttls", Port: 587, HELO: "localhost", Timeout: Duration(time.Minute)},
		Maildir: Maildir{PollInterval: Duration(10 * time.Second)},
		// The limits of what one sender can make the service do are left out:
		// the game service's own defaults (game.DefaultLimits).
		Limits:   Limits{MaxMessageBytes: 1 << 20, RepliesPerHour: 30, ProcessedRetention: Duration(90 * 24 * time.Hour), OutboxMaxAttempts: 50, OutboxRetryBackoff: Duration(30 * time.Second), OutboxRetryCeiling: Duration(6 * time.Hour)},
		Schedule: Schedule{Sweep: "@every 1m", OutageGap: Duration(5 * time.Minute)},
		Web:      Web{Listen: "127.0.0.1:8025", ConnectionsPerClient: 16, RequestsPerClient: 4},
	}
}

// check reports what is wrong with the [limits] section through bad.
func (l *Limits) check(bad func(format string, args ...any)) {
	if l.MaxMessageBytes < 1024 {
		bad("limits.max_message_bytes %d: want at least 1024", l.MaxMessageBytes)
	}
	if l.ProcessedRetention < Duration(24*time.Hour) {
		bad("limits.processed_retention must be at least 24h: redelivered mail is recognised only while its id is kept")
	}
	if l.RepliesPerHour < 1 {
		bad("limits.replies_per_hour must be at least 1")
	}
	for _, n := range []struct {
		name string
		v    *int
	}{
		{"commands_per_mail", l.CommandsPerMail}, {"challenges_per_hour", l.ChallengesPerHour},
		{"challenges_per_day", l.ChallengesPerDay}, {"invitations_per_day", l.InvitationsPerDay},
		{"open_challenges", l.OpenChallenges},
	} {
		if n.v != nil && (*n.v < 1 || *n.v > 10000) {
			bad("limits.%s %d: want 1 to 10000", n.name, *n.v)
		}
	}
	if n := l.StrangersPerDay; n != nil && (*n < 1 || *n > 1000000) {
		bad("limits.strangers_per_day %d: want 1 to 1000000", *n)
	}
	// Against a default, the game service checks it when it starts.
	if day, hour := l.ChallengesPerDay, l.ChallengesPerHour; day != nil && hour != nil && *day < *hour {
		bad("limits.challenges_per_day %d is below limits.challenges_per_hour %d", *day, *hour)
	}
	if l.OutboxMaxAttempts < 1 {
		bad("limits.outbox_max_attempts must be at least 1")
	}
	if l.OutboxRetryBackoff <= 0 || l.OutboxRetryCeiling < l.OutboxRetryBackoff {
		bad("limits.outbox_retry_backoff must be positive and at most limits.outbox_retry_ceiling")
	}
}

// Embedded reports whether the embedded hub serves the mail (no IMAP host).
func (c *Config) Embedded() bool { return c.IMAP.Host == "" }

// Load reads a TOML file over the defaults, strictly: an unknown key is an
// error naming its line and column. Secrets are resolved and everything is
// validated. An empty path gives the defaults.
func Load(path string) (Config, error) {
	c := Defaults()
	if path == "" {
		return c, c.Validate()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	if err := decode(data, &c); err != nil {
		return c, fmt.Errorf("config: %s: %w", path, err)
	}
	return c, c.Validate()
}

// LoadDeliver reads a configuration file for `bottlepost deliver`: the
// whole file is checked for unknown keys, but only what deliver uses is
// validated and read — [service] address, [maildir] path and
// [limits] max_message_bytes. No password file is read and no [hub] or
// [imap] setting is required, so the serve configuration, or a small
// one of its own, works for an MTA pipe running as another user.
func LoadDeliver(path string) (Config, error) {
	c := Defaults()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return c, fmt.Errorf("config: %w", err)
		}
		if err := decode(data, &c); err != nil {
			return c, fmt.Errorf("config: %s: %w", path, err)
		}
	}
	var errs []string
	if a, err := mail.ParseAddress(c.Service.Address); err != nil || a.Address != c.Service.Address || strings.Contains(c.Service.Address, "+") {
		errs = append(errs, fmt.Sprintf("service.address %q must be a plain address without '+'", c.Service.Address))
	}
	if c.Maildir.Path == "" {
		errs = append(errs, "maildir.path must be set: serve reads the messages deliver stores there")
	}
	if c.Limits.MaxMessageBytes < 1024 {
		errs = append(errs, fmt.Sprintf("limits.max_message_bytes %d: want at least 1024", c.Limits.MaxMessageBytes))
	}
	if len(errs) > 0 {
		return c, errors.New("config: " + strings.Join(errs, "; "))
	}
	return c, nil
}

func decode(data []byte, c *Config) error {
	d := toml.NewDecoder(strings.NewReader(string(data)))
	d.DisallowUnknownFields()
	err := d.Decode(c)
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var parts []string
		for _, e := range strict.Errors {
			row, col := e.Position()
			parts = append(parts, fmt.Sprintf("line %d, column %d: unknown key %s", row, col, strings.Join(e.Key(), ".")))
		}
		return errors.New(strings.Join(parts, "; "))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("line %d, column %d: %s", row, col, de.Error())
	}
	return err
}

// Validate checks every setting and resolves secrets; all problems are
// reported together.
func (c *Config) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	s := &c.Service
	if a, err := mail.ParseAddress(s.Address); err != nil || a.Address != s.Address || strings.Contains(s.Address, "+") {
		bad("service.address %q must be a plain address without '+' (tokens are added after a '+')", s.Address)
	}
	if s.DataDir == "" {
		bad("service.data_dir must not be empty")
	}
	if _, err := ParseLevel(s.LogLevel); err != nil {
		bad("service.log_level: %v", err)
	}
	for _, r := range s.Referees {
		if _, err := mail.ParseAddress(r); err != nil {
			bad("service.referees: %q is not an address", r)
		}
	}
	if _, err := timing.ParseTimeControl(s.DefaultTime); err != nil {
		bad("service.default_time: %v", strings.TrimPrefix(err.Error(), "timing: "))
	}
	if s.TimeoutPolicy != "loss" && s.TimeoutPolicy != "notify" {
		bad("service.timeout_policy %q: want \"loss\" or \"notify\"", s.TimeoutPolicy)
	}
	if _, ok := lang.Parse(s.Language); !ok {
		bad("service.language %q: want \"en\" (English) or \"de\" (German)", s.Language)
	}
	if s.VacationDays < 0 || s.VacationDays > 366 {
		bad("service.vacation_days %d: want 0 to 366", s.VacationDays)
	}
	if c.Web.Listen != "" {
		if _, port, err := net.SplitHostPort(c.Web.Listen); err != nil || !validPort(port) {
			bad("web.listen %q: want HOST:PORT, such as 127.0.0.1:8025 (or \"\" to turn the web view off)", c.Web.Listen)
		}
	}
	if c.Web.ConnectionsPerClient < 1 || c.Web.RequestsPerClient < 1 {
		bad("web.connections_per_client %d and web.requests_per_client %d: want at least 1 each", c.Web.ConnectionsPerClient, c.Web.RequestsPerClient)
	}
	if c.Embedded() {
		for name, addr := range map[string]string{"hub.imap_listen": c.Hub.IMAPListen, "hub.smtp_listen": c.Hub.SMTPListen} {
			if !loopback(addr) {
				bad("%s %q: the embedded hub listens on loopback only (127.0.0.1:PORT or [::1]:PORT)", name, addr)
			}
		}
		if c.Hub.Domain == "" {
			bad("hub.domain must not be empty")
		} else if _, dom, _ := strings.Cut(s.Address, "@"); !strings.EqualFold(dom, c.Hub.Domain) {
			bad("service.address %s must be on the hub's domain %s (hub.domain)", s.Address, c.Hub.Domain)
		}
		if err := c.Hub.Password.resolve("hub.password"); err != nil {
			bad("%v", err)
		}
	} else {
		c.checkServer("imap", c.IMAP.Host, &c.IMAP.Port, c.IMAP.Security, 993, 143, bad)
		if c.IMAP.Username == "" {
			bad("imap.username must be set")
		}
		if err := c.IMAP.Password.resolve("imap.password"); err != nil {
			bad("%v", err)
		}
		if c.IMAP.Mailbox == "" {
			bad("imap.mailbox must not be empty")
		}
		if c.IMAP.PollInterval < Duration(time.Second) {
			bad("imap.poll_interval must be at least 1s")
		}
		if c.SMTP.Host == "" {
			bad("smtp.host must be set when imap.host is (or leave both empty for the embedded hub)")
		}
		c.checkServer("smtp", c.SMTP.Host, &c.SMTP.Port, c.SMTP.Security, 465, 587, bad)
		if err := c.SMTP.Password.resolve("smtp.password"); err != nil {
			bad("%v", err)
		}
		for name, path := range map[string]string{"imap.tls_ca_file": c.IMAP.TLSCAFile, "smtp.tls_ca_file": c.SMTP.TLSCAFile} {
			if path == "" {
				continue
			}
			if _, err := ClientTLS(path, ""); err != nil {
				bad("%s: %v", name, err)
			}
		}
	}
	for name, d := range map[string]Duration{"imap.timeout": c.IMAP.Timeout, "smtp.timeout": c.SMTP.Timeout} {
		if d < Duration(time.Second) || d > Duration(time.Hour) {
			bad("%s %v: want between 1s and 1h", name, time.Duration(d))
		}
	}
	c.Limits.check(bad)
	if _, err := timing.ParseSchedule(c.Schedule.Sweep); err != nil {
		bad("schedule.sweep: %v", strings.TrimPrefix(err.Error(), "timing: "))
	}
	if c.Schedule.OutageGap < Duration(time.Minute) {
		bad("schedule.outage_gap must be at least 1m")
	}
	if len(errs) > 0 {
		return errors.New("config: " + strings.Join(errs, "; "))
	}
	return nil
}

func (c *Config) checkServer(name, host string, port *int, security string, tlsPort, plainPort int, bad func(string, ...any)) {
	switch security {
	case "tls":
		if *port == 0 {
			*port = tlsPort
		}
	case "starttls":
		if *port == 0 {
			*port = plainPort
		}
	case "plain":
		if *port == 0 {
			*port = plainPort
		}
		if !loopback(net.JoinHostPort(host, strconv.Itoa(*port))) {
			bad("%s.security \"plain\" is allowed on loopback only; use \"tls\" or \"starttls\" for %s", name, host)
		}
	default:
		bad("%s.security %q: want \"tls\", \"starttls\" or \"plain\"", name, security)
	}
	if *port < 1 || *port > 65535 {
		bad("%s.port %d is not a port", name, *port)
	}
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 0 && n <= 65535
}

func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ClientTLS is the TLS configuration of a connection to a mail server:
// the system's roots plus the certificates of the PEM file caFile (if
// any: a private CA, or a self-signed server certificate itself), and the
// name the server's certificate must hold (if any; else the host dialled).
func ClientTLS(caFile, serverName string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: serverName}
	if caFile == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", caFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// ParseLevel reads a log level name.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("%q is not a log level (debug, info, warn, error)", s)
	}
	return l, nil
}

// Duration is a time.Duration written as "30s", "5m", "24h" in TOML.
type Duration time.Duration

// UnmarshalText reads a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration (like 30s, 5m or 24h)", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration as Go does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Secret is a password given inline, in a file ("file:/path") or in an
// environment variable ("env:NAME"). Value holds it once resolved.
type Secret struct {
	Source string // as written
	Value  string
}

// UnmarshalText keeps the source; resolve reads it.
func (s *Secret) UnmarshalText(b []byte) error {
	s.Source, s.Value = string(b), ""
	return nil
}

// MarshalText never writes the secret itself.
func (s Secret) MarshalText() ([]byte, error) {
	if strings.HasPrefix(s.Source, "file:") || strings.HasPrefix(s.Source, "env:") {
		return []byte(s.Source), nil
	}
	return []byte("(hidden)"), nil
}

// String hides the value in logs.
func (s Secret) String() string {
	if s.Value == "" {
		return "(empty)"
	}
	return "(hidden)"
}

func (s *Secret) resolve(name string) error {
	switch {
	case strings.HasPrefix(s.Source, "file:"):
		b, err := readSecretFile(strings.TrimPrefix(s.Source, "file:"))
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		s.Value = strings.TrimRight(string(b), "\r\n")
	case strings.HasPrefix(s.Source, "env:"):
		v, ok := os.LookupEnv(strings.TrimPrefix(s.Source, "env:"))
		if !ok {
			return fmt.Errorf("%s: the environment variable %s is not set", name, strings.TrimPrefix(s.Source, "env:"))
		}
		s.Value = v
	case s.Source != "":
		s.Value = s.Source
	}
	return nil
}

// readSecretFile reads a password file, which must be readable by its
// owner only (issue 35.9: a file others can read gives the password to
// every local user): one with group or other permissions is refused, with
// the chmod that fixes it.
func readSecretFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("the file %s has mode %04o: others can read the password; make it readable by its owner only: chmod 600 %s", path, perm, path)
	}
	return io.ReadAll(f)
}
