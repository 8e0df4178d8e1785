// Package daemon is the running service: it opens the store, builds the game
// service, starts the embedded mail hub when no mail server is configured,
// watches the mailbox (and a Maildir), drains the outbox over SMTP and runs
// the deadline sweep on its cron schedule. It owns the lifecycle of one
// configuration (start in order, a final drain on shutdown); reloading on
// SIGHUP is cmd/bottlepost's serve, which stops the daemon and starts one
// with the new configuration (the old one again if the new does not start),
// the ports kept open between them by Listeners.
package daemon

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
	"github.com/bottlepost/bottlepost/web"
)

// Daemon is the service with everything it runs.
type Daemon struct {
	cfg     config.Config
	log     *slog.Logger
	now     func() time.Time
	st      *store.Store
	svc     *game.Service
	hub     *mailer.Hub
	outbox  *mailer.Outbox
	limiter *mailer.RateLimiter
	wake    chan struct{}
	ours    []string

	imapCfg mailer.IMAPConfig
	ctl     net.Listener // the control socket, bound by Start
	webLn   net.Listener // the web view's, bound by Start when [web] listen is set
	webSrv  *http.Server
	// listen binds the hub's and the web view's ports: net.Listen, or
	// Options.Listeners'.
	listen func(network, addr string) (net.Listener, error)
	pruned time.Time // the last pruning of processed message ids (hourly); only tick, never two at once, uses it
}

// Options are the daemon's collaborators; zero values mean the real thing.
type Options struct {
	Logger *slog.Logger
	Clock  func() time.Time
	// Listeners, if set, keeps the hub's and the web view's listeners open
	// when this daemon stops, for the next one (serve's reload); nil binds
	// and closes them with the daemon.
	Listeners *Listeners
}

// New opens the store and builds the service; nothing listens yet.
func New(cfg config.Config, opt Options) (*Daemon, error) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	d := &Daemon{cfg: cfg, log: opt.Logger, now: opt.Clock, wake: make(chan struct{}, 1), listen: net.Listen}
	if opt.Listeners != nil {
		d.listen = opt.Listeners.Listen
	}
	if err := os.MkdirAll(cfg.Service.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("daemon: data directory: %w", err)
	}
	keyFile := cfg.Service.KeyFile
	if keyFile == "" {
		keyFile = filepath.Join(cfg.Service.DataDir, "bottlepost.key")
	}
	dbPath := filepath.Join(cfg.Service.DataDir, "bottlepost.db")
	st, err := store.Open(dbPath, store.Options{KeyFile: keyFile, Logger: d.log})
	if err != nil {
		return nil, err
	}
	d.st = st
	d.looseModes(dbPath)
	svc, err := game.New(game.Config{
		Address: cfg.Service.Address, Name: cfg.Service.Name, Referees: append([]string(nil), cfg.Service.Referees...),
		DefaultTime: cfg.Service.DefaultTime, TrustedAuthServ: cfg.Service.TrustedAuthServ,
		VacationDays: cfg.Service.VacationDays, Language: lang.Of(cfg.Service.Language), TimeoutPolicy: cfg.Service.TimeoutPolicy,
		ReminderBefore: time.Duration(cfg.Service.ReminderBefore), OutageGap: time.Duration(cfg.Schedule.OutageGap),
		Limits: gameLimits(cfg.Limits),
	}, game.Options{Store: st, Clock: d.now, Logger: d.log})
	if err != nil {
		st.Close()
		return nil, err
	}
	d.svc = svc
	d.ours = []string{cfg.Service.Address}
	d.limiter, err = mailer.NewRateLimiter(mailer.RateLimit{Burst: cfg.Limits.RepliesPerHour,
		Every: time.Hour / time.Duration(cfg.Limits.RepliesPerHour), Senders: 100000}, d.now)
	if err != nil {
		st.Close()
		return nil, err
	}
	return d, nil
}

// Hub is the embedded mail hub, or nil when a mail server is configured.
func (d *Daemon) Hub() *mailer.Hub { return d.hub }

// WebAddr is the address the web view listens on ("127.0.0.1:8025"), or ""
// when it is off; set once Start has returned.
func (d *Daemon) WebAddr() string {
	if d.webLn == nil {
		return ""
	}
	return d.webLn.Addr().String()
}

