package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/bottlepost/bottlepost/loadtest"
)

func init() {
	commands["bench"] = command{"bench [--games N] [--moves M] [--rate R] [--kills K] [--junk J] [--resign-after N] [--imap-server ADDR [--lmtp-server ADDR]] [--dir DIR]  load-test the service through real mail", runBench}
}

// daemonCommand runs `bottlepost serve --config PATH` with this very
// program; tests replace it (their binary is not bottlepost).
var daemonCommand = func(configPath string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return dieWithParent(exec.Command(self, "serve", "--config", configPath))
}

func runBench(args []string, stdout, stderr io.Writer) int {
	tuneGC()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg loadtest.Config
	fs.IntVar(&cfg.Games, "games", 100, "games played at once")
	fs.IntVar(&cfg.Moves, "moves", 0, "moves played in all (default 10 per game; with --kills, the least)")
	fs.Float64Var(&cfg.Rate, "rate", 0, "moves per second offered at most (0: each game moves as soon as answered)")
	fs.IntVar(&cfg.Kills, "kills", 0, "kill the daemon with SIGKILL this many times at random moments")
	fs.IntVar(&cfg.Junk, "junk", 0, "junk, oversized, malformed and spoofed mails mixed into the stream")
	fs.IntVar(&cfg.Resign, "resign-after", 0, "end each game by resignation after this many moves (with --kills the two players then play again); the final check then compares the ratings with their recomputation")
	fs.StringVar(&cfg.Variant, "variant", "chess", "the variant played (open variants only)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the players' moves")
	fs.IntVar(&cfg.Senders, "senders", 8, "SMTP connections the players submit through")
	imapAddr := fs.String("imap-server", "", "a real IMAP server (host:port on loopback, e.g. Dovecot) holding the service's mailbox; moves are delivered there with APPEND")
	imapUser := fs.String("imap-user", "games", "the service's account on --imap-server")
	imapPass := fs.String("imap-password", "", "its password")
	lmtpAddr := fs.String("lmtp-server", "", "with --imap-server: that server's LMTP listener (host:port); moves are delivered there, as a mail server hands them over, instead of with APPEND")
	timeout := fs.Duration("timeout", time.Minute, "longest wait for one reply")
	profile := fs.String("daemon-cpuprofile", "", "have the daemon write a CPU profile of its run to this file")
	ownProfile := fs.String("cpuprofile", "", "write a CPU profile of the load generator (players and mail hub) to this file")
	dir := fs.String("dir", "", "working directory for the daemon's data and log (default: a new temporary one, removed after a clean run)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return 2
	}
	cfg.Timeout = *timeout
	if *imapAddr != "" {
		cfg.IMAP = &loadtest.IMAPServer{Addr: *imapAddr, Username: *imapUser, Password: *imapPass, LMTP: *lmtpAddr}
	} else if *lmtpAddr != "" {
		fmt.Fprintln(stderr, "bottlepost: bench: --lmtp-server needs --imap-server (the same server's IMAP listener)")
		return 2
	}
	if *ownProfile != "" {
		f, err := os.Create(*ownProfile)
		if err != nil {
			fmt.Fprintf(stderr, "bottlepost: bench: %v\n", err)
			return 2
		}
		pprof.StartCPUProfile(f)
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	cfg.Dir = *dir
	keep := cfg.Dir != ""
	if !keep {
		d, err := os.MkdirTemp("", "bottlepost-bench-")
		if err != nil {
			fmt.Fprintf(stderr, "bottlepost: bench: %v\n", err)
			return 1
		}
		cfg.Dir = d
	}
	cfg.Spawn = daemonCommand
	cfg.CheckRatings = rebuildRatings
	if *profile != "" {
		abs, _ := filepath.Abs(*profile)
		cfg.Spawn = func(path string) *exec.Cmd {
			c := daemonCommand(path)
			c.Args = append(c.Args, "--cpuprofile", abs)
			return c
		}
	}
	cfg.Progress = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := loadtest.Run(ctx, cfg)
	if rep != nil {
		fmt.Fprint(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bottlepost: bench: %v\n(the daemon's data and log are kept in %s)\n", err, cfg.Dir)
		return 1
	}
	if !keep {
		os.RemoveAll(cfg.Dir)
	}
	return 0
}
