package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/mailer"
)

// exTempFail is sysexits' EX_TEMPFAIL: an MTA keeps the message and retries.
const exTempFail = 75

func init() {
	commands["demo"] = command{"demo                   play a short game by mail through the embedded hub, printing the mails", runDemo}
	commands["deliver"] = command{"deliver [--config FILE]  read one message on stdin into the service's Maildir (for an MTA pipe)", runDeliver}
}

func runDemo(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: bottlepost demo")
		return 2
	}
	if err := daemon.Demo(stdout); err != nil {
		fmt.Fprintln(stderr, "bottlepost: demo:", err)
		return 1
	}
	return 0
}

// stdin is the input of deliver; a variable for tests.
var stdin io.Reader = os.Stdin

func runDeliver(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("deliver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "the configuration file; its [maildir] path receives the message")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		return 2
	}
	// Only [service], [maildir] and [limits] are read: no password file,
	// so an unprivileged pipe user can run it (see docs/deploy.md).
	cfg, err := config.LoadDeliver(*path)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: deliver:", err)
		return exTempFail
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, cfg.Limits.MaxMessageBytes+1))
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: deliver:", err)
		return exTempFail
	}
	if int64(len(raw)) > cfg.Limits.MaxMessageBytes {
		fmt.Fprintf(stderr, "bottlepost: deliver: the message is larger than limits.max_message_bytes (%d)\n", cfg.Limits.MaxMessageBytes)
		return 1 // permanent: the MTA bounces it
	}
	if _, err := mailer.DeliverMaildir(cfg.Maildir.Path, raw); err != nil {
		fmt.Fprintln(stderr, "bottlepost: deliver:", err)
		return exTempFail
	}
	return 0
}