// listenWeb binds the web view's listener and builds its server: bounded
// header size and timeouts, so that a slow or greedy client holds nothing
// for long, and per-client limits on connections and requests (Run serves
// through web.LimitListener), so that one client cannot take it all.
func (d *Daemon) listenWeb() error {
	ln, err := d.listen("tcp", d.cfg.Web.Listen)
	if err != nil {
		return fmt.Errorf("daemon: the web view cannot listen on %s (web.listen; \"\" turns it off): %w", d.cfg.Web.Listen, err)
	}
	d.webLn = ln
	d.webSrv = &http.Server{
		Handler: web.New(d.svc, web.Options{Logger: d.log, Name: d.cfg.Service.Name, Address: d.cfg.Service.Address,
			ClientRequests: d.cfg.Web.RequestsPerClient}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(d.log.Handler(), slog.LevelDebug),
	}
	return nil
}

// Start binds the listeners: the control socket (so that once Start has
// returned, backup and export requests reach this daemon), and the embedded
// hub when no IMAP server is configured; then the IMAP and SMTP settings
// point at it.
func (d *Daemon) Start() error {
	d.finishInterruptedCopies()
	if d.ctl == nil {
		ctl, err := d.listenControl()
		if err != nil {
			return err
		}
		d.ctl = ctl
	}
	if d.webLn == nil && d.cfg.Web.Listen != "" {
		if err := d.listenWeb(); err != nil {
			return err
		}
	}
	local, _, _ := strings.Cut(d.cfg.Service.Address, "@")
	var smtpCfg smtpclient.Config
	if d.cfg.Embedded() {
		domain := d.cfg.Hub.Domain
		if _, dom, _ := strings.Cut(d.cfg.Service.Address, "@"); !strings.EqualFold(dom, domain) {
			return fmt.Errorf("daemon: service.address %s is not on the hub's domain %s", d.cfg.Service.Address, domain)
		}
		// Without hub.password every account has its own random password (in
		// DATA/hub/passwords); with it, the players share it (demos, tests), and
		// the service's own mailbox still gets one of its own, kept in memory.
		d.hub = mailer.NewHub(domain, d.cfg.Hub.Password.Value, d.cfg.Limits.MaxMessageBytes, d.log)
		d.hub.Dir = filepath.Join(d.cfg.Service.DataDir, "hub")
		d.hub.Listen = d.listen
		if d.cfg.Hub.Password.Value != "" {
			var rnd [16]byte
			rand.Read(rnd[:])
			d.hub.SetPassword(local, hex.EncodeToString(rnd[:]))
		}
		if err := d.hub.Start(d.cfg.Hub.IMAPListen, d.cfg.Hub.SMTPListen); err != nil {
			return err
		}
		own, err := d.hub.Password(local) // the service's own mailbox exists from the start
		if err != nil {
			d.hub.Close()
			return err
		}
		d.imapCfg = mailer.IMAPConfig{Addr: d.hub.IMAPAddr(), Security: "plain", Username: local,
			Password: own, Processed: d.cfg.IMAP.ProcessedFolder}
		smtpCfg = smtpclient.Config{Addr: d.hub.SMTPAddr(), Security: "plain", Username: local,
			Password: own, HELO: "localhost", Chunking: true} // the hub keeps a cut BDAT chunk out
	} else {
		var err error
		if d.imapCfg, smtpCfg, err = MailServers(d.cfg); err != nil {
			return err
		}
	}
	d.imapCfg.Mailbox = d.cfg.IMAP.Mailbox
	d.imapCfg.PollInterval = time.Duration(d.cfg.IMAP.PollInterval)
	d.imapCfg.IdleRefresh = time.Duration(d.cfg.IMAP.IdleRefresh)
	d.imapCfg.Timeout = time.Duration(d.cfg.IMAP.Timeout)
	smtpCfg.Timeout = time.Duration(d.cfg.SMTP.Timeout)
	d.imapCfg.MaxBytes = d.cfg.Limits.MaxMessageBytes
	sender, err := smtpclient.New(smtpCfg)
	if err != nil {
		return err
	}
	d.outbox = &mailer.Outbox{Queue: storeQueue{d.st}, Sender: sender, Log: d.log, Now: d.now,
		MaxAttempts: d.cfg.Limits.OutboxMaxAttempts, Connections: 4, Backoff: time.Duration(d.cfg.Limits.OutboxRetryBackoff),
		Ceiling: time.Duration(d.cfg.Limits.OutboxRetryCeiling)}
	return nil
}

// MailServers is how the service reaches a configured mail server (no
// embedded hub): the IMAP source's and the Sender's settings, TLS
// included. check-mail tries the same.
func MailServers(cfg config.Config) (mailer.IMAPConfig, smtpclient.Config, error) {
	c, s := cfg.IMAP, cfg.SMTP
	ic := mailer.IMAPConfig{Addr: net.JoinHostPort(c.Host, strconv.Itoa(c.Port)), Security: c.Security,
		Username: c.Username, Password: c.Password.Value, Processed: c.ProcessedFolder, Mailbox: c.Mailbox,
		PollInterval: time.Duration(c.PollInterval), IdleRefresh: time.Duration(c.IdleRefresh),
		Timeout: time.Duration(c.Timeout), MaxBytes: cfg.Limits.MaxMessageBytes}
	sc := smtpclient.Config{Addr: net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), Security: s.Security,
		Username: s.Username, Password: s.Password.Value, HELO: s.HELO, Timeout: time.Duration(s.Timeout),
		Chunking: s.Chunking}
	var err error
	if ic.TLSConfig, err = config.ClientTLS(c.TLSCAFile, c.TLSServerName); err != nil {
		return ic, sc, fmt.Errorf("daemon: imap.tls_ca_file: %w", err)
	}
	if sc.TLSConfig, err = config.ClientTLS(s.TLSCAFile, s.TLSServerName); err != nil {
		return ic, sc, fmt.Errorf("daemon: smtp.tls_ca_file: %w", err)
	}
	return ic, sc, nil
}

