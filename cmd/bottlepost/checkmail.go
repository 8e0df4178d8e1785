package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/mailer"
)

func init() {
	commands["check-mail"] = command{"check-mail --config FILE [--wait D]  try the mail servers: IMAP, SMTP and plus-address delivery, one line per step", runCheckMail}
}

func runCheckMail(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-mail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "the configuration file serve uses")
	wait := fs.Duration("wait", time.Minute, "how long the probe may take to reach the mailbox")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *path == "" {
		fmt.Fprintln(stderr, "usage: bottlepost check-mail --config FILE [--wait D]")
		return 2
	}
	cfg, err := config.Load(*path)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return 2
	}
	if cfg.Embedded() {
		fmt.Fprintln(stderr, "bottlepost: check-mail: the configuration has no [imap] host: serve runs its embedded mail hub, which needs no check")
		return 2
	}
	ic, sc, err := daemon.MailServers(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return 2
	}
	warned := false
	ok := mailer.CheckMail(mailer.CheckConfig{IMAP: ic, SMTP: sc, Address: cfg.Service.Address, Wait: *wait,
		Maildir: cfg.Maildir.Path, TrustedAuthServ: cfg.Service.TrustedAuthServ,
		Unvouched: func(from string, ar []string) string { return game.Unvouched(cfg.Service.TrustedAuthServ, from, ar) }}, func(s mailer.CheckStep) {
		mark := "ok  "
		switch {
		case !s.OK:
			mark = "FAIL"
		case s.Warn:
			mark, warned = "WARN", true
		case s.Note:
			mark = "note"
		}
		fmt.Fprintf(stdout, "%s %-22s %s\n", mark, s.Name, s.Detail)
	})
	switch {
	case !ok:
		fmt.Fprintln(stdout, "check-mail: the mail set-up does not work yet; fix the lines marked FAIL (docs/deploy.md)")
		return 1
	case warned:
		fmt.Fprintln(stdout, "check-mail: serve --config", *path, "will run with these servers, but not as it should: read the lines marked WARN (docs/deploy.md)")
		return 0
	}
	fmt.Fprintln(stdout, "check-mail: all good; serve --config", *path, "will work with these servers")
	return 0
}
