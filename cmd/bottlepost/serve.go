package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/mailer"
)

// signals delivers SIGTERM/SIGINT (stop) and SIGHUP (reload); a variable so
// tests can drive serve without real signals.
var signals = func() (stop <-chan os.Signal, reload <-chan os.Signal, release func()) {
	s := make(chan os.Signal, 1)
	r := make(chan os.Signal, 1)
	signal.Notify(s, syscall.SIGTERM, syscall.SIGINT)
	signal.Notify(r, syscall.SIGHUP)
	return s, r, func() { signal.Stop(s); signal.Stop(r) }
}

func runServe(args []string, stdout, stderr io.Writer) int {
	tuneGC()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "the configuration file (default: none, the embedded mail hub)")
	check := fs.Bool("check-config", false, "check the configuration and exit")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the service's whole run to this file (go tool pprof reads it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost:", err)
			return 2
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "bottlepost:", err)
			return 2
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: bottlepost serve [--config FILE] [--check-config]")
		return 2
	}
	cfg, err := config.Load(*path)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return 2
	}
	if *check {
		src := *path
		if src == "" {
			src = "the defaults"
		}
		mode := "the embedded mail hub on " + cfg.Hub.IMAPListen + " (IMAP) and " + cfg.Hub.SMTPListen + " (SMTP)"
		if !cfg.Embedded() {
			mode = fmt.Sprintf("IMAP %s:%d (%s), SMTP %s:%d (%s)", cfg.IMAP.Host, cfg.IMAP.Port, cfg.IMAP.Security, cfg.SMTP.Host, cfg.SMTP.Port, cfg.SMTP.Security)
		}
		web := "web view off"
		if cfg.Web.Listen != "" {
			web = "web view on " + cfg.Web.Listen
		}
		fmt.Fprintf(stdout, "configuration OK (%s): %s as %s, data in %s, %s\n", src, mode, cfg.Service.Address, cfg.Service.DataDir, web)
		if !cfg.Embedded() {
			fmt.Fprintf(stdout, "(nothing was connected to: bottlepost check-mail --config %s tries the mail servers)\n", *path)
		}
		return 0
	}
	level := new(slog.LevelVar)
	lv, _ := config.ParseLevel(cfg.Service.LogLevel)
	level.Set(lv)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	stop, reload, release := signals()
	defer release()
	var previous *config.Config // the configuration that ran before a reload
	// The hub's and the web view's ports stay open across a reload: the
	// next daemon takes the listeners of the addresses it keeps, so no other
	// program can bind them in between (issue 35.6).
	kept := daemon.NewListeners()
	defer kept.Close()
	for {
		d, err := daemon.New(cfg, daemon.Options{Logger: log, Listeners: kept})
		if err == nil {
			if err = d.Start(); err != nil {
				d.Close()
			}
		}
		if err != nil {
			if previous == nil {
				log.Error("cannot start", "err", err)
				return 1
			}
			// The new configuration does not start: go back to the one that ran.
			log.Error("reload failed; running the previous configuration again", "err", err)
			cfg, previous = *previous, nil
			continue
		}
		kept.Release() // the ports of addresses the configuration no longer names
		banner(stdout, cfg, d.Hub(), d.WebAddr())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()
		var next config.Config
	wait:
		for {
			select {
			case err := <-done:
				cancel()
				if err != nil {
					log.Error("stopped", "err", err)
					return 1
				}
				return 0
			case sig := <-stop:
				log.Info("stopping: finishing the work under way", "signal", sig.String())
				cancel()
				if err := <-done; err != nil {
					log.Error("stopped", "err", err)
					return 1
				}
				log.Info("stopped cleanly")
				return 0
			case <-reload:
				c, err := config.Load(*path)
				if err != nil {
					log.Error("reload refused: the configuration has errors; still running the old one", "err", err)
					continue
				}
				lv, _ := config.ParseLevel(c.Service.LogLevel)
				level.Set(lv)
				log.Info("reloading the configuration")
				next = c
				break wait
			}
		}
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			log.Error("stopped during reload", "err", err)
			return 1
		}
		prev := cfg
		previous = &prev
		cfg = next
	}
}

// banner tells the person who started serve how to connect a mail client,
// and where the web view is.
func banner(w io.Writer, cfg config.Config, hub *mailer.Hub, webAddr string) {
	web := ""
	if webAddr != "" {
		web = fmt.Sprintf("Web view (read-only: games in play, finished games, the rules): http://%s/\n", webURLHost(webAddr))
	}
	if hub == nil {
		fmt.Fprintf(w, "bottlepost is running as %s (IMAP %s:%d, SMTP %s:%d); data in %s.\n%s",
			cfg.Service.Address, cfg.IMAP.Host, cfg.IMAP.Port, cfg.SMTP.Host, cfg.SMTP.Port, cfg.Service.DataDir, web)
		return
	}
	password := fmt.Sprintf(`its own password: run  bottlepost hub-password NAME --data %s
             (it makes the account and prints its password, kept in %s, readable by you only)`,
		shellQuote(cfg.Service.DataDir), filepath.Join(cfg.Service.DataDir, "hub", "passwords", "NAME"))
	if cfg.Hub.Password.Value != "" {
		password = fmt.Sprintf("password %q (hub.password, shared by every player account)", cfg.Hub.Password.Value)
	}
	fmt.Fprintf(w, `bottlepost is running with its own mail hub; data in %s.

Point any mail client at it:
  account:   NAME@%s (for example alice@%s), %s
  incoming:  IMAP %s, no encryption (loopback only), normal password
  outgoing:  SMTP %s, no encryption (loopback only), normal password
Then send a mail to %s to begin; it answers with your personal address.
Mail the hub accepted is kept in %s until it leaves the INBOX.
%sStop with Ctrl-C.
`, cfg.Service.DataDir, hub.Domain, hub.Domain, password, hub.IMAPAddr(), hub.SMTPAddr(), cfg.Service.Address,
		filepath.Join(cfg.Service.DataDir, "hub", "mail"), web)
}

// webURLHost is the host part of the web view's URL: a wildcard listener
// is reached on loopback.
func webURLHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// shellQuote quotes a path for the banner's command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func init() {
	commands["hub-password"] = command{"hub-password NAME [--config FILE] [--data DIR]  the embedded hub's password of account NAME (made on first use)", runHubPassword}
}

// runHubPassword prints an embedded hub account's password, making the
// account's random password when it has none yet. It reads and writes the
// file the running hub reads, so it works while serve runs.
func runHubPassword(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hub-password", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the service's configuration file")
	data := fs.String("data", "", "the data directory (default: the configuration's, else "+defaultDataDir+")")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: bottlepost hub-password NAME [--config FILE] [--data DIR]")
		return 2
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: hub-password:", err)
		return 2
	}
	name, _, _ := strings.Cut(strings.ToLower(pos[0]), "@")
	if local, _, _ := strings.Cut(cfg.Service.Address, "@"); name == strings.ToLower(local) && cfg.Hub.Password.Value != "" {
		fmt.Fprintln(stderr, "bottlepost: hub-password: the service's own mailbox has a password of its own, kept in the running service only")
		return 1
	}
	if cfg.Hub.Password.Value != "" {
		fmt.Fprintln(stdout, cfg.Hub.Password.Value)
		return 0
	}
	dir := *data
	if dir == "" {
		dir = cfg.Service.DataDir
	}
	pw, err := mailer.HubPassword(filepath.Join(dir, "hub"), name)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: hub-password:", err)
		return 1
	}
	fmt.Fprintln(stdout, pw)
	return 0
}