// Run serves until ctx ends: outage recovery first, then the mailbox
// watchers, the outbox and the sweep. On the way out it stops taking mail,
// drains the outbox once more and closes everything.
func (d *Daemon) Run(ctx context.Context) error {
	if d.outbox == nil {
		if err := d.Start(); err != nil {
			return err
		}
	}
	defer d.close()
	if out, err := d.svc.Recover(d.now(), time.Duration(d.cfg.Schedule.OutageGap)); err != nil {
		return err
	} else if !out.Start.IsZero() {
		d.log.Warn("outage recovered: clocks extended", "down", out.End.Sub(out.Start).Round(time.Second))
	}
	if err := d.svc.Heartbeat(d.now()); err != nil {
		return err
	}
	sched, err := timing.ParseSchedule(d.cfg.Schedule.Sweep)
	if err != nil {
		return err
	}
	go d.serveControl(d.ctl)
	var wg sync.WaitGroup
	if d.webSrv != nil {
		srv, ln := d.webSrv, d.webLn
		wg.Go(func() {
			if err := srv.Serve(web.LimitListener(ln, d.cfg.Web.ConnectionsPerClient)); err != nil && !errors.Is(err, http.ErrServerClosed) {
				d.log.Error("web view stopped", "err", err)
			}
		})
	}
	src, err := mailer.NewIMAPSource(d.imapCfg, d.log)
	if err != nil {
		return err
	}
	wg.Go(func() { src.Run(ctx, d.handleRaw) })
	if d.cfg.Maildir.Path != "" {
		md := &mailer.MaildirSource{Dir: d.cfg.Maildir.Path, Interval: time.Duration(d.cfg.Maildir.PollInterval), MaxBytes: d.cfg.Limits.MaxMessageBytes, Log: d.log}
		wg.Go(func() { md.Run(ctx, d.handleRaw) })
	}
	// The outbox is looked at whenever mail is queued, and at least as often
	// as the first retry wait: with a fixed minute, a mail refused with a
	// shorter limits.outbox_retry_backoff waited for the minute (or for the
	// next mail handled) however short the wait configured.
	wg.Go(func() { d.outbox.Run(ctx, d.wake, min(time.Minute, time.Duration(d.cfg.Limits.OutboxRetryBackoff))) })
	// A sweep still running when the next is due is not started twice: the
	// next one is skipped (and pruned, which only tick touches, is never
	// shared).
	c := cron.New(cron.WithLocation(time.UTC), cron.WithChain(cron.SkipIfStillRunning(cronLogger{d.log})))
	c.Schedule(sched, cron.FuncJob(func() { d.tick() }))
	c.Start()
	wg.Go(func() { d.watchClock(ctx) })
	wg.Go(d.checkPages)
	<-ctx.Done()
	if d.webSrv != nil {
		// Pages read the store: they finish (or are cut off) before it closes.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := d.webSrv.Shutdown(sctx); err != nil {
			d.webSrv.Close()
		}
		cancel()
	}
	<-c.Stop().Done()
	wg.Wait()
	if _, err := d.outbox.Drain(); err != nil {
		d.log.Warn("final outbox drain", "err", err)
	}
	d.outbox.Close() // the sessions kept open end with a QUIT
	return nil
}

// tick runs the sweep (reminders, timeouts, digests) and wakes the outbox.
func (d *Daemon) tick() {
	res, err := d.svc.Tick(d.now())
	if err != nil {
		d.log.Error("sweep", "err", err)
		return
	}
	if res.Reminders+res.Timeouts+res.Digests > 0 {
		d.log.Info("sweep", "reminders", res.Reminders, "timeouts", res.Timeouts, "digests", res.Digests)
		d.kick()
	}
	if d.now().Sub(d.pruned) < time.Hour {
		return
	}
	d.pruned = d.now()
	if n, err := d.pruneProcessed(); err != nil {
		d.log.Warn("pruning processed message ids", "err", err)
	} else if n > 0 {
		d.log.Debug("pruned processed message ids", "n", n)
	}
}

