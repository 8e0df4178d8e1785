// Command bottlepost is the play-by-email server for chess variants and its
// command-line tools. It only wires: flags, configuration and the packages
// that do the work.
//
// Usage:
//
//	bottlepost serve                 run the mail service
//	bottlepost check-mail --config FILE  try the mail servers of a configuration
//	bottlepost variants              list the variants
//	bottlepost moves VARIANT [MOVE...]
//	bottlepost board VARIANT [--as white|black|referee|public] [MOVE...]
//	bottlepost perft VARIANT DEPTH [--fen FEN] [--divide] [MOVE...]
package main

import (
	"fmt"
	"io"
	"os"
	_ "time/tzdata" // deadlines in any player's zone, even where the system has no zone database
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	usage string
	run   func(args []string, stdout, stderr io.Writer) int
}

// commands maps each subcommand to its entry; files register theirs in init.
var commands = map[string]command{}

func init() {
	for name, c := range map[string]command{
		"serve":    {"serve [--config FILE] [--check-config]  run the play-by-email service", runServe},
		"variants": {"variants               list the variants: id and name", runVariants},
		"moves":    {"moves VARIANT [MOVE...]  the moves the side to move may submit", runMoves},
		"board":    {"board VARIANT [--as white|black|referee|public] [MOVE...]  the board as that viewer gets it", runBoard},
		"perft":    {"perft VARIANT DEPTH [--fen FEN] [--divide] [MOVE...]  count the game tree's leaves", runPerft},
	} {
		commands[name] = c
	}
}

// order is how usage lists the commands.
var order = []string{"serve", "check-mail", "demo", "deliver", "bench", "variants", "moves", "board", "perft", "export", "verify", "backup", "compact", "check-store", "hub-password"}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bottlepost: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bottlepost COMMAND [ARGS]")
	fmt.Fprintln(w)
	for _, name := range order {
		fmt.Fprintln(w, "  "+commands[name].usage)
	}
}
