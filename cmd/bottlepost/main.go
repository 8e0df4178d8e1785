// Command bottlepost is the play-by-email server for chess variants and its
// command-line tools. It only wires: flags, configuration and the packages
// that do the work.
//
// Usage:
//
//	bottlepost serve                 run the mail service
//	bottlepost variants              list the variants
//	bottlepost moves VARIANT [MOVE...]
//	bottlepost board VARIANT [--as white|black|referee|public] [MOVE...]
//	bottlepost perft VARIANT DEPTH [--fen FEN] [--divide] [MOVE...]
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	usage string
	run   func(args []string, stdout, stderr io.Writer) int
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"serve":    {"serve                  run the play-by-email service", runServe},
		"variants": {"variants               list the variants: id and name", runVariants},
		"moves":    {"moves VARIANT [MOVE...]  the moves the side to move may submit", runMoves},
		"board":    {"board VARIANT [--as white|black|referee|public] [MOVE...]  the board as that viewer gets it", runBoard},
		"perft":    {"perft VARIANT DEPTH [--fen FEN] [--divide] [MOVE...]  count the game tree's leaves", runPerft},
	}
}

var order = []string{"serve", "variants", "moves", "board", "perft"}

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

func runServe(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bottlepost: serve: the mail service is not built yet: the store (issue 3), "+
		"the game service (issue 4) and the mail daemon with its embedded mail hub (issue 5) are still missing.")
	fmt.Fprintln(stderr, "What works today: bottlepost variants | moves | board | perft (see README.md).")
	return 1
}