// watchClock keeps the heartbeat fresh between sweeps, whatever their
// schedule, and notices a clock that jumped forward (a suspend, a clock
// step) as each sweep does: the jump becomes an outage and every running
// clock is extended by it (game.Service.CheckClock).
func (d *Daemon) watchClock(ctx context.Context) {
	t := time.NewTicker(max(time.Duration(d.cfg.Schedule.OutageGap)/4, time.Second))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := d.svc.CheckClock(d.now()); err != nil {
			d.log.Error("heartbeat", "err", err)
		}
	}
}

// checkPages runs bbolt's page check once at start-up, beside the service,
// so that a damaged database is reported at once (not only when a
// transaction stumbles on the damage). The games it names are still served
// where they can be.
func (d *Daemon) checkPages() {
	start := time.Now()
	problems := store.Problems(d.st.CheckPages())
	for i, p := range problems {
		if i == 20 {
			d.log.Error("database damaged: more problems", "more", len(problems)-i)
			break
		}
		d.log.Error("database damaged", "problem", p)
	}
	if len(problems) > 0 {
		d.log.Error("the database is damaged: run bottlepost check-store, and restore from a backup if it names games", "problems", len(problems))
		return
	}
	d.log.Info("database pages checked: no problem", "took", time.Since(start).Round(time.Millisecond))
}

// cronLogger passes the scheduler's messages to the log: a sweep skipped
// because the last is still running is a warning worth seeing.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) {
	if msg == "skip" {
		c.l.Warn("sweep skipped: the previous sweep is still running")
		return
	}
	c.l.Debug("cron: "+msg, kv...)
}

func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append(kv, "err", err)...)
}

func (d *Daemon) pruneProcessed() (int, error) {
	var n int
	err := d.st.Update(func(tx *store.Tx) error {
		var err error
		n, err = tx.PruneProcessed(d.now().Add(-time.Duration(d.cfg.Limits.ProcessedRetention)))
		return err
	})
	return n, err
}

func (d *Daemon) kick() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// handleRaw takes one raw incoming message from any source. Junk (mail
// that does not parse, bounces, auto-replies, lists, our own) is dropped
// with a log line; everything else goes to the game service. An error
// means the message must be kept and offered again.
func (d *Daemon) handleRaw(raw []byte) error {
	m, err := mailfmt.Parse(bytes.NewReader(raw), d.cfg.Limits.MaxMessageBytes)
	if err != nil {
		d.log.Info("mail dropped: unreadable", "err", err)
		return nil
	}
	if noise, why := mailfmt.Classify(m, d.ours); noise != mailfmt.NotNoise {
		d.log.Info("mail dropped: never answered", "from", m.From.Address, "kind", noise.String(), "why", why)
		return nil
	}
	in := &game.Incoming{MessageID: m.MessageID, From: m.From.Address, FromName: m.From.Name,
		Subject: m.Subject, References: m.References, Date: m.Date, Lines: mailfmt.Lines(m.Body),
		AuthResults: m.AuthenticationResults}
	if len(m.InReplyTo) > 0 {
		in.InReplyTo = m.InReplyTo[0]
	}
	in.Recipients = m.Recipients()
	in.Allow = func() game.Allowance {
		v := d.limiter.Take(m.From.Address)
		return game.Allowance{OK: v.OK, Notice: v.Notice, Resume: v.Resume}
	}
	res, err := d.svc.Handle(in)
	if err != nil {
		var se *game.SystemError
		if errors.As(err, &se) {
			d.log.Error("mail kept for retry", "from", m.From.Address, "id", m.MessageID, "err", err)
		}
		return err
	}
	d.log.Debug("mail handled", "from", m.From.Address, "id", m.MessageID, "mails", res.Mails, "refused", res.Refused, "duplicate", res.Duplicate)
	if res.Mails > 0 {
		d.kick()
	}
	return nil
}

func (d *Daemon) close() {
	if d.ctl != nil {
		d.ctl.Close()
	}
	if d.webLn != nil {
		d.webLn.Close() // closed already when the server ran
	}
	if d.hub != nil {
		d.hub.Close()
	}
	d.st.Close()
}

// Close releases the store and the hub of a daemon that was never run.
func (d *Daemon) Close() { d.close() }

// gameLimits is the configured limits as the game service takes them: one left
// out is 0, the game service's own default (game.DefaultLimits).
func gameLimits(l config.Limits) game.Limits {
	set := func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	}
	return game.Limits{CommandsPerMail: set(l.CommandsPerMail), ChallengesPerHour: set(l.ChallengesPerHour), ChallengesPerDay: set(l.ChallengesPerDay),
		InvitationsPerDay: set(l.InvitationsPerDay), OpenChallenges: set(l.OpenChallenges), StrangersPerDay: set(l.StrangersPerDay)}
}
