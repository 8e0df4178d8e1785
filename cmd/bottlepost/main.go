// Command bottlepost is the play-by-email server for chess variants and its
// command-line tools. It only wires: flags, configuration and the packages
// that do the work. "bottlepost help" prints every command with its flags.
//
// Usage:
//
//	bottlepost serve         run the mail service (no config: the embedded hub on loopback)
//	bottlepost check-mail    try the mail servers of a configuration
//	bottlepost demo          play a short game by mail through the embedded hub
//	bottlepost deliver       read one message on stdin into the service's Maildir (MTA pipe)
//	bottlepost bench         load test: players by the thousand against a daemon process
//	bottlepost variants      list the variants
//	bottlepost moves         the moves the side to move may submit
//	bottlepost board         the board as a viewer gets it
//	bottlepost perft         count the game tree's leaves
//	bottlepost export        write a finished game as PGN with its proofs
//	bottlepost verify        check an exported game against receipts, offline
//	bottlepost backup        copy the database while the service runs
//	bottlepost compact       write a compacted copy of the database
//	bottlepost check-store   check the database: pages, games, chains
//	bottlepost ratings       a rating pool's players; --rebuild checks them against the archive
//	bottlepost hub-password  the embedded hub's password of an account
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
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
var order = []string{"serve", "check-mail", "demo", "deliver", "bench", "variants", "moves", "board", "perft", "export", "verify", "backup", "compact", "check-store", "ratings", "hub-password"}

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
	for _, name := range listed() {
		fmt.Fprintln(w, "  "+commands[name].usage)
	}
}

// listed is every registered command: those of order first, then any other
// in alphabetical order, so that a new command is never left out.
func listed() []string {
	names := slices.Clone(order)
	var rest []string
	for name := range commands {
		if !slices.Contains(order, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}
